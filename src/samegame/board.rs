//! The position: one byte per cell, column-major, with the column heights, the number of
//! non-empty columns and the tiles of each colour kept beside it; tiles fall and empty
//! columns close to the left (a click's group is found and removed in [`super::groups`]).

use crate::grid::Grid;

/// The largest board side (columns and rows).
pub const SIDE: usize = 16;
pub(super) const CELLS: usize = SIDE * SIDE;
/// The most colours.
pub const COLOURS: usize = 8;

/// A SameGame position: one byte per cell (`0` empty, `1..=K` a colour).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Board {
    pub(super) cells: [u8; CELLS],
    pub(super) heights: [u8; SIDE],
    /// Non-empty columns (they are the leftmost ones).
    pub(super) width: u8,
    /// Tiles of each colour (`counts[c - 1]`).
    pub(super) counts: [u16; COLOURS],
}

impl Board {
    /// No tiles.
    pub fn empty() -> Board {
        Board {
            cells: [0; CELLS],
            heights: [0; SIDE],
            width: 0,
            counts: [0; COLOURS],
        }
    }

    /// The position of `grid` (`y = 0` its bottom row), if it fits: at most [`SIDE`]
    /// columns and rows, [`COLOURS`] colours, and obeying gravity with no empty column left
    /// of a full one (as SameGame positions do).
    pub fn from_grid(grid: &Grid) -> Option<Board> {
        let (w, h) = (grid.width(), grid.height());
        if w > SIDE || h > SIDE || grid.colours() > COLOURS {
            return None;
        }
        let mut b = Board::empty();
        for x in 0..w {
            for y in 0..h {
                let c = grid.get(x, y);
                if c == 0 {
                    if (y..h).any(|yy| grid.get(x, yy) != 0) {
                        return None;
                    }
                    break;
                }
                b.cells[x * SIDE + y] = c;
                b.heights[x] = y as u8 + 1;
                b.counts[c as usize - 1] += 1;
            }
            if b.heights[x] > 0 {
                if b.width as usize != x {
                    return None;
                }
                b.width += 1;
            }
        }
        Some(b)
    }

    /// The `(x, y)` of cell index `i`.
    pub fn xy(i: u8) -> (usize, usize) {
        (i as usize / SIDE, i as usize % SIDE)
    }

    /// The colour at `(x, y)` (`0` empty).
    pub fn get(&self, x: usize, y: usize) -> u8 {
        if x < SIDE && y < SIDE {
            self.cells[x * SIDE + y]
        } else {
            0
        }
    }

    /// Tiles of each colour.
    pub fn counts(&self) -> &[u16; COLOURS] {
        &self.counts
    }

    /// Tiles on the board.
    pub fn tiles(&self) -> u32 {
        self.counts.iter().map(|&n| n as u32).sum()
    }

    /// Column `x` keeps the tiles `keep(i, to)` keeps and the rest go; the kept ones fall.
    /// `keep` is asked about every tile `i` from the bottom up, with the cell `to` it falls
    /// to if kept. Returns the row of the lowest tile gone (the old height if none).
    #[inline(always)]
    pub(super) fn fall(&mut self, x: usize, mut keep: impl FnMut(usize, usize) -> bool) -> usize {
        let base = x * SIDE;
        let h = self.heights[x] as usize;
        let mut to = base;
        let mut first = h;
        for i in base..base + h {
            if keep(i, to) {
                self.cells[to] = self.cells[i];
                to += 1;
            } else if first == h {
                first = i - base;
            }
        }
        self.cells[to..base + h].fill(0);
        self.heights[x] = (to - base) as u8;
        first
    }

    /// Closes the empty columns from column `from` on to the left, calling `moved(x, to)`
    /// for every column `x` that moves to `to` (before it moves).
    #[inline]
    pub(super) fn close_columns(&mut self, from: usize, mut moved: impl FnMut(usize, usize)) {
        let w = self.width as usize;
        let mut to = from;
        for x in from..w {
            if self.heights[x] == 0 {
                continue;
            }
            if to != x {
                moved(x, to);
                self.cells.copy_within(x * SIDE..x * SIDE + SIDE, to * SIDE);
                self.heights[to] = self.heights[x];
            }
            to += 1;
        }
        for x in to..w {
            self.cells[x * SIDE..x * SIDE + SIDE].fill(0);
            self.heights[x] = 0;
        }
        self.width = to as u8;
    }
}
