//! The edge bound: a lower bound for click games whose columns never move (`former`,
//! `figure`) from the two columns at each edge of the board, solved exactly in a relaxed
//! game.
//!
//! ## The relaxed edge game
//! Take the slice `S` of the two outermost columns on one side (columns 0 and 1, or the
//! last two). Its inner column is the *boundary*: the only one with neighbours outside `S`.
//! In the relaxed game on `S` a move removes either one group of `S` (a maximal
//! same-colour 4-connected set of its tiles), or any union of same-colour groups of `S` that
//! each have a tile in the boundary column; tiles fall as usual.
//!
//! **Admissible.** Take any solution of the real game and keep only its clicks that take a
//! tile of `S`. A click removes a maximal group `G`. If `G` lies in `S`, it is a group of
//! `S`. Otherwise every connected piece of `G ∩ S` is a group of `S` (a same-colour
//! neighbour in `S` would be in `G`), and it reaches the rest of `G` along a path in `G`
//! that leaves `S` through the boundary column, so it has a tile there. Either way
//! `G ∩ S` is a relaxed move. Tiles never change column and fall within their column, so
//! after each kept click `S` is exactly the relaxed game's position. So the clicks taking
//! tiles of `S` are at least the relaxed optimum `opt(S)`. A colour's run of adjacent
//! columns (see [`crate::click`]) that lies wholly outside `S` needs clicks of its own,
//! none of which touches `S` (a click stays within its run's columns). Hence
//!
//! `clicks ≥ opt(S) + #(runs of any colour lying in the columns beyond S)`,
//!
//! for the left edge and for the right edge.
//!
//! **Both edges at once.** The clicks taking tiles of the left slice `L` number at least
//! `opt(L)`, those taking tiles of the right slice `R` at least `opt(R)`, so all clicks
//! number at least `opt(L) + opt(R) − k + m`, where `k` counts the clicks that take tiles
//! of both and `m` the runs lying wholly between the slices (each needs a click touching
//! neither). A click taking tiles of both is one group, so it has a tile in every column
//! from `L`'s boundary column to `R`'s; in each of those columns it takes whole vertical
//! runs of its colour (same-colour tiles one above the other are one group). A column's
//! runs of a colour never split and no new ones appear (tiles only fall, keeping their
//! order, and other clicks can only merge them), so a colour `c` has at most
//! `min over those columns of runs_c(x)` such clicks from here on, and `k` is at most the
//! sum of that over the colours. It pays once the colours have thinned out in some
//! middle column: Former boards' proofs took 22% fewer nodes (see the README).
//!
//! The bound is the largest of the three. The edge bound alone is at least as
//! strong as the column-run bound when a colour's tiles in `S` need a click each (they
//! cannot be joined across the boundary), and on sampled mid-game Former positions it was
//! one or two above it on most (see the README).
//!
//! ## Solving the edge game
//! A slice's position is given by which of its starting tiles are left: a mask of at most
//! [`MAX_TILES`] bits (edge column's tiles from the bottom, then the boundary column's).
//! The optimum of every mask is computed on first use, by recursion over the masks it
//! leads to, and remembered in a table of one byte per mask shared by all threads (a
//! value computed twice is the same). A board position is turned into a mask by matching
//! each column's colours, bottom to top, against its starting column (any match of the
//! same colours gives the same relaxed position, so the same optimum).

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

use crate::bits::{pdep64, pext64};
use crate::grid::MAX_COLOURS;

/// The most starting tiles two edge columns may hold for the bound to be used (a table of
/// `2^MAX_TILES` bytes per edge).
pub const MAX_TILES: u32 = 20;

/// One edge of the board as it was at the start.
#[derive(Debug)]
struct Side {
    /// Starting tiles of the outermost and the boundary column.
    heights: [u32; 2],
    /// For each column, the colour of each starting tile, bottom first.
    colours: [Vec<u8>; 2],
    /// For each column and colour, the mask of its starting tiles of that colour.
    of_colour: [[u32; MAX_COLOURS]; 2],
    /// By mask: 0 not yet known, else the relaxed optimum + 1.
    memo: Vec<AtomicU8>,
}

/// The edge bound of one board (both edges).
#[derive(Debug)]
pub struct EdgeBound {
    sides: [Side; 2],
    colours: usize,
}

/// Bits 0..16 of a slice plane are the outermost column (bottom first), bits 16..32 the
/// boundary column.
const INNER: u32 = 16;

impl Side {
    fn new(columns: [&[u8]; 2]) -> Side {
        let heights = [columns[0].len() as u32, columns[1].len() as u32];
        let mut of_colour = [[0u32; MAX_COLOURS]; 2];
        for (k, col) in columns.iter().enumerate() {
            for (i, &c) in col.iter().enumerate() {
                of_colour[k][c as usize] |= 1 << i;
            }
        }
        Side {
            heights,
            colours: [columns[0].to_vec(), columns[1].to_vec()],
            of_colour,
            memo: (0..1usize << (heights[0] + heights[1]))
                .map(|_| AtomicU8::new(0))
                .collect(),
        }
    }

    /// The mask of starting tiles that leaves the columns `now` (colours, bottom first), or
    /// `None` if they are not what the starting columns can become.
    fn mask(&self, now: [&[u8]; 2]) -> Option<u32> {
        let mut bits = [[0u64; MAX_COLOURS]; 2];
        for k in 0..2 {
            for (y, &c) in now[k].iter().enumerate() {
                bits[k][c as usize] |= 1 << y;
            }
        }
        self.mask_of_bits(&bits)
    }

    /// [`Side::mask`] from each column's tiles by colour (`bits[k][c]`: bit `y` set if the
    /// tile at height `y` of column `k` has colour `c`). Matches the starting tiles bottom
    /// up, taking each whose colour is the next tile's.
    #[inline]
    fn mask_of_bits(&self, bits: &[[u64; MAX_COLOURS]; 2]) -> Option<u32> {
        let mut mask = 0u32;
        for (k, bits) in bits.iter().enumerate() {
            let len = bits.iter().fold(0, |a, b| a | b).count_ones();
            let mut j = 0;
            let at = k as u32 * self.heights[0];
            for (i, &c) in self.colours[k].iter().enumerate() {
                let hit = (bits[c as usize] >> j) as u32 & 1;
                mask |= hit << (i as u32 + at);
                j += hit;
            }
            if j != len {
                return None;
            }
        }
        Some(mask)
    }

    /// The relaxed optimum of the slice with the starting tiles `mask` left.
    fn opt(&self, mask: u32, colours: usize) -> u32 {
        if mask == 0 {
            return 0;
        }
        let known = self.memo[mask as usize].load(Relaxed);
        if known != 0 {
            return known as u32 - 1;
        }
        let left = [mask & ((1 << self.heights[0]) - 1), mask >> self.heights[0]];
        // the starting tiles a move takes, from the tiles it takes in the slice as it is
        let taken = |plane: u32| -> u32 {
            pdep64((plane & 0xffff) as u64, left[0] as u64) as u32
                | (pdep64((plane >> INNER) as u64, left[1] as u64) as u32) << self.heights[0]
        };
        let mut best = u32::MAX;
        let mut touching = [0u32; 32];
        for c in 0..colours {
            let plane = pext64(self.of_colour[0][c] as u64, left[0] as u64) as u32
                | (pext64(self.of_colour[1][c] as u64, left[1] as u64) as u32) << INNER;
            let mut rest = plane;
            let mut n = 0;
            while rest != 0 {
                let group = flood(rest & rest.wrapping_neg(), plane);
                rest &= !group;
                best = best.min(self.opt(mask & !taken(group), colours));
                if group >> INNER != 0 && n < touching.len() {
                    touching[n] = group;
                    n += 1;
                }
            }
            // unions of two or more groups that reach the boundary
            for sub in 1u32..1 << n {
                if sub.count_ones() < 2 {
                    continue;
                }
                let mut union = 0;
                let mut s = sub;
                while s != 0 {
                    union |= touching[s.trailing_zeros() as usize];
                    s &= s - 1;
                }
                best = best.min(self.opt(mask & !taken(union), colours));
            }
        }
        let v = best + 1;
        self.memo[mask as usize].store(v as u8 + 1, Relaxed);
        v
    }
}

/// The group of `plane` (a slice plane, see [`INNER`]) holding the tiles `seed`.
#[inline]
fn flood(seed: u32, plane: u32) -> u32 {
    let mut g = seed;
    loop {
        let grown = (g
            | ((g << 1) & !(1 << INNER))
            | ((g >> 1) & !(1 << (INNER - 1)))
            | (g << INNER)
            | (g >> INNER))
            & plane;
        if grown == g {
            return g;
        }
        g = grown;
    }
}

impl EdgeBound {
    /// The edge bound of a board given by its columns (colours `0..colours`, bottom first),
    /// if it has at least four columns and each edge's two columns start with at most
    /// [`MAX_TILES`] tiles, none taller than 16.
    pub fn new(columns: &[Vec<u8>], colours: usize) -> Option<EdgeBound> {
        let w = columns.len();
        if w < 4 || colours > MAX_COLOURS {
            return None;
        }
        let fits = |a: &Vec<u8>, b: &Vec<u8>| {
            a.len() <= 16 && b.len() <= 16 && (a.len() + b.len()) as u32 <= MAX_TILES
        };
        if !fits(&columns[0], &columns[1]) || !fits(&columns[w - 1], &columns[w - 2]) {
            return None;
        }
        Some(EdgeBound {
            sides: [
                Side::new([&columns[0], &columns[1]]),
                Side::new([&columns[w - 1], &columns[w - 2]]),
            ],
            colours,
        })
    }

    /// The relaxed optimum of the left (`side` 0) or right (1) edge with the columns
    /// `now` (outermost first), each column's colours bottom first; `None` where the
    /// columns are not what the board's can become.
    pub fn optimum(&self, side: usize, now: [&[u8]; 2]) -> Option<u32> {
        self.sides[side].mask(now).map(|m| self.opt(side, m))
    }

    /// A mask of the starting tiles of a side (0 left, 1 right) that leaves its columns as
    /// given by their tiles by colour (`bits[k][c]` has bit `y` set if the tile at height
    /// `y` of column `k`, outermost first, has colour `c`); `None` if they are not what the
    /// starting columns can become.
    #[inline]
    pub fn mask_of_bits(&self, side: usize, bits: &[[u64; MAX_COLOURS]; 2]) -> Option<u32> {
        self.sides[side].mask_of_bits(bits)
    }

    /// The relaxed optimum of a side (0 left, 1 right) with the starting tiles `mask` left.
    #[inline]
    pub fn opt(&self, side: usize, mask: u32) -> u32 {
        self.sides[side].opt(mask, self.colours)
    }

    /// The mask left when a click takes, from a side's columns with the starting tiles
    /// `mask` left, the tiles `taken` of each column (outermost first; bit `y` is the
    /// tile at height `y` now).
    #[inline]
    pub fn take(&self, side: usize, mask: u32, taken: [u64; 2]) -> u32 {
        let h0 = self.sides[side].heights[0];
        let left = [(mask & ((1 << h0) - 1)) as u64, (mask >> h0) as u64];
        let gone = pdep64(taken[0], left[0]) as u32 | (pdep64(taken[1], left[1]) as u32) << h0;
        mask & !gone
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bound(left: [&[u8]; 2]) -> u32 {
        // the right edge is a copy, so only the left is looked at
        let cols = vec![
            left[0].to_vec(),
            left[1].to_vec(),
            left[1].to_vec(),
            left[0].to_vec(),
        ];
        let e = EdgeBound::new(&cols, 4).unwrap();
        e.optimum(0, left).unwrap()
    }

    #[test]
    fn one_colour_per_move_when_all_reach_the_boundary() {
        // edge column A B, boundary column A B: each colour's tiles touch the boundary
        assert_eq!(bound([&[0, 1], &[0, 1]]), 2);
    }

    #[test]
    fn tiles_cut_off_from_the_boundary_need_their_own_move() {
        // edge column A B A, boundary column B B B: the two A's touch no A in the
        // boundary column; B's (one union) then A's joined by the fall: 2 moves, or
        // A's first (2) then B: 3; the best is 2
        assert_eq!(bound([&[0, 1, 0], &[1, 1, 1]]), 2);
        // edge column A B A B, boundary column C: A and B alternate out of reach of the
        // boundary: B, A (joined), B... every order needs 4 moves plus C
        assert_eq!(bound([&[0, 1, 0, 1], &[2]]), 4);
    }

    #[test]
    fn columns_that_are_not_from_the_board_give_nothing() {
        let cols = vec![vec![0, 1], vec![1], vec![1], vec![0, 1]];
        let e = EdgeBound::new(&cols, 2).unwrap();
        assert_eq!(e.optimum(0, [&[1, 0], &[1]]), None);
        assert_eq!(e.optimum(1, [&[0], &[]]), Some(1));
    }
}
