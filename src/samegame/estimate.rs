//! What the searches know of a position before playing it out: the most its tiles can
//! still add ([`upper`]), the beam's estimate of what is still to come ([`Weights`]), and
//! the count of groups by Euler's formula that estimate charges ([`Board::components`]).

use super::board::{Board, COLOURS, SIDE};
use crate::rules::{points, Objective, CLEARED, TILE, UNCLEARED};

impl Board {
    /// About the number of groups, fast: by Euler's formula a colour's 4-connected
    /// components are `tiles − adjacent pairs + filled 2×2 squares + holes`; this leaves out
    /// the holes (a region ringed by one colour), so it may count a few too few. The same
    /// count as [`crate::objective`]'s on bit planes; here also weighed per colour
    /// (`region`) and updated over a click's columns only, for the beam.
    pub fn components(&self) -> i64 {
        let mut wts = [1; COLOURS + 1];
        wts[0] = 0;
        self.region(0, self.width as usize - 1, &wts)
    }

    /// The part of [`Board::components`] that columns `xa..=xb` hold, each colour `c`
    /// counted `wts[c]` times: their tiles and vertical pairs, and the pairs and squares
    /// they share with their neighbours. A click that empties no column changes only its
    /// own columns, hence only this part.
    #[inline]
    pub(super) fn region(&self, xa: usize, xb: usize, wts: &[i64; COLOURS + 1]) -> i64 {
        let mut n = 0i64;
        for x in xa..=xb.min(SIDE - 1) {
            let base = x * SIDE;
            let h = self.heights[x] as usize;
            for y in 0..h {
                let c = self.cells[base + y];
                let paired = y > 0 && c == self.cells[base + y - 1];
                n += wts[c as usize] * (1 - paired as i64);
            }
        }
        for x in xa.saturating_sub(1)..=xb {
            if x + 1 >= self.width as usize {
                break;
            }
            let (a, b) = (x * SIDE, x * SIDE + SIDE);
            let h = self.heights[x].min(self.heights[x + 1]) as usize;
            let mut below = false;
            for y in 0..h {
                let c = self.cells[a + y];
                let same = self.cells[b + y] == c;
                // A pair, less a square: this row's pair and the one below, all four of
                // one colour.
                let square = same && below && self.cells[a + y - 1] == c;
                n -= wts[c as usize] * (same as i64 - square as i64);
                below = same;
            }
        }
        n
    }
}

/// Colours that can still go (at least `min_group` tiles) and tiles that never can (of
/// colours with fewer).
#[inline]
fn census(counts: &[u16; COLOURS], min_group: u16) -> (i64, i64) {
    let (mut free, mut stuck) = (0, 0);
    for &n in counts {
        if n >= min_group {
            free += 1;
        } else {
            stuck += n as i64;
        }
    }
    (free, stuck)
}

/// The most the tiles of `counts` can still add under `goal`, the end included. Score:
/// `(n − 2)²` per colour (one group each is best, since `(a + b − 2)² > (a − 2)² + (b − 2)²`),
/// plus the bonus unless a colour has too few tiles to go. Moves and tiles: every colour
/// that can go needs a click or leaves at least `min_group` tiles; the stuck tiles stay.
#[inline]
pub fn upper(goal: Objective, counts: &[u16; COLOURS], min_group: u16) -> i64 {
    let (free, stuck) = census(counts, min_group);
    match goal {
        Objective::Score => {
            let bonus = if stuck == 0 { CLEARED } else { 0 };
            bonus + counts.iter().map(|&n| points(n as u32)).sum::<i64>()
        }
        Objective::Moves if stuck > 0 => UNCLEARED - TILE * stuck - free,
        Objective::Moves | Objective::Tiles => -TILE * stuck - free,
    }
}

/// The beam's estimate of the value still to come, in 1/16 of a unit (a point, a move),
/// and how the children are ranked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// What the search is for.
    pub goal: Objective,
    /// On the most plentiful colour's `(n − 2)²` (the tabu colour, kept for last).
    pub tabu: i64,
    /// On each other colour's `(n − 2)²`.
    pub other: i64,
    /// Per group of any colour (about: see [`Board::components`]); a cost.
    pub group: i64,
    /// Per group of the tabu colour, on top of `group`: its tiles should join.
    pub tabu_group: i64,
    /// Per colour on the board (moves and tiles: a click each at least); a cost.
    pub colour: i64,
    /// Children rebuilt per kept node, in quarters: a margin for duplicates (and, with
    /// playouts, the ones the playouts rank).
    pub build: usize,
    /// Rank the rebuilt children by a tabu playout from each ([`playout`](super::playout)): for the score
    /// by its value, the estimate only preselects them; for moves and tiles by the tiles it
    /// leaves, then by the estimate.
    pub playouts: bool,
    /// Playouts only from children with at most this many tiles (the others rank as if
    /// their playout cleared the board).
    pub playout_tiles: u32,
}

impl Default for Weights {
    /// The estimate alone, for the score.
    fn default() -> Self {
        Weights {
            goal: Objective::Score,
            tabu: 16,
            other: 2,
            group: 960,
            tabu_group: 960,
            colour: 0,
            build: 8,
            playouts: false,
            playout_tiles: u32::MAX,
        }
    }
}

impl Weights {
    /// For fewest moves or tiles: children ranked by whether a tabu playout from them
    /// clears the board (from 60 tiles down; earlier nearly every one does), then by a move
    /// per group and two per colour (as the bitboard beam's `2·bound + groups`). No tabu
    /// colour: keeping one colour whole, as for the score, costs moves; and the estimate
    /// alone cannot tell a board that still clears from one that leaves a few tiles, a
    /// playout can.
    pub fn clearing(goal: Objective) -> Self {
        Weights {
            goal,
            tabu: 0,
            other: 0,
            group: 16,
            tabu_group: 0,
            colour: 32,
            build: 16,
            playouts: true,
            playout_tiles: 60,
        }
    }
}

/// The colour with the most tiles (0-based).
#[inline]
pub(super) fn most(counts: &[u16; COLOURS]) -> usize {
    let mut best = 0;
    for c in 1..COLOURS {
        if counts[c] > counts[best] {
            best = c;
        }
    }
    best
}

impl Weights {
    /// The cheap part of the estimate: from the colour counts alone (×16).
    #[inline]
    pub(super) fn counts_term(&self, counts: &[u16; COLOURS], min_group: u16) -> i64 {
        let t = most(counts);
        let mut e = 0;
        for (c, &n) in counts.iter().enumerate() {
            let w = if c == t { self.tabu } else { self.other };
            e += w * points(n as u32);
        }
        let (free, stuck) = census(counts, min_group);
        e -= self.colour * free;
        match self.goal {
            Objective::Score if stuck == 0 => e + 16 * CLEARED,
            Objective::Score => e,
            Objective::Moves if stuck > 0 => e + 16 * (UNCLEARED - TILE * stuck),
            Objective::Moves | Objective::Tiles => e - 16 * TILE * stuck,
        }
    }
}
