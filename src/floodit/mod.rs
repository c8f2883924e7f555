//! Flood-It: the engine (region graph, positions, moves) and the two entry points the solve
//! layer and the front ends call, [`solve`] and [`replay`] (for `tumble check`).
//!
//! A board is turned once into its *region graph*: every 4-connected same-colour region is a
//! node, numbered `0..R` in breadth-first order from the start, with its colour and the bit
//! set of its neighbours. A position is then just the set of regions the flood has swallowed
//! ([`Set`], a `[u64; N]` bit set over regions). Playing colour `c` adds every region of
//! colour `c` adjacent to the flood; the flood's own colour is the colour of its last move
//! (or of the start region). Because regions are maximal, no region of the flood's colour
//! ever touches the flood, so a move is legal exactly when it adds at least one region.
//!
//! The engine is generic over the number of words `N`; [`solve`] picks the smallest width
//! the board's region count fits in (up to [`MAX_REGIONS`]). The lower bounds live in
//! [`bounds`], the moves the searches generate in [`moves`], the first solutions in
//! [`beam`], the A* search in [`solver`] and its deepening once memory fills in
//! [`frontier`].

pub mod beam;
pub mod bounds;
pub mod frontier;
pub mod moves;
mod node;
pub mod solver;

use crate::grid::{BoardError, Grid};
use crate::report::{Played, Progress, Replayed, Report, Step};
use crate::rules::Objective;
use crate::search::SearchOptions;

/// The most regions (and so cells) a Flood-It board may have.
pub const MAX_REGIONS: usize = 1024;
/// The most cells a Flood-It board may have (32×32).
pub const MAX_CELLS: usize = MAX_REGIONS;

/// Entries per row of the adjacency table: 64 regions and an empty set.
const ROW: usize = 65;
/// Regions [`Engine::union_adjacent`] takes per round.
const UNROLL: usize = 8;

/// A set of regions: bit `r % 64` of word `r / 64` is region `r`.
pub type Set<const N: usize> = [u64; N];

/// Small bit-set helpers over [`Set`].
pub mod set {
    use super::Set;
    #[inline]
    pub fn empty<const N: usize>() -> Set<N> {
        [0; N]
    }
    #[inline]
    pub fn insert<const N: usize>(s: &mut Set<N>, r: usize) {
        s[r >> 6] |= 1 << (r & 63);
    }
    #[inline]
    pub fn contains<const N: usize>(s: &Set<N>, r: usize) -> bool {
        s[r >> 6] >> (r & 63) & 1 != 0
    }
    #[inline]
    pub fn or<const N: usize>(a: &Set<N>, b: &Set<N>) -> Set<N> {
        std::array::from_fn(|i| a[i] | b[i])
    }
    #[inline]
    pub fn and<const N: usize>(a: &Set<N>, b: &Set<N>) -> Set<N> {
        std::array::from_fn(|i| a[i] & b[i])
    }
    #[inline]
    pub fn and_not<const N: usize>(a: &Set<N>, b: &Set<N>) -> Set<N> {
        std::array::from_fn(|i| a[i] & !b[i])
    }
    /// (All words are read, with no early exit: one vector test and one branch, where
    /// stopping at the first non-zero word costs a hard-to-predict branch per word.)
    #[inline]
    pub fn is_empty<const N: usize>(a: &Set<N>) -> bool {
        a.iter().fold(0, |acc, &w| acc | w) == 0
    }
    /// Is `a` a subset of `b`? (No early exit, as [`is_empty`].)
    #[inline]
    pub fn subset<const N: usize>(a: &Set<N>, b: &Set<N>) -> bool {
        a.iter().zip(b).fold(0, |acc, (x, y)| acc | (x & !y)) == 0
    }
    #[inline]
    pub fn count<const N: usize>(a: &Set<N>) -> u32 {
        a.iter().map(|w| w.count_ones()).sum()
    }
    /// Calls `f` with every member, in increasing order.
    #[inline]
    pub fn for_each<const N: usize>(a: &Set<N>, mut f: impl FnMut(usize)) {
        for (i, &w) in a.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                f(i * 64 + w.trailing_zeros() as usize);
                w &= w - 1;
            }
        }
    }
}

/// The region graph of one board from one start cell.
#[derive(Clone, Debug)]
pub struct Engine<const N: usize> {
    width: usize,
    height: usize,
    /// Region of each cell, `y * width + x` (`y = 0` at the bottom).
    cell_region: Vec<u16>,
    /// Colour (`0..K`, the grid's colour minus one) of each region.
    colour: Vec<u8>,
    /// Neighbours of each region, in rows of [`ROW`] entries: region `r` is entry
    /// `r % 64` of row `r / 64`, and the last entry of every row (and the entries of regions
    /// that don't exist) is empty, so that `trailing_zeros` of an empty word indexes an
    /// empty set (see [`Engine::union_adjacent`]).
    adj: Vec<[Set<N>; ROW]>,
    /// The words that hold regions (`regions / 64`, rounded up): the rest are empty in
    /// every set.
    words: usize,
    /// Regions of each colour, padded with empty sets to 32 entries (likewise).
    by_colour: Vec<Set<N>>,
    /// All regions.
    all: Set<N>,
    /// The start region.
    start: usize,
    colours: usize,
    /// The characters of the colours.
    palette: Vec<char>,
}

/// A position: the regions flooded, and the flood's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pos<const N: usize> {
    pub flood: Set<N>,
    pub colour: u8,
}

/// Counts the regions of a full board (4-connected, same colour).
pub fn count_regions(grid: &Grid) -> usize {
    label_regions(grid).1
}

/// Labels each cell with its region; returns (labels, region count).
fn label_regions(grid: &Grid) -> (Vec<u32>, usize) {
    let (w, h) = (grid.width(), grid.height());
    let mut label = vec![u32::MAX; w * h];
    let mut n = 0u32;
    let mut stack = Vec::new();
    for start in 0..w * h {
        if label[start] != u32::MAX {
            continue;
        }
        let c = grid.get(start % w, start / w);
        label[start] = n;
        stack.push(start);
        while let Some(i) = stack.pop() {
            let (x, y) = (i % w, i / w);
            let mut visit = |j: usize| {
                if label[j] == u32::MAX && grid.get(j % w, j / w) == c {
                    label[j] = n;
                    stack.push(j);
                }
            };
            if x > 0 {
                visit(i - 1);
            }
            if x + 1 < w {
                visit(i + 1);
            }
            if y > 0 {
                visit(i - w);
            }
            if y + 1 < h {
                visit(i + w);
            }
        }
        n += 1;
    }
    (label, n as usize)
}

/// Calls `f(a, b)` for every pair of side-by-side cells of a `w × h` board that lie in
/// different regions `a` and `b` of `label` (a pair of regions once per shared cell side).
fn for_each_touching(label: &[u32], w: usize, h: usize, mut f: impl FnMut(usize, usize)) {
    for y in 0..h {
        for x in 0..w {
            let a = label[y * w + x] as usize;
            if x + 1 < w && label[y * w + x + 1] as usize != a {
                f(a, label[y * w + x + 1] as usize);
            }
            if y + 1 < h && label[(y + 1) * w + x] as usize != a {
                f(a, label[(y + 1) * w + x] as usize);
            }
        }
    }
}

/// Renumbers the regions of `label` (`n` of them, on a `w × h` board) in breadth-first
/// order from the region of cell `start`: regions at the same distance from the start get
/// neighbouring numbers, so that sets of regions near each other (a layer of the bounds,
/// what a move gains) tend to fill few words of a [`Set`], and
/// [`Engine::union_adjacent`] skips the empty ones.
fn renumber_from(label: &mut [u32], n: usize, w: usize, h: usize, start: usize) {
    let mut adj = vec![Vec::new(); n];
    for_each_touching(label, w, h, |a, b| {
        adj[a].push(b);
        adj[b].push(a);
    });
    let mut new = vec![u32::MAX; n];
    let mut queue = vec![label[start] as usize];
    new[label[start] as usize] = 0;
    let mut head = 0;
    while head < queue.len() {
        let r = queue[head];
        head += 1;
        for &b in &adj[r] {
            if new[b] == u32::MAX {
                new[b] = queue.len() as u32;
                queue.push(b);
            }
        }
    }
    debug_assert_eq!(queue.len(), n, "a full board's regions are connected");
    for l in label.iter_mut() {
        *l = new[*l as usize];
    }
}

impl<const N: usize> Engine<N> {
    /// Builds the region graph of a full board. `start` is `(x, y)`, `y = 0` at the bottom.
    pub fn new(grid: &Grid, start: (usize, usize)) -> Result<(Engine<N>, Pos<N>), BoardError> {
        let (w, h) = (grid.width(), grid.height());
        grid.check_full("floodit")?;
        let (mut label, n) = label_regions(grid);
        if n > N * 64 {
            return Err(too_large(w, h));
        }
        if start.0 >= w || start.1 >= h {
            return Err(BoardError::TooLarge {
                width: w,
                height: h,
                limit: format!(
                    "the start cell ({},{}) is outside the board",
                    start.0, start.1
                ),
            });
        }
        renumber_from(&mut label, n, w, h, start.1 * w + start.0);
        let mut colour = vec![0u8; n];
        for (i, &r) in label.iter().enumerate() {
            colour[r as usize] = grid.get(i % w, i / w) - 1;
        }
        let mut adj = vec![set::empty::<N>(); N * 64];
        for_each_touching(&label, w, h, |a, b| {
            set::insert(&mut adj[a], b);
            set::insert(&mut adj[b], a);
        });
        let adj = (0..N)
            .map(|i| {
                std::array::from_fn(|t| {
                    if t < 64 {
                        adj[i * 64 + t]
                    } else {
                        set::empty()
                    }
                })
            })
            .collect();
        let colours = grid.colours();
        let mut by_colour = vec![set::empty::<N>(); 32];
        let mut all = set::empty::<N>();
        for (r, &c) in colour.iter().enumerate() {
            set::insert(&mut by_colour[c as usize], r);
            set::insert(&mut all, r);
        }
        let start_region = label[start.1 * w + start.0] as usize;
        let mut flood = set::empty::<N>();
        set::insert(&mut flood, start_region);
        let engine = Engine {
            width: w,
            height: h,
            cell_region: label.iter().map(|&l| l as u16).collect(),
            colour,
            words: n.div_ceil(64).max(1),
            adj,
            by_colour,
            all,
            start: start_region,
            colours,
            palette: grid.palette().to_vec(),
        };
        let pos = Pos {
            flood,
            colour: engine.colour[start_region],
        };
        Ok((engine, pos))
    }

    /// Number of regions.
    pub fn regions(&self) -> usize {
        self.colour.len()
    }
    /// Number of colours of the board.
    pub fn colours(&self) -> usize {
        self.colours
    }
    /// The start region.
    pub fn start_region(&self) -> usize {
        self.start
    }
    /// The colour (`0..K`) of region `r`.
    #[inline]
    pub fn colour_of(&self, r: usize) -> u8 {
        self.colour[r]
    }
    /// Neighbours of region `r`.
    pub fn adjacent(&self, r: usize) -> &Set<N> {
        &self.adj[r / 64][r % 64]
    }
    /// Regions of colour `c` (`c < 32`; the mask spares the bounds check).
    #[inline]
    pub fn of_colour(&self, c: usize) -> &Set<N> {
        &self.by_colour[..32][c & 31]
    }
    /// All regions.
    pub fn all(&self) -> &Set<N> {
        &self.all
    }

    /// The union of the neighbours of the regions of `s` (the hot loop of the bounds).
    ///
    /// Only the words that can hold regions are read: a board of 150 regions in a
    /// four-word engine has three, and [`dispatch`] picks the narrowest engine, so one of
    /// 260 regions reads five words rather than eight.
    #[inline]
    pub fn union_adjacent(&self, s: &Set<N>) -> Set<N> {
        let mut out = set::empty::<N>();
        for (row, &w) in self.adj[..self.words].iter().zip(s) {
            // `UNROLL` regions per round with no test between them: once the word is empty,
            // `trailing_zeros` is 64, which indexes the row's empty last entry. A word with
            // at most `UNROLL` regions takes one round, an empty word none.
            let mut w = w;
            while w != 0 {
                for _ in 0..UNROLL {
                    out = set::or(&out, &row[w.trailing_zeros() as usize]);
                    w &= w.wrapping_sub(1);
                }
            }
        }
        out
    }

    /// Regions adjacent to `s` and not in it.
    #[inline]
    pub fn neighbours(&self, s: &Set<N>) -> Set<N> {
        set::and_not(&self.union_adjacent(s), s)
    }

    /// Bit mask of the colours that have a region outside `s`.
    #[inline]
    pub fn colours_outside(&self, s: &Set<N>) -> u32 {
        let mut m = 0;
        for (c, rs) in self.by_colour[..self.colours].iter().enumerate() {
            if !set::subset(rs, s) {
                m |= 1 << c;
            }
        }
        m
    }

    /// Is the board one colour?
    #[inline]
    pub fn is_solved(&self, p: &Pos<N>) -> bool {
        p.flood == self.all
    }

    /// Plays colour `c`; `None` if it is not legal (it adds no region).
    #[inline]
    pub fn play(&self, p: &Pos<N>, c: u8) -> Option<Pos<N>> {
        let gained = set::and(&self.neighbours(&p.flood), &self.by_colour[c as usize]);
        if set::is_empty(&gained) {
            return None;
        }
        Some(Pos {
            flood: set::or(&p.flood, &gained),
            colour: c,
        })
    }

    /// The board of a position, as a grid with the input's palette.
    pub fn grid(&self, p: &Pos<N>) -> Grid {
        let cells = self
            .cell_region
            .iter()
            .map(|&r| {
                let r = r as usize;
                1 + if set::contains(&p.flood, r) {
                    p.colour
                } else {
                    self.colour[r]
                }
            })
            .collect();
        Grid::from_cells(self.width, self.height, cells, self.palette.clone())
    }

    /// A 64-bit hash of a flooded set.
    #[inline]
    pub fn hash(s: &Set<N>) -> u64 {
        let mut h = 0x243f_6a88_85a3_08d3u64;
        for &w in s {
            h = (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            h ^= h >> 29;
        }
        h
    }
}

/// Whether a Flood-It board of `width × height` fits an engine, or the error that says it
/// does not (the same as [`dispatch`]'s: within [`MAX_CELLS`] cells, the regions always
/// fit).
pub fn check_size(width: usize, height: usize) -> Result<(), BoardError> {
    if width * height > MAX_CELLS {
        Err(too_large(width, height))
    } else {
        Ok(())
    }
}

fn too_large(w: usize, h: usize) -> BoardError {
    BoardError::TooLarge {
        width: w,
        height: h,
        limit: format!(
            "Flood-It boards may have at most {MAX_REGIONS} cells (e.g. 32×32) and {MAX_REGIONS} regions"
        ),
    }
}

/// Runs `f` with the narrowest engine the board's regions fit in.
pub trait WithFlood {
    type Output;
    fn run<const N: usize>(self, engine: Engine<N>, start: Pos<N>) -> Self::Output;
}

/// Builds the engine for `grid` from `start` and hands it to `f`.
pub fn dispatch<F: WithFlood>(
    grid: &Grid,
    start: (usize, usize),
    f: F,
) -> Result<F::Output, BoardError> {
    let (w, h) = (grid.width(), grid.height());
    check_size(w, h)?;
    grid.check_full("floodit")?;
    let n = count_regions(grid);
    macro_rules! go {
        ($($n:literal),*) => {
            $(if n <= $n * 64 {
                let (e, p) = Engine::<$n>::new(grid, start)?;
                return Ok(f.run(e, p));
            })*
        };
    }
    // Five words for 257–320 regions, common on 19×19 boards: in an eight-word engine
    // their nodes would be half empty words, costing memory and time. No three-word
    // engine: a four-word set is one vector, and three words cost more instructions.
    go!(2, 4, 5, 8, 16);
    Err(too_large(w, h))
}

/// Solves a Flood-It board from the start cell `start` (`(x, y)`, `y = 0` at the bottom):
/// a greedy solution at once, then A* proves the optimum (or runs out of time or memory
/// with a lower bound).
pub fn solve(
    grid: &Grid,
    start: (usize, usize),
    search: &SearchOptions,
    on_progress: &mut dyn FnMut(Progress),
) -> Result<Report, BoardError> {
    struct Run<'a> {
        grid: &'a Grid,
        search: &'a SearchOptions,
        on_progress: &'a mut dyn FnMut(Progress),
    }
    impl WithFlood for Run<'_> {
        type Output = Report;
        fn run<const N: usize>(self, e: Engine<N>, p: Pos<N>) -> Report {
            let out = solver::astar(&e, &p, self.search, self.on_progress);
            let mut steps = Vec::new();
            let mut boards = Vec::new();
            let mut s = p;
            for &c in &out.moves {
                s = e.play(&s, c).expect("a solution's moves are legal");
                steps.push(Step {
                    x: None,
                    y: None,
                    colour: e.palette[c as usize].to_string(),
                    size: None,
                });
                boards.push(e.grid(&s));
            }
            Report {
                game: "floodit".into(),
                width: self.grid.width(),
                height: self.grid.height(),
                board: self.grid.to_inline(),
                objective: Objective::Moves,
                played: Played::default(),
                length: out.moves.len(),
                moves: steps,
                optimal: out.proven,
                lower_bound: out.lower_bound,
                tiles_left: 0,
                score: 0,
                nodes: out.nodes,
                elapsed_ms: self.search.start.elapsed().as_millis() as u64,
                first_ms: None,
                boards,
                note: out.memory_filled.map(|t| {
                    format!(
                        "the A* filled its memory (--memory {} MiB) at {:.1} s; went on by iterative deepening from its frontier",
                        self.search.memory >> 20,
                        t.as_secs_f64()
                    )
                }),
                certified: None,
                stopped: out.stopped,
            }
        }
    }
    dispatch(
        grid,
        start,
        Run {
            grid,
            search,
            on_progress,
        },
    )
}

/// An illegal move: its number (1-based), why, and the legal moves before it.
pub type Failure = (usize, String, Vec<Replayed>);

/// Plays colour characters on a board. On an illegal move: its number (1-based) and why.
/// Returns each move's step and the board after it.
pub fn replay(
    grid: &Grid,
    start: (usize, usize),
    colours: &[char],
) -> Result<Result<Vec<Replayed>, Failure>, BoardError> {
    struct Run<'a> {
        grid: &'a Grid,
        colours: &'a [char],
    }
    impl WithFlood for Run<'_> {
        type Output = Result<Vec<Replayed>, Failure>;
        fn run<const N: usize>(self, e: Engine<N>, p: Pos<N>) -> Self::Output {
            let mut s = p;
            let mut out = Vec::new();
            for (i, &ch) in self.colours.iter().enumerate() {
                let Some(c) = self.grid.palette().iter().position(|&x| x == ch) else {
                    return Err((i + 1, format!("{ch:?} is not a colour of this board"), out));
                };
                let c = c as u8;
                if e.is_solved(&s) {
                    return Err((i + 1, "the board is already one colour".into(), out));
                }
                if c == s.colour {
                    return Err((i + 1, format!("{ch} is the flood's own colour"), out));
                }
                let Some(next) = e.play(&s, c) else {
                    return Err((i + 1, format!("colour {ch} does not touch the flood"), out));
                };
                s = next;
                out.push((
                    Step {
                        x: None,
                        y: None,
                        colour: ch.to_string(),
                        size: None,
                    },
                    e.grid(&s),
                ));
            }
            Ok(out)
        }
    }
    dispatch(grid, start, Run { grid, colours })
}

/// A one-row board of `n²` cells (`n ≥ 2`) as the `n×n` board it writes row by row, top
/// row first (the format of the Flood-It benchmark sets); any other board unchanged.
pub fn square_up(grid: Grid) -> Grid {
    let len = grid.width();
    let n = (len as f64).sqrt().round() as usize;
    if grid.height() != 1 || n < 2 || n * n != len {
        return grid;
    }
    let row: Vec<u8> = (0..len).map(|x| grid.get(x, 0)).collect();
    // cells bottom row first: row r from the top is the slice r*n..(r+1)*n
    let cells = (0..n)
        .rev()
        .flat_map(|r| row[r * n..(r + 1) * n].to_vec())
        .collect();
    Grid::from_cells(n, n, cells, grid.palette().to_vec())
}

/// Is this board (the output of a move) one colour?
pub fn is_one_colour(grid: &Grid) -> bool {
    let c = grid.get(0, 0);
    (0..grid.height()).all(|y| (0..grid.width()).all(|x| grid.get(x, y) == c))
}

/// Parses a colour sequence: every character that is not a space or comma is one move.
pub fn parse_colours(moves: &str) -> Vec<char> {
    moves
        .chars()
        .filter(|c| !c.is_whitespace() && *c != ',' && *c != ';')
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::generate;
    use crate::puzzle::Puzzle;
    use crate::search::ida_star;

    /// The generic searches work on Flood-It through this impl, so that they can be checked
    /// against the dedicated A* ([`solver::astar`]), which is what solves Flood-It.
    impl<const N: usize> Puzzle for Engine<N> {
        type State = Pos<N>;
        type Move = u8;

        fn is_solved(&self, s: &Pos<N>) -> bool {
            Engine::is_solved(self, s)
        }
        fn successors(&self, s: &Pos<N>, out: &mut Vec<(u8, Pos<N>)>) {
            for c in 0..self.colours as u8 {
                if let Some(p) = self.play(s, c) {
                    out.push((c, p));
                }
            }
        }
        fn lower_bound(&self, s: &Pos<N>) -> u32 {
            if self.is_solved(s) {
                0
            } else {
                bounds::puchert(self, &s.flood).max(1)
            }
        }
        fn key(&self, s: &Pos<N>) -> u64 {
            Self::hash(&s.flood)
        }
        fn check(&self, s: &Pos<N>) -> u32 {
            let mut h = 0x1319_8a2e_0370_7344u64;
            for &w in &s.flood {
                h = (h ^ w).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
                h ^= h >> 31;
            }
            (h >> 32) as u32
        }
        fn priority(&self, _s: &Pos<N>, _m: &u8, child: &Pos<N>) -> i64 {
            set::count(&child.flood) as i64
        }
    }

    #[test]
    fn one_line_boards_are_squared_up_top_row_first() {
        let g = square_up("ABCD".parse().unwrap());
        assert_eq!(g.to_inline(), "AB,CD");
        let g = square_up("ABC".parse().unwrap());
        assert_eq!(g.to_inline(), "ABC");
    }

    #[test]
    fn a_move_absorbs_every_adjacent_region_of_its_colour() {
        let g: Grid = "ABA,BBA,CAA".parse().unwrap();
        let (e, p) = Engine::<2>::new(&g, (0, 2)).unwrap();
        assert_eq!(e.regions(), 4);
        assert!(e.play(&p, 0).is_none(), "the flood's own colour");
        assert!(e.play(&p, 2).is_none(), "C does not touch the flood");
        let q = e.play(&p, 1).unwrap();
        assert_eq!(e.grid(&q).to_inline(), "BBA,BBA,CAA");
        let r = e.play(&q, 0).unwrap();
        assert_eq!(e.grid(&r).to_inline(), "AAA,AAA,CAA");
    }

    /// Checks [`Engine::union_adjacent`] against the plain union on a random set of `e`'s
    /// regions: `words` thinned out by `density` (0 keeps about one bit in 16, 4 all).
    fn check_union<const N: usize>(
        e: &Engine<N>,
        words: &[u64; 8],
        density: u32,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        let s: Set<N> = std::array::from_fn(|i| {
            let mut w = words[i % 8];
            for k in density..4 {
                w &= words[(i + k as usize + 1) % 8].rotate_left(17 * k + 5);
            }
            w & e.all()[i]
        });
        let mut plain = set::empty::<N>();
        set::for_each(&s, |r| plain = set::or(&plain, e.adjacent(r)));
        proptest::prop_assert_eq!(e.union_adjacent(&s), plain);
        Ok(())
    }

    proptest::proptest! {
        /// The unrolled union over the padded table is the plain union of the members'
        /// neighbour sets, in every word that holds regions and for sets from empty to
        /// full: a 16×16 board of 5 colours (about 150 regions: three words of a four-word
        /// engine), and a 20×20 board of 6 colours (about 280 regions: five words, in a
        /// five-word engine where it fits and in an eight-word one).
        #[test]
        fn union_adjacent_is_the_union_of_the_neighbours(
            seed in 0u64..1000,
            words in proptest::array::uniform8(proptest::prelude::any::<u64>()),
            density in 0u32..5,
        ) {
            let g = generate(16, 16, 5, seed);
            let (e, _) = Engine::<4>::new(&g, (0, 0)).unwrap();
            check_union(&e, &words, density)?;
            let g = generate(20, 20, 6, seed);
            let (e, _) = Engine::<8>::new(&g, (0, 0)).unwrap();
            check_union(&e, &words, density)?;
            if e.regions() <= 5 * 64 {
                let (e, _) = Engine::<5>::new(&g, (0, 0)).unwrap();
                check_union(&e, &words, density)?;
            }
        }
    }

    #[test]
    fn the_generic_ida_star_agrees_with_the_a_star() {
        for seed in 0..6 {
            let g = generate(6, 6, 4, seed);
            let (e, p) = Engine::<2>::new(&g, (0, 5)).unwrap();
            let ida = ida_star(&e, &p, &SearchOptions::default(), None, &mut |_| {});
            let a = solver::astar(&e, &p, &SearchOptions::default(), &mut |_| {});
            assert!(ida.proven && a.proven);
            assert_eq!(ida.best.unwrap().len(), a.moves.len(), "seed {seed}");
        }
    }
}
