//! Playing a given move list on a click-game board ([`replay`], for `tumble check`) and
//! asking whether any move is left ([`has_moves`]).

use crate::bits::Bits;
use crate::click::{ClickBoard, ClickGame};
use crate::grid::{BoardError, Grid};
use crate::report::{Replayed, Step};
use crate::rules::Rules;

use super::engine::{dispatch, WithEngine};

/// Plays clicks `(x, y)` on a click-game board. On an illegal move: its number (1-based)
/// and why.
pub fn replay(
    grid: &Grid,
    rules: Rules,
    clicks: &[(usize, usize)],
) -> Result<Result<Vec<Replayed>, (usize, String)>, BoardError> {
    struct Run<'a> {
        grid: &'a Grid,
        clicks: &'a [(usize, usize)],
    }
    impl WithEngine for Run<'_> {
        type Output = Result<Vec<Replayed>, (usize, String)>;
        fn run<B: Bits>(self, game: ClickGame<B>, board: ClickBoard<B>) -> Self::Output {
            let mut s = board;
            let mut out = Vec::new();
            for (i, &(x, y)) in self.clicks.iter().enumerate() {
                let (click, group) = game.legal_click(&s, x, y).map_err(|e| (i + 1, e))?;
                s = game.remove(&s, group, click.colour);
                out.push((
                    Step {
                        x: Some(x),
                        y: Some(y),
                        colour: self.grid.palette()[click.colour as usize - 1].to_string(),
                        size: Some(click.size as u32),
                    },
                    game.grid(&s),
                ));
            }
            Ok(out)
        }
    }
    // (no search: the edge memos are not used)
    dispatch(grid, rules, 0, Run { grid, clicks })
}

/// Are there clickable groups left on this board under `rules`?
pub fn has_moves(grid: &Grid, rules: Rules) -> Result<bool, BoardError> {
    struct Run;
    impl WithEngine for Run {
        type Output = bool;
        fn run<B: Bits>(self, game: ClickGame<B>, board: ClickBoard<B>) -> bool {
            !game.groups(&board).is_empty()
        }
    }
    dispatch(grid, rules, 0, Run)
}
