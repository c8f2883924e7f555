//! The exact search alone (IDA*, no anytime search beside it), for measuring the proof:
//! nodes and time per board.
//!
//! ```sh
//! cargo run --release --example prove -- GAME THREADS MEMORY_MIB BOARD[:OPTIMUM]...
//! ```
//!
//! A board with `:OPTIMUM` gets a solution of that length as known in advance (as the
//! anytime search's answer is in `tumble solve`), so the search stops once its lower bound
//! reaches it, without a last, successful iteration. The board is inline, rows top to
//! bottom separated by commas.
use std::time::Instant;

use clap::builder::PossibleValuesParser;
use clap::Parser;

use tumble::click::{Click, ClickGame};
use tumble::grid::Grid;
use tumble::rules::Game;
use tumble::search::{ida_star, SearchOptions};

/// IDA* alone on click-game boards (fewest moves): nodes and time per board.
#[derive(Parser)]
#[command(name = "prove")]
struct Args {
    /// The game.
    #[arg(value_parser = PossibleValuesParser::new(["former", "figure", "dust"]))]
    game: String,
    /// Threads of the search.
    threads: usize,
    /// Memory for the transposition table, in MiB.
    memory_mib: usize,
    /// How far below the limit the edge bound's crossing games are searched from the
    /// start (`tumble solve` reaches further after a while: `CROSSING_REACH_AFTER`).
    #[arg(long, default_value_t = 0)]
    crossing_reach: u32,
    /// Boards, inline (rows top to bottom, commas between), each with `:OPTIMUM` when a
    /// solution of that length is to be known in advance.
    #[arg(required = true, value_parser = board_arg)]
    boards: Vec<(String, Option<usize>)>,
}

/// `BOARD[:OPTIMUM]`.
fn board_arg(arg: &str) -> Result<(String, Option<usize>), String> {
    match arg.split_once(':') {
        Some((b, k)) => {
            let k = k
                .parse()
                .map_err(|e| format!("OPTIMUM {k:?} is not a number: {e}"))?;
            Ok((b.to_string(), Some(k)))
        }
        None => Ok((arg.to_string(), None)),
    }
}

fn main() {
    let args = Args::parse();
    let game: Game = args.game.parse().expect("one of the games offered");
    let rules = game.rules().expect("a click game");
    let (threads, memory) = (args.threads, args.memory_mib);
    for (board, known) in &args.boards {
        let grid: Grid = board.replace(',', "\n").parse().expect("a board");
        let (puzzle, start) = ClickGame::<u64>::new(&grid, rules).expect("at most 64 cells");
        puzzle.reach_crossings(args.crossing_reach);
        let opts = SearchOptions {
            threads,
            memory: memory << 20,
            ..SearchOptions::default()
        };
        // Only the length of a known solution matters to the search.
        let stand_in = Click {
            cell: 0,
            colour: 1,
            size: 1,
            x0: 0,
            x1: 0,
        };
        let t = Instant::now();
        let out = ida_star(
            &puzzle,
            &start,
            &opts,
            known.map(|k| vec![stand_in; k]),
            &mut |_| {},
        );
        println!(
            "{} moves, proven {}, nodes {}, time {:.3} s",
            out.best.map_or(0, |m| m.len()),
            out.proven,
            out.nodes,
            t.elapsed().as_secs_f64()
        );
    }
}
