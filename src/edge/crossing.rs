//! The crossing game: a stronger joint bound where a narrow slice meets the other edge's
//! wide slice, with no column between them (a board of seven columns: columns 0–2 and
//! 3–6, or 0–3 and 4–6).
//!
//! ## The game
//! On a narrow slice `N`, with a budget `T` of *crossings*: a move either removes one group
//! of `N` at a cost of one, or, while the budget lasts, removes any union of same-colour
//! groups of `N` that each have a tile in the boundary column at a cost of nothing,
//! spending one crossing. `g(N, T)` is the least cost that clears `N`.
//!
//! **The bound.** Let `W` be the wide slice that `N` meets, and take any solution of the
//! real game. Its clicks that take tiles of `W` number at least `opt(W)` ([`crate::edge`]).
//! Of its clicks that take tiles of `N`, those that take none of `W` have their whole group
//! in `N`'s columns (the slices cover the board), so each is a group of `N`; those that
//! also take tiles of `W` are, within `N`, unions of groups that reach `N`'s boundary
//! column ([`crate::edge`]'s argument). Keeping only the clicks that take tiles of `N`
//! leaves `N` as the crossing game leaves it (tiles never change column), with one
//! crossing per click that takes tiles of both. A click taking tiles of both slices has a
//! tile in each of the two columns where they meet and takes whole vertical runs of its
//! colour there, and such runs never split: so there are at most as many such clicks as
//! the joint's `span` ([`crate::edge`], "Both edges at once") at any position on the way.
//! With `T` at least that span, the clicks taking tiles of `N` but not of `W` cost the
//! crossing game at least `g(N, T)`, and none of them is among the `opt(W)`:
//!
//! `clicks ≥ opt(W) + g(N, T)`.
//!
//! It is never below the plain joint bound `opt(W) + opt(N) − T`: a crossing-game solution
//! of cost `p` with `q ≤ T` crossings is a relaxed solution of `N` in `p + q` moves, so
//! `g(N, T) ≥ opt(N) − T`. It is above it where the crossings cannot all be put to use.
//! A larger budget can only lower `g`, so an upper bound on the span serves as `T`.
//!
//! **Each colour's own share.** The span is a sum over the colours: colour `c`'s share
//! `T_c` is the fewest runs of `c` in one of the two columns where the slices meet. The
//! argument above, for the clicks of colour `c` alone, shows that at most `T_c` clicks of
//! colour `c` take tiles of both slices (a colour with no tile in one of the two columns
//! has none). So the game also spends each crossing against its colour's own budget, and
//! a crossing of a colour whose budget is spent is not a move. The game with both budgets
//! has fewer moves, so its cost is at least `g(N, T)`; it is still at most the cost of
//! the real solution's clicks as above, so the bound holds with it. Its memo keys carry
//! the budgets of the first [`CAPPED_COLOURS`] colours, each up to [`UNCAPPED`]: a colour
//! whose share is larger, or that is not among them, has only the total to limit it (a
//! larger budget, so the bound still holds).
//!
//! ## Solving it
//! As a slice's optimum ([`super::search`]): iterative deepening on the cost, pruned by
//! `opt(N) − T` (with what is known of `opt(N)` without searching for it) and by the
//! bounds the memo keeps for each position and budget, with an effort: a search that runs
//! out of it answers yes at once, so what it gives is a lower bound, and only complete
//! searches store a bound or an exact value ("Cut short" there).

use std::sync::Arc;

use super::memo::{Memo, EXACT, HASHED_MEMO, KEY_LIMIT};
use super::side::Side;
use super::Mask;

/// The largest budget of crossings the game is solved for: a query with more gets no
/// bound (0). The two columns where the slices meet hold at most 16 tiles each, so the
/// span is at most 16 runs; on Former's nine rows it is at most nine.
pub const MAX_CROSSINGS: u32 = 15;

/// The colours with a budget of their own in a [`Crossings`] (Former has four).
const CAPPED_COLOURS: usize = 4;

/// The bits of a colour's own budget in a [`Crossings`].
const CAP_BITS: u32 = 2;

/// A colour's own budget that limits nothing: its share of the span is this or more, and
/// only the total limits its crossings. (`docs/benchmarks.md` has what a third bit gave.)
const UNCAPPED: u32 = (1 << CAP_BITS) - 1;

/// The bits of a [`Crossings`]' total.
const TOTAL_BITS: u32 = MAX_CROSSINGS.ilog2() + 1;

/// How many [`Crossings`] there are: the budgets a position of the game may have.
const BUDGETS: usize = 1 << (TOTAL_BITS + CAP_BITS * CAPPED_COLOURS as u32);

/// A budget of crossings (see the module doc): how many clicks may still take tiles of
/// both slices, at most [`MAX_CROSSINGS`], and how many of each of the first
/// [`CAPPED_COLOURS`] colours ([`UNCAPPED`] where only the total limits them). The total
/// is in the low [`TOTAL_BITS`] bits and each colour's budget in [`CAP_BITS`] bits above
/// it, so the value numbers the budgets `0..BUDGETS`.
///
/// Budgets that allow the same crossings are one value, so that they share their memo
/// entries: a colour's budget no smaller than the total is [`UNCAPPED`] (the total limits
/// it as much), and where every colour has a budget of its own, the total is at most
/// their sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Crossings(u32);

impl Crossings {
    /// At most `total` crossings, of which at most `share(c)` of colour `c`, for each of
    /// `colours`; `None` if the total is above [`MAX_CROSSINGS`].
    pub(super) fn new(total: u32, colours: usize, share: impl Fn(usize) -> u32) -> Option<Self> {
        if total > MAX_CROSSINGS {
            return None;
        }
        // (a colour the board does not have makes no crossing)
        let caps: [u32; CAPPED_COLOURS] = std::array::from_fn(|c| {
            if c < colours {
                share(c).min(UNCAPPED)
            } else {
                0
            }
        });
        let mut total = total;
        if colours <= CAPPED_COLOURS && caps.iter().all(|&k| k < UNCAPPED) {
            total = total.min(caps.iter().sum());
        }
        let mut v = total;
        for (c, &cap) in caps.iter().enumerate() {
            v |= cap << Self::shift(c);
        }
        Some(Crossings(v).uncap(total))
    }

    /// The budget with each colour's own that is at least `total` (the total's) made
    /// [`UNCAPPED`].
    #[inline(always)]
    fn uncap(self, total: u32) -> Self {
        let mut v = self.0;
        for c in 0..CAPPED_COLOURS {
            if (v >> Self::shift(c)) & UNCAPPED >= total {
                v |= UNCAPPED << Self::shift(c);
            }
        }
        Crossings(v)
    }

    /// How many crossings are left in all.
    #[inline(always)]
    fn total(self) -> u32 {
        self.0 & ((1 << TOTAL_BITS) - 1)
    }

    /// The budget after one crossing of colour `c`; `None` if none is left in all or of
    /// that colour. (The total stays at most the colours' sum where it was: the crossing
    /// spends one of each.)
    #[inline(always)]
    fn spend(self, c: usize) -> Option<Self> {
        let total = self.total();
        if total == 0 {
            return None;
        }
        let mut v = self.0 - 1;
        if c < CAPPED_COLOURS {
            match (self.0 >> Self::shift(c)) & UNCAPPED {
                0 => return None,
                UNCAPPED => {}
                _ => v -= 1 << Self::shift(c),
            }
        }
        Some(Crossings(v).uncap(total - 1))
    }

    /// Where colour `c`'s own budget is.
    #[inline(always)]
    fn shift(c: usize) -> u32 {
        TOTAL_BITS + CAP_BITS * c as u32
    }

    /// The budget's number, `0..BUDGETS`.
    #[inline(always)]
    fn index(self) -> usize {
        self.0 as usize
    }
}

/// The fewest groups a crossing takes: one group that reaches the boundary column may
/// be taken with a crossing too (see the module doc).
const UNION_FROM: u32 = 1;

/// The crossing game on one narrow slice, with its memo of `(position, budget)`.
#[derive(Debug)]
pub(super) struct Crossing {
    side: Arc<Side>,
    memo: Memo,
}

impl Crossing {
    /// The crossing game of `side`, with a hashed memo of at most `bytes` (at least a
    /// bucket); `None` if its keys (a position's and a budget's) do not fit a memo's.
    pub(super) fn new(side: Arc<Side>, bytes: usize) -> Option<Crossing> {
        let entries = side
            .classes
            .iter()
            .try_fold(1u64, |a, &c| a.checked_mul(c as u64))?
            .checked_mul(BUDGETS as u64)
            .filter(|&e| e <= KEY_LIMIT)?;
        let words = 1 << (bytes / 8).clamp(4, HASHED_MEMO).ilog2();
        Some(Crossing {
            side,
            memo: Memo::new(entries, 0, words),
        })
    }

    /// The bytes its memo may take.
    pub(super) fn bytes(&self) -> usize {
        self.memo.bytes()
    }

    /// `g(mask, budget)` where it is at most `cap` and found within `effort` expansions,
    /// else a lower bound on it (above `cap` if the search got that far).
    pub(super) fn cost(
        &self,
        mask: Mask,
        budget: Crossings,
        cap: u32,
        colours: usize,
        effort: &mut u64,
    ) -> u32 {
        if mask == 0 {
            return 0;
        }
        let Some(key) = self.key(mask, budget) else {
            return 0;
        };
        let known = self.memo.get(key);
        if known & EXACT != 0 {
            return (known & !EXACT) as u32 - 1;
        }
        let mut t = self.lower(mask, budget, known, colours);
        while t <= cap {
            if self.within(mask, budget, t, colours, effort) {
                if !self.side.is_halted() && *effort != 0 {
                    self.store(key, t, true);
                }
                return t;
            }
            t += 1;
        }
        t
    }

    /// Where `(mask, budget)` is in the memo; `None` for a mask no position can have.
    #[inline]
    fn key(&self, mask: Mask, budget: Crossings) -> Option<usize> {
        Some(Self::entry(self.side.key(mask)?, budget))
    }

    /// Where the slice's position numbered `key` ([`Side::key`]) with `budget` is in the
    /// memo.
    #[inline]
    fn entry(key: usize, budget: Crossings) -> usize {
        key * BUDGETS + budget.index()
    }

    /// A lower bound on `g(mask, budget)` from the memo's entry `known` (not exact) and
    /// `opt(mask) − T` for the budget's total `T` (see the module doc), with what is known
    /// of the slice's optimum without searching it ([`Side::known_lower`]).
    #[inline]
    fn lower(&self, mask: Mask, budget: Crossings, known: u8, colours: usize) -> u32 {
        let stored = (known as u32).saturating_sub(1);
        let opt = self.side.known_lower(mask, colours);
        stored.max(opt.saturating_sub(budget.total()))
    }

    /// Remembers `value` for the memo entry `key`, exact or a lower bound.
    #[inline]
    fn store(&self, key: usize, value: u32, exact: bool) {
        let exact = if exact { EXACT } else { 0 };
        self.memo.set(key, (value as u8 + 1) | exact);
    }

    /// Whether the slice with `mask` left can be cleared at a cost of at most `t` with at
    /// most the crossings of `budget` (a depth-first search; a failure stores `t + 1` as a
    /// lower bound, a success where the bound was `t` stores `t` as exact). Halted or out
    /// of effort, it answers yes at once.
    fn within(
        &self,
        mask: Mask,
        budget: Crossings,
        t: u32,
        colours: usize,
        effort: &mut u64,
    ) -> bool {
        if *effort == 0 || self.side.is_halted() || mask == 0 {
            return true;
        }
        // (a mask no position can have is taken as cleared, keeping the bound admissible)
        let Some(key) = self.key(mask, budget) else {
            return true;
        };
        let known = self.memo.get(key);
        if known & EXACT != 0 {
            return (known & !EXACT) as u32 - 1 <= t;
        }
        // (the lower bound searches nothing, so the effort is as it was above)
        let lower = self.lower(mask, budget, known, colours);
        if lower > t {
            return false;
        }
        *effort -= 1;
        // Each move's entries are loaded ahead: its own, and its slice optimum's for the
        // lower bound.
        let load = |child: Mask, crossing: Option<usize>| {
            if let Some(k) = self.side.prefetch(child) {
                let left = crossing.map_or(Some(budget), |c| budget.spend(c));
                if let Some(left) = left {
                    self.memo.prefetch(Self::entry(k, left));
                }
            }
        };
        if self.side.moves_ahead(
            mask,
            colours,
            UNION_FROM,
            load,
            |child, crossing| match crossing {
                Some(c) => budget
                    .spend(c)
                    .is_some_and(|left| self.within(child, left, t, colours, effort)),
                None => t > 0 && self.within(child, budget, t - 1, colours, effort),
            },
        ) {
            if lower == t && *effort != 0 && !self.side.is_halted() {
                self.store(key, t, true);
            }
            return true;
        }
        self.store(key, t + 1, false);
        false
    }

    /// Calls `f(child, crossing)` for each move of the crossing game from `mask`: each
    /// group of the slice (`None`), then each union of [`UNION_FROM`] or more same-colour
    /// groups that reach the boundary column (`Some` of their colour), until `f` returns
    /// `true`; returns whether it did. (The search lists them with [`Side::moves_ahead`]
    /// instead.)
    #[cfg(test)]
    fn moves(
        &self,
        mask: Mask,
        colours: usize,
        f: impl FnMut(Mask, Option<usize>) -> bool,
    ) -> bool {
        self.side.moves_by(mask, colours, UNION_FROM, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// An effort that never runs out.
    fn unlimited() -> u64 {
        u64::MAX
    }

    /// A budget as the reference keeps it: crossings left in all, and of each colour
    /// (`None`: no limit of its own).
    type Budget = (u32, Vec<Option<u32>>);

    /// The reference's budget as the game's.
    fn crossings((total, caps): &Budget) -> Crossings {
        Crossings::new(*total, caps.len(), |c| caps[c].unwrap_or(UNCAPPED)).expect("small")
    }

    /// `g(mask, budget)` by plain recursion over every position it leads to (the
    /// reference).
    fn full(
        c: &Crossing,
        mask: Mask,
        budget: &Budget,
        colours: usize,
        memo: &mut HashMap<(Mask, Budget), u32>,
    ) -> u32 {
        if mask == 0 {
            return 0;
        }
        if let Some(&v) = memo.get(&(mask, budget.clone())) {
            return v;
        }
        let mut moves = Vec::new();
        c.moves(mask, colours, |child, crossing| {
            moves.push((child, crossing));
            false
        });
        let best = moves
            .into_iter()
            .filter_map(|(child, crossing)| match crossing {
                None => Some(1 + full(c, child, budget, colours, memo)),
                Some(k) => {
                    let (total, caps) = budget;
                    if *total == 0 || caps[k] == Some(0) {
                        return None;
                    }
                    let mut caps = caps.clone();
                    caps[k] = caps[k].map(|n| n - 1);
                    Some(full(c, child, &(total - 1, caps), colours, memo))
                }
            })
            .min()
            .expect("a position with tiles has a move");
        memo.insert((mask, budget.clone()), best);
        best
    }

    /// Every position of random three-column slices, with totals up to 4 and random
    /// budgets of the colours (one with none but the total), asked for in a mixed order
    /// with random caps and efforts: each answer is at most `g` (and `g` itself where at
    /// most the cap with effort to spare), at least the plain joint's `opt − total`; and
    /// full searches afterwards find every `g`. The colours' own budgets matter: `g` is
    /// often above the total's alone.
    #[test]
    fn the_crossing_search_finds_g_or_a_lower_bound() {
        let mut rng = fastrand::Rng::with_seed(0xc055);
        let (mut exact, mut above_plain, mut above_total, mut asked) = (0, 0, 0, 0);
        for case in 0..80 {
            let colours = 2 + case % 4;
            let cols: Vec<Vec<u8>> = (0..3)
                .map(|_| {
                    (0..1 + rng.usize(..6))
                        .map(|_| rng.usize(..colours) as u8)
                        .collect()
                })
                .collect();
            let refs: Vec<&[u8]> = cols.iter().map(|c| &c[..]).collect();
            let side = Arc::new(Side::new(&refs, None, 1 << 20).expect("a small slice"));
            let game = Crossing::new(side.clone(), 1 << 16).expect("its keys fit");
            let tiles: usize = cols.iter().map(Vec::len).sum();
            let mut truth = HashMap::new();
            let mut optima = HashMap::new();
            for total in 0..=4 {
                let free = (total, vec![None; colours]);
                full(&game, (1 << tiles) - 1, &free, colours, &mut truth);
                for _ in 0..2 {
                    // (a colour past the capped ones has no budget of its own in the game)
                    let caps = (0..colours)
                        .map(|c| {
                            let n = rng.u32(..=UNCAPPED);
                            (c < CAPPED_COLOURS && n < UNCAPPED).then_some(n)
                        })
                        .collect();
                    full(&game, (1 << tiles) - 1, &(total, caps), colours, &mut truth);
                }
            }
            let mut queries: Vec<(Mask, Budget, u32)> = truth
                .iter()
                .map(|((m, b), &v)| (*m, b.clone(), v))
                .collect();
            queries.sort_unstable();
            rng.shuffle(&mut queries);
            for (m, b, g) in &queries {
                let (m, g) = (*m, *g);
                let cap = rng.u32(0..g + 3);
                let mut effort = if rng.bool() { u64::MAX } else { rng.u64(0..8) };
                let full_effort = effort == u64::MAX;
                let v = game.cost(m, crossings(b), cap, colours, &mut effort);
                assert!(
                    v <= g,
                    "case {case}, {cols:?}, mask {m:#b}, budget {b:?}: {v} > {g}"
                );
                if full_effort && g <= cap {
                    assert_eq!(v, g, "case {case}, mask {m:#b}, budget {b:?}, cap {cap}");
                    exact += 1;
                }
                if full_effort && g > cap {
                    assert!(v > cap, "case {case}, mask {m:#b}, budget {b:?}, cap {cap}");
                }
                let opt = *optima
                    .entry(m)
                    .or_insert_with(|| side.opt(m, u32::MAX, colours, &mut unlimited()));
                let total = b.0;
                assert!(
                    g + total >= opt,
                    "case {case}, mask {m:#b}: g {g} + {total} < opt {opt}"
                );
                above_plain += usize::from(g > opt.saturating_sub(total));
                let free = (total, vec![None; colours]);
                if let Some(&g_total) = truth.get(&(m, free)) {
                    assert!(g >= g_total, "case {case}, mask {m:#b}, budget {b:?}");
                    above_total += usize::from(g > g_total);
                }
                asked += 1;
            }
            for (m, b, g) in &queries {
                let v = game.cost(*m, crossings(b), u32::MAX, colours, &mut unlimited());
                assert_eq!(v, *g, "case {case}, mask {m:#b}, budget {b:?}");
            }
        }
        assert!(
            exact > 1000 && above_plain > 100 && above_total > 100,
            "{asked} asked: {exact} exact, {above_plain} above the plain joint's bound, \
             {above_total} above the total's alone"
        );
    }
}
