//! `tumble read` (a board from a screenshot) and `tumble render` (a board as a picture).

use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;

use super::args::SizeArgs;
use tumble::check::check;
use tumble::input::{read_image_board, replay_input, setup_from, BoardFrom, InputError};
use tumble::picture::{
    check_output, check_png_output, fitting_style, overlay, save_board, save_steps, steps_size,
    write_png, Style,
};
use tumble::rules::{Game, RuleChoices};

/// Runs `tumble read`: prints the board read, rows top to bottom.
pub fn read(
    image: &str,
    game: Option<Game>,
    size: &SizeArgs,
    overlay_to: Option<&Path>,
) -> Result<ExitCode> {
    let picture_error = |out: &Path, err| InputError::Picture {
        path: out.display().to_string(),
        err,
    };
    if let Some(out) = overlay_to {
        check_png_output(out).map_err(|err| picture_error(out, err))?;
    }
    let (img, reading) = read_image_board(image, &size.options(game))?;
    if let Some(out) = overlay_to {
        write_png(out, &overlay(&img, &reading)).map_err(|err| picture_error(out, err))?;
    }
    if let Some(note) = &reading.note {
        eprintln!("note: {note}");
    }
    println!("{}", reading.grid.to_text().trim_end());
    Ok(ExitCode::SUCCESS)
}

/// What `tumble render` draws: a board (or NRK Former's board of `date`), and maybe moves
/// on it.
pub struct Drawn<'a> {
    pub board: Option<&'a str>,
    pub date: Option<&'a str>,
    pub moves: Option<&'a str>,
}

/// Runs `tumble render`: writes the board, or its moves step by step, as a PNG or SVG
/// picture. An illegal move is an error naming it.
pub fn render(
    drawn: Drawn,
    mut rules: RuleChoices,
    output: &Path,
    tile: Option<u32>,
) -> Result<ExitCode> {
    let fixed = tile.map(style).transpose()?;
    let pick = |size: &dyn Fn(&Style) -> (u32, u32)| chosen_style(fixed, size);
    let picture_error = |err| InputError::Picture {
        path: output.display().to_string(),
        err,
    };
    check_output(output).map_err(picture_error)?;
    if drawn.board == Some("-") && drawn.moves == Some("-") {
        return Err(InputError::BothStdin.into());
    }
    let board = match (drawn.board, drawn.date) {
        (_, Some(d)) => BoardFrom::Date(d),
        (Some(b), None) => BoardFrom::Arg(b),
        (None, None) => BoardFrom::Answer,
    };
    let Some(moves) = drawn.moves else {
        let Some(text) = board.text(&mut rules)? else {
            anyhow::bail!("render needs a board, --date, or --moves");
        };
        let p = setup_from(&text, &rules)?;
        let grid = &p.grid;
        let style = pick(&|s| s.size(grid.width(), grid.height()));
        save_board(output, grid, Some(p.setup.game), &style).map_err(picture_error)?;
        return Ok(ExitCode::SUCCESS);
    };
    let (p, moves) = replay_input(board, moves, rules)?;
    let grid = &p.grid;
    let checked = check(grid, &p.setup, &moves)?;
    if let Some((n, why)) = checked.illegal {
        anyhow::bail!("illegal move {n}: {why}");
    }
    let (boards, picks) = checked.panels(grid, &p.setup);
    let style = pick(&|s| steps_size(&boards, s));
    save_steps(output, &boards, &picks, Some(p.setup.game), &style).map_err(picture_error)?;
    Ok(ExitCode::SUCCESS)
}

/// The style asked for (`--tile`), or else the largest tile that keeps a picture of `size`
/// within bounds ([`fitting_style`]; the smallest where none does).
pub fn chosen_style(fixed: Option<Style>, size: &dyn Fn(&Style) -> (u32, u32)) -> Style {
    fixed.unwrap_or_else(|| fitting_style(size).unwrap_or_else(|smallest| smallest))
}

/// The picture style for tiles of `tile` pixels.
pub fn style(tile: u32) -> Result<Style> {
    if !(4..=512).contains(&tile) {
        anyhow::bail!("--tile must be from 4 to 512 pixels, not {tile}");
    }
    Ok(Style::with_tile(tile))
}
