//! The board's geometry: the masks of cells, columns and rows of a `W × H` board laid out
//! column-major (cell `(x, y)` is bit `x * H + y`), and the whole-board operations on them.

use crate::bits::Bits;

/// Board geometry and the precomputed masks the engine works with.
#[derive(Clone, Debug)]
pub struct Geometry<B> {
    pub width: usize,
    pub height: usize,
    pub(super) all: B,
    pub(super) bottom: B,
    top: B,
    pub(super) cols: Vec<B>,
    pub(super) rows: Vec<B>,
    /// `(k, cells with y + k < H)`: one step of smearing a column down onto its bottom cell.
    smear: Vec<(u32, B)>,
    /// For the row squeeze, one flat table: entry `(y·(m + 1) + l)·(W − m + 1) + r` is row
    /// `y` with `l` tiles ending at column `m-1` and `r` tiles starting at column `m`.
    pub(super) squeezed: Vec<B>,
    pub(super) half: usize,
    /// `from_row[y]`: every cell in row `y` or above (`from_row[H]` is empty).
    pub(super) from_row: Vec<B>,
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
    pub(super) fn column_span(&self, x0: usize, x1: usize) -> B {
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
