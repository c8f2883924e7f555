//! The `tumble` command line: a thin front end over the library. It parses the arguments
//! (clap, in [`cli::args`]), calls the library and prints:
//!
//! - `tumble solve [BOARD]` solves a board (with no board, the dust board of the seed
//!   article), printing each improvement as it is found, then the answer step by step;
//! - `tumble check BOARD MOVES` replays a move list;
//! - `tumble gen` prints a reproducible random board;
//! - `tumble bench FILE` solves a set of boards and prints totals, `tumble merge FILES`
//!   merges the JSON lines of runs over the shards of a set;
//! - `tumble read IMAGE` reads a board from a screenshot, `tumble render` draws one;
//! - `tumble serve` serves the web page and its JSON API.
//!
//! Bad input is one line on stderr and exit code 2.

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Parser;

mod cli;

use cli::args::{Cli, Command};

/// An error message on one line: clap's usage and hint lines dropped, the rest joined.
fn one_line(e: &str) -> String {
    e.lines()
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && !l.starts_with("For more information") && !l.starts_with("Usage:")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn main() -> ExitCode {
    // Die quietly when the reader of our output goes away (`tumble solve | head`), as
    // command-line tools do, instead of panicking on the failed write.
    #[cfg(unix)]
    // SAFETY: restoring the default action of a signal at start-up, before any threads.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind::*;
            if matches!(
                e.kind(),
                DisplayHelp | DisplayVersion | DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            eprintln!("{}", one_line(&e.render().to_string()));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Solve {
            board,
            date,
            image,
            size,
            rules,
            search,
            json,
            render,
            tile,
        } => cli::solve::run(
            cli::solve::Input { board, date, image },
            &size,
            rules.into(),
            search.into(),
            json,
            render.as_deref(),
            tile,
        ),
        Command::Read {
            image,
            game,
            size,
            overlay,
        } => cli::picture::read(&image, game, &size, overlay.as_deref()),
        Command::Render {
            board,
            date,
            moves,
            rules,
            output,
            tile,
        } => cli::picture::render(
            cli::picture::Drawn {
                board: board.as_deref(),
                date: date.as_deref(),
                moves: moves.as_deref(),
            },
            rules.into(),
            &output,
            tile,
        ),
        Command::Check { args, date, rules } => cli::check::run(&args, date, rules.into()),
        Command::Gen(args) => cli::gen::run(args),
        Command::Bench(args) => cli::bench::run(args, std::io::stderr().is_terminal()),
        Command::Merge(args) => cli::merge::run(args),
        #[cfg(feature = "server")]
        Command::Serve(args) => cli::serve::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            let msg = format!("{e:#}");
            eprintln!("error: {}", one_line(&msg));
            ExitCode::from(2)
        }
    }
}
