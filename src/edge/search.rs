//! Solving a slice's relaxed game: its moves, and its optimum by recursion (two columns)
//! or by iterative deepening (three or four).
//!
//! With two columns, the optimum of every position is computed on first use, by recursion
//! over all the positions it leads to, one thread at a time. With three, that would be
//! millions of positions for one edge; instead each position asked for gets its optimum
//! from an iterative deepening search of the relaxed game, pruned by a lower bound from
//! the two outer columns ([`Side::lower`]), which remembers the lower bounds it proves and
//! the optima it finds.
//!
//! A four-column slice is searched the same way, bounded by the optimum of its three outer
//! columns: its inner slice is the edge's narrow slice, memo and all. The bound from the
//! inner columns is tried before the slice's own memo is read: it is in the smaller,
//! oftener read table, and it rules out most positions a search reaches. The outer
//! columns' optimum is itself searched for only up to the threshold the bound must stay
//! within: a lower bound above it rules the position out as surely as the optimum would.
//!
//! ## Cut short
//! A search may be given an *effort*: the positions it may still expand, counted down by
//! it and by the searches of its inner slice that it starts. Once the count is out, every
//! [`Side::within`] answers yes at once, as a halted search does, and the search returns
//! the threshold it had reached. That is a lower bound: each lower threshold failed, and a
//! failure is only given (and stored) by a complete search, none being given once the
//! count is out. An optimum is stored as exact only while effort is left, so never from a
//! yes given after the count ran out. The lower bounds stored by the failed iterations stay
//! in the memo: the next search of the same position starts from them, and its effort
//! goes to the positions not yet ruled out.

use std::sync::atomic::Ordering::Relaxed;

use super::memo::EXACT;
use super::side::{Side, COLUMN};
use super::Mask;

/// The most moves of a position whose memo entries [`Side::moves_ahead`] loads before
/// the first is tried.
const AHEAD: usize = 48;

/// The fewest groups a union move of the relaxed game takes (one group alone is a move
/// of its own).
const UNION_FROM: u32 = 2;

const BOTTOMS: u64 = 0x0001_0001_0001_0001;
const TOPS: u64 = BOTTOMS << (COLUMN - 1);

impl Side {
    /// Calls `f` with the mask left by each relaxed move from `mask` (see [`crate::edge`]),
    /// until it returns `true`; returns whether it did.
    #[inline]
    fn moves(&self, mask: Mask, colours: usize, mut f: impl FnMut(Mask) -> bool) -> bool {
        self.moves_by(mask, colours, UNION_FROM, |child, _| f(child))
    }

    /// Calls `f(child, union)` with the mask left by each group of the slice taken alone
    /// (`union` `None`), then by each union of at least `least` same-colour groups that
    /// reach the boundary column (`Some` of their colour), until it returns `true`;
    /// returns whether it did.
    #[inline]
    pub(super) fn moves_by(
        &self,
        mask: Mask,
        colours: usize,
        least: u32,
        mut f: impl FnMut(Mask, Option<usize>) -> bool,
    ) -> bool {
        let left = self.split(mask);
        let boundary = COLUMN * (self.n as u32 - 1);
        // the starting tiles a move takes, from the tiles it takes in the slice as it is
        let taken = |plane: u64| -> Mask {
            self.starting(&left, |k| (plane >> (COLUMN * k as u32)) & 0xffff)
        };
        let mut touching = [0u64; 32];
        // (no colour from `stride` on has a tile in the slice)
        for c in 0..colours.min(self.stride) {
            let plane = self.plane(&left, c);
            let mut rest = plane;
            let mut n = 0;
            while rest != 0 {
                let group = flood(rest & rest.wrapping_neg(), plane);
                rest &= !group;
                if f(mask & !taken(group), None) {
                    return true;
                }
                if group >> boundary != 0 && n < touching.len() {
                    touching[n] = group;
                    n += 1;
                }
            }
            // unions of `least` or more groups that reach the boundary
            for sub in 1u32..1 << n {
                if sub.count_ones() < least {
                    continue;
                }
                let mut union = 0;
                let mut s = sub;
                while s != 0 {
                    union |= touching[s.trailing_zeros() as usize];
                    s &= s - 1;
                }
                if f(mask & !taken(union), Some(c)) {
                    return true;
                }
            }
        }
        false
    }

    /// [`Side::moves_by`], with `load(child, union)` called on every move before `f` is
    /// called on the first: where `load` starts loading the memo entries `f` will read,
    /// the moves' entries come from memory side by side rather than one after another.
    /// Listing every move costs the moves past the one `f` stops at; up to [`AHEAD`] are
    /// listed (with more, the rest are found again after them).
    #[inline]
    pub(super) fn moves_ahead(
        &self,
        mask: Mask,
        colours: usize,
        least: u32,
        mut load: impl FnMut(Mask, Option<usize>),
        mut f: impl FnMut(Mask, Option<usize>) -> bool,
    ) -> bool {
        let mut listed = [(0 as Mask, None); AHEAD];
        let mut n = 0;
        let all = !self.moves_by(mask, colours, least, |child, union| {
            if n == AHEAD {
                return true;
            }
            load(child, union);
            listed[n] = (child, union);
            n += 1;
            false
        });
        if listed[..n].iter().any(|&(child, union)| f(child, union)) {
            return true;
        }
        // (past the list's end: every move again, skipping those tried)
        let mut seen = 0;
        !all && self.moves_by(mask, colours, least, |child, union| {
            seen += 1;
            seen > n && f(child, union)
        })
    }

    /// The relaxed optimum of the slice with the starting tiles `mask` left if it is at most
    /// `cap`, else a lower bound above `cap` (a slice of three columns or four searches no
    /// further; one of two knows every optimum anyway). A slice of three columns or four
    /// whose search runs out of `effort` gives a lower bound instead ("Cut short").
    pub(super) fn opt(&self, mask: Mask, cap: u32, colours: usize, effort: &mut u64) -> u32 {
        // a mask no position can have (none reaches here) gets the bound 0
        let Some(key) = self.key(mask).filter(|_| mask != 0) else {
            return 0;
        };
        let known = self.memo.get(key);
        if let Some(inner) = &self.inner {
            if known & EXACT != 0 {
                return (known & !EXACT) as u32 - 1;
            }
            let mut outer = Outer::NONE;
            let mut t = self.lower(inner, mask, known, colours, &mut outer, cap, effort);
            while t <= cap {
                if self.within(inner, mask, t, colours, outer, effort) {
                    // (halted or out of effort, `within` may have said yes without
                    // knowing: `t` is then only a lower bound, not to be remembered as
                    // the optimum)
                    if !self.is_stopped(*effort) {
                        self.store(key, t, true);
                    }
                    return t;
                }
                t += 1;
            }
            return t;
        }
        if known != 0 {
            return known as u32 - 1;
        }
        // One thread at a time: two would work out the same positions side by side, each
        // as slowly as one alone. One that waits then finds the optimum stored, since
        // each is stored only once it is final.
        let _alone = self.solving.lock().unwrap_or_else(|e| e.into_inner());
        self.optima(mask, colours)
    }

    /// The relaxed optimum of `mask` in a slice of two columns, by recursion over every
    /// position it leads to whose optimum is not yet known; each is remembered.
    fn optima(&self, mask: Mask, colours: usize) -> u32 {
        let Some(key) = self.key(mask).filter(|_| mask != 0) else {
            return 0;
        };
        let known = self.memo.get(key);
        if known != 0 {
            return known as u32 - 1;
        }
        let mut best = u32::MAX;
        self.moves(mask, colours, |child| {
            best = best.min(self.optima(child, colours));
            false
        });
        let v = best + 1;
        self.store(key, v, false);
        v
    }

    /// Remembers `value` (an optimum if `exact`, else a lower bound; at most the slice's
    /// tiles) for the position `key`: as `value + 1`, with [`EXACT`] set if `exact`.
    #[inline]
    fn store(&self, key: usize, value: u32, exact: bool) {
        debug_assert!(
            value + 1 < EXACT as u32,
            "memo value {value} reaches the EXACT bit"
        );
        let exact = if exact { EXACT } else { 0 };
        self.memo.set(key, (value as u8 + 1) | exact);
    }

    /// A lower bound on the relaxed optimum of `mask` in a slice of `n ≥ 3` columns whose
    /// memo entry is `known` (not exact): the larger of the stored one and the relaxed
    /// optimum of the `n − 1` outer columns plus the colours left in the boundary column
    /// and none in the one beside it (each needs a click that takes no tile of the
    /// others: why this holds is [`crate::edge`]'s argument, applied to the `n − 1`
    /// columns inside the `n`).
    ///
    /// The outer columns' optimum is searched for only as far as the bound can stay at
    /// most `cap`: where it would be above `cap` in any case, a lower bound that is above
    /// `cap` serves as well as the optimum, and costs the outer columns' search only
    /// its thresholds up to `cap` (a search asking whether the slice can be cleared in
    /// `t` moves needs no more). It comes from `outer` where that holds the same tiles,
    /// searched as far, and is left there.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn lower(
        &self,
        inner: &Side,
        mask: Mask,
        known: u8,
        colours: usize,
        outer: &mut Outer,
        cap: u32,
        effort: &mut u64,
    ) -> u32 {
        let stored = (known as u32).saturating_sub(1);
        stored.max(self.inner_lower(inner, mask, colours, outer, cap, effort))
    }

    /// [`Side::lower`] without the memo. Always inlined: a few instructions around the
    /// inner slice's search on the hottest path of the edge bound, which a plain `#[inline]`
    /// left inlined or not depending on how the crate fell into codegen units.
    #[inline(always)]
    fn inner_lower(
        &self,
        inner: &Side,
        mask: Mask,
        colours: usize,
        outer: &mut Outer,
        cap: u32,
        effort: &mut u64,
    ) -> u32 {
        let b = self.n - 1;
        let m = mask & ((1 << self.offset[b]) - 1);
        let alone = (self.colours_in(mask, b) & !self.colours_in(mask, b - 1)).count_ones();
        // the outer columns need at most this for the bound to be at most `cap`
        let outer_cap = cap.saturating_sub(alone);
        // (a value above the cap it was searched under is only a lower bound: searched
        // again where the cap now reaches it)
        if m != outer.mask || (outer.opt > outer.cap && outer.opt <= outer_cap) {
            *outer = Outer {
                mask: m,
                opt: inner.opt(m, outer_cap, colours, effort),
                cap: outer_cap,
            };
        }
        outer.opt + alone
    }

    /// A lower bound on the relaxed optimum of `mask` that searches nothing of this slice:
    /// the memo's entry, or the bound from the inner columns ([`Side::lower`]), whose
    /// optimum a slice of two columns knows once it has been asked for it.
    #[inline]
    pub(super) fn known_lower(&self, mask: Mask, colours: usize) -> u32 {
        let Some(key) = self.key(mask) else {
            return 0;
        };
        let known = self.memo.get(key);
        if known & EXACT != 0 {
            return (known & !EXACT) as u32 - 1;
        }
        match &self.inner {
            Some(inner) => {
                let (mut outer, mut unlimited) = (Outer::NONE, u64::MAX);
                self.lower(
                    inner,
                    mask,
                    known,
                    colours,
                    &mut outer,
                    u32::MAX,
                    &mut unlimited,
                )
            }
            None => (known as u32).saturating_sub(1),
        }
    }

    /// Whether the searches on this board are being stopped ([`crate::edge::EdgeBound::halt`]).
    #[inline]
    pub(super) fn is_halted(&self) -> bool {
        self.halted.load(Relaxed)
    }

    /// Whether a search with `effort` left must stop: halted, or out of effort.
    #[inline]
    fn is_stopped(&self, effort: u64) -> bool {
        effort == 0 || self.is_halted()
    }

    /// Halts this slice's searches (`true`) or lets them run again (`false`).
    pub(super) fn halt(&self, on: bool) {
        self.halted.store(on, Relaxed);
    }

    /// Whether the slice with `mask` left can be cleared in `t` relaxed moves (a
    /// depth-first search bounded by [`Side::lower`]; a failure stores `t + 1` as a lower
    /// bound, a success where that bound was `t` stores `t` as exact).
    ///
    /// Halted ([`Side::is_halted`]), it answers yes at once: a yes never raises a bound,
    /// so every bound given stays admissible, only weaker. A no is never given without the
    /// search behind it, and a yes given while halted is not remembered as exact: the flag
    /// is only set while the searches on the board are stopping, so a yes returned with
    /// the flag clear had no halted answer below it. Out of `effort` (each position it
    /// expands spends one), it answers yes at once too ("Cut short" above).
    ///
    /// `outer` is the outer columns' tiles and optimum at the position the search came
    /// from: a move that takes nothing from them leaves the same.
    #[allow(clippy::too_many_arguments)]
    fn within(
        &self,
        inner: &Side,
        mask: Mask,
        t: u32,
        colours: usize,
        outer: Outer,
        effort: &mut u64,
    ) -> bool {
        if self.is_stopped(*effort) {
            return true;
        }
        if mask == 0 {
            return true;
        }
        // The bound from the inner columns first: it needs neither this slice's key nor a
        // look in its memo, whose entries are scattered over far more memory, and it rules
        // out most positions. (It holds for any position: every mask searched here has a
        // key, being asked for by `opt`, which checks, or left by a move, which takes
        // whole runs of one colour from each column it takes from.)
        let mut outer = outer;
        let lower = self.inner_lower(inner, mask, colours, &mut outer, t, effort);
        if lower > t {
            return false;
        }
        // (a mask no position can have is taken as cleared, keeping the bound admissible)
        let Some(key) = self.key(mask) else {
            return true;
        };
        let known = self.memo.get(key);
        if known & EXACT != 0 {
            return (known & !EXACT) as u32 - 1 <= t;
        }
        let lower = lower.max((known as u32).saturating_sub(1));
        if lower > t {
            return false;
        }
        // (the inner bound's search may have used the effort up)
        if self.is_stopped(*effort) {
            return true;
        }
        *effort -= 1;
        if *effort == 0 {
            // (each move would be answered yes at once, and nothing stored)
            return true;
        }
        let mut step = |child: Mask, _| self.within(inner, child, t - 1, colours, outer, effort);
        let found = if self.memo.spread() {
            // Each move's entries are loaded ahead: its inner bound's (unless its outer
            // columns are `outer`'s) and its own.
            let outer_bits = (1 << self.offset[self.n - 1]) - 1;
            let load = |child: Mask, _| {
                let m = child & outer_bits;
                if m != outer.mask {
                    inner.prefetch(m);
                }
                self.prefetch(child);
            };
            self.moves_ahead(mask, colours, UNION_FROM, load, step)
        } else {
            self.moves_by(mask, colours, UNION_FROM, &mut step)
        };
        if found {
            if lower == t && !self.is_stopped(*effort) {
                self.store(key, t, true);
            }
            return true;
        }
        // (may overwrite an optimum another thread just stored: still a true lower bound)
        self.store(key, t + 1, false);
        false
    }
}

/// The tiles left in a slice's outer columns (all but its boundary column) and their
/// relaxed optimum, as a search last found them: a position whose outer columns hold the
/// same tiles has the same optimum there, so a move that takes nothing from them need not
/// look it up again.
#[derive(Clone, Copy, Debug)]
struct Outer {
    mask: Mask,
    /// The optimum where at most `cap`, else a lower bound above `cap` ([`Side::opt`]).
    opt: u32,
    cap: u32,
}

impl Outer {
    /// Nothing found yet: no mask of outer columns has every bit (a slice has at most
    /// [`super::MAX_TILES_4`] tiles).
    const NONE: Outer = Outer {
        mask: Mask::MAX,
        opt: 0,
        cap: 0,
    };
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

#[cfg(test)]
mod tests {
    use super::super::memo::Memo;
    use super::*;
    use std::collections::HashMap;
    use std::sync::Arc;

    /// An effort that never runs out ("Cut short").
    fn unlimited() -> u64 {
        u64::MAX
    }

    /// The relaxed optimum of `mask` by plain recursion over every position it leads to,
    /// remembered in `memo` (the reference the searches are checked against).
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

    /// `n` random columns of 1 to `most` tiles of colours `0..colours`.
    fn random_columns(
        rng: &mut fastrand::Rng,
        n: usize,
        most: usize,
        colours: usize,
    ) -> Vec<Vec<u8>> {
        (0..n)
            .map(|_| {
                (0..1 + rng.usize(..most))
                    .map(|_| rng.usize(..colours) as u8)
                    .collect()
            })
            .collect()
    }

    /// A random slice and the optimum of every position it can reach.
    struct Case {
        /// Its columns, outermost first.
        cols: Vec<Vec<u8>>,
        colours: usize,
        side: Side,
        /// By mask, from [`full`].
        optima: HashMap<Mask, u32>,
    }

    /// Case `case` of a test: a slice of three columns (even `case`) or four (odd), with
    /// two to four colours and random columns of at most `9 - n` tiles, made by `make`
    /// from its columns (the test's choice of memo).
    fn random_case(
        rng: &mut fastrand::Rng,
        case: usize,
        make: impl FnOnce(&[&[u8]]) -> Option<Side>,
    ) -> Case {
        let colours = 2 + case % 3;
        let n = 3 + case % 2;
        let cols = random_columns(rng, n, 9 - n, colours);
        let refs: Vec<&[u8]> = cols.iter().map(|c| &c[..]).collect();
        let side = make(&refs).expect("a slice of at most 24 tiles is built");
        let tiles: usize = cols.iter().map(Vec::len).sum();
        let mut optima = HashMap::new();
        full(&side, (1 << tiles) - 1, colours, &mut optima);
        Case {
            cols,
            colours,
            side,
            optima,
        }
    }

    /// The optimum of every position of random three- and four-column slices, asked for
    /// in a mixed order, as the bounded search finds it ([`Side::within`]) and as the plain
    /// recursion over every position leads to (the two-column way); a four-column slice
    /// with a hashed memo far too small for its positions (so that they keep pushing each
    /// other out), whose first part it outgrows at once (so that its search lists the
    /// moves ahead, [`Side::moves_ahead`]), finds the same. On the way, the inner bound of
    /// each position and of each of its children (from the position's outer columns) is
    /// the bound spelled out.
    #[test]
    fn three_and_four_column_search_finds_the_optimum() {
        let mut rng = fastrand::Rng::with_seed(0x9e37_79b9_7f4a_7c15);
        let (mut deep, mut reused, mut checked, mut spread) = (0, 0, 0, 0);
        for case in 0..200 {
            let Case {
                cols,
                colours,
                side,
                optima: memo,
            } = random_case(&mut rng, case, |refs| match refs.len() {
                3 => Side::new(refs, None, crate::edge::memo::MAX_MEMO),
                _ => Side::with_memo(refs, None, 0, 64, 16),
            });
            let n = cols.len();
            assert_eq!(matches!(side.memo, Memo::Hashed(_)), n == 4);
            let mut masks: Vec<Mask> = memo.keys().copied().collect();
            masks.sort_unstable_by_key(|&m| (m.wrapping_mul(0x9e37_79b9), m));
            // the inner bound of each position, and of each child from the position's
            // outer columns (reused where the move left them alone), against the bound
            // spelled out: the outer columns' optimum, and each colour in the boundary
            // column and none in the one beside it
            let inner = side.inner.as_ref().unwrap();
            let plain = |m: Mask| {
                let (outer, alone) = outer_and_alone(&side, m, colours);
                inner.opt(outer, u32::MAX, colours, &mut unlimited()) + alone
            };
            for m in masks {
                let opt = side.opt(m, u32::MAX, colours, &mut unlimited());
                assert_eq!(opt, memo[&m], "case {case}, columns {cols:?}, mask {m:#b}");
                let mut outer = Outer::NONE;
                let lower =
                    side.inner_lower(inner, m, colours, &mut outer, u32::MAX, &mut unlimited());
                assert_eq!(lower, plain(m), "case {case}, mask {m:#b}");
                deep += usize::from(opt > lower);
                side.moves(m, colours, |child| {
                    let mut o = outer;
                    let l =
                        side.inner_lower(inner, child, colours, &mut o, u32::MAX, &mut unlimited());
                    assert_eq!(
                        l,
                        plain(child),
                        "case {case}, mask {m:#b}, child {child:#b}"
                    );
                    reused += usize::from(o.mask == outer.mask);
                    checked += 1;
                    false
                });
            }
            spread += usize::from(side.memo.spread());
        }
        // the search had work to do: its lower bound was below the optimum somewhere
        assert!(deep > 0);
        assert!(
            spread > 50,
            "{spread} of 100 four-column memos spread past their first part"
        );
        assert!(
            reused > 100,
            "{reused} of {checked} bounds reused the outer columns'"
        );
    }

    /// [`Side::moves_ahead`] tries the moves [`Side::moves_by`] gives, in its order, up to
    /// the one its `f` stops at, having loaded each it listed first: on the positions of
    /// random three- and four-column slices with random stops, and on a position with
    /// more moves than it lists (a boundary column of alternating colours beside a column
    /// of a third: six groups of each alone, and every union of them).
    #[test]
    fn moves_ahead_tries_the_moves_in_order() {
        let mut rng = fastrand::Rng::with_seed(0xa11_ead);
        let mut cases: Vec<(Arc<Side>, Mask, usize)> = Vec::new();
        for case in 0..40 {
            let Case {
                colours,
                side,
                optima,
                ..
            } = random_case(&mut rng, case, |refs| Side::new(refs, None, 1 << 20));
            let mut masks: Vec<Mask> = optima.keys().copied().collect();
            masks.sort_unstable();
            rng.shuffle(&mut masks);
            let side = Arc::new(side);
            for &m in masks.iter().take(20) {
                cases.push((side.clone(), m, colours));
            }
        }
        let (outer, boundary) = ([2u8; 12], [0u8, 1].repeat(6));
        let wide = Side::new(&[&outer[..], &boundary[..]], None, 1 << 20).expect("24 tiles");
        cases.push((Arc::new(wide), (1 << 24) - 1, 3));
        let (mut tried_all, mut overflowed) = (0, 0);
        for (side, m, colours) in &cases {
            for least in [1, 2] {
                let mut all = Vec::new();
                side.moves_by(*m, *colours, least, |c, u| {
                    all.push((c, u));
                    false
                });
                let stop = rng.usize(..=all.len());
                let (mut loaded, mut tried) = (Vec::new(), Vec::new());
                let found = side.moves_ahead(
                    *m,
                    *colours,
                    least,
                    |c, u| loaded.push((c, u)),
                    |c, u| {
                        tried.push((c, u));
                        tried.len() == stop + 1
                    },
                );
                assert_eq!(found, stop < all.len(), "mask {m:#b}, stop {stop}");
                assert_eq!(tried, all[..all.len().min(stop + 1)], "mask {m:#b}");
                assert_eq!(loaded, all[..all.len().min(AHEAD)], "mask {m:#b}");
                tried_all += usize::from(stop == all.len());
                overflowed += usize::from(all.len() > AHEAD && stop > AHEAD);
            }
        }
        assert!(
            cases.len() > 500 && tried_all > 10 && overflowed > 0,
            "{} positions: {tried_all} with every move tried, {overflowed} past the list",
            cases.len()
        );
    }

    /// A search asked only as far as a cap gives the optimum where it is at most the cap,
    /// else a lower bound above the cap, and so does the inner bound it prunes with,
    /// whatever cap the outer columns were searched under before: every position of
    /// random three- and four-column slices, in a mixed order, each with a random cap
    /// around its optimum, on a fresh memo; afterwards full searches find every optimum.
    #[test]
    fn capped_searches_give_the_optimum_or_more_than_the_cap() {
        let mut rng = fastrand::Rng::with_seed(0xca9_b0d5);
        let (mut exact, mut above, mut inner_above, mut refreshed) = (0, 0, 0, 0);
        for case in 0..120 {
            let Case {
                colours,
                side,
                optima,
                ..
            } = random_case(&mut rng, case, |refs| Side::new(refs, None, 1 << 20));
            let inner = side.inner.as_ref().unwrap();
            let mut masks: Vec<(Mask, u32)> = optima.iter().map(|(&m, &v)| (m, v)).collect();
            masks.sort_unstable();
            rng.shuffle(&mut masks);
            for &(m, opt) in &masks {
                let cap = rng.u32(0..opt + 3);
                let v = side.opt(m, cap, colours, &mut unlimited());
                if opt <= cap {
                    assert_eq!(v, opt, "case {case}, mask {m:#b}, cap {cap}");
                    exact += 1;
                } else {
                    assert!(
                        cap < v && v <= opt,
                        "case {case}, mask {m:#b}: {v}, cap {cap}"
                    );
                    above += 1;
                }
                // the inner bound spelled out, with the outer columns' exact optimum
                let (outer_mask, alone) = outer_and_alone(&side, m, colours);
                let mut outer = Outer::NONE;
                let plain = optima_of(inner, outer_mask, colours) + alone;
                // twice, the second time with what the first left in `outer`
                let mut first = None;
                for _ in 0..2 {
                    let cap = rng.u32(0..plain + 3);
                    let l = side.inner_lower(inner, m, colours, &mut outer, cap, &mut unlimited());
                    if plain <= cap {
                        assert_eq!(l, plain, "case {case}, mask {m:#b}, cap {cap}");
                        // a lower bound from the first time, searched again
                        refreshed += usize::from(first.is_some_and(|f| f < plain));
                    } else {
                        assert!(
                            cap < l && l <= plain,
                            "case {case}, mask {m:#b}: {l}, cap {cap}"
                        );
                        inner_above += 1;
                    }
                    first = Some(l);
                }
            }
            full_searches_find_every_optimum(&side, &masks, colours, case);
        }
        assert!(
            exact > 0 && above > 0 && inner_above > 0 && refreshed > 0,
            "{exact} exact, {above} above the cap, {inner_above} inner bounds above it, \
             {refreshed} outer columns searched again under a higher cap"
        );
    }

    /// Asserts that full searches, on the memo that searches before them left, find the
    /// optimum of each `(mask, optimum)`: nothing stored on the way was wrong.
    fn full_searches_find_every_optimum(
        side: &Side,
        masks: &[(Mask, u32)],
        colours: usize,
        case: usize,
    ) {
        for &(m, opt) in masks {
            let v = side.opt(m, u32::MAX, colours, &mut unlimited());
            assert_eq!(v, opt, "case {case}, mask {m:#b}");
        }
    }

    /// Two threads asking a random two-column slice for its optima at once, one from the
    /// full slice down and one in a random order, both get every position's optimum as
    /// the plain recursion finds it: the one that waits for the other's working out reads
    /// finished values only.
    #[test]
    fn two_threads_share_a_two_column_slice() {
        let mut rng = fastrand::Rng::with_seed(0x2545_f491_4f6c_dd1d);
        let mut checked = 0;
        for case in 0..100 {
            let colours = 2 + case % 3;
            let cols = random_columns(&mut rng, 2, 9, colours);
            let refs: Vec<&[u8]> = cols.iter().map(|c| &c[..]).collect();
            let side = Side::new(&refs, None, 1 << 20).expect("at most 18 tiles");
            let tiles: usize = cols.iter().map(Vec::len).sum();
            let mut optima = HashMap::new();
            full(&side, (1 << tiles) - 1, colours, &mut optima);
            let mut masks: Vec<Mask> = optima.keys().copied().collect();
            masks.sort_unstable_by(|a, b| b.cmp(a));
            let mut shuffled = masks.clone();
            rng.shuffle(&mut shuffled);
            let answers = |order: &[Mask]| -> Vec<(Mask, u32)> {
                order
                    .iter()
                    .map(|&m| (m, side.opt(m, u32::MAX, colours, &mut unlimited())))
                    .collect()
            };
            let (down, mixed) = std::thread::scope(|s| {
                let down = s.spawn(|| answers(&masks[..]));
                let mixed = s.spawn(|| answers(&shuffled));
                (down.join().unwrap(), mixed.join().unwrap())
            });
            for (m, v) in down.into_iter().chain(mixed) {
                assert_eq!(v, optima[&m], "case {case}, mask {m:#x}");
                checked += 1;
            }
        }
        assert!(checked > 2_000, "only {checked} answers checked");
    }

    /// The inner bound of `m` spelled out, but for the outer columns' optimum: the tiles
    /// of `m` in the slice's outer columns, and the colours in its boundary column and
    /// none in the one beside it.
    fn outer_and_alone(side: &Side, m: Mask, colours: usize) -> (Mask, u32) {
        let b = side.n - 1;
        let left = side.split(m);
        let here = |k: usize, c: usize| side.of_colour[k][c] & left[k] != 0;
        let alone = (0..colours)
            .filter(|&c| here(b, c) && !here(b - 1, c))
            .count() as u32;
        (m & ((1 << side.offset[b]) - 1), alone)
    }

    /// The relaxed optimum of the outer columns `mask` of a slice, by plain recursion.
    fn optima_of(slice: &Side, mask: Mask, colours: usize) -> u32 {
        full(slice, mask, colours, &mut HashMap::new())
    }

    /// Searches cut short ("Cut short") give lower bounds and store no wrong optimum:
    /// every position of random three- and four-column slices, asked for again and again
    /// in a mixed order with a few expansions each, is given at most its optimum; the
    /// answers grow as the bounds proven pile up; and full searches afterwards find every
    /// optimum.
    #[test]
    fn cut_short_searches_give_lower_bounds() {
        let mut rng = fastrand::Rng::with_seed(0x5eed_c0de);
        let (mut asked, mut below, mut grew) = (0, 0, 0);
        for case in 0..120 {
            let Case {
                colours,
                side,
                optima,
                ..
            } = random_case(&mut rng, case, |refs| Side::new(refs, None, 1 << 20));
            let mut masks: Vec<(Mask, u32)> = optima.iter().map(|(&m, &v)| (m, v)).collect();
            masks.sort_unstable();
            let mut last: HashMap<Mask, u32> = HashMap::new();
            for _ in 0..4 {
                rng.shuffle(&mut masks);
                for &(m, opt) in &masks {
                    let mut effort = rng.u64(0..12);
                    let v = side.opt(m, u32::MAX, colours, &mut effort);
                    assert!(
                        v <= opt,
                        "case {case}, mask {m:#b}: {v} above the optimum {opt}"
                    );
                    asked += 1;
                    below += usize::from(v < opt);
                    if let Some(&before) = last.get(&m) {
                        grew += usize::from(v > before);
                    }
                    last.insert(m, v);
                }
            }
            full_searches_find_every_optimum(&side, &masks, colours, case);
        }
        assert!(
            below > 0 && grew > 0,
            "{below} of {asked} below, {grew} grew"
        );
    }
}
