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

use tumble::click::{Click, ClickGame};
use tumble::grid::Grid;
use tumble::rules::Game;
use tumble::search::{ida_star, SearchOptions};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 {
        eprintln!("usage: prove GAME THREADS MEMORY_MIB BOARD[:OPTIMUM]...");
        std::process::exit(2);
    }
    let game = match args[0].as_str() {
        "former" => Game::Former,
        "figure" => Game::Figure,
        "dust" => Game::Dust,
        other => panic!("prove: a click game with fewest moves, not {other}"),
    };
    let rules = game.rules().expect("a click game");
    let threads: usize = args[1].parse().expect("THREADS is a number");
    let memory: usize = args[2].parse().expect("MEMORY_MIB is a number");
    for arg in &args[3..] {
        let (board, known) = match arg.split_once(':') {
            Some((b, k)) => (b, Some(k.parse::<usize>().expect("OPTIMUM is a number"))),
            None => (arg.as_str(), None),
        };
        let grid: Grid = board.replace(',', "\n").parse().expect("a board");
        let (puzzle, start) = ClickGame::<u64>::new(&grid, rules).expect("at most 64 cells");
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
