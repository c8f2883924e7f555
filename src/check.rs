//! What `tumble check` works out: a move list replayed on a board, each move's step and
//! the board after it, the first illegal move if any, and how the board ends.

use crate::grid::Grid;
use crate::input::{parse_clicks, InputError};
use crate::picture::{solution_panels, Pick};
use crate::report::{Replayed, Step};
use crate::rules::{Game, Objective};
use crate::solve::{has_moves, replay, Setup};

/// How a legal move list leaves the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// Flood-It: the board is one colour.
    OneColour,
    /// Flood-It: this many colours are left.
    ColoursLeft(usize),
    /// A click game: the board is empty.
    Cleared,
    /// A click game: tiles are left, and maybe a move.
    NotCleared { tiles: usize, moves_left: bool },
}

/// A replayed move list.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The legal moves (all of them, or those before the illegal one), each with the board
    /// after it.
    pub steps: Vec<Replayed>,
    /// The first illegal move: its number (1-based) and why.
    pub illegal: Option<(usize, String)>,
    /// How the board ends (when every move is legal).
    pub end: Option<End>,
    /// The SameGame score of the moves, for SameGame and the score objective (when every
    /// move is legal).
    pub score: Option<i64>,
}

impl Checked {
    /// The panels of a picture of the legal moves step by step ([`answer_panels`]).
    pub fn panels(&self, grid: &Grid, setup: &Setup) -> (Vec<Grid>, Vec<Pick>) {
        let (moves, after): (Vec<Step>, Vec<Grid>) = self.steps.iter().cloned().unzip();
        answer_panels(grid, setup, &moves, &after)
    }
}

/// The panels of a picture of `moves` step by step
/// ([`render_steps`](crate::picture::render_steps)), `after[i]` the board after move `i`:
/// `grid` before each move with the group to click (Flood-It: the flood), then the board
/// after the last move.
pub fn answer_panels(
    grid: &Grid,
    setup: &Setup,
    moves: &[Step],
    after: &[Grid],
) -> (Vec<Grid>, Vec<Pick>) {
    let clicks: Vec<Option<(usize, usize)>> = moves.iter().map(|s| s.x.zip(s.y)).collect();
    solution_panels(grid, after, &clicks, setup.floodit_start(grid))
}

/// Replays `moves` on `grid` under `setup`: colours for Flood-It (`"BCA"`), `(x,y)` pairs
/// for the click games (`"(7,0) (3,1)"`).
pub fn check(grid: &Grid, setup: &Setup, moves: &str) -> Result<Checked, InputError> {
    if setup.game == Game::Floodit {
        let colours = crate::floodit::parse_colours(moves);
        let start = setup.floodit_start_on(grid);
        let (steps, illegal) = match crate::floodit::replay(grid, start, &colours)? {
            Ok(s) => (s, None),
            Err((n, why, prefix)) => (prefix, Some((n, why))),
        };
        let end = illegal.is_none().then(|| {
            let last = steps.last().map_or(grid, |s| &s.1);
            if crate::floodit::is_one_colour(last) {
                End::OneColour
            } else {
                let left: std::collections::HashSet<u8> = (0..last.height())
                    .flat_map(|y| (0..last.width()).map(move |x| last.get(x, y)))
                    .collect();
                End::ColoursLeft(left.len())
            }
        });
        return Ok(Checked {
            steps,
            illegal,
            end,
            score: None,
        });
    }
    let clicks = parse_clicks(moves)?;
    let (steps, illegal) = match replay(grid, setup.rules, &clicks)? {
        Ok(s) => (s, None),
        Err((n, why)) => {
            let ok = replay(grid, setup.rules, &clicks[..n - 1])?.expect("the prefix is legal");
            (ok, Some((n, why)))
        }
    };
    if illegal.is_some() {
        return Ok(Checked {
            steps,
            illegal,
            end: None,
            score: None,
        });
    }
    let last = steps.last().map_or(grid, |s| &s.1);
    let end = if last.is_empty() {
        End::Cleared
    } else {
        End::NotCleared {
            tiles: last.tiles(),
            moves_left: has_moves(last, setup.rules)?,
        }
    };
    let scored = setup.game == Game::Samegame || setup.rules.objective == Objective::Score;
    let score =
        scored.then(|| crate::rules::score(steps.iter().filter_map(|s| s.0.size), last.is_empty()));
    Ok(Checked {
        steps,
        illegal,
        end: Some(end),
        score,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clearing_line_is_cleared_and_scored_under_samegame() {
        let grid: Grid = "AAB,ABB,BAA".parse().unwrap();
        let c = check(&grid, &Setup::new(Game::Former), "(2,2) (0,2) (0,0)").unwrap();
        assert_eq!(c.steps.len(), 3);
        assert_eq!(c.illegal, None);
        assert_eq!(c.end, Some(End::Cleared));
        assert_eq!(c.score, None, "Former has no score");
        let mut setup = Setup::new(Game::Former);
        setup.rules.objective = Objective::Score;
        let c = check(&grid, &setup, "(2,2) (0,2) (0,0)").unwrap();
        let sizes = c.steps.iter().filter_map(|s| s.0.size);
        assert_eq!(c.score, Some(crate::rules::score(sizes, true)));
    }

    #[test]
    fn an_illegal_move_keeps_the_legal_ones_before_it() {
        let grid: Grid = "AAB,ABB,BAA".parse().unwrap();
        let c = check(&grid, &Setup::new(Game::Former), "(2,2) (5,5)").unwrap();
        assert_eq!(c.steps.len(), 1);
        assert_eq!(c.illegal.as_ref().map(|i| i.0), Some(2));
        assert_eq!(c.end, None);
    }

    #[test]
    fn flood_it_ends_one_colour_or_counts_the_colours_left() {
        let grid: Grid = "AB,BC".parse().unwrap();
        let setup = Setup::new(Game::Floodit);
        let c = check(&grid, &setup, "B").unwrap();
        assert_eq!(c.end, Some(End::ColoursLeft(2)));
        let c = check(&grid, &setup, "BC").unwrap();
        assert_eq!(c.end, Some(End::OneColour));
        let c = check(&grid, &setup, "A").unwrap();
        assert_eq!(c.illegal.map(|i| i.0), Some(1));
    }
}
