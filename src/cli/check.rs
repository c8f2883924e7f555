//! `tumble check`: prints the board, each move and the board after it, then how it ends.

use std::process::ExitCode;

use anyhow::Result;

use super::count;

use tumble::check::{check, End};
use tumble::input::{replay_input, BoardFrom, InputError};
use tumble::rules::RuleChoices;

/// Runs `tumble check` on `args` (the board and the moves, with `date` the moves alone, or
/// `solve --json`'s answer alone): exit 1 at an illegal move, else 0.
pub fn run(args: &[String], date: Option<String>, rules: RuleChoices) -> Result<ExitCode> {
    if matches!(args, [board, moves] if board == "-" && moves == "-") {
        return Err(InputError::BothStdin.into());
    }
    let (board, moves) = match (&date, args) {
        (Some(d), [moves]) => (BoardFrom::Date(d), moves),
        (None, [board, moves]) => (BoardFrom::Arg(board), moves),
        (None, [answer]) => (BoardFrom::Answer, answer),
        (Some(_), _) => return Err(InputError::BoardAndDate.into()),
        (None, _) => anyhow::bail!(
            "check needs a board and the moves (or --date and the moves, or solve --json's \
             answer alone)"
        ),
    };
    // (moves that do not read as moves are an error before anything is printed)
    let (p, moves) = replay_input(board, moves, rules)?;
    let c = check(&p.grid, &p.setup, &moves)?;
    if let Some(n) = &p.note {
        println!("{n}");
    }
    println!("{}", p.grid);
    for (i, (step, after)) in c.steps.iter().enumerate() {
        println!();
        println!("{:>2}. {step}", i + 1);
        println!("{after}");
    }
    println!();
    if let Some((n, why)) = &c.illegal {
        println!("illegal move {n}: {why}");
        return Ok(ExitCode::from(1));
    }
    let n = count(c.steps.len() as u64, "move");
    match c.end {
        Some(End::OneColour) => println!("solved in {n}"),
        Some(End::ColoursLeft(k)) => {
            println!("not solved: {} left after {n}", count(k as u64, "colour"))
        }
        Some(End::Cleared) => println!("cleared in {n}"),
        Some(End::NotCleared { tiles, moves_left }) => println!(
            "not cleared: {} left after {n}{}",
            count(tiles as u64, "tile"),
            if moves_left { "" } else { " (no moves left)" }
        ),
        None => {}
    }
    if let Some(s) = c.score {
        println!("score: {s}");
    }
    Ok(ExitCode::SUCCESS)
}
