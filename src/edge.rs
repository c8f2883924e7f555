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
//! middle column: Former boards' proofs took 22% fewer nodes (see the README).
//!
//! With wide slices there are two more such pairs: the wide left slice with the narrow
//! right one, and the narrow left with the wide right (on a seven-column board each pair
//! covers the whole board, with no column between: then `m` is 0 and `k` counts the
//! colours' runs in the two columns where the slices meet).
//!
//! The bound is the largest of the sides' and the pairs'. The edge bound alone is at least as
//! strong as the column-run bound when a colour's tiles in `S` need a click each (they
//! cannot be joined across the boundary), and on sampled mid-game Former positions it was
//! one or two above it on most (see the README).
//!
//! Three columns make a much stronger bound than two: on Former boards the proofs took
//! 2–20 times fewer nodes (see the README). The wide slices add a good deal again: on
//! 259 positions of random play that the last iteration of a proof of Former 2024-11-29
//! would search, they raised the bound on 58%, by two or three on 7%, and Former proofs
//! took 3–150 times fewer nodes (see the README).
//!
//! ## Solving the edge game
//! A slice's position is given by which of its starting tiles are left: a mask of at most
//! [`MAX_TILES_4`] bits (the outermost column's tiles from the bottom, then the next
//! column's, and so on). A board position is turned into a mask by matching each column's
//! colours, bottom to top, against its starting column (any match of the same colours
//! gives the same relaxed position, so the same optimum).
//!
//! Values are remembered in a table of one byte per position shared by all threads (a
//! value computed twice is the same), indexed by what each column holds: a column can only
//! lose whole runs of one colour at a time, so it can become only a few hundred of the
//! `2^9` subsets of its tiles (`column_classes`), and the table of a three-column slice
//! of a Former board has about 2.5 million entries instead of `2^27`. A four-column slice
//! would need hundreds of millions, so its values go to a hash table of `2^23` words
//! (`HASHED_MEMO`) instead, each holding its position's number (a value lost to
//! another position is only searched for again). (Measured on Former 2024-11-29, 2
//! threads: `2^23` words 30.3 s, `2^21` 38.9 s, `2^25` 38.1 s.)
//!
//! With two columns, the optimum of every position is computed on first use, by recursion
//! over all the positions it leads to. With three, that would be millions of positions
//! for one edge; instead each position asked for gets its optimum from an iterative
//! deepening search of the relaxed game, pruned by a lower bound from the two outer
//! columns (`Side::lower`), which remembers the lower bounds it proves and the optima it
//! finds. On six Former boards the proofs needed 1,300–100,000 optima per edge, and
//! the searches behind them touched at most 1.3 million positions of an edge (against the
//! 11.7 million the full recursion solves for 2024-11-16's left edge before its first
//! answer).
//!
//! A four-column slice is searched the same way, bounded by the optimum of its three outer
//! columns: its inner slice is the edge's narrow slice, memo and all. The bound from the
//! inner columns is tried before the slice's own memo is read: it is in the smaller,
//! oftener read table, and it rules out most positions a search reaches (Former's six
//! boards above: 4.5 → 1.95 s).

use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;

use crate::bits::{pdep64, pext64};
use crate::grid::MAX_COLOURS;
use crate::zeroed::Zeroed;

/// The most columns a slice may have.
pub const MAX_SLICE: usize = 4;

/// The most starting tiles a slice of two columns may hold for the bound to be used (its
/// first use solves every position the slice can reach).
pub const MAX_TILES: u32 = 20;

/// The most starting tiles a slice of three columns may hold.
pub const MAX_TILES_3: u32 = 27;

/// The most starting tiles a slice of four columns may hold.
pub const MAX_TILES_4: u32 = 36;

/// The largest memo a slice may have indexed by position, in bytes (one per position, see
/// [`Side::key`]); a slice with more positions remembers them in a hash table instead.
const MAX_MEMO: usize = 1 << 27;

/// Entries of a hashed memo (8 bytes each: 64 MiB).
const HASHED_MEMO: usize = 1 << 23;

/// A set of a slice's starting tiles (see the module doc).
pub type Mask = u64;

/// One edge of the board as it was at the start.
#[derive(Debug)]
struct Side {
    /// Columns in the slice, outermost first.
    n: usize,
    /// Starting tiles of each column.
    heights: [u32; MAX_SLICE],
    /// Where each column's tiles start in a mask.
    offset: [u32; MAX_SLICE],
    /// For each column, the colour of each starting tile, bottom first.
    colours: [Vec<u8>; MAX_SLICE],
    /// For each column and colour, the mask of its starting tiles of that colour.
    of_colour: [[Mask; MAX_COLOURS]; MAX_SLICE],
    /// For each column, the number of what each set of its starting tiles leaves (see
    /// [`column_classes`]), and how many numbers there are.
    class: [Vec<u16>; MAX_SLICE],
    classes: [usize; MAX_SLICE],
    /// By the columns' numbers ([`Side::key`]): 0 not yet known, else the relaxed
    /// optimum + 1 (three columns or more: a lower bound + 1, or the optimum + 1 with
    /// [`EXACT`] set).
    memo: Memo,
    /// In a slice of three columns or more, all but its boundary column as a slice of
    /// their own (shared: a four-column slice's is the three-column slice of its edge).
    inner: Option<Arc<Side>>,
}

/// The edge bound of one board (both edges): the narrow slices (two or three columns) and,
/// on boards wide enough, the wide ones (four columns).
#[derive(Debug)]
pub struct EdgeBound {
    /// Left narrow, right narrow, then left wide and right wide if there are wide ones.
    sides: Vec<Arc<Side>>,
    colours: usize,
}

/// A slice's memo: one byte per position where they are few enough to index, else a
/// table of `HASHED_MEMO` words, each the key + 1 above the byte, direct-mapped (a lost
/// entry is only found again).
#[derive(Debug)]
enum Memo {
    Indexed(Zeroed),
    Hashed(Zeroed),
}

impl Memo {
    #[inline]
    fn get(&self, key: usize) -> u8 {
        match self {
            Memo::Indexed(m) => m.as_bytes()[key].load(Relaxed),
            Memo::Hashed(t) => {
                let t = t.as_words();
                let w = t[Self::slot(key, t.len())].load(Relaxed);
                if w >> 8 == key as u64 + 1 {
                    w as u8
                } else {
                    0
                }
            }
        }
    }

    #[inline]
    fn set(&self, key: usize, v: u8) {
        match self {
            Memo::Indexed(m) => m.as_bytes()[key].store(v, Relaxed),
            Memo::Hashed(t) => {
                let t = t.as_words();
                t[Self::slot(key, t.len())].store((key as u64 + 1) << 8 | v as u64, Relaxed)
            }
        }
    }

    /// Where `key` is in a hashed memo of `len` words.
    #[inline]
    fn slot(key: usize, len: usize) -> usize {
        ((key as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize & (len - 1)
    }
}

/// Column `k` of a slice plane is bits `16k..16k + 16`, bottom first.
const COLUMN: u32 = 16;
const BOTTOMS: u64 = 0x0001_0001_0001_0001;
const TOPS: u64 = BOTTOMS << (COLUMN - 1);

impl Side {
    /// The slice of `columns` (outermost first), with `inner` as its slice of all but the
    /// boundary column (made here where not given), or `None` if a column has too many
    /// positions to number.
    fn new(columns: &[&[u8]], inner: Option<Arc<Side>>) -> Option<Side> {
        Side::with_memo(columns, inner, MAX_MEMO, HASHED_MEMO)
    }

    /// [`Side::new`] with a memo indexed by position where there are at most `indexed`
    /// positions, else hashed in `hashed` words (a power of two).
    fn with_memo(
        columns: &[&[u8]],
        inner: Option<Arc<Side>>,
        indexed: usize,
        hashed: usize,
    ) -> Option<Side> {
        let n = columns.len();
        let inner = match (n, inner) {
            (0..=2, _) => None,
            (_, Some(i)) => Some(i),
            (_, None) => Some(Arc::new(Side::new(&columns[..n - 1], None)?)),
        };
        let mut heights = [0u32; MAX_SLICE];
        let mut offset = [0u32; MAX_SLICE];
        let mut of_colour = [[0 as Mask; MAX_COLOURS]; MAX_SLICE];
        let mut colours: [Vec<u8>; MAX_SLICE] = Default::default();
        let mut at = 0;
        let mut class: [Vec<u16>; MAX_SLICE] = Default::default();
        let mut classes = [1usize; MAX_SLICE];
        for (k, col) in columns.iter().enumerate() {
            // the columns it shares with its inner slice are numbered there already
            (class[k], classes[k]) = match &inner {
                Some(i) if k < i.n => (i.class[k].clone(), i.classes[k]),
                _ => column_classes(col)?,
            };
            heights[k] = col.len() as u32;
            offset[k] = at;
            at += col.len() as u32;
            colours[k] = col.to_vec();
            for (i, &c) in col.iter().enumerate() {
                of_colour[k][c as usize] |= 1 << i;
            }
        }
        let entries: usize = classes.iter().product();
        let memo = if entries <= indexed {
            Memo::Indexed(Zeroed::bytes(entries))
        } else {
            Memo::Hashed(Zeroed::words(hashed))
        };
        Some(Side {
            n,
            heights,
            offset,
            colours,
            of_colour,
            memo,
            class,
            classes,
            inner,
        })
    }

    /// [`EdgeBound::mask_of_bits`] for this side. Matches the starting tiles bottom up,
    /// taking each whose colour is the next tile's.
    #[inline]
    fn mask_of_bits(&self, bits: &[[u64; MAX_COLOURS]; MAX_SLICE]) -> Option<Mask> {
        let mut mask: Mask = 0;
        for (k, bits) in bits[..self.n].iter().enumerate() {
            let len = bits.iter().fold(0, |a, b| a | b).count_ones();
            let mut j = 0;
            let at = self.offset[k];
            for (i, &c) in self.colours[k].iter().enumerate() {
                let hit = (bits[c as usize] >> j) & 1;
                mask |= hit << (i as u32 + at);
                j += hit;
            }
            if j != len as u64 {
                return None;
            }
        }
        Some(mask)
    }

    /// Where `mask` is in the memo: the columns' numbers ([`column_classes`]) as the digits
    /// of a mixed-radix number; `None` for a mask no position can have.
    #[inline]
    fn key(&self, mask: Mask) -> Option<usize> {
        let mut key = 0;
        for (k, &sub) in self.split(mask)[..self.n].iter().enumerate() {
            let c = self.class[k][sub as usize];
            if c == NONE {
                return None;
            }
            key = key * self.classes[k] + c as usize;
        }
        Some(key)
    }

    /// Each column's starting tiles left in `mask`, as bits from the bottom.
    #[inline]
    fn split(&self, mask: Mask) -> [u64; MAX_SLICE] {
        let mut left = [0u64; MAX_SLICE];
        for (k, l) in left.iter_mut().enumerate().take(self.n) {
            *l = (mask >> self.offset[k]) & ((1 << self.heights[k]) - 1);
        }
        left
    }

    /// The starting tiles (a mask) that the tiles `taken` of each column as it is now
    /// (bits from the bottom of the tiles left, `left`) are.
    #[inline]
    fn starting(&self, left: &[u64; MAX_SLICE], taken: impl Fn(usize) -> u64) -> Mask {
        let mut gone: Mask = 0;
        for (k, &l) in left.iter().enumerate().take(self.n) {
            gone |= pdep64(taken(k), l) << self.offset[k];
        }
        gone
    }

    /// Calls `f` with the mask left by each relaxed move from `mask` (see the module doc),
    /// until it returns `true`; returns whether it did.
    #[inline]
    fn moves(&self, mask: Mask, colours: usize, mut f: impl FnMut(Mask) -> bool) -> bool {
        let left = self.split(mask);
        let boundary = COLUMN * (self.n as u32 - 1);
        // the starting tiles a move takes, from the tiles it takes in the slice as it is
        let taken = |plane: u64| -> Mask {
            self.starting(&left, |k| (plane >> (COLUMN * k as u32)) & 0xffff)
        };
        let mut touching = [0u64; 32];
        for c in 0..colours {
            let mut plane = 0u64;
            for (k, &l) in left.iter().enumerate().take(self.n) {
                plane |= pext64(self.of_colour[k][c], l) << (COLUMN * k as u32);
            }
            let mut rest = plane;
            let mut n = 0;
            while rest != 0 {
                let group = flood(rest & rest.wrapping_neg(), plane);
                rest &= !group;
                if f(mask & !taken(group)) {
                    return true;
                }
                if group >> boundary != 0 && n < touching.len() {
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
                if f(mask & !taken(union)) {
                    return true;
                }
            }
        }
        false
    }

    /// The relaxed optimum of the slice with the starting tiles `mask` left if it is at most
    /// `cap`, else a lower bound above `cap` (a slice of three columns or four searches no
    /// further; one of two knows every optimum anyway).
    fn opt(&self, mask: Mask, cap: u32, colours: usize) -> u32 {
        // a mask no position can have (none reaches here) gets the bound 0
        let Some(key) = self.key(mask).filter(|_| mask != 0) else {
            return 0;
        };
        let known = self.memo.get(key);
        if let Some(inner) = &self.inner {
            if known & EXACT != 0 {
                return (known & !EXACT) as u32 - 1;
            }
            let mut t = self.lower(inner, mask, known, colours);
            while t <= cap {
                if self.within(inner, mask, t, colours) {
                    self.memo.set(key, EXACT | (t as u8 + 1));
                    return t;
                }
                t += 1;
            }
            return t;
        }
        if known != 0 {
            return known as u32 - 1;
        }
        let mut best = u32::MAX;
        self.moves(mask, colours, |child| {
            best = best.min(self.opt(child, u32::MAX, colours));
            false
        });
        let v = best + 1;
        self.memo.set(key, v as u8 + 1);
        v
    }

    /// A lower bound on the relaxed optimum of `mask` in a slice of `n ≥ 3` columns whose
    /// memo entry is `known` (not exact): the larger of the stored one and the relaxed
    /// optimum of the `n − 1` outer columns plus the colours left in the boundary column
    /// and none in the one beside it (each needs a click that takes no tile of the
    /// others: why this holds is the module doc's argument, applied to the `n − 1`
    /// columns inside the `n`).
    #[inline]
    fn lower(&self, inner: &Side, mask: Mask, known: u8, colours: usize) -> u32 {
        let stored = (known as u32).saturating_sub(1);
        stored.max(self.inner_lower(inner, mask, colours))
    }

    /// [`Side::lower`] without the memo.
    #[inline]
    fn inner_lower(&self, inner: &Side, mask: Mask, colours: usize) -> u32 {
        let b = self.n - 1;
        let outer = inner.opt(mask & ((1 << self.offset[b]) - 1), u32::MAX, colours);
        let left = self.split(mask);
        let mut alone = 0;
        for c in 0..colours {
            let here = |k: usize| self.of_colour[k][c] & left[k] != 0;
            alone += (here(b) && !here(b - 1)) as u32;
        }
        outer + alone
    }

    /// Whether the slice with `mask` left can be cleared in `t` relaxed moves (a
    /// depth-first search bounded by [`Side::lower`]; a failure stores `t + 1` as a lower
    /// bound, a success where that bound was `t` stores `t` as exact).
    fn within(&self, inner: &Side, mask: Mask, t: u32, colours: usize) -> bool {
        // (a mask no position can have is taken as cleared, keeping the bound admissible)
        let Some(key) = self.key(mask).filter(|_| mask != 0) else {
            return true;
        };
        // the bound from the inner columns first: it needs no look in this slice's memo,
        // whose entries are scattered over far more memory
        let lower = self.inner_lower(inner, mask, colours);
        if lower > t {
            return false;
        }
        let known = self.memo.get(key);
        if known & EXACT != 0 {
            return (known & !EXACT) as u32 - 1 <= t;
        }
        let lower = lower.max((known as u32).saturating_sub(1));
        if lower > t {
            return false;
        }
        if self.moves(mask, colours, |child| {
            self.within(inner, child, t - 1, colours)
        }) {
            if lower == t {
                self.memo.set(key, EXACT | (t as u8 + 1));
            }
            return true;
        }
        // (may overwrite an optimum another thread just stored: still a true lower bound)
        self.memo.set(key, t as u8 + 2);
        false
    }
}

/// In a three-column slice's memo, the entry is exact (else a lower bound).
const EXACT: u8 = 0x80;

/// A set of a column's starting tiles that no position can leave.
const NONE: u16 = u16::MAX;

/// Numbers what each set of a column's starting tiles (a mask, bit `i` the `i`-th tile
/// from the bottom) leaves in the column: two sets leaving the same colours, bottom to
/// top, get the same number, so the relaxed optimum is remembered once for them. Only what
/// the column can become is numbered (the rest get [`NONE`]): a move takes from a column
/// some whole runs (same-colour tiles one above the other) of one colour, so that is what
/// the closure from the full column follows. Returns the numbers by mask and how many
/// there are (`None` if there are too many to number in 16 bits).
fn column_classes(col: &[u8]) -> Option<(Vec<u16>, usize)> {
    let h = col.len();
    // the lowest set of starting tiles leaving what `m` leaves (the colours matched
    // bottom up, each to the first tile of its colour)
    let canon = |m: u32| -> u32 {
        let mut out = 0;
        let mut i = 0;
        for j in 0..h {
            if m >> j & 1 == 1 {
                while col[i] != col[j] {
                    i += 1;
                }
                out |= 1 << i;
                i += 1;
            }
        }
        out
    };
    let mut number = vec![NONE; 1 << h];
    let full = (1u32 << h) - 1;
    let mut seen = vec![full];
    number[full as usize] = 0;
    let mut next = 0;
    while next < seen.len() {
        let m = seen[next];
        next += 1;
        // the runs of what `m` leaves, as masks, with their colours
        let mut runs: Vec<(u8, u32)> = Vec::new();
        for (j, &cj) in col.iter().enumerate() {
            if m >> j & 1 == 1 {
                match runs.last_mut() {
                    Some((c, r)) if *c == cj => *r |= 1 << j,
                    _ => runs.push((cj, 1 << j)),
                }
            }
        }
        for colour in 0..MAX_COLOURS as u8 {
            let mine: Vec<u32> = runs.iter().filter(|r| r.0 == colour).map(|r| r.1).collect();
            for sub in 1u32..1 << mine.len() {
                let taken = (0..mine.len())
                    .filter(|&i| sub >> i & 1 == 1)
                    .fold(0, |a, i| a | mine[i]);
                let c = canon(m & !taken);
                if number[c as usize] == NONE {
                    if seen.len() >= NONE as usize {
                        return None; // too many to number
                    }
                    number[c as usize] = seen.len() as u16;
                    seen.push(c);
                }
            }
        }
    }
    let numbered = seen.len();
    let class = (0..1u32 << h).map(|m| number[canon(m) as usize]).collect();
    Some((class, numbered))
}

/// The group of `plane` (a slice plane, see [`COLUMN`]) holding the tiles `seed`.
#[inline]
fn flood(seed: u64, plane: u64) -> u64 {
    let mut g = seed;
    loop {
        let grown =
            (g | ((g << 1) & !BOTTOMS) | ((g >> 1) & !TOPS) | (g << COLUMN) | (g >> COLUMN))
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
    /// [`MAX_TILES`] tiles, none taller than 16. With seven columns or more and at most
    /// [`MAX_TILES_3`] tiles in each edge's three, the slices are three columns wide, and
    /// with at most [`MAX_TILES_4`] in each edge's four there are wide slices of four
    /// besides ([`EdgeBound::narrow`] leaves them out).
    pub fn new(columns: &[Vec<u8>], colours: usize) -> Option<EdgeBound> {
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
                Arc::new(Side::new(&l, None)?),
                Arc::new(Side::new(&r, None)?),
            ])
        };
        let three = if w >= 7 { narrow(3, MAX_TILES_3) } else { None };
        let mut sides = three.or_else(|| narrow(2, MAX_TILES))?;
        if sides[0].n == 3 {
            if let Some([l, r]) = edges(4, MAX_TILES_4) {
                let l = Side::new(&l, Some(sides[0].clone()));
                let r = Side::new(&r, Some(sides[1].clone()));
                if let (Some(l), Some(r)) = (l, r) {
                    sides.extend([Arc::new(l), Arc::new(r)]);
                }
            }
        }
        Some(EdgeBound { sides, colours })
    }

    /// The same bound without its wide slices (sharing the narrow ones and their memos).
    pub fn narrow(&self) -> EdgeBound {
        EdgeBound {
            sides: self.sides[..2].to_vec(),
            colours: self.colours,
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
        self.sides[side].opt(mask, u32::MAX, self.colours)
    }

    /// [`EdgeBound::opt`] where it is at most `cap`, else a lower bound on it above `cap`
    /// (for a caller that only needs to know whether it exceeds `cap`).
    #[inline]
    pub fn opt_capped(&self, side: usize, mask: Mask, cap: u32) -> u32 {
        self.sides[side].opt(mask, cap, self.colours)
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
    use std::collections::HashMap;

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

    /// The optimum of every position of random three- and four-column slices, asked for
    /// in a mixed order, as the bounded search finds it ([`Side::within`]) and as the plain
    /// recursion over every position leads to (the two-column way); a four-column slice
    /// with a hashed memo far too small for its positions (so that they keep pushing each
    /// other out) finds the same.
    #[test]
    fn three_and_four_column_search_finds_the_optimum() {
        fn full(side: &Side, mask: Mask, colours: usize, memo: &mut HashMap<Mask, u32>) -> u32 {
            if mask == 0 {
                return 0;
            }
            if let Some(&v) = memo.get(&mask) {
                return v;
            }
            let mut best = u32::MAX;
            side.moves(mask, colours, |child| {
                best = best.min(full(side, child, colours, memo));
                false
            });
            memo.insert(mask, best + 1);
            best + 1
        }
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut below = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut deep = 0;
        for case in 0..200 {
            let colours = 2 + case % 3;
            let n = 3 + case % 2;
            let cols: Vec<Vec<u8>> = (0..n)
                .map(|_| {
                    (0..1 + below(9 - n))
                        .map(|_| below(colours) as u8)
                        .collect()
                })
                .collect();
            let refs: Vec<&[u8]> = cols.iter().map(|c| &c[..]).collect();
            let side = match n {
                3 => Side::new(&refs, None).unwrap(),
                _ => Side::with_memo(&refs, None, 0, 64).unwrap(),
            };
            assert_eq!(matches!(side.memo, Memo::Hashed(_)), n == 4);
            let tiles: usize = cols.iter().map(Vec::len).sum();
            let mut memo = HashMap::new();
            let all: Mask = (1 << tiles) - 1;
            full(&side, all, colours, &mut memo);
            let mut masks: Vec<Mask> = memo.keys().copied().collect();
            masks.sort_unstable_by_key(|&m| (m.wrapping_mul(0x9e37_79b9), m));
            for m in masks {
                let opt = side.opt(m, u32::MAX, colours);
                assert_eq!(opt, memo[&m], "case {case}, columns {cols:?}, mask {m:#b}");
                deep += usize::from(opt > side.lower(side.inner.as_ref().unwrap(), m, 0, colours));
            }
        }
        // the search had work to do: its lower bound was below the optimum somewhere
        assert!(deep > 0);
    }

    #[test]
    fn columns_that_are_not_from_the_board_give_nothing() {
        let cols = vec![vec![0, 1], vec![1], vec![1], vec![0, 1]];
        let e = EdgeBound::new(&cols, 2).unwrap();
        assert_eq!(e.optimum(0, &[&[1, 0], &[1]]), None);
        assert_eq!(e.optimum(1, &[&[0], &[]]), Some(1));
    }
}
