//! The edge bound: a lower bound for click games whose columns never move (`former`,
//! `figure`) from the two, three or four columns at each edge of the board, solved
//! exactly in a relaxed game.
//!
//! ## The relaxed edge game
//! Take the slice `S` of the outermost columns on one side: three (columns 0–2, or the
//! last three) on boards of seven columns or more, else two; these are the *narrow*
//! slices. Boards of seven columns or more also get *wide* slices of four columns at each
//! edge (columns 0–3, and the last four). A slice's inner column is the
//! *boundary*: the only one with neighbours outside `S`. In the relaxed game on `S` a move
//! removes either one group of `S` (a maximal same-colour 4-connected set of its tiles),
//! or any union of same-colour groups of `S` that each have a tile in the boundary
//! column; tiles fall as usual.
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
//! middle column.
//!
//! With wide slices there are two more such pairs: the wide left slice with the narrow
//! right one, and the narrow left with the wide right (on a seven-column board each pair
//! covers the whole board, with no column between: then `m` is 0 and `k` counts the
//! colours' runs in the two columns where the slices meet).
//!
//! **The crossing game.** Where a narrow slice meets the other edge's wide one with no
//! column between (seven columns), the narrow slice's own relaxed game can be made
//! stricter: its clicks that take no tile of the wide slice are single groups, and only
//! the few that take tiles of both (at most the pair's `k`, and of each colour at most
//! its share of `k`) may be unions. The wide slice's optimum plus the least number of the
//! former is a lower bound, never below the pair's, often above it. Proof: `crossing.rs`.
//!
//! The bound is the largest of the sides' and the pairs'; the crossing games only drop
//! children in a search (`src/click/edge_terms.rs` says why). The edge bound alone is at
//! least as strong as the column-run bound when a colour's tiles in `S` need a click each
//! (they cannot be joined across the boundary).
//!
//! ## Solving the edge game
//! Each slice is a `Side` (`side.rs`: its starting tiles, and a position as the mask of
//! those left), solved by search (`search.rs`), with its values remembered in a memo
//! (`memo.rs`) indexed by what each column holds (`columns.rs`). A search asked for a
//! child's bound on a wide slice is cut short after a few expansions, and then gives the
//! lower bound it has proven (`search.rs`, "Cut short"): the bound stays admissible. The
//! crossing games (`crossing.rs`) are searched the same way, always with a few
//! expansions per query, in a hashed memo of their own.

mod columns;
mod crossing;
mod memo;
mod search;
mod side;

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::sync::Arc;

use crate::grid::MAX_COLOURS;
pub use crossing::MAX_CROSSINGS;
use crossing::{Crossing, Crossings};
use side::Side;

/// The most columns a slice may have.
pub const MAX_SLICE: usize = 4;

/// The most positions the relaxed searches for one wide slice's optimum may expand when
/// a search asks for a child's bound ([`EdgeBound::opt_capped`]), its inner slice's
/// searches included. A wide slice's full search costs more than the subtree of the
/// exact search it could prune, for most children; a few expansions per query, with the
/// lower bounds they prove kept in the memo for the next query of the same position, make
/// the bound grow where the search keeps coming back (`docs/benchmarks.md` has the
/// figures).
pub const WIDE_EFFORT: u64 = 15;

/// The most positions a search of the crossing game ([`EdgeBound::crossing_capped`]) may
/// expand for one query; what it proves on the way stays in its memo for the next.
pub const CROSSING_EFFORT: u64 = 60;

/// How far below the limit a pair's joint bound may be for its crossing game to be
/// searched once a proof has run long ([`EdgeBound::reach_crossings`]). At the limit only,
/// a board proven in a fraction of a second spends least; one below, the games drop
/// enough more children on the hardest boards to save them about a sixth of their time,
/// and further reach adds little (`docs/benchmarks.md` has the figures).
pub const LONG_CROSSING_REACH: u32 = 1;

/// The most starting tiles a slice of two columns may hold for the bound to be used (its
/// first use solves every position the slice can reach).
pub const MAX_TILES: u32 = 20;

/// The most starting tiles a slice of three columns may hold.
pub const MAX_TILES_3: u32 = 27;

/// The most starting tiles a slice of four columns may hold.
pub const MAX_TILES_4: u32 = 36;

/// The bytes the memos of one board's edge bound may take together by default
/// ([`EdgeBound::new`]): half the default memory budget, which gives each narrow slice a
/// byte per position up to 2^27 positions and each wide slice a hash table of 64 MiB.
pub const DEFAULT_MEMORY: usize = 512 << 20;

/// A set of a slice's starting tiles: a bit per tile, the outermost column's from the
/// bottom, then the next column's, and so on.
pub type Mask = u64;

/// The edge bound of one board (both edges): the narrow slices (two or three columns) and,
/// on boards wide enough, the wide ones (four columns).
#[derive(Debug)]
pub struct EdgeBound {
    /// Left narrow, right narrow, then left wide and right wide if there are wide ones.
    sides: Vec<Arc<Side>>,
    /// The crossing games of the narrow left and right slices, where each meets the other
    /// edge's wide slice (boards of seven columns with wide slices), else none.
    crossing: Vec<Crossing>,
    /// How far below the limit a pair's joint bound may be for its crossing game to be
    /// searched ([`EdgeBound::reach_crossings`]).
    reach: AtomicU32,
    colours: usize,
}

impl EdgeBound {
    /// The edge bound of a board given by its columns (colours `0..colours`, bottom first),
    /// if it has at least four columns and each edge's two columns start with at most
    /// [`MAX_TILES`] tiles, none taller than 16. With seven columns or more and at most
    /// [`MAX_TILES_3`] tiles in each edge's three, the slices are three columns wide, and
    /// with at most [`MAX_TILES_4`] in each edge's four there are wide slices of four
    /// besides ([`EdgeBound::narrow`] leaves them out). Its memos take at most
    /// [`DEFAULT_MEMORY`].
    pub fn new(columns: &[Vec<u8>], colours: usize) -> Option<EdgeBound> {
        EdgeBound::within(columns, colours, DEFAULT_MEMORY)
    }

    /// [`EdgeBound::new`] with memos that take at most `bytes` together ([`EdgeBound::bytes`]):
    /// a quarter for each narrow slice and a sixteenth for its inner slice of two columns,
    /// an eighth for each wide slice (whose inner slice is the narrow one), and a sixteenth
    /// for each narrow slice's crossing game where there is one: 2/4 + 2/16 + 2/8 + 2/16 =
    /// `bytes` at most. A memo too small for a byte per position hashes its positions
    /// instead, which costs the searches time, never soundness; a slice of two
    /// columns, which must remember every position it reaches, is then not built (nor the
    /// bound, or the slices of three, that would rest on it).
    pub fn within(columns: &[Vec<u8>], colours: usize, bytes: usize) -> Option<EdgeBound> {
        let w = columns.len();
        if w < 4 || colours > MAX_COLOURS {
            return None;
        }
        // each edge's `n` columns, outermost first, if they fit
        let edges = |n: usize, most: u32| -> Option<[Vec<&[u8]>; 2]> {
            let left: Vec<&[u8]> = columns[..n].iter().map(|c| &c[..]).collect();
            let right: Vec<&[u8]> = columns[w - n..].iter().rev().map(|c| &c[..]).collect();
            let fits = |cols: &[&[u8]]| {
                cols.iter().all(|c| c.len() <= 16)
                    && cols.iter().map(|c| c.len() as u32).sum::<u32>() <= most
            };
            (fits(&left) && fits(&right)).then_some([left, right])
        };
        let narrow = |n: usize, most: u32| -> Option<Vec<Arc<Side>>> {
            let [l, r] = edges(n, most)?;
            Some(vec![
                Arc::new(Side::new(&l, None, bytes / 4)?),
                Arc::new(Side::new(&r, None, bytes / 4)?),
            ])
        };
        let three = if w >= 7 { narrow(3, MAX_TILES_3) } else { None };
        let mut sides = three.or_else(|| narrow(2, MAX_TILES))?;
        let mut crossing = Vec::new();
        if sides[0].n == 3 {
            if let Some([l, r]) = edges(4, MAX_TILES_4) {
                let l = Side::new(&l, Some(sides[0].clone()), bytes / 8);
                let r = Side::new(&r, Some(sides[1].clone()), bytes / 8);
                if let (Some(l), Some(r)) = (l, r) {
                    sides.extend([Arc::new(l), Arc::new(r)]);
                    if w == 3 + MAX_SLICE {
                        let games = (0..2)
                            .map(|k| Crossing::new(sides[k].clone(), bytes / 16))
                            .collect::<Option<Vec<_>>>();
                        crossing = games.unwrap_or_default();
                    }
                }
            }
        }
        Some(EdgeBound {
            sides,
            crossing,
            reach: AtomicU32::new(0),
            colours,
        })
    }

    /// The bytes its memos may take together, once every page of them is written: what a
    /// memory budget must set aside for them (each slice counted once, though a wide
    /// slice's inner one is a narrow slice).
    pub fn bytes(&self) -> usize {
        let mut slices: Vec<&Arc<Side>> = Vec::new();
        for side in &self.sides {
            for s in std::iter::once(side).chain(side.inner.as_ref()) {
                if !slices.iter().any(|t| Arc::ptr_eq(t, s)) {
                    slices.push(s);
                }
            }
        }
        let games: usize = self.crossing.iter().map(Crossing::bytes).sum();
        slices.iter().map(|s| s.memo.bytes()).sum::<usize>() + games
    }

    /// The same bound without its wide slices (sharing the narrow ones and their memos).
    pub fn narrow(&self) -> EdgeBound {
        EdgeBound {
            sides: self.sides[..2].to_vec(),
            crossing: Vec::new(),
            reach: AtomicU32::new(0),
            colours: self.colours,
        }
    }

    /// Halts the relaxed searches of every slice (`true`), or lets them run again
    /// (`false`). Halted, a slice's bound is what it has proven so far: admissible, but
    /// weaker, and nothing the slices learn while halted is remembered as exact. For
    /// stopping a search on time: a relaxed search on a board just begun can take seconds
    /// and looks at no clock. Shared by every bound that shares the slices (see
    /// [`EdgeBound::narrow`]).
    pub fn halt(&self, on: bool) {
        for side in &self.sides {
            side.halt(on);
            if let Some(inner) = &side.inner {
                inner.halt(on);
            }
        }
    }

    /// How many columns each narrow slice has (2 or 3).
    #[inline]
    pub fn slice(&self) -> usize {
        self.sides[0].n
    }

    /// Whether there are wide slices (sides 2 and 3, four columns each).
    #[inline]
    pub fn wide(&self) -> bool {
        self.sides.len() == 4
    }

    /// The relaxed optimum of a side (0 left, 1 right, 2 left wide, 3 right wide) with the
    /// columns `now` (outermost first), each column's colours bottom first; `None` where
    /// the columns are not what the board's can become.
    pub fn optimum(&self, side: usize, now: &[&[u8]]) -> Option<u32> {
        let mut bits = [[0u64; MAX_COLOURS]; MAX_SLICE];
        for (k, col) in now.iter().enumerate() {
            for (y, &c) in col.iter().enumerate() {
                bits[k][c as usize] |= 1 << y;
            }
        }
        self.sides[side]
            .mask_of_bits(&bits)
            .map(|m| self.opt(side, m))
    }

    /// A mask of the starting tiles of a side that leaves its columns as given by their
    /// tiles by colour (`bits[k][c]` has bit `y` set if the tile at height `y` of column
    /// `k`, outermost first, has colour `c`); `None` if they are not what the starting
    /// columns can become.
    #[inline]
    pub fn mask_of_bits(
        &self,
        side: usize,
        bits: &[[u64; MAX_COLOURS]; MAX_SLICE],
    ) -> Option<Mask> {
        self.sides[side].mask_of_bits(bits)
    }

    /// The relaxed optimum of a side with the starting tiles `mask` left.
    #[inline]
    pub fn opt(&self, side: usize, mask: Mask) -> u32 {
        let mut unlimited = u64::MAX;
        self.sides[side].opt(mask, u32::MAX, self.colours, &mut unlimited)
    }

    /// A lower bound on [`EdgeBound::opt`] for a caller that only needs to know whether it
    /// exceeds `cap`: the optimum where it is at most `cap` and found, else a lower bound
    /// (above `cap` if the search got that far). A narrow side's search goes on until it
    /// knows; a wide side's expands at most [`WIDE_EFFORT`] positions, and cut short gives
    /// the bound it has proven (`search.rs`, "Cut short").
    #[inline]
    pub fn opt_capped(&self, side: usize, mask: Mask, cap: u32) -> u32 {
        let s = &self.sides[side];
        let mut effort = if s.n == MAX_SLICE {
            WIDE_EFFORT
        } else {
            u64::MAX
        };
        s.opt(mask, cap, self.colours, &mut effort)
    }

    /// Whether a narrow side meets the other edge's wide slice with a crossing game
    /// ([`EdgeBound::crossing_capped`]).
    #[inline]
    pub fn crossing(&self) -> bool {
        !self.crossing.is_empty()
    }

    /// How far below the limit a pair's joint bound may be for its crossing game to be
    /// searched: 0 at first ([`EdgeBound::reach_crossings`]).
    #[inline]
    pub fn crossing_reach(&self) -> u32 {
        self.reach.load(Relaxed)
    }

    /// Lets the crossing games be searched for children whose pair's joint bound is up to
    /// `reach` below the limit (0: at the limit only). Any reach keeps the bound
    /// admissible: a game only drops a child whose crossing bound is past the limit. Set
    /// while a search runs, it takes effect at once for every thread.
    pub fn reach_crossings(&self, reach: u32) {
        self.reach.store(reach, Relaxed);
    }

    /// A lower bound on the clicks that take tiles of a narrow side (0 left, 1 right) with
    /// the starting tiles `mask` left but none of the other edge's wide slice, when at most
    /// `span` clicks can take tiles of both, and at most `share(c)` of them of colour `c`
    /// (`crossing.rs`): the crossing game's cost where at most `cap` and found within
    /// [`CROSSING_EFFORT`] expansions, else a lower bound on it; 0 without a crossing game
    /// ([`EdgeBound::crossing`]) or with a span above [`MAX_CROSSINGS`].
    #[inline]
    pub fn crossing_capped(
        &self,
        side: usize,
        mask: Mask,
        span: u32,
        share: impl Fn(usize) -> u32,
        cap: u32,
    ) -> u32 {
        let Some(game) = self.crossing.get(side) else {
            return 0;
        };
        let Some(budget) = Crossings::new(span, self.colours, share) else {
            return 0;
        };
        let mut effort = CROSSING_EFFORT;
        game.cost(mask, budget, cap, self.colours, &mut effort)
    }

    /// The mask left when a click takes, from a side's columns with the starting tiles
    /// `mask` left, the tiles `taken` of each column (outermost first; bit `y` is the
    /// tile at height `y` now).
    #[inline]
    pub fn take(&self, side: usize, mask: Mask, taken: &[u64; MAX_SLICE]) -> Mask {
        let s = &self.sides[side];
        mask & !s.starting(&s.split(mask), |k| taken[k])
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
        e.optimum(0, &left).unwrap()
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
        assert_eq!(e.optimum(0, &[&[1, 0], &[1]]), None);
        assert_eq!(e.optimum(1, &[&[0], &[]]), Some(1));
    }
}
