//! A click-game board solved for its objective: [`solve`] picks the search
//! ([`fewest_moves`] or [`best_value`]), falls back to the fewest tiles left when the
//! board cannot be cleared, and fills the [`Report`], with why the search stopped early if
//! it did (as the search that gave the answer says).

use crate::bits::Bits;
use crate::click::{Click, ClickBoard, ClickGame};
use crate::grid::Grid;
use crate::objective::Objectived;
use crate::puzzle::{Puzzle, INFINITE};
use crate::report::{Played, Progress, Report, Step};
use crate::rules::{Clickable, Objective, Sideways};
use crate::samegame;

use super::best_value::best_value;
use super::fewest_moves::{fewest_moves, PROVABLE_CELLS};
use super::{Searched, Setup};

/// Solves a click-game board under `setup`, reporting progress to `on_progress`.
pub(super) fn solve<B: Bits>(
    game: &ClickGame<B>,
    board: &ClickBoard<B>,
    grid: &Grid,
    setup: &Setup,
    on_progress: &mut dyn FnMut(Progress),
) -> Report {
    // (the column runs tell as well as the whole bound, and cost nothing to compute)
    let clearable = game.runs_bound(board) < INFINITE;
    let mut objective = match setup.rules.objective {
        Objective::Moves if clearable => Objective::Moves,
        Objective::Moves => Objective::Tiles,
        o => o,
    };
    let mut note = (setup.rules.objective == Objective::Moves && !clearable).then(|| {
        "the board cannot be cleared (a colour has fewer tiles than the smallest group): \
         the answer is the fewest tiles left"
            .to_string()
    });
    // The anytime search ranks and prunes with the narrow edge slices only: the wide ones
    // cost more per position than their sharper bound brings a beam (IDA*, whose pruning
    // they sharpen, keeps them).
    let ranking = game.with_narrow_edges();
    let scored = Objectived::new(&ranking, objective);
    // SameGame and Clickomania rules on a board the byte engine holds: its beam search (or
    // with `--anytime nrpa` its NRPA) is the anytime search, for every objective.
    let fast = (setup.rules.clickable == Clickable::Any && setup.rules.sideways == Sideways::Left)
        .then(|| samegame::Board::from_grid(grid))
        .flatten();
    let mut found = match objective {
        Objective::Moves => {
            let provable = grid.width() * grid.height() <= PROVABLE_CELLS;
            fewest_moves(game, &scored, board, setup, provable, fast, on_progress)
        }
        Objective::Tiles | Objective::Score => best_value(&scored, board, setup, fast, on_progress),
    };
    if objective == Objective::Moves && found.lower >= INFINITE {
        // The search proved that no line of play clears the board (the bound could not
        // tell beforehand): the answer is the fewest tiles left, as for Clickomania.
        objective = Objective::Tiles;
        let tiles = Objectived::new(&ranking, objective);
        let nodes = found.nodes;
        found = best_value(&tiles, board, setup, fast, on_progress);
        found.nodes += nodes;
        note = Some("the board cannot be cleared: the answer is the fewest tiles left".into());
    }
    let Searched {
        moves,
        proven,
        lower,
        nodes,
        stopped,
        filled,
    } = found;
    if objective == Objective::Moves
        && !moves.is_empty()
        && crate::search::replay(game, board, &moves).is_some_and(|e| !game.is_solved(&e))
    {
        // No line found clears the board (SameGame rules; it may still be clearable): the
        // line leaving the fewest tiles, as for Clickomania.
        objective = Objective::Tiles;
        note = Some(
            "no line clearing the board was found: the answer is the fewest tiles left found"
                .into(),
        );
    }
    let mut report = build_report(game, board, grid, setup, objective, &moves);
    report.optimal = proven;
    report.lower_bound = if objective == Objective::Moves {
        lower
    } else {
        0
    };
    report.nodes = nodes;
    report.stopped = stopped;
    if note.is_none() && objective == Objective::Tiles && proven && report.tiles_left > 0 {
        note = Some(format!(
            "the board cannot be cleared: {} tiles are left at best",
            report.tiles_left
        ));
    }
    if filled {
        let filled = format!(
            "the anytime search's beams filled their memory (--memory {} MiB): NRPA went on \
             within it",
            setup.search.memory >> 20
        );
        note = Some(match note {
            Some(n) => format!("{n}; {filled}"),
            None => filled,
        });
    }
    report.note = note;
    if setup.certify {
        report.certified = Some(certify(game, board, setup, &report));
        // the time to the answer includes its certificate
        report.elapsed_ms = setup.search.start.elapsed().as_millis() as u64;
    }
    report
}

/// Proves `report`'s lower bound again with the exact memo ([`crate::search::certify`]):
/// true when the exact search reaches the bound and finds no shorter line. The values of
/// the fewest-tiles and score searches come from a search that keys on whole positions
/// already, so a proven value there is certified as it is.
fn certify<B: Bits>(
    game: &ClickGame<B>,
    board: &ClickBoard<B>,
    setup: &Setup,
    report: &Report,
) -> bool {
    if report.objective != Objective::Moves {
        return report.optimal;
    }
    let target = report.lower_bound;
    if target == 0 || target >= INFINITE {
        return target == 0 || report.optimal;
    }
    let opts = crate::search::SearchOptions {
        time_limit: None,
        memory: super::budget::alone(setup.search.memory, game.edge_bytes()),
        upper: std::sync::Arc::new(std::sync::atomic::AtomicU32::new(u32::MAX)),
        ..setup.search.clone()
    };
    let out = crate::search::certify(game, board, &opts, target);
    // A line found by the exact search would be shorter than the bound: the first proof
    // would have been wrong.
    out.lower_bound >= target && out.best.is_none()
}

/// Fills a report from the moves of a solution.
fn build_report<B: Bits>(
    game: &ClickGame<B>,
    board: &ClickBoard<B>,
    grid: &Grid,
    setup: &Setup,
    objective: Objective,
    moves: &[Click],
) -> Report {
    let mut steps = Vec::new();
    let mut boards = Vec::new();
    let mut s = *board;
    for m in moves {
        let (x, y) = game.click_xy(m);
        let (_, group) = game
            .group_at(&s, x, y)
            .expect("a solution's moves are legal");
        steps.push(Step {
            x: Some(x),
            y: Some(y),
            colour: grid.palette()[m.colour as usize - 1].to_string(),
            size: Some(m.size as u32),
        });
        s = game.remove(&s, group, m.colour);
        boards.push(game.grid(&s));
    }
    let tiles_left = s.tiles() as usize;
    Report {
        game: setup.game.name().to_string(),
        width: grid.width(),
        height: grid.height(),
        board: grid.to_inline(),
        objective,
        played: Played::default(),
        length: moves.len(),
        score: crate::rules::score(moves.iter().map(|m| m.size as u32), tiles_left == 0),
        moves: steps,
        optimal: false,
        lower_bound: 0,
        tiles_left,
        nodes: 0,
        elapsed_ms: setup.search.start.elapsed().as_millis() as u64,
        first_ms: None,
        boards,
        note: None,
        certified: None,
        stopped: None,
    }
}
