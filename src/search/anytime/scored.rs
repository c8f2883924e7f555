//! What the anytime searches are written against: a [`Puzzle`] whose move sequences have a
//! value, and how a beam ranks a position's children.

use crate::puzzle::Puzzle;

/// A value below every real one.
pub const WORST: i64 = i64::MIN / 4;

/// A [`Puzzle`] whose move sequences have a value to maximise, with cheap single moves for
/// playouts. (Beam search expands with [`Puzzle::successors`]; the moves of `successors`
/// and of [`Scored::moves`] must be the same.)
pub trait Scored: Puzzle {
    /// Appends the legal moves of `s` (without playing them).
    fn moves(&self, s: &Self::State, out: &mut Vec<Self::Move>);
    /// The position after playing legal move `m` in `s`.
    fn play(&self, s: &Self::State, m: &Self::Move) -> Self::State;
    /// What playing `m` in `s` adds to the value.
    fn reward(&self, s: &Self::State, m: &Self::Move) -> i64;
    /// What ending in `s` (a position without moves) adds to the value.
    fn terminal(&self, s: &Self::State) -> i64;
    /// A heuristic guess of the value still to come from `s`, to rank positions.
    fn estimate(&self, s: &Self::State) -> i64;
    /// An upper bound on the value still to come from `s` (terminal included): a position
    /// whose value so far plus this cannot beat the best solution is pruned.
    fn optimistic(&self, s: &Self::State) -> i64;
    /// `(optimistic(s), estimate(s))` at once (override when they share work).
    fn assess(&self, s: &Self::State) -> (i64, i64) {
        (self.optimistic(s), self.estimate(s))
    }
    /// How many rankings of positions the beam search takes turns with, each beam width
    /// once per ranking (ranking 0 is [`Scored::estimate`]'s). Two rankings that each
    /// miss what the other finds are worth more than one beam twice as wide.
    fn rankings(&self) -> usize {
        1
    }
    /// [`Scored::optimistic`] of `s` and its estimate by ranking `ranking`.
    fn assess_by(&self, s: &Self::State, ranking: usize) -> (i64, i64) {
        let _ = ranking;
        self.assess(s)
    }
    /// The children of `s` for the beam search: each that may beat `at.floor` (its value
    /// so far plus [`Scored::optimistic`] above it) goes to `out` as (its value so far
    /// plus its estimate by `at.ranking`, its value so far, its [`Puzzle::key`], its
    /// move). `kids` is scratch space. Returns whether `s` has a move at all. Override to
    /// bound children from their parent before building them.
    fn ranked_children(
        &self,
        s: &Self::State,
        at: Standing,
        kids: &mut Vec<(Self::Move, Self::State)>,
        out: &mut Vec<Ranked<Self::Move>>,
    ) -> bool {
        ranked_children_of(self, s, at, kids, out)
    }
    /// A code for `m` in `s`, the key of NRPA's policy.
    fn code(&self, s: &Self::State, m: &Self::Move) -> u64;
}

/// [`Scored::ranked_children`] from [`Puzzle::successors`] and [`Scored::assess_by`]: every
/// child built, then bounded.
pub fn ranked_children_of<P: Scored + ?Sized>(
    p: &P,
    s: &P::State,
    at: Standing,
    kids: &mut Vec<(P::Move, P::State)>,
    out: &mut Vec<Ranked<P::Move>>,
) -> bool {
    kids.clear();
    p.successors(s, kids);
    let any = !kids.is_empty();
    for (m, child) in kids.drain(..) {
        let v = at.value + p.reward(s, &m);
        let (opt, est) = p.assess_by(&child, at.ranking);
        if v.saturating_add(opt) > at.floor {
            out.push((v + est, v, p.key(&child), m));
        }
    }
    any
}

/// A child as the beam search ranks it: (rank, value so far, key, move).
pub type Ranked<M> = (i64, i64, u64, M);

/// Where a beam node stands as its children are ranked ([`Scored::ranked_children`]).
#[derive(Clone, Copy, Debug)]
pub struct Standing {
    /// The node's value so far.
    pub value: i64,
    /// The value a line must beat: the best solution's.
    pub floor: i64,
    /// Which of the puzzle's rankings ([`Scored::rankings`]).
    pub ranking: usize,
}
