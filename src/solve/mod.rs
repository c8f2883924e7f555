//! Solving a board end to end: what the front ends call.
//!
//! [`solve`] takes a [`Grid`] and a [`Setup`] (game, rules, search options), picks the
//! engine the board fits in ([`dispatch`]: a one-word bitboard up to 64 cells, wider ones
//! up to [`MAX_CELLS`]), runs the search the objective calls for, and returns a [`Report`]
//! with the solution step by step, whether it is proven optimal, the best lower bound and,
//! when the search ended before it had finished, why ([`Stopped`]: the time limit, the
//! memory budget, or the user's interrupt through the stop flag). Progress ([`Progress`]) is reported through a callback as it happens.
//!
//! - fewest moves (`fewest_moves.rs`): a greedy solution in milliseconds, then the anytime
//!   search ([`crate::search::anytime`]) and IDA* ([`crate::search::ida_star`]) side by
//!   side, sharing the best solution and the proven lower bound both ways, until the
//!   optimum is proven or time runs out (with `no_proof`, the anytime search alone);
//! - fewest tiles (Clickomania) and highest score (SameGame) (`best_value.rs`): an exact
//!   search over positions on small boards; on boards too big for it, the anytime search
//!   until the time limit.
//!
//! Under SameGame and Clickomania rules (any group, columns closing left) on boards up to
//! 16×16, the anytime search of every objective is [`crate::samegame`]'s beam search (or
//! its NRPA, with [`crate::search::anytime::Method::Nrpa`]: `fast.rs`); a fewest-moves
//! search that finds no line clearing the board answers with the fewest tiles left
//! (`click.rs`).
//!
//! [`replay`] plays a given move list (the `check` command) and [`generate`] makes random
//! boards.

mod best_value;
pub mod budget;
mod click;
mod engine;
mod fast;
mod fewest_moves;
mod replay;
mod setup;

pub use best_value::{DEFAULT_ANYTIME_LIMIT, EXACT_POSITIONS, EXACT_TILES};
pub use engine::{dispatch, WithEngine, MAX_CELLS};
pub use fast::{SEEDED_PART, SEEDED_PENALTY, SEEDED_RUNS, SEEDED_SHARE};
pub use fewest_moves::{
    CROSSING_REACH_AFTER, PROOF_ANYTIME_MIN, PROOF_ANYTIME_WORK, PROVABLE_CELLS,
};
pub use replay::{has_moves, replay};
pub use setup::Setup;

pub use crate::generate::generate;
pub use crate::report::{Played, Progress, Replayed, Report, Step, Stopped};

use crate::bits::Bits;
use crate::click::{Click, ClickBoard, ClickGame};
use crate::grid::{BoardError, Grid};
use crate::rules::Game;

/// Whether a board of `width × height` fits an engine of `game` (Flood-It's or a click
/// game's), or the error a solve of such a board gives.
pub fn check_size(game: Game, width: usize, height: usize) -> Result<(), BoardError> {
    if game == Game::Floodit {
        crate::floodit::check_size(width, height)
    } else {
        engine::check_click_size(width, height)
    }
}

/// What a click-game search for one objective ended with.
struct Searched {
    /// The best line found.
    moves: Vec<Click>,
    /// Proven optimal.
    proven: bool,
    /// The best lower bound on the moves (fewest moves only; 0 otherwise).
    lower: u32,
    /// Positions IDA* expanded.
    nodes: u64,
    /// Why the search ended before it had finished, if it did.
    stopped: Option<Stopped>,
    /// The anytime search's beams reached their memory, and NRPA went on in their place
    /// ([`crate::search::anytime::Control::filled`]).
    filled: bool,
}

/// Solves a board under `setup`, reporting progress to `on_progress`: Flood-It with its
/// own solver ([`crate::floodit::solve`]), the click games with `click::solve`.
pub fn solve(
    grid: &Grid,
    setup: &Setup,
    on_progress: &mut dyn FnMut(Progress),
) -> Result<Report, BoardError> {
    // the time to the first solution, for the report
    let mut first = None;
    let mut on_progress = |p: Progress| {
        if let Progress::Solution { elapsed, .. } = &p {
            first.get_or_insert(elapsed.as_millis() as u64);
        }
        on_progress(p)
    };
    let mut report = solve_board(grid, setup, &mut on_progress)?;
    report.first_ms = first;
    report.played = if setup.game == Game::Floodit {
        let (x, y) = setup.floodit_start_on(grid);
        Played {
            start: Some(format!("{x},{y}")),
            ..Played::default()
        }
    } else {
        Played {
            clickable: Some(setup.rules.clickable),
            min_group: Some(setup.rules.min_group),
            sideways: Some(setup.rules.sideways),
            start: None,
        }
    };
    Ok(report)
}

/// [`solve`] without the time to the first solution.
fn solve_board(
    grid: &Grid,
    setup: &Setup,
    on_progress: &mut dyn FnMut(Progress),
) -> Result<Report, BoardError> {
    if setup.game == Game::Floodit {
        let start = setup.floodit_start_on(grid);
        let mut report = crate::floodit::solve(grid, start, &setup.search, on_progress)?;
        // Flood-It's A* finds duplicates by comparing whole flooded sets, never by a hash
        // alone: its bounds are certified as they are.
        report.certified = setup.certify.then_some(true);
        return Ok(report);
    }
    struct Run<'a> {
        grid: &'a Grid,
        setup: &'a Setup,
        on_progress: &'a mut dyn FnMut(Progress),
    }
    impl WithEngine for Run<'_> {
        type Output = Report;
        fn run<B: Bits>(self, game: ClickGame<B>, board: ClickBoard<B>) -> Report {
            let report = click::solve(&game, &board, self.grid, self.setup, self.on_progress);
            // The edge memos are many pages, which take milliseconds to hand back to the
            // system: the answer need not wait for them. (Where no thread can be had, the
            // closure, and the game with it, is dropped here.)
            let _ = std::thread::Builder::new().spawn(move || drop(game));
            report
        }
    }
    dispatch(
        grid,
        setup.rules,
        budget::edge_part(setup.search.memory),
        Run {
            grid,
            setup,
            on_progress,
        },
    )
}
