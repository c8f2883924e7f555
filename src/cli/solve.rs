//! `tumble solve`: prints the board, each improvement as it comes, then the answer. On
//! Ctrl-C it prints the best found so far and exits with code 130 ([`super::stop`]).

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;

use super::args::SizeArgs;
use super::count;
use tumble::check::answer_panels;
use tumble::input::{
    dated_board, read_board_text, read_image_board, setup_from, InputError, SearchChoices,
};
use tumble::picture::{check_output, save_steps, steps_size};
use tumble::rules::{Game, Objective, RuleChoices};
use tumble::solve::{solve, Progress, Report};

/// The dust board of the seed article "Depth first search puzzle solving with heuristics".
pub const EXAMPLE: &str = "GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG";

fn secs(d: Duration) -> String {
    format!("{:.3}s", d.as_secs_f64())
}

/// Prints one improvement.
fn print_progress(p: Progress, objective: Objective) {
    match p {
        Progress::Solution {
            moves,
            tiles_left,
            score,
            elapsed,
        } => {
            let tiles = if tiles_left > 0 || objective == Objective::Tiles {
                format!(", {} left", count(tiles_left as u64, "tile"))
            } else {
                String::new()
            };
            let moves = count(moves as u64, "move");
            if objective == Objective::Score {
                println!(
                    "[{}] solution: score {score}, {moves}{tiles}",
                    secs(elapsed)
                );
            } else {
                println!("[{}] solution: {moves}{tiles}", secs(elapsed));
            }
        }
        Progress::LowerBound { bound, elapsed } => {
            println!("[{}] lower bound: {bound}", secs(elapsed))
        }
    }
    let _ = std::io::stdout().flush();
}

/// Prints the answer: what was found (and why the search stopped early, under a memory
/// budget of `memory` bytes), then each move and the board after it.
fn print_report(r: &Report, memory: usize) {
    let tiles = r.objective == Objective::Tiles || r.tiles_left > 0;
    let what = if tiles {
        format!(
            "{} left in {}",
            count(r.tiles_left as u64, "tile"),
            count(r.length as u64, "move")
        )
    } else {
        count(r.length as u64, "move")
    };
    if let Some(n) = &r.note {
        println!("note: {n}");
    }
    if r.objective == Objective::Score {
        let what = format!("score {} ({what})", r.score);
        if r.optimal {
            println!("optimal: {what} (proven)");
        } else {
            println!("best found: {what} (not proven optimal)");
        }
    } else {
        if r.optimal {
            println!("optimal: {what} (proven)");
        } else if tiles {
            println!("best found: {what} (not proven optimal)");
        } else {
            println!(
                "best found: {what}, lower bound {} (not proven optimal)",
                r.lower_bound
            );
        }
        if r.game == "samegame" {
            println!("score: {}", r.score);
        }
    }
    match r.certified {
        Some(true) => println!(
            "certified: the bound {} was proven again with every position stored whole",
            r.lower_bound
        ),
        Some(false) => println!("certified: NO, the exact search did not confirm the bound"),
        None => {}
    }
    if let Some(why) = r.stopped {
        println!("{}", super::stop::line(why, memory));
    }
    println!(
        "nodes: {}, time: {:.3}s",
        r.nodes,
        r.elapsed_ms as f64 / 1000.0
    );
    for (i, (step, board)) in r.moves.iter().zip(&r.boards).enumerate() {
        println!();
        println!("{:>2}. {step}", i + 1);
        println!("{board}");
    }
}

/// Where the board comes from: the argument, a day's Former board, or a screenshot (at
/// most one; none gives the built-in example).
pub struct Input {
    pub board: Option<String>,
    pub date: Option<String>,
    pub image: Option<String>,
}

/// Runs `tumble solve`: exit 0 with an answer, 1 when nothing was found, 130 after Ctrl-C.
pub fn run(
    input: Input,
    size: &SizeArgs,
    mut rules: RuleChoices,
    search: SearchChoices,
    json: bool,
    render: Option<&Path>,
    tile: Option<u32>,
) -> Result<ExitCode> {
    // (a picture that cannot be written is said before the search, not after it)
    let picture_error = |path: &Path, err| InputError::Picture {
        path: path.display().to_string(),
        err,
    };
    let fixed = tile.map(super::picture::style).transpose()?;
    if let Some(path) = render {
        check_output(path).map_err(|err| picture_error(path, err))?;
    }
    if let (None, Some(option)) = (&input.image, size.first_given()) {
        anyhow::bail!(
            "{option} describes a screenshot's board: give it with --image (a board \
             written as text, or a day's board, shows its own)"
        );
    }
    let text = match (&input.board, &input.date, &input.image) {
        (Some(b), _, _) => read_board_text(b)?,
        (None, Some(d), _) => dated_board(d, &mut rules)?,
        (None, None, Some(i)) => {
            let reading = read_image_board(i, &size.options(rules.game))?.1;
            if let Some(note) = &reading.note {
                eprintln!("note: {note}");
            }
            reading.grid.to_text()
        }
        (None, None, None) => {
            rules.game.get_or_insert(Game::Dust);
            EXAMPLE.to_string()
        }
    };
    let mut p = setup_from(&text, &rules)?;
    search.apply(&mut p.setup)?;
    p.setup.search.stop = super::stop::install();
    p.setup.search.start = std::time::Instant::now();
    let (grid, setup) = (&p.grid, &p.setup);
    if !json {
        if let Some(n) = &p.note {
            println!("{n}");
        }
        println!(
            "{} {}×{}, {}:",
            setup.game,
            grid.width(),
            grid.height(),
            count(grid.colours() as u64, "colour")
        );
        println!("{grid}");
        println!();
    }
    let objective = setup.rules.objective;
    let report = solve(grid, setup, &mut |p| {
        if !json {
            print_progress(p, objective);
        }
    })?;
    if let Some(path) = render {
        let (boards, picks) = answer_panels(grid, setup, &report.moves, &report.boards);
        let style = super::picture::chosen_style(fixed, &|s| steps_size(&boards, s));
        save_steps(path, &boards, &picks, Some(setup.game), &style)
            .map_err(|err| picture_error(path, err))?;
    }
    if json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        println!();
        print_report(&report, setup.search.memory);
    }
    if super::stop::interrupted(&setup.search.stop) {
        return Ok(ExitCode::from(super::stop::INTERRUPTED));
    }
    let solved = report.length > 0 || report.tiles_left == 0 || report.optimal;
    Ok(if solved {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
