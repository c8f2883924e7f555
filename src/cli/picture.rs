//! `tumble read` (a board from a screenshot) and `tumble render` (a board as a picture).

use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;

use super::args::SizeArgs;
use tumble::input::{
    dated_board, read_board_text, read_image_board, setup_from, InputError, RuleChoices,
};
use tumble::picture::{check_png_output, overlay, save_board, write_png, Style};
use tumble::rules::Game;

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

/// Runs `tumble render`: writes the board (or NRK Former's board of `date`) as a PNG or SVG
/// picture.
pub fn render(
    board: Option<&str>,
    date: Option<&str>,
    mut rules: RuleChoices,
    output: &Path,
    tile: u32,
) -> Result<ExitCode> {
    let text = match (board, date) {
        (_, Some(d)) => dated_board(d, &mut rules)?,
        (Some(b), None) => read_board_text(b)?,
        (None, None) => anyhow::bail!("render needs a board or --date"),
    };
    let p = setup_from(&text, &rules)?;
    let style = style(tile)?;
    save_board(output, &p.grid, Some(p.setup.game), &style).map_err(|err| InputError::Picture {
        path: output.display().to_string(),
        err,
    })?;
    Ok(ExitCode::SUCCESS)
}

/// The picture style for tiles of `tile` pixels.
pub fn style(tile: u32) -> Result<Style> {
    if !(4..=512).contains(&tile) {
        anyhow::bail!("--tile must be from 4 to 512 pixels, not {tile}");
    }
    Ok(Style::with_tile(tile))
}
