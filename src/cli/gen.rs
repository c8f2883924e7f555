//! `tumble gen`: prints a reproducible random board, or NRK Former's board of a day.

use std::process::ExitCode;

use anyhow::Result;

use tumble::input::{dated_board, gen_board, RuleChoices};
use tumble::rules::Game;

/// Runs `tumble gen`.
pub fn run(
    game: Game,
    date: Option<String>,
    width: Option<usize>,
    height: Option<usize>,
    colours: Option<usize>,
    seed: u64,
) -> Result<ExitCode> {
    let text = match date {
        Some(d) => {
            let mut rules = RuleChoices {
                game: Some(game),
                ..RuleChoices::default()
            };
            dated_board(&d, &mut rules)?
        }
        None => gen_board(game, width, height, colours, seed)?.to_text(),
    };
    println!("{}", text.trim_end());
    Ok(ExitCode::SUCCESS)
}
