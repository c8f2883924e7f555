//! A fast SameGame engine and a beam search for the highest score, the fewest moves to
//! clear, or the fewest tiles left.
//!
//! The bitboard engine ([`crate::click`]) serves every click game, but on a 15×15 board
//! (a four-word bit set per colour) finding all groups by repeated dilation is what a
//! search spends its time on. This module is the SameGame and Clickomania special case:
//! any group of at least `min_group` tiles may be clicked, tiles fall, empty columns close
//! to the left. What a line is worth is its [`Goal`]'s value (the same values as
//! [`crate::objective`]'s): the score `Σ (n − 2)²` plus 1000 for a cleared board; minus
//! the moves of a line that clears, far below any of those a line that does not; minus
//! 1000 per tile left and one per move.
//!
//! - [`Board`]: one byte per cell, column-major with a stride of [`SIDE`]: cell `(x, y)`
//!   (`y = 0` at the bottom) is byte `x * 16 + y`, so a cell index fits a byte; the column
//!   heights and the number of non-empty columns are kept beside it. All groups of a
//!   position are found in one pass of union-find over the cells ([`Board::forest`]:
//!   each tile joined to the one below and the one to its left, every tree rooted at its
//!   group's lowest cell, which holds the group's size), then numbered
//!   ([`Board::groups`]). (About a fifth less time than the stack flood fill this
//!   replaced, same groups in the same order.)
//! - [`Live`] (module `live`): the groups kept up to date across clicks, only those a
//!   click changed found anew, each legal move with a caller's value and weight: what
//!   playouts ([`playout`], NRPA's) run on. (Against the forest rebuilt at every move: the
//!   beam at fixed width 16 on standard20 #1–2 28% fewer instructions, same lines.)
//! - [`beam`]: a beam search. Every child of every kept node is ranked by its score so far
//!   plus an estimate of what is still to come ([`Weights`]): the *tabu colour* idea (the
//!   most plentiful colour is kept for one big group at the end: its `(n − 2)²` counts in
//!   full, the other colours' an eighth), the clearing bonus while every colour can still
//!   go, and a penalty per group, more for the tabu colour's ([`Board::components`],
//!   Euler's formula, updated from the parent over the clicked group's columns only). The
//!   child is built in a scratch board to be ranked and dropped; only the best few are
//!   rebuilt with their Zobrist keys, duplicates dropped, the best `width` kept. Children
//!   that cannot beat the best line even with every colour in one group are pruned. With
//!   [`Weights::playouts`] the rebuilt children are ranked by a playout's value instead
//!   ([`playout`]: tabu colour last, smallest group first), and every playout is a line;
//!   the child a parent's playout went on to needs none (it inherits the rest of that
//!   line and its value). A beam the deadline cuts short offers one playout from the best
//!   node it reached.
//!   For moves and tiles ([`Weights::clearing`]) the estimate is a move per group and two
//!   per colour, and children are ranked first by the tiles their playout leaves (whether
//!   the board can still be cleared), then by the estimate.
//! - [`search`]: beams of growing width until the deadline (or until a beam keeps every
//!   child, which finds all there is), the next width chosen from how long the last one
//!   took, so the last beam uses most of the time left.
//! - [`portfolio`]: several searches side by side with different rankings. Beam results
//!   swing widely with small changes, so the best of two different searches at half the
//!   time each beats either alone at full time (standard20 #1–8, 5 s: +5–10%).
//! - [`nrpa`] and [`nmcs`] (module `nested`): nested rollout policy adaptation with the
//!   tabu rule as a prior, and nested Monte-Carlo search, on the same engine (`tumble
//!   --anytime nrpa`). Alone, at 60 s per position, NRPA is level with the portfolio in
//!   total, well above or below it position by position (see the README); [`seeded`],
//!   the portfolio for a tenth of the time and then NRPA from its best line, beats both
//!   and is the score's search when there is a deadline.
//!
//! Moves are reported as cell indices of the board they are played on; [`Board::xy`]
//! turns one into `(x, y)` for the engine-independent front ends.

use std::collections::HashSet;
use std::hash::BuildHasherDefault;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use crate::grid::Grid;

mod live;
mod nested;
pub use live::Live;
pub use nested::{nmcs, nrpa, seeded, Code, Nrpa, Start};

/// The largest board side (columns and rows).
pub const SIDE: usize = 16;
const CELLS: usize = SIDE * SIDE;
/// The most colours.
pub const COLOURS: usize = 8;
/// No group (a label).
const NONE: u16 = u16::MAX;

/// A SameGame position: one byte per cell (`0` empty, `1..=K` a colour).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Board {
    cells: [u8; CELLS],
    heights: [u8; SIDE],
    /// Non-empty columns (they are the leftmost ones).
    width: u8,
    /// Tiles of each colour (`counts[c - 1]`).
    counts: [u16; COLOURS],
}

/// A group of a position: its lowest cell (lowest column, then lowest row), colour, size
/// and column range.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Group {
    pub seed: u8,
    pub colour: u8,
    pub size: u16,
    pub x0: u8,
    pub x1: u8,
}

/// The groups of a position, as [`Board::groups`] finds them.
#[derive(Clone, Debug)]
pub struct Groups {
    /// Group number of each cell ([`NONE`] for empty cells).
    label: [u16; CELLS],
    /// Every group, singletons included, in the order of their lowest cells.
    pub list: Vec<Group>,
    /// The union-find forest they were read from.
    forest: Forest,
    /// A [`playout`]'s groups, each legal move with its key.
    live: Live<u64>,
}

impl Default for Groups {
    fn default() -> Self {
        Groups {
            label: [NONE; CELLS],
            list: Vec::with_capacity(CELLS),
            forest: Forest::default(),
            live: Live::empty(),
        }
    }
}

/// The groups of a position as a union-find forest over its cells ([`Board::forest`]),
/// before [`Board::groups`] numbers them.
#[derive(Clone, Debug)]
pub struct Forest {
    /// Parent cell of each tile (a root is its own parent: its group's lowest cell).
    parent: [u8; CELLS],
    /// At a root: its group's size.
    size: [u16; CELLS],
    /// At a root: its group's last column.
    x1: [u8; CELLS],
}

impl Default for Forest {
    fn default() -> Self {
        Forest {
            parent: [0; CELLS],
            size: [0; CELLS],
            x1: [0; CELLS],
        }
    }
}

impl Forest {
    /// The root of tile `i` (halving the path on the way).
    #[inline(always)]
    fn find(&mut self, mut i: u8) -> u8 {
        while self.parent[i as usize] != i {
            let p = self.parent[i as usize];
            self.parent[i as usize] = self.parent[p as usize];
            i = p;
        }
        i
    }
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

    /// Joins every tile to its group ([`Forest`]): one pass of union-find over the cells
    /// in column-major order, each tile joined to the one below and the one to its left
    /// when they match. Every tree is rooted at its group's lowest cell (the smallest cell
    /// index: the union keeps the smaller root), which holds the group's size and last
    /// column.
    pub fn forest(&self, f: &mut Forest) {
        let w = self.width as usize;
        for x in 0..w {
            let base = x * SIDE;
            let h = self.heights[x] as usize;
            let xb = x as u8;
            for y in 0..h {
                let i = base + y;
                let c = self.cells[i];
                let mut r = i as u8;
                if y > 0 && self.cells[i - 1] == c {
                    r = f.find((i - 1) as u8);
                    f.size[r as usize] += 1;
                    f.x1[r as usize] = xb;
                } else {
                    f.size[i] = 1;
                    f.x1[i] = xb;
                }
                f.parent[i] = r;
                // Left: an empty cell holds 0, never a colour.
                if x > 0 && self.cells[i - SIDE] == c {
                    let l = f.find((i - SIDE) as u8);
                    if l != r {
                        let (lo, hi) = if l < r { (l, r) } else { (r, l) };
                        f.parent[hi as usize] = lo;
                        f.parent[i] = lo;
                        f.size[lo as usize] += f.size[hi as usize];
                        f.x1[lo as usize] = xb;
                    }
                }
            }
        }
    }

    /// Finds every group (singletons included) into `out`: the [`Board::forest`], then its
    /// roots numbered in scan order and every tile labelled with its root's number.
    pub fn groups(&self, out: &mut Groups) {
        out.list.clear();
        out.label = [NONE; CELLS];
        let f = &mut out.forest;
        self.forest(f);
        for x in 0..self.width as usize {
            let base = x * SIDE;
            let h = self.heights[x] as usize;
            for y in 0..h {
                let i = base + y;
                let r = f.find(i as u8) as usize;
                if r == i {
                    out.label[i] = out.list.len() as u16;
                    out.list.push(Group {
                        seed: i as u8,
                        colour: self.cells[i],
                        size: f.size[i],
                        x0: x as u8,
                        x1: f.x1[i],
                    });
                } else {
                    out.label[i] = out.label[r];
                }
            }
        }
    }

    /// Removes group number `id` of `groups` (found on this board): tiles fall, empty
    /// columns close to the left.
    pub fn remove(&mut self, groups: &Groups, id: usize) {
        let g = groups.list[id];
        let id = id as u16;
        let mut emptied = false;
        for x in g.x0 as usize..=g.x1 as usize {
            self.fall(x, |i, _| groups.label[i] != id);
            emptied |= self.heights[x] == 0;
        }
        self.counts[g.colour as usize - 1] -= g.size;
        if emptied {
            self.close_columns(g.x0 as usize, |_, _| {});
        }
    }

    /// Column `x` keeps the tiles `keep(i, to)` keeps and the rest go; the kept ones fall.
    /// `keep` is asked about every tile `i` from the bottom up, with the cell `to` it falls
    /// to if kept. Returns the row of the lowest tile gone (the old height if none).
    #[inline(always)]
    fn fall(&mut self, x: usize, mut keep: impl FnMut(usize, usize) -> bool) -> usize {
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
    fn close_columns(&mut self, from: usize, mut moved: impl FnMut(usize, usize)) {
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

    /// About the number of groups, fast: by Euler's formula a colour's 4-connected
    /// components are `tiles − adjacent pairs + filled 2×2 squares + holes`; this leaves out
    /// the holes (a region ringed by one colour), so it may count a few too few.
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
    fn region(&self, xa: usize, xb: usize, wts: &[i64; COLOURS + 1]) -> i64 {
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

    /// A 64-bit Zobrist key of the position.
    pub fn key(&self) -> u64 {
        let z = zobrist();
        let mut h = 0u64;
        for x in 0..self.width as usize {
            for y in 0..self.heights[x] as usize {
                let i = x * SIDE + y;
                h ^= z[i * COLOURS + self.cells[i] as usize - 1];
            }
        }
        h
    }
}

/// The Zobrist table: one random word per (cell, colour).
fn zobrist() -> &'static [u64; CELLS * COLOURS] {
    static TABLE: std::sync::OnceLock<Box<[u64; CELLS * COLOURS]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([0u64; CELLS * COLOURS]);
        let mut s = 0x853c_49e6_748f_ea9bu64;
        for v in t.iter_mut() {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            *v = z ^ (z >> 31);
        }
        t
    })
}

/// The points for a group of `n` tiles.
#[inline]
pub fn points(n: u16) -> i64 {
    let k = n as i64 - 2;
    if k > 0 {
        k * k
    } else {
        0
    }
}

/// What a line is worth (higher is better), the same values as
/// [`crate::objective`]'s: a line's value is the sum of its moves' [`Goal::reward`]s plus
/// the [`Goal::terminal`] value of the position it ends in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Goal {
    /// SameGame's score: `(n − 2)²` per group, 1000 for clearing the board.
    #[default]
    Score,
    /// Fewest moves to clear: `−moves` if the board is cleared, else
    /// `UNCLEARED − 1000·tiles left − moves` (fewest tiles left, then fewest moves).
    Moves,
    /// Fewest tiles left, then fewest moves: `−1000·tiles left − moves`.
    Tiles,
}

/// The value of ending uncleared under [`Goal::Moves`] (before the tiles left).
pub const UNCLEARED: i64 = -1_000_000_000;
/// What a tile left costs under [`Goal::Moves`] and [`Goal::Tiles`].
pub const TILE: i64 = 1000;

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

impl Goal {
    /// What a move removing `size` tiles adds.
    #[inline]
    pub fn reward(self, size: u16) -> i64 {
        match self {
            Goal::Score => points(size),
            Goal::Moves | Goal::Tiles => -1,
        }
    }

    /// What ending on `b` (no move left) adds.
    #[inline]
    pub fn terminal(self, b: &Board) -> i64 {
        let tiles = b.tiles() as i64;
        match self {
            Goal::Score if tiles == 0 => 1000,
            Goal::Score => 0,
            Goal::Moves if tiles == 0 => 0,
            Goal::Moves => UNCLEARED - TILE * tiles,
            Goal::Tiles => -TILE * tiles,
        }
    }

    /// The most the tiles of `counts` can still add, the end included. Score: `(n − 2)²`
    /// per colour (one group each is best, since `(a + b − 2)² > (a − 2)² + (b − 2)²`), plus
    /// the bonus unless a colour has too few tiles to go. Moves and tiles: every colour that
    /// can go needs a click or leaves at least `min_group` tiles; the stuck tiles stay.
    #[inline]
    pub fn upper(self, counts: &[u16; COLOURS], min_group: u16) -> i64 {
        let (free, stuck) = census(counts, min_group);
        match self {
            Goal::Score => {
                let bonus = if stuck == 0 { 1000 } else { 0 };
                bonus + counts.iter().map(|&n| points(n)).sum::<i64>()
            }
            Goal::Moves if stuck > 0 => UNCLEARED - TILE * stuck - free,
            Goal::Moves | Goal::Tiles => -TILE * stuck - free,
        }
    }
}

/// The beam's estimate of the value still to come, in 1/16 of a unit (a point, a move),
/// and how the children are ranked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// What the search is for.
    pub goal: Goal,
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
    /// Rank the rebuilt children by a tabu playout from each ([`playout`]): for the score
    /// by its value, the estimate only preselects them; for moves and tiles by the tiles it
    /// leaves, then by the estimate.
    pub playouts: bool,
    /// Playouts only from children with at most this many tiles (the others rank as if
    /// their playout cleared the board).
    pub playout_tiles: u32,
}

impl Default for Weights {
    /// The estimate alone for the score (tuned on standard20 #1–8 at 3–10 s per position).
    fn default() -> Self {
        Weights {
            goal: Goal::Score,
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
    /// per group and two per colour (as the bitboard beam's `2·bound + groups`). Tuned on
    /// standard20 #1, 7, 11, 13, 14, 16–18 at 5–10 s: keeping a tabu colour whole (as for
    /// the score) costs moves; the estimate alone leaves 1–7 tiles on most of them.
    pub fn clearing(goal: Goal) -> Self {
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
fn most(counts: &[u16; COLOURS]) -> usize {
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
    fn counts_term(&self, counts: &[u16; COLOURS], min_group: u16) -> i64 {
        let t = most(counts);
        let mut e = 0;
        for (c, &n) in counts.iter().enumerate() {
            let w = if c == t { self.tabu } else { self.other };
            e += w * points(n);
        }
        let (free, stuck) = census(counts, min_group);
        e -= self.colour * free;
        match self.goal {
            Goal::Score if stuck == 0 => e + 16 * 1000,
            Goal::Score => e,
            Goal::Moves if stuck > 0 => e + 16 * (UNCLEARED - TILE * stuck),
            Goal::Moves | Goal::Tiles => e - 16 * TILE * stuck,
        }
    }
}

/// Plays from `b` to the end by the tabu rule: the colour with the most tiles now is kept
/// for last; each move takes the smallest group of another colour (of the tabu colour only
/// when no other is left), which lets the others grow before they go (better than the
/// largest first for the score on standard20 #1–4, level for clearing; taking the rarest
/// colour first, or choosing the tabu colour anew at every move, was level for the
/// score). Appends the moves (cells) to `moves`; returns what they are worth under `goal`
/// and the end position. The groups are kept up to date across clicks ([`Live`]), each
/// legal move with its key `(tabu, size, cell)`; each move takes the smallest key.
pub fn playout(
    b: &Board,
    min_group: u16,
    goal: Goal,
    groups: &mut Groups,
    moves: &mut Vec<u8>,
) -> (i64, Board) {
    let mut high = [0u64; COLOURS + 1];
    high[most(&b.counts) + 1] = 1 << 24;
    let key = |root: u8, colour: u8, size: u16| {
        (
            (high[colour as usize] | size as u64) << 8 | root as u64,
            0.0,
        )
    };
    let live = &mut groups.live;
    live.reset(b, min_group, key);
    let mut value = 0;
    loop {
        let Some(k) = (0..live.values().len()).min_by_key(|&k| live.values()[k]) else {
            return (value, *live.board());
        };
        let id = live.ids()[k];
        moves.push(live.group(id).0);
        value += goal.reward(live.play(id, key));
    }
}

/// The value under `goal` of a [`playout`] from `b`, the end included.
pub fn rollout(
    b: &Board,
    min_group: u16,
    goal: Goal,
    groups: &mut Groups,
    moves: &mut Vec<u8>,
) -> i64 {
    let (v, end) = playout(b, min_group, goal, groups, moves);
    v + goal.terminal(&end)
}

/// A beam node.
#[derive(Clone)]
struct Node {
    board: Board,
    /// The value of the line so far.
    value: i64,
    /// With playouts, for the score: the moves of the best line known through this node
    /// after it (its playout's, or its parent's less the move to it), and that line's
    /// value. A child by the first of these moves inherits the rest and needs no playout.
    tail: Vec<u8>,
    known: i64,
}

/// What a beam reports: a finished line's value and moves (cell indices, one per move, on
/// the board it was played on).
pub type Found<'a> = dyn Fn(i64, &[u8]) + Sync + 'a;

/// One beam search of `width` from `start`. Calls `found` with every line better than
/// `floor` it finishes (and raises `floor`). Returns `None` if `stop` or the deadline cut it
/// short, else whether it was exhaustive (no level had more children than it kept, so a
/// wider beam finds nothing new).
#[allow(clippy::too_many_arguments)]
pub fn beam(
    start: &Board,
    min_group: u16,
    width: usize,
    w: &Weights,
    floor: &AtomicI64,
    found: &Found,
    stop: &AtomicBool,
    deadline: Option<Instant>,
) -> Option<bool> {
    let done = || stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d);
    let mut levels: Vec<Vec<(u32, u8)>> = Vec::new();
    let mut beam = vec![Node {
        board: *start,
        value: 0,
        tail: Vec::new(),
        known: i64::MIN,
    }];
    let path = |levels: &[Vec<(u32, u8)>], mut slot: usize| {
        let mut moves = Vec::with_capacity(levels.len());
        for level in levels.iter().rev() {
            let (parent, m) = level[slot];
            moves.push(m);
            slot = parent as usize;
        }
        moves.reverse();
        moves
    };
    let build = w.build.max(4).saturating_mul(width).div_ceil(4);
    // Cut short: the line of a playout from the best node of the last level, if better
    // (without playouts, a beam cut short has no line of its own).
    let cut = |levels: &[Vec<(u32, u8)>], beam: &[Node]| {
        let node = beam.first()?;
        let mut moves = path(levels, 0);
        let (r, end) = playout(
            &node.board,
            min_group,
            w.goal,
            &mut Groups::default(),
            &mut moves,
        );
        let v = node.value + r + w.goal.terminal(&end);
        if floor.fetch_max(v, Ordering::Relaxed) < v {
            found(v, &moves);
        }
        None
    };
    let mut exhaustive = true;
    const CHUNK: usize = 64;
    loop {
        if done() {
            return cut(&levels, &beam);
        }
        let bar = floor.load(Ordering::Relaxed);
        // Rank every child: (estimate, parent, group seed), built in a scratch board and
        // dropped; note finished nodes.
        type Ranked = (Vec<(i64, u32, u8)>, Option<(i64, usize)>);
        let per_chunk: Vec<Ranked> = beam
            .par_chunks(CHUNK)
            .enumerate()
            .map_init(Groups::default, |groups, (k, chunk)| {
                let mut out = Vec::with_capacity(chunk.len() * 24);
                let mut end: Option<(i64, usize)> = None;
                for (j, node) in chunk.iter().enumerate() {
                    let slot = k * CHUNK + j;
                    node.board.groups(groups);
                    let mut wts = [w.group; COLOURS + 1];
                    wts[0] = 0;
                    wts[most(&node.board.counts) + 1] += w.tabu_group;
                    let weighed = w.group != 0 || w.tabu_group != 0;
                    let parts = if weighed && node.board.width > 0 {
                        node.board.region(0, node.board.width as usize - 1, &wts)
                    } else {
                        0
                    };
                    let before = out.len();
                    for (id, g) in groups.list.iter().enumerate() {
                        if g.size < min_group {
                            continue;
                        }
                        let mut counts = node.board.counts;
                        counts[g.colour as usize - 1] -= g.size;
                        let value = node.value + w.goal.reward(g.size);
                        if value + w.goal.upper(&counts, min_group) <= bar {
                            continue;
                        }
                        let mut e = value * 16 + w.counts_term(&counts, min_group);
                        if weighed {
                            let mut child = node.board;
                            child.remove(groups, id);
                            let (x0, x1) = (g.x0 as usize, g.x1 as usize);
                            let parts = if child.width == 0 {
                                0
                            } else if child.width == node.board.width {
                                parts - node.board.region(x0, x1, &wts) + child.region(x0, x1, &wts)
                            } else {
                                child.region(0, child.width as usize - 1, &wts)
                            };
                            debug_assert_eq!(
                                parts,
                                if child.width == 0 {
                                    0
                                } else {
                                    child.region(0, child.width as usize - 1, &wts)
                                }
                            );
                            e -= parts;
                        }
                        out.push((e, slot as u32, g.seed));
                    }
                    if out.len() == before {
                        let v = node.value + w.goal.terminal(&node.board);
                        if end.is_none_or(|(b, _)| v > b) {
                            end = Some((v, slot));
                        }
                    }
                }
                (out, end)
            })
            .collect();
        let mut cands = Vec::new();
        let mut end: Option<(i64, usize)> = None;
        for (c, e) in per_chunk {
            if cands.is_empty() {
                cands = c;
            } else {
                cands.extend(c);
            }
            if let Some((v, s)) = e {
                if end.is_none_or(|(b, _)| v > b) {
                    end = Some((v, s));
                }
            }
        }
        if let Some((v, slot)) = end {
            if floor.fetch_max(v, Ordering::Relaxed) < v {
                found(v, &path(&levels, slot));
            }
        }
        if cands.is_empty() {
            return Some(exhaustive);
        }
        if done() {
            return cut(&levels, &beam);
        }
        // The best few (a margin for duplicates), rebuilt with their keys.
        if cands.len() > build {
            exhaustive = false;
            cands.select_nth_unstable_by(build - 1, |a, b| b.0.cmp(&a.0));
            cands.truncate(build);
        }
        // Children of one parent together: its groups are found once.
        cands.par_sort_unstable_by_key(|c| c.1);
        // Each rebuilt: its node, key, and (with rollouts) the value of a tabu playout
        // from it; the best playout of each chunk with its moves.
        type Built = (Vec<(Node, u64, (i64, i64))>, Option<(i64, usize, Vec<u8>)>);
        let per_chunk: Vec<Built> = cands
            .par_chunks(CHUNK)
            .enumerate()
            .map_init(
                || (Groups::default(), Groups::default(), Vec::new()),
                |(groups, scratch, moves), (k, chunk)| {
                    let mut last = u32::MAX;
                    let mut best: Option<(i64, usize, Vec<u8>)> = None;
                    let out = chunk
                        .iter()
                        .enumerate()
                        .map(|(j, &(e, parent, seed))| {
                            let node = &beam[parent as usize];
                            if parent != last {
                                node.board.groups(groups);
                                last = parent;
                            }
                            let id = groups.label[seed as usize] as usize;
                            let mut board = node.board;
                            board.remove(groups, id);
                            let value = node.value + w.goal.reward(groups.list[id].size);
                            let mut tail = Vec::new();
                            let mut known = i64::MIN;
                            let ranked = if w.playouts
                                && w.goal == Goal::Score
                                && node.tail.first() == Some(&seed)
                            {
                                // The parent's line goes on through this child.
                                tail.extend_from_slice(&node.tail[1..]);
                                known = node.known;
                                (known, e)
                            } else if w.playouts && board.tiles() <= w.playout_tiles {
                                moves.clear();
                                let (r, end) = playout(&board, min_group, w.goal, scratch, moves);
                                let v = value + r + w.goal.terminal(&end);
                                if best.as_ref().is_none_or(|b| v > b.0) {
                                    best = Some((v, k * CHUNK + j, moves.clone()));
                                }
                                match w.goal {
                                    Goal::Score => {
                                        tail.extend_from_slice(moves);
                                        known = v;
                                        (v, e)
                                    }
                                    // Clearing: whether the playout clears, then the
                                    // estimate (the playout's length only adds noise).
                                    Goal::Moves | Goal::Tiles => (-(end.tiles() as i64), e),
                                }
                            } else {
                                (0, e)
                            };
                            let node = Node {
                                board,
                                value,
                                tail,
                                known,
                            };
                            (node, board.key(), ranked)
                        })
                        .collect::<Vec<_>>();
                    (out, best)
                },
            )
            .collect();
        let mut built = Vec::with_capacity(cands.len());
        let mut best: Option<(i64, usize, Vec<u8>)> = None;
        for (b, l) in per_chunk {
            built.extend(b);
            if let Some(l) = l {
                if best.as_ref().is_none_or(|b| l.0 > b.0) {
                    best = Some(l);
                }
            }
        }
        if let Some((v, i, tail)) = best {
            if floor.fetch_max(v, Ordering::Relaxed) < v {
                let (_, parent, seed) = cands[i];
                let mut line = path(&levels, parent as usize);
                line.push(seed);
                line.extend(tail);
                found(v, &line);
            }
        }
        let mut order: Vec<(i64, i64, u64, u32)> = built
            .iter()
            .enumerate()
            .map(|(i, b)| (b.2 .0, b.2 .1, b.1, i as u32))
            .collect();
        order.par_sort_unstable_by(|a, b| (b.0, b.1).cmp(&(a.0, a.1)));
        let mut seen: HashSet<u64, BuildHasherDefault<Plain>> =
            HashSet::with_capacity_and_hasher(width.min(order.len()) * 2, Default::default());
        let mut next = Vec::with_capacity(width.min(order.len()));
        let mut level = Vec::with_capacity(width.min(order.len()));
        for (_, _, key, i) in order {
            if next.len() == width {
                exhaustive = false;
                break;
            }
            if seen.insert(key) {
                let (_, parent, seed) = cands[i as usize];
                next.push(built[i as usize].0.clone());
                level.push((parent, seed));
            }
        }
        levels.push(level);
        beam = next;
    }
}

/// A hasher for keys that are already random.
#[derive(Default)]
struct Plain(u64);
impl std::hash::Hasher for Plain {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = i;
    }
}

/// Beams of growing width from `start` until `stop` or the deadline (without a deadline:
/// up to width `max_width`), on `threads` threads. Every better line goes to `found`.
/// Returns the best value found.
#[allow(clippy::too_many_arguments)]
pub fn search(
    start: &Board,
    min_group: u16,
    w: &Weights,
    threads: usize,
    max_width: usize,
    found: &Found,
    stop: &AtomicBool,
    deadline: Option<Instant>,
) -> i64 {
    portfolio(
        start,
        min_group,
        std::slice::from_ref(w),
        threads,
        max_width,
        found,
        stop,
        deadline,
    )
}

/// What the searches of a portfolio share: the start, limits, where lines go, and the best
/// value so far (every search prunes with it).
struct Run<'a, 'f> {
    start: &'a Board,
    min_group: u16,
    max_width: usize,
    found: &'a Found<'f>,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    floor: &'a AtomicI64,
}

impl Run<'_, '_> {
    /// Beams of growing width with weights `w` on `threads` threads.
    fn search(&self, w: &Weights, threads: usize) {
        let (start, min_group, max_width, found, stop, deadline, floor) = (
            self.start,
            self.min_group,
            self.max_width,
            self.found,
            self.stop,
            self.deadline,
            self.floor,
        );
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build()
            .expect("a thread pool");
        pool.install(|| {
            let mut width = 1usize;
            loop {
                let t = Instant::now();
                let out = beam(start, min_group, width, w, floor, found, stop, deadline);
                if out != Some(false) || width >= max_width {
                    break;
                }
                let took = t.elapsed().as_secs_f64().max(1e-4);
                // The next width: double, or (when the time left allows more than a doubled
                // beam and then some) a width the time left should just hold.
                let grow = match deadline {
                    Some(d) => {
                        let left = d.saturating_duration_since(Instant::now()).as_secs_f64();
                        let fit = 0.8 * left / took;
                        if fit >= 6.0 {
                            2.0
                        } else {
                            fit.max(1.05)
                        }
                    }
                    None => 2.0,
                };
                width = ((width as f64 * grow) as usize).clamp(width + 1, max_width);
            }
        });
    }
}

/// A portfolio: one [`search`] per weight set, side by side (beam search results swing
/// widely with small changes of the estimate, so different estimates find different good
/// lines), sharing `threads` threads and the best value so far: a line one finds prunes
/// the others. Every better line of any of them goes to `found`
/// (which must keep the best). Returns the best value found.
#[allow(clippy::too_many_arguments)]
pub fn portfolio(
    start: &Board,
    min_group: u16,
    sets: &[Weights],
    threads: usize,
    max_width: usize,
    found: &Found,
    stop: &AtomicBool,
    deadline: Option<Instant>,
) -> i64 {
    let each = (threads / sets.len().max(1)).max(1);
    let floor = AtomicI64::new(i64::MIN);
    let run = Run {
        start,
        min_group,
        max_width,
        found,
        stop,
        deadline,
        floor: &floor,
    };
    std::thread::scope(|sc| {
        for w in sets {
            let run = &run;
            sc.spawn(move || run.search(w, each));
        }
    });
    floor.into_inner()
}

/// The weight sets of the default portfolio for `goal`. The score: the estimate alone, and
/// playouts that take the smallest group first. Moves and tiles: [`Weights::clearing`]
/// alone (a second set beside it was level on standard20 #1, 7, 11, 13, 14, 16–18 at 10 s).
pub fn default_sets(goal: Goal) -> Vec<Weights> {
    match goal {
        Goal::Score => {
            let base = Weights::default();
            vec![
                base,
                Weights {
                    playouts: true,
                    build: 16,
                    ..base
                },
            ]
        }
        Goal::Moves | Goal::Tiles => vec![Weights::clearing(goal)],
    }
}
