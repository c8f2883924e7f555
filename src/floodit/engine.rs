//! The region graph of one board from one start cell ([`Engine`]), a position on it
//! ([`Pos`]) and a move: every 4-connected same-colour region a node, numbered
//! breadth-first from the start, with its colour and the set of its neighbours.

use super::set::{self, Set};
use crate::grid::{BoardError, Grid};

/// The most regions (and so cells) a Flood-It board may have.
pub const MAX_REGIONS: usize = 1024;
/// The most cells a Flood-It board may have (32×32).
pub const MAX_CELLS: usize = MAX_REGIONS;

/// Entries per row of the adjacency table: 64 regions and an empty set.
const ROW: usize = 65;
/// Regions [`Engine::union_adjacent`] takes per round.
const UNROLL: usize = 8;

/// The region graph of one board from one start cell.
#[derive(Clone, Debug)]
pub struct Engine<const N: usize> {
    width: usize,
    height: usize,
    /// Region of each cell, `y * width + x` (`y = 0` at the bottom).
    pub(super) cell_region: Vec<u16>,
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
    pub(super) palette: Vec<char>,
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
    /// four-word engine has three, and [`super::dispatch`] picks the narrowest engine, so one of
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
/// does not (the same as [`super::dispatch`]'s: within [`MAX_CELLS`] cells, the regions always
/// fit).
pub fn check_size(width: usize, height: usize) -> Result<(), BoardError> {
    if width * height > MAX_CELLS {
        Err(too_large(width, height))
    } else {
        Ok(())
    }
}

pub(super) fn too_large(w: usize, h: usize) -> BoardError {
    BoardError::TooLarge {
        width: w,
        height: h,
        limit: format!(
            "Flood-It boards may have at most {MAX_REGIONS} cells (e.g. 32×32) and {MAX_REGIONS} regions"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::generate;

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
}
