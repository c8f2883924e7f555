//! The click-game engine: bitboard positions, group finding, clicks, and lower bounds.
//!
//! A position ([`ClickBoard`]) is one bit set per colour plus the occupied set, laid out
//! **column-major**: cell `(x, y)` is bit `x * H + y`, so a column is a run of `H` bits with
//! its bottom cell lowest. That layout makes every step of a click a few whole-board bit
//! operations:
//!
//! - **groups**: flood fill of a seed inside its colour plane by repeated dilation
//!   (shift by 1 up/down, by `H` left/right, masked at the column edges);
//! - **gravity**: with `keep` the tiles that stay and `target` each affected column's bottom
//!   `k` cells, every plane becomes `pdep(pext(plane, keep), target)`: column-major order is
//!   the same before and after the fall;
//! - **empty columns close left**: `pext` with the set of non-empty columns;
//! - **row squeeze** (dust): per row, `pdep(pext(plane, row), squeezed row)`.
//!
//! [`ClickGame`] holds the geometry and [`Rules`] and implements [`Puzzle`](crate::puzzle::Puzzle) for the
//! fewest-clicks objective, so every search algorithm in [`crate::search`] serves every click
//! game. It is generic over the bit set: `u64` for boards of up to 64 cells, [`crate::bits::Wide`]
//! for bigger ones ([`crate::solve`] picks).
//!
//! The engine by file, each with the proofs of what it does:
//!
//! | file | what it holds |
//! |---|---|
//! | `geometry.rs` | [`Geometry`]: cell, column and row masks, flood fill, neighbours |
//! | `board.rs` | [`ClickBoard`] and [`Click`]: positions, grids, the groups of a position |
//! | `gravity.rs` | what a click does: gravity, columns closing left, the row squeeze, the moved region |
//! | `bounds.rs` | the lower bounds: colours, column runs, and the edge bound's total |
//! | `edge_terms.rs` | the edge bound of a position, and of a child from its parent's |
//! | `forced.rs` | forced moves: a group some optimal solution clicks first |
//! | `children.rs` | the children a bounded search is given, and those it need not be |
//! | `parts.rs` | the parts of a position, to tell children with no whole colour unbuilt |
//! | `puzzle.rs` | `Puzzle` for [`ClickGame`] |

mod board;
mod bounds;
mod children;
mod edge_terms;
mod forced;
mod geometry;
mod gravity;
mod parts;
mod puzzle;

use std::sync::Arc;

pub use board::{Click, ClickBoard};
pub use geometry::Geometry;

use crate::bits::Bits;
use crate::edge::EdgeBound;
use crate::grid::{BoardError, Grid};
use crate::rules::Rules;
use edge_terms::{is_left, side_width, SIDES};

/// A click game on boards that fit in `B`: geometry, rules and palette.
#[derive(Clone, Debug)]
pub struct ClickGame<B> {
    pub geom: Geometry<B>,
    pub rules: Rules,
    colours: usize,
    palette: Vec<char>,
    /// The edge bound ([`crate::edge`]), when columns never move and the board's edges
    /// are small enough.
    edge: Option<Arc<EdgeBound>>,
    /// The columns of each narrow edge slice (0 without the edge bound); wide ones have
    /// four ([`ClickGame::edge_width`]).
    slice: usize,
    /// How many edge slices there are: 2 (narrow), 4 (narrow and wide), or 0.
    sides: usize,
    /// The columns of each edge slice, as a bit set (by side).
    side_columns: [u64; SIDES],
}

/// Does a `width × height` board fit the bit set `B`?
pub fn fits<B: Bits>(width: usize, height: usize) -> bool {
    width * height <= B::CAPACITY && width <= 64 && height <= 64
}

impl<B: Bits> ClickGame<B> {
    /// The game for `grid`'s size and palette under `rules`, and the grid as a position.
    /// Checks gravity; the caller has picked a `B` the board fits in. Its edge bound's
    /// memos take at most [`crate::edge::DEFAULT_MEMORY`].
    pub fn new(grid: &Grid, rules: Rules) -> Result<(Self, ClickBoard<B>), BoardError> {
        ClickGame::with_memory(grid, rules, crate::edge::DEFAULT_MEMORY)
    }

    /// [`ClickGame::new`] with an edge bound whose memos take at most `edge_bytes`
    /// ([`ClickGame::edge_bytes`] says what they may take).
    pub fn with_memory(
        grid: &Grid,
        rules: Rules,
        edge_bytes: usize,
    ) -> Result<(Self, ClickBoard<B>), BoardError> {
        grid.check_gravity()?;
        if !fits::<B>(grid.width(), grid.height()) {
            return Err(BoardError::TooLarge {
                width: grid.width(),
                height: grid.height(),
                limit: format!("this engine holds at most {} cells", B::CAPACITY),
            });
        }
        let edge = if rules.columns_fixed() {
            let columns: Vec<Vec<u8>> = (0..grid.width())
                .map(|x| {
                    (0..grid.height())
                        .map(|y| grid.get(x, y))
                        .take_while(|&c| c != 0)
                        .map(|c| c - 1)
                        .collect()
                })
                .collect();
            EdgeBound::within(&columns, grid.colours(), edge_bytes).map(Arc::new)
        } else {
            None
        };
        let slice = edge.as_ref().map_or(0, |e| e.slice());
        let w = grid.width();
        let side_columns = std::array::from_fn(|side| {
            let n = side_width(slice, side).min(w);
            let low = (1u64 << n) - 1;
            if is_left(side) || n == 0 {
                low
            } else {
                low << (w - n)
            }
        });
        let game = ClickGame {
            geom: Geometry::new(grid.width(), grid.height()),
            rules,
            colours: grid.colours(),
            palette: grid.palette().to_vec(),
            slice,
            sides: edge.as_ref().map_or(0, |e| if e.wide() { 4 } else { 2 }),
            side_columns,
            edge,
        };
        let board = game.board(grid);
        Ok((game, board))
    }

    /// The bytes its edge bound's memos may take, once every page of them is written (0
    /// without an edge bound).
    pub fn edge_bytes(&self) -> usize {
        self.edge.as_ref().map_or(0, |e| e.bytes())
    }

    /// The same game with only the narrow edge slices in its edge bound ([`crate::edge`]):
    /// for measuring what the wide ones add.
    pub fn with_narrow_edges(&self) -> Self {
        let mut g = self.clone();
        if let Some(e) = &self.edge {
            g.edge = Some(Arc::new(e.narrow()));
            g.sides = 2;
        }
        g
    }

    /// The same game with no edge bound: its lower bound is the colours' or the column
    /// runs' alone, which costs a few instructions where the edge bound may first have to
    /// solve its relaxed games (a search of its own on a board just begun). For a first
    /// answer at once.
    pub fn without_edges(&self) -> Self {
        let mut g = self.clone();
        g.edge = None;
        g.sides = 0;
        g
    }

    /// Halts the edge bound's relaxed searches (`true`) or lets them run again (`false`);
    /// see [`EdgeBound::halt`]. Every game made from this one with
    /// [`ClickGame::with_narrow_edges`] shares the flag.
    pub fn halt_bounds(&self, on: bool) {
        if let Some(e) = &self.edge {
            e.halt(on);
        }
    }

    /// Sets how far below the limit the edge bound's crossing games are searched; see
    /// [`EdgeBound::reach_crossings`].
    pub fn reach_crossings(&self, reach: u32) {
        if let Some(e) = &self.edge {
            e.reach_crossings(reach);
        }
    }

    /// Number of colours in the palette.
    pub fn colours(&self) -> usize {
        self.colours
    }

    /// A 64-bit key of the position for transposition tables.
    #[inline]
    pub fn key(&self, b: &ClickBoard<B>) -> u64 {
        let mut h = 0x243f_6a88_85a3_08d3u64;
        for (c, p) in b.planes[..self.colours].iter().enumerate() {
            h = h.rotate_left(17) ^ p.mix(0x9e37_79b9_7f4a_7c15u64.wrapping_mul(c as u64 + 1));
        }
        h
    }

    /// A second hash of the position, independent of [`ClickGame::key`]: the same planes
    /// mixed from other seeds and folded another way.
    #[inline]
    pub fn check(&self, b: &ClickBoard<B>) -> u32 {
        let mut h = 0x1319_8a2e_0370_7344u64;
        for (c, p) in b.planes[..self.colours].iter().enumerate() {
            h = h.rotate_left(29)
                ^ p.mix(0xc2b2_ae3d_27d4_eb4fu64.wrapping_mul(2 * c as u64 + 3) ^ 0x5bd1_e995);
        }
        (h >> 32) as u32 ^ h as u32
    }
}
