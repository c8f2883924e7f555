//! One slice of the board's edge as it was at the start ([`Side`]), and its positions.
//!
//! A slice's position is given by which of its starting tiles are left: a mask of at most
//! [`MAX_TILES_4`] bits (the outermost column's tiles from the bottom, then the next
//! column's, and so on). A board position is turned into a mask by matching each column's
//! colours, bottom to top, against its starting column (any match of the same colours
//! gives the same relaxed position, so the same optimum).

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use super::columns::{column_classes, NONE};
use super::memo::{Memo, EXACT, KEY_LIMIT, MAX_MEMO};
#[cfg(doc)]
use super::{EdgeBound, MAX_TILES_4};
use super::{Mask, MAX_SLICE};
use crate::bits::{pdep64, pext64, FAST_PEXT};
use crate::grid::MAX_COLOURS;

/// Column `k` of a slice plane ([`Side::plane`]) is bits `16k..16k + 16`, bottom first.
pub(super) const COLUMN: u32 = 16;

/// The most starting tiles of a column whose fallen planes are looked up
/// ([`Side::fallen`]): a table of `2^12 × stride` entries, at most 128 KiB.
pub(super) const FALLEN_TILES: usize = 12;

/// A mask has at most [`Mask::BITS`] tiles, and a value the memo stores is at most the
/// tiles + 1 (a relaxed optimum, or a lower bound one above a failed search's threshold,
/// both at most the tiles: each move takes one at least): below [`EXACT`].
const _: () = assert!(Mask::BITS + 1 < EXACT as u32);

/// One edge of the board as it was at the start.
#[derive(Debug)]
pub(super) struct Side {
    /// Columns in the slice, outermost first.
    pub(super) n: usize,
    /// Each column's starting tiles as the low bits of a word (a bit per tile, none for a
    /// column past the slice's `n`).
    pub(super) low: [u64; MAX_SLICE],
    /// Where each column's tiles start in a mask.
    pub(super) offset: [u32; MAX_SLICE],
    /// For each column, the colour of each starting tile, bottom first.
    pub(super) colours: [Vec<u8>; MAX_SLICE],
    /// For each column and colour, the mask of its starting tiles of that colour.
    pub(super) of_colour: [[Mask; MAX_COLOURS]; MAX_SLICE],
    /// One more than the highest colour of the slice's starting tiles: no colour from it
    /// on has a tile here.
    pub(super) stride: usize,
    /// Where `pext` and `pdep` are bit loops ([`FAST_PEXT`] false), what they would give,
    /// looked up. For each column, where each colour's tiles lie once a set of its
    /// starting tiles is all that is left (they fall, keeping their order): entry
    /// `set * stride + c` is `pext(of_colour[k][c], set)`, bits from the bottom
    /// ([`Side::plane`]). Empty (for every column) where the instructions are fast or a
    /// column has over [`FALLEN_TILES`] starting tiles: the planes are then computed.
    pub(super) fallen: [Vec<u16>; MAX_SLICE],
    /// With [`Side::fallen`], for each column and set of its starting tiles, which tile
    /// each of the set is, bottom first, four bits each: the `i`-th lowest bit of the set
    /// is bit `(select >> 4i) & 15` ([`Side::starting`]).
    pub(super) select: [Vec<u64>; MAX_SLICE],
    /// For each column but the outermost, the colours (a bit each) of each set of its
    /// starting tiles, by the set's mask.
    pub(super) present: [Vec<u16>; MAX_SLICE],
    /// For each column, the number of what each set of its starting tiles leaves (see
    /// [`column_classes`]), and how many numbers there are. A column past the slice's
    /// `n` is empty: its one set gets number 0 of 1, so [`Side::key`] can read all
    /// [`MAX_SLICE`] of them.
    pub(super) class: [Vec<u16>; MAX_SLICE],
    pub(super) classes: [usize; MAX_SLICE],
    /// By the columns' numbers ([`Side::key`]): 0 not yet known, else the relaxed
    /// optimum + 1 (three columns or more: a lower bound + 1, or the optimum + 1 with
    /// [`EXACT`] set).
    pub(super) memo: Memo,
    /// In a slice of three columns or more, all but its boundary column as a slice of
    /// their own (shared: a four-column slice's is the three-column slice of its edge).
    pub(super) inner: Option<Arc<Side>>,
    /// Set while the searches on this board are being stopped ([`crate::edge::EdgeBound::halt`]):
    /// the relaxed searches then give up at once.
    pub(super) halted: AtomicBool,
    /// Held by the thread working out a two-column slice's optima ([`Side::opt`]): a
    /// second thread asking meanwhile waits and then reads them, rather than working
    /// out the same positions beside it.
    pub(super) solving: Mutex<()>,
}

impl Side {
    /// The slice of `columns` (outermost first), with `inner` as its slice of all but the
    /// boundary column (made here where not given, with a memo of at most a quarter of
    /// `bytes`), and a memo of at most `bytes` ([`Memo::within`]); or `None` if a column
    /// has too many positions to number, the slice more than its memo can tell apart
    /// ([`KEY_LIMIT`]), or (two columns) more positions than `bytes`.
    pub(super) fn new(columns: &[&[u8]], inner: Option<Arc<Side>>, bytes: usize) -> Option<Side> {
        // A slice of two columns finds the optimum of a position from those of every
        // position it leads to, by recursion: a value lost to a hashed memo would make that
        // exponential. It is built only with a byte per position.
        let whole = columns.len() <= 2;
        Side::build(columns, inner, bytes / 4, |entries| {
            (!whole || entries <= bytes.min(MAX_MEMO) as u64).then(|| Memo::within(entries, bytes))
        })
    }

    /// [`Side::new`] with a memo indexed by position where there are at most `indexed`
    /// positions, else hashed in `hashed` words (a power of two), `start` of them in use
    /// at first ([`Memo::starting`]).
    #[cfg(test)]
    pub(super) fn with_memo(
        columns: &[&[u8]],
        inner: Option<Arc<Side>>,
        indexed: usize,
        hashed: usize,
        start: usize,
    ) -> Option<Side> {
        Side::build(columns, inner, MAX_MEMO, |entries| {
            Some(Memo::starting(entries, indexed, hashed, start))
        })
    }

    /// The slice of `columns` with `inner` (made here where not given, with a memo of at
    /// most `inner_bytes`), and the memo `memo` gives for its number of positions (none:
    /// no slice).
    fn build(
        columns: &[&[u8]],
        inner: Option<Arc<Side>>,
        inner_bytes: usize,
        memo: impl FnOnce(u64) -> Option<Memo>,
    ) -> Option<Side> {
        let n = columns.len();
        let inner = match (n, inner) {
            (0..=2, _) => None,
            (_, Some(i)) => Some(i),
            (_, None) => Some(Arc::new(Side::new(&columns[..n - 1], None, inner_bytes)?)),
        };
        let mut low = [0u64; MAX_SLICE];
        let mut offset = [0u32; MAX_SLICE];
        let mut of_colour = [[0 as Mask; MAX_COLOURS]; MAX_SLICE];
        let mut present: [Vec<u16>; MAX_SLICE] = Default::default();
        let mut colours: [Vec<u8>; MAX_SLICE] = Default::default();
        let mut at = 0;
        let mut class: [Vec<u16>; MAX_SLICE] = [vec![0], vec![0], vec![0], vec![0]];
        let mut classes = [1usize; MAX_SLICE];
        for (k, col) in columns.iter().enumerate() {
            // the columns it shares with its inner slice are numbered there already
            (class[k], classes[k], present[k]) = match &inner {
                Some(i) if k < i.n => (i.class[k].clone(), i.classes[k], i.present[k].clone()),
                _ => {
                    let (class, classes) = column_classes(col)?;
                    (
                        class,
                        classes,
                        if k > 0 { colour_sets(col) } else { Vec::new() },
                    )
                }
            };
            low[k] = (1 << col.len()) - 1;
            offset[k] = at;
            at += col.len() as u32;
            colours[k] = col.to_vec();
            for (i, &c) in col.iter().enumerate() {
                of_colour[k][c as usize] |= 1 << i;
            }
        }
        assert!(
            at <= Mask::BITS,
            "a slice of {at} starting tiles: a mask holds at most {}",
            Mask::BITS
        );
        // the keys are the columns' numbers as mixed-radix digits (`Side::key`): a slice
        // with more positions than a memo can tell apart is not built
        let entries = classes
            .iter()
            .try_fold(1u64, |a, &c| a.checked_mul(c as u64))
            .filter(|&e| e <= KEY_LIMIT)?;
        let memo = memo(entries)?;
        let stride = columns
            .iter()
            .flat_map(|col| col.iter())
            .map(|&c| c as usize + 1)
            .max()
            .unwrap_or(0);
        let (fallen, select) = if FAST_PEXT {
            Default::default()
        } else {
            lookups(columns, &of_colour, stride)
        };
        Some(Side {
            n,
            low,
            offset,
            colours,
            of_colour,
            stride,
            fallen,
            select,
            present,
            memo,
            class,
            classes,
            inner,
            halted: AtomicBool::new(false),
            solving: Mutex::new(()),
        })
    }

    /// [`EdgeBound::mask_of_bits`] for this side. Matches the starting tiles bottom up,
    /// taking each whose colour is the next tile's.
    #[inline]
    pub(super) fn mask_of_bits(&self, bits: &[[u64; MAX_COLOURS]; MAX_SLICE]) -> Option<Mask> {
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
    pub(super) fn key(&self, mask: Mask) -> Option<usize> {
        let mut key = 0;
        // every column, those past `n` empty (number 0 of 1): a loop of fixed length
        for k in 0..MAX_SLICE {
            let c = self.class[k][self.column(mask, k) as usize];
            if c == NONE {
                return None;
            }
            key = key * self.classes[k] + c as usize;
        }
        Some(key)
    }

    /// Starts loading `mask`'s memo entry, for a look-up soon after; gives its key
    /// ([`Side::key`]).
    #[inline]
    pub(super) fn prefetch(&self, mask: Mask) -> Option<usize> {
        let key = self.key(mask)?;
        self.memo.prefetch(key);
        Some(key)
    }

    /// The colours (a bit each) of the tiles of column `k` left in `mask`.
    #[inline]
    pub(super) fn colours_in(&self, mask: Mask, k: usize) -> u16 {
        self.present[k][self.column(mask, k) as usize]
    }

    /// Column `k`'s starting tiles left in `mask`, as bits from the bottom (none for a
    /// column past the slice's `n`).
    #[inline]
    pub(super) fn column(&self, mask: Mask, k: usize) -> u64 {
        (mask >> self.offset[k]) & self.low[k]
    }

    /// Each column's starting tiles left in `mask`, as bits from the bottom ([`Side::column`]
    /// of each of the [`MAX_SLICE`]).
    #[inline]
    pub(super) fn split(&self, mask: Mask) -> [u64; MAX_SLICE] {
        std::array::from_fn(|k| self.column(mask, k))
    }

    /// Colour `c`'s tiles in the slice with each column's starting tiles `left` (bits from
    /// the bottom, [`Side::split`]) left, as a slice plane ([`COLUMN`]). `c` is below
    /// [`Side::stride`]. (Whether the planes are looked up is read from the tables, not
    /// from [`FAST_PEXT`], so that the tests can check both ways on any machine.)
    #[inline(always)]
    pub(super) fn plane(&self, left: &[u64; MAX_SLICE], c: usize) -> u64 {
        debug_assert!(c < self.stride);
        let mut plane = 0u64;
        if self.fallen[0].is_empty() {
            for (k, &l) in left.iter().enumerate() {
                plane |= pext64(self.of_colour[k][c], l) << (COLUMN * k as u32);
            }
        } else {
            for (k, &l) in left.iter().enumerate() {
                let bits = self.fallen[k][l as usize * self.stride + c];
                plane |= (bits as u64) << (COLUMN * k as u32);
            }
        }
        plane
    }

    /// The starting tiles (a mask) that the tiles `taken` of each column as it is now
    /// (bits from the bottom of the tiles left, `left`) are.
    #[inline]
    pub(super) fn starting(&self, left: &[u64; MAX_SLICE], taken: impl Fn(usize) -> u64) -> Mask {
        let mut gone: Mask = 0;
        if self.select[0].is_empty() {
            for (k, &l) in left.iter().enumerate() {
                gone |= pdep64(taken(k), l) << self.offset[k];
            }
        } else {
            // `pdep(taken, l)`: each tile taken is the set's tile of its rank, looked up
            // (a move takes a few tiles of a column, a bit loop would visit all of them)
            for (k, &l) in left.iter().enumerate() {
                let select = self.select[k][l as usize];
                let mut t = taken(k);
                while t != 0 {
                    gone |= 1 << ((select >> (4 * t.trailing_zeros())) & 15) << self.offset[k];
                    t &= t - 1;
                }
            }
        }
        gone
    }
}

/// [`Side::fallen`] and [`Side::select`] for a slice of `columns` whose tiles of each colour
/// are `of_colour`, colours below `stride`; both empty where a column has over
/// [`FALLEN_TILES`] tiles.
#[allow(clippy::type_complexity)]
fn lookups(
    columns: &[&[u8]],
    of_colour: &[[Mask; MAX_COLOURS]; MAX_SLICE],
    stride: usize,
) -> ([Vec<u16>; MAX_SLICE], [Vec<u64>; MAX_SLICE]) {
    if columns.iter().any(|c| c.len() > FALLEN_TILES) {
        return Default::default();
    }
    let sets = |k: usize| 1u64 << columns.get(k).map_or(0, |col| col.len());
    let fallen = std::array::from_fn(|k| {
        (0..sets(k) * stride as u64)
            .map(|i| {
                let (set, c) = (i / stride as u64, i as usize % stride);
                pext64(of_colour[k][c], set) as u16
            })
            .collect()
    });
    let select = std::array::from_fn(|k| (0..sets(k)).map(select_of).collect());
    (fallen, select)
}

/// Which tile each of the set `set` of a column's starting tiles is, bottom first, four
/// bits each ([`Side::select`]).
fn select_of(set: u64) -> u64 {
    let (mut select, mut rest) = (0u64, set);
    for i in 0..set.count_ones() {
        select |= u64::from(rest.trailing_zeros()) << (4 * i);
        rest &= rest - 1;
    }
    select
}

/// A colour is a bit of a `u16` in [`colour_sets`].
const _: () = assert!(MAX_COLOURS <= 16);

/// The colours (a bit each) of each set of the tiles of `col`, by the set's mask.
fn colour_sets(col: &[u8]) -> Vec<u16> {
    let mut sets = vec![0u16; 1 << col.len()];
    for sub in 1..sets.len() {
        sets[sub] = sets[sub & (sub - 1)] | 1 << col[sub.trailing_zeros() as usize];
    }
    sets
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::{pdep64_soft, pext64_soft};

    /// A slice's planes, looked up ([`Side::fallen`]) or computed, are each colour's
    /// starting tiles left in each column, fallen to the bottom in their order, and the
    /// starting tiles of the tiles a move takes ([`Side::starting`], looked up or
    /// computed) are `pdep`'s: checked against the definitions by plain loops, both ways,
    /// on every set of every column of random slices of 2 to 4 columns, short and tall.
    #[test]
    fn planes_are_each_colours_tiles_left_fallen() {
        let mut rng = fastrand::Rng::with_seed(0xfa11);
        let (mut slices, mut tables, mut checked) = (0, 0, 0);
        for round in 0..40 {
            let n = 2 + round % 3;
            let colours = 1 + rng.usize(..5);
            let tall = round % 4 == 3;
            let cols: Vec<Vec<u8>> = (0..n)
                .map(|_| {
                    let len = if tall {
                        FALLEN_TILES + 1
                    } else {
                        rng.usize(0..=9)
                    };
                    (0..len).map(|_| rng.u8(..colours as u8)).collect()
                })
                .collect();
            let refs: Vec<&[u8]> = cols.iter().map(|c| &c[..]).collect();
            let Some(mut side) = Side::with_memo(&refs, None, 1 << 20, 64, 64) else {
                continue;
            };
            slices += 1;
            // the planes looked up where the columns are short, then computed
            let (fallen, select) = lookups(&refs, &side.of_colour, side.stride);
            tables += usize::from(!fallen[0].is_empty());
            for (fallen, select) in [(fallen, select), Default::default()] {
                (side.fallen, side.select) = (fallen, select);
                for k in 0..n {
                    for set in 0..1u64 << cols[k].len() {
                        let mut left: [u64; MAX_SLICE] =
                            std::array::from_fn(|j| rng.u64(..) & side.low[j]);
                        left[k] = set;
                        for c in 0..side.stride {
                            let mut want = 0u64;
                            for (j, &l) in left.iter().enumerate() {
                                // colour c's tiles of column j left, from the bottom, in order
                                let (mut bits, mut at) = (0u64, 0);
                                for (i, &t) in cols.get(j).map_or(&[][..], |v| v).iter().enumerate()
                                {
                                    if l >> i & 1 == 1 {
                                        bits |= u64::from(t as usize == c) << at;
                                        at += 1;
                                    }
                                }
                                assert_eq!(bits, pext64_soft(side.of_colour[j][c], l));
                                want |= bits << (COLUMN as usize * j);
                            }
                            assert_eq!(side.plane(&left, c), want, "{cols:?} {left:?} colour {c}");
                            checked += 1;
                        }
                        // the starting tiles of tiles taken in the columns as they are now
                        let taken: [u64; MAX_SLICE] = std::array::from_fn(|j| {
                            rng.u64(..) & ((1 << left[j].count_ones()) - 1)
                        });
                        let mut want = 0;
                        for (j, &l) in left.iter().enumerate() {
                            want |= pdep64_soft(taken[j], l) << side.offset[j];
                        }
                        assert_eq!(
                            side.starting(&left, |j| taken[j]),
                            want,
                            "{cols:?} {left:?}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(
            slices >= 30 && tables >= 20 && slices > tables,
            "{slices} {tables}"
        );
        assert!(checked > 10_000, "{checked} planes checked");
    }

    /// Four columns that can each become over 2^14 things have more positions than a memo
    /// key can tell apart (2^56): such a slice is refused, while its three outer columns,
    /// with fewer, make a slice.
    #[test]
    fn a_slice_whose_keys_do_not_fit_is_not_built() {
        let col: Vec<u8> = (0..16).map(|i| i % 4).collect();
        let (_, classes) = column_classes(&col).expect("a column of 16 tiles is numbered");
        let classes = classes as u64;
        assert!(classes.pow(3) <= KEY_LIMIT && classes.pow(4) > KEY_LIMIT);
        let cols = [&col[..]; 4];
        // (hashed memos all the way down: two such columns have more positions than a
        // slice of two may index, so `Side::new` would not build them)
        let two = Side::with_memo(&cols[..2], None, 0, 64, 64).expect("two columns' keys fit");
        let inner = Side::with_memo(&cols[..3], Some(Arc::new(two)), 0, 64, 64)
            .expect("three columns' keys fit");
        assert_eq!(inner.n, 3);
        assert!(Side::new(&cols, Some(Arc::new(inner)), MAX_MEMO).is_none());
    }
}
