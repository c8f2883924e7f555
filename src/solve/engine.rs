//! Picking the click engine a board fits in: the bit set of [`ClickGame`] is `u64` up to 64
//! cells, [`Wide`] beyond, up to [`MAX_CELLS`].

use crate::bits::{Bits, Wide};
use crate::click::{fits, ClickBoard, ClickGame};
use crate::grid::{BoardError, Grid};
use crate::rules::Rules;

/// The largest click board: cells and side.
pub const MAX_CELLS: usize = 512;

/// Runs `f` with the engine (bit-set width) that `grid` fits in.
pub trait WithEngine {
    type Output;
    fn run<B: Bits>(self, game: ClickGame<B>, board: ClickBoard<B>) -> Self::Output;
}

/// Builds the engine for `grid` under `rules`, with edge memos of at most `edge_bytes`
/// ([`ClickGame::with_memory`]), and hands it to `f`.
pub fn dispatch<F: WithEngine>(
    grid: &Grid,
    rules: Rules,
    edge_bytes: usize,
    f: F,
) -> Result<F::Output, BoardError> {
    let (w, h) = (grid.width(), grid.height());
    if fits::<u64>(w, h) {
        let (g, b) = ClickGame::<u64>::with_memory(grid, rules, edge_bytes)?;
        Ok(f.run(g, b))
    } else if fits::<Wide<4>>(w, h) {
        let (g, b) = ClickGame::<Wide<4>>::with_memory(grid, rules, edge_bytes)?;
        Ok(f.run(g, b))
    } else if fits::<Wide<8>>(w, h) {
        let (g, b) = ClickGame::<Wide<8>>::with_memory(grid, rules, edge_bytes)?;
        Ok(f.run(g, b))
    } else {
        Err(too_large(w, h))
    }
}

/// Whether a click board of `width × height` fits an engine, or the error that says it
/// does not (the same as [`dispatch`]'s).
pub(super) fn check_click_size(width: usize, height: usize) -> Result<(), BoardError> {
    if fits::<Wide<8>>(width, height) {
        Ok(())
    } else {
        Err(too_large(width, height))
    }
}

fn too_large(width: usize, height: usize) -> BoardError {
    BoardError::TooLarge {
        width,
        height,
        limit: format!(
            "click boards may have at most {MAX_CELLS} cells (e.g. 22×22) and 64 rows or columns"
        ),
    }
}
