//! `tumble gen`: prints a reproducible random board, NRK Former's board of a day, or a board
//! set of either.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;

use super::args::GenArgs;
use tumble::input::{dated_board, dated_entries, gen_board, gen_entries, seed_range};
use tumble::rules::RuleChoices;

/// Runs `tumble gen`.
pub fn run(args: GenArgs) -> Result<ExitCode> {
    let mut rules = RuleChoices {
        game: Some(args.game),
        ..RuleChoices::default()
    };
    let set = if let Some(range) = &args.dates {
        dated_entries(range, &mut rules)?
    } else if let Some(seeds) = &args.seeds {
        let seeds = seed_range(seeds)?;
        gen_entries(args.game, args.width, args.height, args.colours, seeds)?
    } else {
        let text = match &args.date {
            Some(d) => dated_board(d, &mut rules)?,
            None => {
                gen_board(args.game, args.width, args.height, args.colours, args.seed)?.to_text()
            }
        };
        println!("{}", text.trim_end());
        return Ok(ExitCode::SUCCESS);
    };
    let mut out = std::io::stdout().lock();
    for entry in &set {
        writeln!(out, "{}", entry.to_line())?;
    }
    Ok(ExitCode::SUCCESS)
}
