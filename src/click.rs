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
//! [`ClickGame`] holds the geometry and [`Rules`] and implements [`Puzzle`] for the
//! fewest-clicks objective, so every search algorithm in [`crate::search`] serves every click
//! game. It is generic over the bit set: `u64` for boards of up to 64 cells, [`crate::bits::Wide`]
//! for bigger ones ([`crate::solve`] picks).
//!
//! ## Lower bounds (admissible: never more than the clicks still needed)
//! - **colours**: every colour left needs at least one click (one click removes one colour).
//! - **column runs** (only when columns never move, `former` and `figure`): a colour that
//!   occupies `k` maximal runs of adjacent columns needs at least `k` clicks. A group is
//!   4-connected, so its columns form one run of adjacent columns, all holding its colour;
//!   tiles never change column, so a column without colour `c` never gains one, and two runs
//!   of `c` stay separated for ever: no click can take tiles of two runs.
//! - **edge** (only when columns never move): the three outermost columns on each side
//!   (two on boards under seven columns), and on boards of seven or more the four
//!   outermost as well, solved exactly in a relaxed game, plus the column runs lying
//!   wholly beyond them ([`crate::edge`], with its proof), and a left and a right slice at
//!   once (their optima added, minus the clicks that can touch both). The bound is the
//!   largest of these. Children get it from their parent's: a slice the click does not
//!   touch keeps its optimum, and one it touches loses the clicked tiles from its mask of
//!   starting tiles.
//! - with a smallest group of 2, a colour with a single tile can never be cleared: the board
//!   is unsolvable (bound [`INFINITE`]).
//!
//! ## Forced moves (only when columns never move)
//! If a clickable group `G` is a whole run of its colour `c` (all the `c` tiles of a
//! maximal run of columns holding `c`) and nothing rests on `G` (every cell above a cell of
//! `G` is empty or in `G`), some optimal solution clicks `G` first, so no other move need
//! be tried. Proof: tiles never change column and nothing is above `G`, so the tiles of
//! `G` stay the top of their columns for ever: they never support another tile, never
//! connect tiles of another colour, and never connect to other `c` tiles (those are in
//! other runs, which never meet). So every other tile falls, groups and may be clicked
//! exactly as if `G` were not there, and the clicks that take `G`'s tiles (at least one)
//! change nothing else. In any solution, deleting those clicks and clicking `G` first
//! instead gives a solution no longer. (Clicking `G` must leave no run too small to click
//! under the smallest-group rule: checked.)
//!
//! ## Children that cannot lower the bound (only when columns move)
//! When columns move the bound is the colours left, and only a click that takes a whole
//! colour lowers it. So a position in which no colour is one clickable group needs a click
//! more than its bound, and a search with no slack left at a child that keeps every colour
//! can drop it when no colour of it is whole. The search used to build every such child to
//! find out, and dropped nearly all (on the seed dust board 98% of the children of its
//! last iteration). [`ClickGame::bounded_successors`] tells most of them from the parent:
//!
//! - **the moved region**: in a *settled* position ([`ClickGame::is_settled`]: as the
//!   sideways step leaves it, which every position a click makes is), clicking a group
//!   changes only the cells of [`ClickGame::moved_region`]. Gravity changes only the
//!   group's columns, from the group's lowest cell in each up. Under the dust squeeze, a
//!   half the group does not touch is not changed at all; in a half it touches, with `y0`
//!   the group's lowest row there, rows below `y0` keep their tiles (gravity changed
//!   nothing there) and were squeezed already; in a row at or above `y0` the cells between
//!   the group's innermost column and the centre hold the same as before: where the row
//!   had tiles there, it had tiles all the way to the centre (settled), gravity did not
//!   touch those columns and the squeeze keeps a tile with only tiles between it and the
//!   centre where it is; where it had none, the cells farther out were empty too, and so
//!   were all cells above them (gravity), so nothing can fall or slide in. With columns
//!   closing left, gravity alone unless a column empties, and then every column from the
//!   group's first one on.
//! - **a part out of reach**: a part `P` (a maximal 4-connected set of one colour) other
//!   than the clicked group, with neither a cell in the moved region nor a neighbour in it,
//!   is a part of the child too: its cells and its neighbours' cells hold what they held,
//!   and those neighbours were not of its colour. If its colour has another part (which
//!   loses no tile: only the group's tiles go), that colour is not whole in the child.
//!
//! - **no tile that moves**: a tile that moves leaves a cell of the region and lands in
//!   one, so a colour with no tile in the region (the group's aside) has no tile that
//!   moves; every part of it lies outside the region, and the cells beside it that are
//!   in the region do not get its colour: its parts stay apart.
//!
//! So when every colour has two parts or more and one of them out of the click's reach or
//! none of its tiles in the region, the child has no whole colour, needs at least the
//! bound plus one, and is not built. The children that are built (a fifth of them turn
//! out to have a whole colour on the seed dust board) are checked whole before they are
//! handed to the search, which would otherwise hash, probe and store each to drop it.
//! `tests/engine_vs_reference.rs` checks the moved region cell by cell, and that no child
//! left out has a whole clickable colour, against the reference simulator.

use std::sync::Arc;

use crate::bits::Bits;
use crate::edge::{EdgeBound, Mask, MAX_SLICE};
use crate::grid::{BoardError, Grid, MAX_COLOURS};
use crate::puzzle::{Puzzle, INFINITE};
use crate::rules::{Clickable, Rules, Sideways};

/// Board geometry and the precomputed masks the engine works with.
#[derive(Clone, Debug)]
pub struct Geometry<B> {
    pub width: usize,
    pub height: usize,
    all: B,
    bottom: B,
    top: B,
    cols: Vec<B>,
    rows: Vec<B>,
    /// `(k, cells with y + k < H)`: one step of smearing a column down onto its bottom cell.
    smear: Vec<(u32, B)>,
    /// For the row squeeze, one flat table: entry `(y·(m + 1) + l)·(W − m + 1) + r` is row
    /// `y` with `l` tiles ending at column `m-1` and `r` tiles starting at column `m`.
    squeezed: Vec<B>,
    half: usize,
    /// `from_row[y]`: every cell in row `y` or above (`from_row[H]` is empty).
    from_row: Vec<B>,
    /// The column of each cell (a lookup instead of a division).
    column_of: Vec<u8>,
}

impl<B: Bits> Geometry<B> {
    /// Masks for a `width × height` board. The caller checks that it fits in `B`.
    pub fn new(width: usize, height: usize) -> Self {
        assert!(width * height <= B::CAPACITY && width <= 64 && height <= 64);
        let idx = |x: usize, y: usize| x * height + y;
        let mut cols = vec![B::EMPTY; width];
        let mut rows = vec![B::EMPTY; height];
        let (mut bottom, mut top) = (B::EMPTY, B::EMPTY);
        #[allow(clippy::needless_range_loop)]
        for x in 0..width {
            for y in 0..height {
                cols[x].insert(idx(x, y));
                rows[y].insert(idx(x, y));
            }
            bottom.insert(idx(x, 0));
            top.insert(idx(x, height - 1));
        }
        let mut smear = Vec::new();
        let mut k = 1;
        while k < height {
            let mut m = B::EMPTY;
            for x in 0..width {
                for y in 0..height - k {
                    m.insert(idx(x, y));
                }
            }
            smear.push((k as u32, m));
            k *= 2;
        }
        let half = width / 2;
        let mut squeezed = Vec::with_capacity(height * (half + 1) * (width - half + 1));
        for y in 0..height {
            for l in 0..=half {
                for r in 0..=width - half {
                    let mut s = B::EMPTY;
                    for x in half - l..half + r {
                        s.insert(idx(x, y));
                    }
                    squeezed.push(s);
                }
            }
        }
        let mut from_row = vec![B::EMPTY; height + 1];
        for y in (0..height).rev() {
            from_row[y] = from_row[y + 1] | rows[y];
        }
        Geometry {
            width,
            height,
            all: B::low(width * height),
            bottom,
            top,
            cols,
            rows,
            smear,
            squeezed,
            half,
            from_row,
            column_of: (0..width * height).map(|i| (i / height) as u8).collect(),
        }
    }

    /// The first and last columns in which `s` (not empty) has a cell: the columns a
    /// group spans, as a connected set spans every column between.
    #[inline(always)]
    pub fn columns_of(&self, s: B) -> (usize, usize) {
        let first = s.first().expect("a set with a cell");
        let last = s.last().expect("a set with a cell");
        (
            self.column_of[first] as usize,
            self.column_of[last] as usize,
        )
    }

    /// The bit index of `(x, y)`.
    #[inline]
    pub fn index(&self, x: usize, y: usize) -> usize {
        x * self.height + y
    }

    /// The `(x, y)` of a bit index.
    #[inline]
    pub fn coords(&self, i: usize) -> (usize, usize) {
        (i / self.height, i % self.height)
    }

    /// The cells 4-adjacent to `s` (not including `s`).
    #[inline(always)]
    pub fn neighbours(&self, s: B) -> B {
        let h = self.height as u32;
        (s.shl(1).without(self.bottom) | s.shr(1).without(self.top) | s.shl(h) | s.shr(h))
            & self.all
    }

    /// The connected part of `within` that contains `seed` (4-connectivity).
    #[inline(always)]
    pub fn flood(&self, seed: B, within: B) -> B {
        let h = self.height as u32;
        let mut g = seed;
        loop {
            let grown = (g
                | g.shl(1).without(self.bottom)
                | g.shr(1).without(self.top)
                | g.shl(h)
                | g.shr(h))
                & within;
            if grown == g {
                return g;
            }
            g = grown;
        }
    }

    /// Bit `x` set for every column `x` in which `s` has a cell.
    #[inline(always)]
    pub fn column_set(&self, s: B) -> u64 {
        let mut t = s;
        for &(k, m) in &self.smear {
            t |= t.shr(k) & m;
        }
        t.pext(self.bottom).low_word()
    }

    /// All cells of columns `x0..=x1`.
    #[inline(always)]
    fn column_span(&self, x0: usize, x1: usize) -> B {
        B::low((x1 + 1) * self.height).without(B::low(x0 * self.height))
    }

    /// Column mask of `x`.
    pub fn column(&self, x: usize) -> B {
        self.cols[x]
    }

    /// Row mask of `y`.
    pub fn row(&self, y: usize) -> B {
        self.rows[y]
    }

    /// The bottom row mask.
    pub fn bottom_row(&self) -> B {
        self.bottom
    }
}

/// A position of a click game: one bit set per colour (`planes[c]` is colour `c + 1`).
/// Two positions are equal when their tiles are.
#[derive(Clone, Copy, Debug)]
pub struct ClickBoard<B> {
    pub occupied: B,
    pub planes: [B; MAX_COLOURS],
    /// What the search already knows of the position's edge bound (see [`EdgeKnown`]).
    edge: EdgeKnown,
}

impl<B: Bits> PartialEq for ClickBoard<B> {
    fn eq(&self, other: &Self) -> bool {
        self.occupied == other.occupied && self.planes == other.planes
    }
}

impl<B: Bits> Eq for ClickBoard<B> {}

impl<B: Bits> std::hash::Hash for ClickBoard<B> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.occupied.hash(state);
        self.planes.hash(state);
    }
}

/// Each edge slice's mask and relaxed optimum ([`crate::edge`]) of a position, as the
/// parent's [`ClickGame::child_edge_bound`] found them when the search built it, so
/// that the position's own edge terms need not read its columns again nor look the
/// optima up. Only [`ClickGame::bounded_successors`] sets it, on the children it builds;
/// every other way to make a position leaves it [`EdgeKnown::NOTHING`].
#[derive(Clone, Copy, Debug)]
struct EdgeKnown {
    /// Each side's mask, [`EdgeKnown::UNKNOWN`] where not known.
    mask: [Mask; SIDES],
    /// Each side's relaxed optimum where its mask is known.
    opt: [u8; SIDES],
}

impl EdgeKnown {
    /// No mask has all 64 bits (a slice has at most [`crate::edge::MAX_TILES_4`] tiles).
    const UNKNOWN: Mask = Mask::MAX;
    const NOTHING: EdgeKnown = EdgeKnown {
        mask: [Self::UNKNOWN; SIDES],
        opt: [0; SIDES],
    };
}

/// The most edge slices ([`crate::edge`]): the narrow left and right, the wide left and
/// right.
const SIDES: usize = 4;

/// The pairs of a left and a right slice that make a joint bound ([`crate::edge`]), by
/// side: both narrow, the wide left with the narrow right, the narrow left with the
/// wide right.
const JOINTS: [(usize, usize); 3] = [(0, 1), (2, 1), (0, 3)];

/// The columns of an edge slice (by side: 0 and 1 narrow, of `slice` columns; 2 and 3
/// wide).
#[inline(always)]
fn side_width(slice: usize, side: usize) -> usize {
    if side < 2 {
        slice
    } else {
        MAX_SLICE
    }
}

/// Is an edge slice (by side) at the left edge? (Even sides are, odd ones the right.)
#[inline(always)]
fn is_left(side: usize) -> bool {
    side & 1 == 0
}

impl<B: Bits> ClickBoard<B> {
    /// Number of tiles on the board.
    pub fn tiles(&self) -> u32 {
        self.occupied.count()
    }
    /// Is the board empty?
    pub fn is_empty(&self) -> bool {
        self.occupied.is_empty()
    }
}

/// A click: the lowest cell of the group (lowest column, then lowest row), its colour
/// (`1..=K`) and size, and the group's column range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Click {
    pub cell: u16,
    pub colour: u8,
    pub size: u16,
    pub x0: u8,
    pub x1: u8,
}

/// The parts of the edge bound of a position ([`crate::edge`]): each side's mask of
/// starting tiles left (`None` if the position is not from the board's start, or the side
/// is not there) and relaxed optimum, the runs lying wholly beyond each side's slice, and
/// each colour's share of those; for each joint bound ([`JOINTS`]), the runs between its
/// slices and how many clicks can touch both.
struct EdgeTerms {
    mask: [Option<Mask>; SIDES],
    opt: [u32; SIDES],
    beyond: [u32; SIDES],
    of: [[u32; SIDES]; MAX_COLOURS],
    /// Runs lying wholly between a joint's two slices, in all and per colour.
    mid: [u32; 3],
    mid_of: [[u32; 3]; MAX_COLOURS],
    /// An upper bound on the clicks that can touch both of a joint's slices, in all and
    /// per colour.
    span: [u32; 3],
    span_of: [[u32; 3]; MAX_COLOURS],
}

impl EdgeTerms {
    #[inline]
    fn bound(&self) -> u32 {
        let [l, r, joint] = self.parts();
        l.max(r).max(joint)
    }

    /// The left edges' bound, the right edges' and the joint one (0 where not known).
    #[inline]
    fn parts(&self) -> [u32; 3] {
        let side = |k: usize| self.mask[k].map_or(0, |_| self.opt[k] + self.beyond[k]);
        let mut joint = 0;
        for (j, &(l, r)) in JOINTS.iter().enumerate() {
            if self.mask[l].is_some() && self.mask[r].is_some() {
                let v = (self.opt[l] + self.opt[r] + self.mid[j]).saturating_sub(self.span[j]);
                joint = joint.max(v);
            }
        }
        [side(0).max(side(2)), side(1).max(side(3)), joint]
    }
}

/// The most parts [`Parts`] holds; a position with more is searched without it.
const PARTS_MAX: usize = 64;

/// Every part (4-connected set of one colour's tiles, clickable or not) of a settled
/// position ([`ClickGame::is_settled`]), colour by colour, each colour's parts in the
/// order of their lowest cell: for telling, without building a child, that no colour of
/// it can be whole ([`Parts::may_leave_whole`]).
struct Parts<B> {
    sets: [B; PARTS_MAX],
    colour: [u8; PARTS_MAX],
    n: usize,
    /// Colour `c`'s parts are `sets[start[c]..start[c + 1]]`.
    start: [u8; MAX_COLOURS + 1],
    /// The colours with one part, with two, and with two or more (bit `c` for colour `c`).
    one: u32,
    two: u32,
    more: u32,
}

impl<B: Bits> Parts<B> {
    /// The parts of `s`, or `None` if `s` is not settled or has more than
    /// [`PARTS_MAX`] parts.
    fn of(game: &ClickGame<B>, s: &ClickBoard<B>) -> Option<Self> {
        if !game.is_settled(s) {
            return None;
        }
        let mut p = Parts {
            sets: [B::EMPTY; PARTS_MAX],
            colour: [0; PARTS_MAX],
            n: 0,
            start: [0; MAX_COLOURS + 1],
            one: 0,
            two: 0,
            more: 0,
        };
        for (c, &plane) in s.planes[..game.colours].iter().enumerate() {
            p.start[c] = p.n as u8;
            let mut seeds = plane;
            while let Some(i) = seeds.first() {
                if p.n == PARTS_MAX {
                    return None;
                }
                let part = game.geom.flood(B::single(i), plane);
                seeds = seeds.without(part);
                p.sets[p.n] = part;
                p.colour[p.n] = c as u8;
                p.n += 1;
            }
            let k = p.n - p.start[c] as usize;
            p.one |= u32::from(k == 1) << c;
            p.two |= u32::from(k == 2) << c;
            p.more |= u32::from(k >= 2) << c;
        }
        p.start[game.colours] = p.n as u8;
        Some(p)
    }

    /// Can some colour be one part after clicking part `i` (of colour `c`, in the
    /// columns `x0..=x1`) of `s`? `false` is a proof that it cannot: a colour left with
    /// two parts or more, one of which neither lies in nor touches the cells the click
    /// may change, keeps that part as a part of its own.
    #[inline]
    fn may_leave_whole(
        &self,
        game: &ClickGame<B>,
        s: &ClickBoard<B>,
        i: usize,
        (x0, x1): (usize, usize),
    ) -> bool {
        let c = self.colour[i] as usize;
        if self.one & !(1 << c) != 0 || self.two & (1 << c) != 0 {
            return true; // a colour whole already (it may stay so)
        }
        let group = self.sets[i];
        let moved = game.moved_region(s, group, x0, x1);
        let reach = moved | game.geom.neighbours(moved);
        // a colour of two parts or more (besides the group) with a tile that may move,
        // and no part out of the click's reach
        let mut more = self.more;
        while more != 0 {
            let d = more.trailing_zeros() as usize;
            more &= more - 1;
            if !s.planes[d].without(group).meets(moved) {
                continue;
            }
            let (a, b) = (self.start[d] as usize, self.start[d + 1] as usize);
            if self.sets[a..b]
                .iter()
                .enumerate()
                .all(|(j, p)| a + j == i || p.meets(reach))
            {
                return true;
            }
        }
        false
    }
}

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
    /// Checks gravity; the caller has picked a `B` the board fits in.
    pub fn new(grid: &Grid, rules: Rules) -> Result<(Self, ClickBoard<B>), BoardError> {
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
            EdgeBound::new(&columns, grid.colours()).map(Arc::new)
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

    /// The position of a grid of the same size and palette.
    pub fn board(&self, grid: &Grid) -> ClickBoard<B> {
        let mut b = ClickBoard {
            occupied: B::EMPTY,
            planes: [B::EMPTY; MAX_COLOURS],
            edge: EdgeKnown::NOTHING,
        };
        for x in 0..grid.width() {
            for y in 0..grid.height() {
                let c = grid.get(x, y);
                if c != 0 {
                    let i = self.geom.index(x, y);
                    b.occupied.insert(i);
                    b.planes[c as usize - 1].insert(i);
                }
            }
        }
        b
    }

    /// The position as a grid (with the game's palette).
    pub fn grid(&self, b: &ClickBoard<B>) -> Grid {
        let (w, h) = (self.geom.width, self.geom.height);
        let mut cells = vec![0u8; w * h];
        for c in 0..self.colours {
            for i in b.planes[c].iter() {
                let (x, y) = self.geom.coords(i);
                cells[y * w + x] = c as u8 + 1;
            }
        }
        Grid::from_cells(w, h, cells, self.palette.clone())
    }

    /// Number of colours in the palette.
    pub fn colours(&self) -> usize {
        self.colours
    }

    /// Calls `f(click, group)` for every clickable group under the rules.
    #[inline]
    pub fn for_each_group(&self, b: &ClickBoard<B>, mut f: impl FnMut(Click, B)) {
        self.for_each_raw_group(b, |c, _, group, size| {
            f(self.click_of(group, c, size), group);
            false
        });
    }

    /// Calls `f(colour index, plane, group, size)` for every clickable group under the
    /// rules, without building its [`Click`]; stops, and returns `true`, when `f` does.
    #[inline(always)]
    fn for_each_raw_group(
        &self,
        b: &ClickBoard<B>,
        mut f: impl FnMut(usize, B, B, u32) -> bool,
    ) -> bool {
        let g = &self.geom;
        for (c, &plane) in b.planes[..self.colours].iter().enumerate() {
            if plane.is_empty() {
                continue;
            }
            let mut seeds = match self.rules.clickable {
                Clickable::Any => plane,
                Clickable::Bottom => plane & g.bottom,
            };
            while let Some(i) = seeds.first() {
                let group = g.flood(B::single(i), plane);
                seeds = seeds.without(group);
                let size = group.count();
                if size >= self.rules.min_group && f(c, plane, group, size) {
                    return true;
                }
            }
        }
        false
    }

    /// Every clickable group, as (click, cells).
    pub fn groups(&self, b: &ClickBoard<B>) -> Vec<(Click, B)> {
        let mut out = Vec::new();
        self.for_each_group(b, |c, g| out.push((c, g)));
        out
    }

    /// The group containing `(x, y)`, whether or not it may be clicked.
    pub fn group_at(&self, b: &ClickBoard<B>, x: usize, y: usize) -> Option<(Click, B)> {
        if x >= self.geom.width || y >= self.geom.height {
            return None;
        }
        let i = self.geom.index(x, y);
        let c = (0..self.colours).find(|&c| b.planes[c].has(i))?;
        let group = self.geom.flood(B::single(i), b.planes[c]);
        let first = group.first().unwrap_or(i);
        let cols = self.geom.column_set(group);
        Some((
            Click {
                cell: first as u16,
                colour: c as u8 + 1,
                size: group.count() as u16,
                x0: cols.trailing_zeros() as u8,
                x1: (63 - cols.leading_zeros()) as u8,
            },
            group,
        ))
    }

    /// Why the group at `(x, y)` may not be clicked, or `Ok` with it.
    pub fn legal_click(&self, b: &ClickBoard<B>, x: usize, y: usize) -> Result<(Click, B), String> {
        if x >= self.geom.width || y >= self.geom.height {
            return Err(format!(
                "({x},{y}) is outside the {}×{} board",
                self.geom.width, self.geom.height
            ));
        }
        let (click, group) = self
            .group_at(b, x, y)
            .ok_or_else(|| format!("({x},{y}) is an empty cell"))?;
        if self.rules.clickable == Clickable::Bottom && !group.meets(self.geom.bottom) {
            return Err(format!(
                "the group at ({x},{y}) does not touch the bottom row"
            ));
        }
        if (click.size as u32) < self.rules.min_group {
            return Err(format!(
                "the group at ({x},{y}) has {} tile(s); the smallest clickable group is {}",
                click.size, self.rules.min_group
            ));
        }
        Ok((click, group))
    }

    /// The position after removing `group` (all of colour `colour`, 1-based): gravity, then
    /// the sideways step of the rules.
    #[inline]
    pub fn remove(&self, b: &ClickBoard<B>, group: B, colour: u8) -> ClickBoard<B> {
        let g = &self.geom;
        let h = g.height;
        let mut out = *b;
        out.edge = EdgeKnown::NOTHING;
        out.planes[colour as usize - 1] = b.planes[colour as usize - 1].without(group);
        let keep = b.occupied.without(group);
        // Columns the group touches: a connected group spans one run of columns.
        let (x0, x1) = g.columns_of(group);
        let span = g.column_span(x0, x1);
        let mut target = keep.without(span);
        for x in x0..x1 + 1 {
            let k = (keep & g.cols[x]).count() as usize;
            target |= B::low(k).shl((x * h) as u32);
        }
        if keep != target {
            for c in 0..self.colours {
                let p = out.planes[c];
                if p.meets(span) {
                    out.planes[c] = p.pext(keep).pdep(target);
                }
            }
        }
        out.occupied = target;
        match self.rules.sideways {
            Sideways::None => {}
            Sideways::Left => self.close_left(&mut out),
            Sideways::Centre => self.squeeze(&mut out),
        }
        out
    }

    /// Empty columns close up to the left. Every empty column left of a tile closes, not
    /// only those the last click emptied: a board may be given with gaps.
    #[inline]
    fn close_left(&self, b: &mut ClickBoard<B>) {
        let g = &self.geom;
        let cols = g.column_set(b.occupied);
        if cols & cols.wrapping_add(1) == 0 {
            return; // the non-empty columns are already 0..k
        }
        let mut keep_cols = B::EMPTY;
        for x in 0..g.width {
            if b.occupied.meets(g.cols[x]) {
                keep_cols |= g.cols[x];
            }
        }
        b.occupied = b.occupied.pext(keep_cols);
        for c in 0..self.colours {
            b.planes[c] = b.planes[c].pext(keep_cols);
        }
    }

    /// Every row squeezes toward the centre: the tiles of columns `0..m` end at `m-1`, those
    /// of `m..W` start at `m`, each half keeping its order (`m = W/2`).
    #[inline]
    fn squeeze(&self, b: &mut ClickBoard<B>) {
        let g = &self.geom;
        let left = B::low(g.half * g.height);
        for y in 0..g.height {
            let row = b.occupied & g.rows[y];
            if row.is_empty() {
                break; // gravity: rows above are empty too
            }
            let l = (row & left).count() as usize;
            let r = row.count() as usize - l;
            let target = g.squeezed[(y * (g.half + 1) + l) * (g.width - g.half + 1) + r];
            if row == target {
                continue;
            }
            b.occupied = b.occupied.without(row) | target;
            for c in 0..self.colours {
                let p = b.planes[c];
                if p.meets(row) {
                    b.planes[c] = p.without(row) | p.pext(row).pdep(target);
                }
            }
        }
    }

    /// Is `b` as the sideways step leaves a position (every row squeezed toward the
    /// centre, or no empty column left of a tile)? Every position a click makes is; a
    /// board as given need not be.
    pub fn is_settled(&self, b: &ClickBoard<B>) -> bool {
        let g = &self.geom;
        let h = g.height as u32;
        match self.rules.sideways {
            Sideways::None => true,
            Sideways::Left => {
                let cols = g.column_set(b.occupied);
                cols & cols.wrapping_add(1) == 0
            }
            Sideways::Centre => {
                // every tile of the left half but its last column has a tile to its
                // right, every tile of the right half but its first column one to its left
                let m = g.half;
                let left = B::low(m * g.height);
                let (occ_l, occ_r) = (b.occupied & left, b.occupied.without(left));
                let centre_l = if m > 0 { g.cols[m - 1] } else { B::EMPTY };
                occ_l.without(centre_l).without(occ_l.shr(h)).is_empty()
                    && occ_r.without(g.cols[m]).without(occ_r.shl(h)).is_empty()
            }
        }
    }

    /// The cells whose content clicking `group` (in the columns `x0..=x1`) in the settled
    /// position `b` ([`ClickGame::is_settled`]) may change: every other cell holds after
    /// the click what it holds now (module docs, "Children that cannot lower the bound").
    #[inline]
    pub fn moved_region(&self, b: &ClickBoard<B>, group: B, x0: usize, x1: usize) -> B {
        debug_assert!(self.is_settled(b));
        let g = &self.geom;
        let h = g.height;
        // Cells at or above the group's lowest row in the columns `xa..=xb`.
        let above = |xa: usize, xb: usize| {
            let mut low = h;
            for x in xa..=xb {
                low = low.min(self.column_bits(group, x).trailing_zeros() as usize);
            }
            g.from_row[low]
        };
        match self.rules.sideways {
            Sideways::None => above(x0, x1) & g.column_span(x0, x1),
            Sideways::Left => {
                if (x0..=x1).any(|x| (b.occupied & g.cols[x]).without(group).is_empty()) {
                    // a column empties: every column from the group's first on may move
                    g.all.without(B::low(x0 * h))
                } else {
                    above(x0, x1) & g.column_span(x0, x1)
                }
            }
            Sideways::Centre => {
                let m = g.half;
                let mut region = B::EMPTY;
                if x0 < m {
                    let xb = x1.min(m - 1);
                    region |= above(x0, xb) & B::low((xb + 1) * h);
                }
                if x1 >= m {
                    let xa = x0.max(m);
                    region |= above(xa, x1) & g.all.without(B::low(xa * h));
                }
                region
            }
        }
    }

    /// A group that some optimal solution clicks first (see the module docs), if there is
    /// one: a whole run of a colour with nothing resting on it, when columns never move.
    pub fn forced_group(&self, b: &ClickBoard<B>) -> Option<(Click, B)> {
        let mut found = None;
        self.whole_run_groups(b, |c, plane, group| {
            let forced = self.is_forced(b, plane, group);
            if forced {
                found = Some((self.click_of(group, c, group.count()), group));
            }
            forced
        });
        found
    }

    /// Calls `f(colour index, plane, group)` for every clickable group that is a whole run
    /// of its colour (a whole colour when columns move) and leaves of its colour nothing or
    /// enough to click: the clicks that can lower the bound. One flood per run. Stops, and
    /// returns `true`, when `f` does.
    #[inline]
    fn whole_run_groups(&self, s: &ClickBoard<B>, mut f: impl FnMut(usize, B, B) -> bool) -> bool {
        let g = &self.geom;
        let fixed = self.rules.columns_fixed();
        for (c, &plane) in s.planes[..self.colours].iter().enumerate() {
            if plane.is_empty() {
                continue;
            }
            // Runs as a bit set of columns; when columns move, the whole plane is one "run".
            let mut runs = if fixed { g.column_set(plane) } else { 1 };
            while runs != 0 {
                let part = if fixed {
                    let x0 = runs.trailing_zeros() as usize;
                    let len = (runs >> x0).trailing_ones() as usize;
                    runs &= !(((1u64 << len) - 1) << x0);
                    plane & g.column_span(x0, x0 + len - 1)
                } else {
                    runs = 0;
                    plane
                };
                let seed = part.first().expect("a run has tiles");
                let group = g.flood(B::single(seed), plane);
                if group != part || !self.clickable(group) {
                    continue;
                }
                let left = plane.count() - group.count();
                if (left == 0 || left >= self.rules.min_group) && f(c, plane, group) {
                    return true;
                }
            }
        }
        false
    }

    /// May `group` be clicked under the rules (size and bottom row)?
    #[inline]
    fn clickable(&self, group: B) -> bool {
        group.count() >= self.rules.min_group
            && (self.rules.clickable == Clickable::Any || group.meets(self.geom.bottom))
    }

    /// Is the clickable `group` of `plane` forced (module docs)? Only when columns never
    /// move: it is a whole run of its colour, nothing rests on it, and what it leaves of
    /// its colour is nothing or enough to click.
    #[inline]
    fn is_forced(&self, b: &ClickBoard<B>, plane: B, group: B) -> bool {
        let g = &self.geom;
        if !self.rules.columns_fixed() {
            return false;
        }
        let rests_on = (group.shl(1).without(g.bottom) & b.occupied).without(group);
        if !rests_on.is_empty() {
            return false;
        }
        let (x0, x1) = g.columns_of(group);
        // All the colour's tiles in the group's columns and the ones beside them: then
        // the columns beside hold none, and the group is its whole run.
        let around = g.column_span(x0.saturating_sub(1), (x1 + 1).min(g.width - 1));
        if plane & around != group {
            return false;
        }
        let left = plane.count() - group.count();
        left == 0 || left >= self.rules.min_group
    }

    /// The children of `s` whose bound is below the parent's `total`, for a search with no
    /// slack left. One click lowers the bound by at most one, and only by taking a whole term
    /// away: a whole colour (colour bound) or, when columns never move, a whole run of a
    /// colour (a group lies within one run, and other colours' runs do not change). So one
    /// flood per run finds them all, instead of one per group. Returns the least bound of the
    /// children left out (at least `total`).
    fn bound_lowering_children(
        &self,
        s: &ClickBoard<B>,
        total: u32,
        out: &mut Vec<(Click, ClickBoard<B>, u32)>,
    ) -> u32 {
        let start = out.len();
        let mut pruned = INFINITE;
        let edge = self.edge_terms(s);
        let forced = self.whole_run_groups(s, |c, plane, group| {
            let click = self.click_of(group, c, group.count());
            let forced = self.is_forced(s, plane, group);
            if forced {
                out.truncate(start);
                pruned = INFINITE;
            }
            let mut known = EdgeKnown::NOTHING;
            let h = match &edge {
                Some(t) => {
                    let x = (click.x0 as usize, click.x1 as usize);
                    let rest = plane.without(group);
                    let e = self.child_edge_bound(t, group, c, rest, x, total - 1, &mut known);
                    (total - 1).max(e)
                }
                None => total - 1,
            };
            if h < total {
                let mut child = self.remove(s, group, click.colour);
                child.edge = known;
                out.push((click, child, h));
            } else {
                pruned = pruned.min(h);
            }
            forced
        });
        if forced {
            pruned // the forced child stands for all
        } else {
            pruned.min(total)
        }
    }

    /// [`Puzzle::bounded_successors`] where columns move and the children that keep every
    /// colour have no slack (the bound they may have is the colour bound `total` of `s`):
    /// those in which no colour can be whole need one more (module docs, "Children that
    /// cannot lower the bound"), and are told from the parts of `s` without being built.
    /// (No edge bound and no forced moves where columns move.) `None` where [`Parts`]
    /// cannot be had. Kept out of line, away from the search where columns stay.
    #[inline(never)]
    fn children_in_reach(
        &self,
        s: &ClickBoard<B>,
        total: u32,
        out: &mut Vec<(Click, ClickBoard<B>, u32)>,
    ) -> Option<u32> {
        let parts = Parts::of(self, s)?;
        let max_bound = total;
        let mut pruned = INFINITE;
        for i in 0..parts.n {
            let (c, group) = (parts.colour[i] as usize, parts.sets[i]);
            if !self.clickable(group) {
                continue;
            }
            let left = (s.planes[c].count() - group.count()) as usize;
            let h = if left == 0 {
                total - 1
            } else if left < self.rules.min_group as usize {
                INFINITE
            } else {
                total
            };
            let click = self.click_of(group, c, group.count());
            if h > max_bound {
                pruned = pruned.min(h);
            } else if h == max_bound
                && !parts.may_leave_whole(self, s, i, (click.x0 as usize, click.x1 as usize))
            {
                pruned = pruned.min(h + 1);
            } else {
                let child = self.remove(s, group, click.colour);
                if h == max_bound && !self.has_whole_colour(&child) {
                    pruned = pruned.min(h + 1);
                    continue;
                }
                out.push((click, child, h));
            }
        }
        Some(pruned)
    }

    /// Is some colour of `b` one clickable group (when columns move, the clicks that
    /// lower the bound)? The same answer as [`Puzzle::can_lower_bound`] there, sooner
    /// where a colour has a tile with no neighbour of its colour.
    #[inline]
    fn has_whole_colour(&self, b: &ClickBoard<B>) -> bool {
        b.planes[..self.colours].iter().any(|&p| {
            let Some(seed) = p.first() else {
                return false;
            };
            (p.count() == 1 || p.without(self.geom.neighbours(p)).is_empty())
                && self.geom.flood(B::single(seed), p) == p
                && self.clickable(p)
        })
    }

    /// The click describing `group` (of 0-based colour `c`, `size` tiles).
    #[inline]
    fn click_of(&self, group: B, c: usize, size: u32) -> Click {
        let g = &self.geom;
        let first = group.first().expect("a group is not empty");
        let (x0, x1) = g.columns_of(group);
        Click {
            cell: first as u16,
            colour: c as u8 + 1,
            size: size as u16,
            x0: x0 as u8,
            x1: x1 as u8,
        }
    }

    /// Colours with at least one tile.
    #[inline]
    pub fn colours_left(&self, b: &ClickBoard<B>) -> u32 {
        b.planes[..self.colours]
            .iter()
            .filter(|p| !p.is_empty())
            .count() as u32
    }

    /// The column-run bound (see the module docs): sound only when columns never move.
    #[inline]
    pub fn column_runs(&self, b: &ClickBoard<B>) -> u32 {
        b.planes[..self.colours]
            .iter()
            .map(|&p| {
                let cols = self.geom.column_set(p);
                (cols & !(cols << 1)).count_ones()
            })
            .sum()
    }

    /// The edge bound of `b` ([`crate::edge`]): 0 where the board has none.
    #[inline]
    pub fn edge_bound(&self, b: &ClickBoard<B>) -> u32 {
        self.edge_terms(b).map_or(0, |t| t.bound())
    }

    /// The columns of each edge's narrow slice of the edge bound ([`crate::edge`]): 2 or
    /// 3, or 0 where the board has no edge bound.
    pub fn edge_slice(&self) -> usize {
        self.slice
    }

    /// The three parts of the edge bound of `b` ([`crate::edge`]): the left edge's, the
    /// right edge's and the joint one; `None` where the board has no edge bound.
    pub fn edge_bound_parts(&self, b: &ClickBoard<B>) -> Option<[u32; 3]> {
        self.edge_terms(b).map(|t| t.parts())
    }

    /// The parts of the edge bound of `b`, from which a child's is updated
    /// ([`ClickGame::child_edge_bound`]).
    #[inline]
    fn edge_terms(&self, b: &ClickBoard<B>) -> Option<EdgeTerms> {
        let edge = self.edge.as_ref()?;
        let known = b.edge;
        let mut t = EdgeTerms {
            mask: [None; SIDES],
            opt: [0; SIDES],
            beyond: [0; SIDES],
            of: [[0; SIDES]; MAX_COLOURS],
            mid: [0; 3],
            mid_of: [[0; 3]; MAX_COLOURS],
            span: [0; 3],
            span_of: [[0; 3]; MAX_COLOURS],
        };
        for side in 0..self.sides {
            (t.mask[side], t.opt[side]) = match known.mask[side] {
                EdgeKnown::UNKNOWN => match self.edge_mask(edge, b, side) {
                    Some(m) => (Some(m), edge.opt(side, m)),
                    None => (None, 0),
                },
                m => (Some(m), known.opt[side] as u32),
            };
        }
        for (c, &p) in b.planes[..self.colours].iter().enumerate() {
            let cols = self.geom.column_set(p);
            for side in 0..self.sides {
                t.of[c][side] = self.beyond(cols, side);
                t.beyond[side] += t.of[c][side];
            }
            for (j, &(l, r)) in JOINTS[..self.joints()].iter().enumerate() {
                let (lw, rw) = (self.edge_width(l), self.edge_width(r));
                t.mid_of[c][j] = self.between(cols, lw, rw);
                t.mid[j] += t.mid_of[c][j];
                t.span_of[c][j] = self.spanning(p, lw, rw);
                t.span[j] += t.span_of[c][j];
            }
        }
        Some(t)
    }

    /// How many of [`JOINTS`] there are: 1 with narrow slices only, else 3.
    #[inline(always)]
    fn joints(&self) -> usize {
        if self.sides == 4 {
            3
        } else {
            1
        }
    }

    /// The columns of an edge slice (by side: 0 and 1 narrow, 2 and 3 wide).
    #[inline(always)]
    fn edge_width(&self, side: usize) -> usize {
        side_width(self.slice, side)
    }

    /// The edge bound of the position after clicking `group` (of colour `c`, in the
    /// columns `x0..=x1`) in a position with edge terms `t`, which leaves of that colour
    /// the tiles `rest` (before gravity): a slice the click does not touch is as it was,
    /// one it touches loses the group's tiles there, and only colour `c`'s runs change
    /// (other colours keep their share of the clicks touching both slices: it can only
    /// have fallen, so the parent's stays an upper bound). A bound above `limit` may come
    /// back lower than the full one but still above `limit`: a slice's optimum is only
    /// searched for as far as it matters ([`EdgeBound::opt_capped`]). Each side's mask
    /// and optimum go to `known`, for the child if it is kept (at most `limit`: then each
    /// optimum is exact, being at most its cap).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn child_edge_bound(
        &self,
        t: &EdgeTerms,
        group: B,
        c: usize,
        rest: B,
        (x0, x1): (usize, usize),
        limit: u32,
        known: &mut EdgeKnown,
    ) -> u32 {
        let Some(edge) = &self.edge else {
            return 0;
        };
        let cols = self.geom.column_set(rest);
        let mut best = 0;
        let mut opts = [0u32; SIDES];
        // the sides whose optimum is known (bit per side), the joints not yet checked
        let mut have = 0u32;
        let mut pending = (1u32 << self.joints()) - 1;
        // Sides the click leaves alone first (their values are known and may drop the
        // child), then the narrow ones it touches, then the wide ones (dearest to search).
        let clicked = (u64::MAX >> (63 - x1)) & !((1u64 << x0) - 1);
        let touched = |side: usize| self.side_columns[side] & clicked != 0;
        let mut order = [0usize; SIDES];
        let mut k = 0;
        for pass in [false, true] {
            for side in 0..self.sides {
                if touched(side) == pass {
                    order[k] = side;
                    k += 1;
                }
            }
        }
        for &side in &order[..self.sides] {
            let Some(mask) = t.mask[side] else {
                continue;
            };
            let beyond = t.beyond[side] - t.of[c][side] + self.beyond(cols, side);
            let (mask, opt) = if touched(side) {
                let xs = self.edge_columns(side);
                let mut taken = [0u64; MAX_SLICE];
                for (k, &x) in xs[..self.edge_width(side)].iter().enumerate() {
                    taken[k] = self.column_bits(group, x);
                }
                // past `limit` the child is dropped whatever the value
                let cap = limit.saturating_sub(beyond);
                let mask = edge.take(side, mask, &taken);
                (mask, edge.opt_capped(side, mask, cap))
            } else {
                (mask, t.opt[side])
            };
            known.mask[side] = mask;
            known.opt[side] = opt as u8;
            best = best.max(opt + beyond);
            if best > limit {
                return best; // dropped: the rest cannot save it
            }
            opts[side] = opt;
            have |= 1 << side;
            // each joint bound as soon as both its sides are known: it may drop the child
            // before a dearer side is searched
            let mut ready = pending;
            while ready != 0 {
                let j = ready.trailing_zeros() as usize;
                ready &= ready - 1;
                let (l, r) = JOINTS[j];
                if have & (1 << l | 1 << r) != (1 << l | 1 << r) {
                    continue;
                }
                pending &= !(1 << j);
                let (lw, rw) = (self.edge_width(l), self.edge_width(r));
                let mid = t.mid[j] - t.mid_of[c][j] + self.between(cols, lw, rw);
                let others = t.span[j] - t.span_of[c][j];
                // the joint bound with colour c spanning nothing: worth refining only if it
                // beats the rest
                if opts[l] + opts[r] + mid > best + others {
                    let span = others + self.spanning(rest, lw, rw);
                    best = best.max((opts[l] + opts[r] + mid).saturating_sub(span));
                    if best > limit {
                        return best;
                    }
                }
            }
        }
        best
    }

    /// The runs of a colour in the columns `cols` (a bit set) that lie wholly beyond a
    /// side's slice ([`crate::edge`]).
    #[inline(always)]
    fn beyond(&self, cols: u64, side: usize) -> u32 {
        let (w, n) = (self.geom.width, self.edge_width(side));
        if is_left(side) {
            (cols & !(cols << 1) & !((1 << n) - 1)).count_ones()
        } else {
            (cols & !(cols >> 1) & ((1 << (w - n)) - 1)).count_ones()
        }
    }

    /// At most how many clicks of the colour whose tiles are `p` can take tiles of both
    /// a left slice of `lw` columns and a right one of `rw`: such a click takes a whole
    /// vertical run of `p` in each column from the left slice's boundary column to the
    /// right's, and runs in a column never split, so the fewest runs in one of those
    /// columns.
    #[inline(always)]
    fn spanning(&self, p: B, lw: usize, rw: usize) -> u32 {
        let mut least = u32::MAX;
        for x in lw - 1..=self.geom.width - rw {
            let v = self.column_bits(p, x);
            least = least.min((v & !(v << 1)).count_ones());
        }
        least
    }

    /// The runs of a colour in the columns `cols` (a bit set) that touch neither a left
    /// slice of `lw` columns nor a right one of `rw`: the runs of its columns between the
    /// slices, less a first one that goes on into the left slice and a last one that goes
    /// on into the right (one run may do both).
    #[inline(always)]
    fn between(&self, cols: u64, lw: usize, rw: usize) -> u32 {
        let w = self.geom.width;
        let middle = ((1u64 << (w - rw)) - 1) & !((1u64 << lw) - 1);
        if middle == 0 {
            return 0;
        }
        let inner = cols & middle;
        let runs = (inner & !(inner << 1)).count_ones();
        let on_left = ((inner >> lw) & (cols >> (lw - 1)) & 1) as u32;
        let on_right = ((inner >> (w - rw - 1)) & (cols >> (w - rw)) & 1) as u32;
        let both = u32::from(inner == middle && on_left + on_right == 2);
        runs + both - on_left - on_right
    }

    /// The mask of starting tiles ([`crate::edge`]) that one edge slice of `b` (by side)
    /// has left, read column by column; `None` if `b` is not from the start.
    fn edge_mask(&self, edge: &EdgeBound, b: &ClickBoard<B>, side: usize) -> Option<Mask> {
        let mut bits = [[0u64; MAX_COLOURS]; MAX_SLICE];
        let n = self.edge_width(side);
        for (k, x) in self.edge_columns(side)[..n].iter().copied().enumerate() {
            for (c, &p) in b.planes[..self.colours].iter().enumerate() {
                bits[k][c] = self.column_bits(p, x);
            }
        }
        edge.mask_of_bits(side, &bits)
    }

    /// The columns of an edge slice ([`crate::edge`]), outermost first: left for an even
    /// side, right for an odd one (as many as [`ClickGame::edge_width`] says).
    #[inline(always)]
    fn edge_columns(&self, side: usize) -> [usize; MAX_SLICE] {
        let w = self.geom.width;
        if is_left(side) {
            [0, 1, 2, 3]
        } else {
            [w - 1, w - 2, w.saturating_sub(3), w.saturating_sub(4)]
        }
    }

    /// The cells of `s` in column `x`, as bits from the bottom (bit `y` for row `y`).
    #[inline(always)]
    fn column_bits(&self, s: B, x: usize) -> u64 {
        let h = self.geom.height;
        s.shr((x * h) as u32).low_word() & (u64::MAX >> (64 - h))
    }

    /// The best admissible bound on the clicks needed to clear `b` ([`INFINITE`] when it
    /// cannot be cleared).
    #[inline]
    pub fn clicks_bound(&self, b: &ClickBoard<B>) -> u32 {
        let runs = self.runs_bound(b);
        if runs >= INFINITE {
            return runs;
        }
        runs.max(self.edge_bound(b))
    }

    /// [`ClickGame::clicks_bound`] without the edge bound: colours, or column runs when
    /// columns never move ([`INFINITE`] when the board cannot be cleared).
    #[inline]
    pub fn runs_bound(&self, b: &ClickBoard<B>) -> u32 {
        if self.rules.min_group >= 2 {
            for p in &b.planes[..self.colours] {
                let n = p.count();
                if n != 0 && n < self.rules.min_group {
                    return INFINITE;
                }
            }
        }
        b.planes[..self.colours]
            .iter()
            .map(|&p| self.bound_term(p))
            .sum()
    }

    /// One colour's share of [`ClickGame::clicks_bound`] (without the unclearable check):
    /// its column runs when columns never move, else 1 if it has tiles.
    #[inline(always)]
    fn bound_term(&self, plane: B) -> u32 {
        if plane.is_empty() {
            0
        } else if self.rules.columns_fixed() {
            let cols = self.geom.column_set(plane);
            (cols & !(cols << 1)).count_ones()
        } else {
            1
        }
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

    /// The `(x, y)` of a click's cell.
    pub fn click_xy(&self, c: &Click) -> (usize, usize) {
        self.geom.coords(c.cell as usize)
    }
}

impl<B: Bits> Puzzle for ClickGame<B> {
    type State = ClickBoard<B>;
    type Move = Click;

    #[inline]
    fn is_solved(&self, s: &Self::State) -> bool {
        s.is_empty()
    }

    #[inline]
    fn successors(&self, s: &Self::State, out: &mut Vec<(Self::Move, Self::State)>) {
        self.for_each_group(s, |click, group| {
            out.push((click, self.remove(s, group, click.colour)));
        });
    }

    /// Bounds each child from its parent before building it: a click of colour `c` leaves
    /// every other colour's columns (and presence) as they were, so only `c`'s term of the
    /// bound changes, and it can be computed from `c`'s plane minus the group, without
    /// gravity. Only children within `max_bound` are built. A forced group (module docs),
    /// found on the way, replaces all other children.
    fn bounded_successors(
        &self,
        s: &Self::State,
        max_bound: u32,
        out: &mut Vec<(Self::Move, Self::State, u32)>,
    ) -> u32 {
        let mut terms = [0u32; MAX_COLOURS];
        for (t, &p) in terms.iter_mut().zip(&s.planes[..self.colours]) {
            *t = self.bound_term(p);
        }
        let total: u32 = terms.iter().sum();
        let start = out.len();
        if max_bound < total {
            return self.bound_lowering_children(s, total, out);
        }
        if !self.rules.columns_fixed() && max_bound == total {
            if let Some(pruned) = self.children_in_reach(s, total, out) {
                return pruned;
            }
        }
        let mut pruned = INFINITE;
        let edge = self.edge_terms(s);
        self.for_each_raw_group(s, |c, plane, group, size| {
            let rest = plane.without(group);
            let left = rest.count();
            let h = if left != 0 && left < self.rules.min_group {
                INFINITE
            } else {
                total - terms[c] + self.bound_term(rest)
            };
            let forced = self.is_forced(s, plane, group);
            if forced {
                out.truncate(start);
                pruned = INFINITE;
            }
            if h > max_bound {
                pruned = pruned.min(h);
            } else {
                let click = self.click_of(group, c, size);
                let mut known = EdgeKnown::NOTHING;
                let h = match &edge {
                    Some(t) => {
                        let x = (click.x0 as usize, click.x1 as usize);
                        let e = self.child_edge_bound(t, group, c, rest, x, max_bound, &mut known);
                        h.max(e)
                    }
                    None => h,
                };
                if h > max_bound {
                    pruned = pruned.min(h);
                } else {
                    let mut child = self.remove(s, group, click.colour);
                    child.edge = known;
                    out.push((click, child, h));
                }
            }
            forced
        });
        pruned
    }

    #[inline]
    fn lower_bound(&self, s: &Self::State) -> u32 {
        self.clicks_bound(s)
    }

    /// Only a click that takes a whole run (or, when columns move, a whole colour) lowers
    /// the bound: one flood per run tells.
    #[inline]
    fn can_lower_bound(&self, s: &Self::State) -> bool {
        // The answer is about the column-run bound; where the edge bound is above it, no
        // claim is made.
        self.whole_run_groups(s, |_, _, _| true)
            || self.edge.is_some() && self.edge_bound(s) > self.column_runs(s)
    }

    #[inline]
    fn key(&self, s: &Self::State) -> u64 {
        ClickGame::key(self, s)
    }

    #[inline]
    fn check(&self, s: &Self::State) -> u32 {
        ClickGame::check(self, s)
    }

    #[inline]
    fn priority(&self, _s: &Self::State, m: &Self::Move, _child: &Self::State) -> i64 {
        m.size as i64
    }
}
