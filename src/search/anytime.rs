//! Anytime search: a first solution in milliseconds, better ones the longer it runs.
//!
//! Written against [`Scored`], a [`Puzzle`] that also says what a move is worth, so one
//! search serves every objective (fewest moves, fewest tiles, highest SameGame score): the
//! *value* of a move sequence is the sum of its moves' [`Scored::reward`]s plus the
//! [`Scored::terminal`] value of the position it ends in (no moves left), and higher is
//! better.
//!
//! Two algorithms, both parallel (a rayon pool of [`SearchOptions::threads`]):
//!
//! - [`Method::Beam`]: beam searches of width 1, 2, 4, … (width 1 is the greedy first
//!   solution), each width once per ranking the puzzle offers ([`Scored::rankings`]).
//!   Every level expands the beam in parallel, ranks the children by value so far plus
//!   their estimate ([`Scored::ranked_children`]), drops duplicates (by [`Puzzle::key`])
//!   and children whose [`Scored::optimistic`] value cannot beat the best solution known,
//!   and keeps the best `width`. Children are ranked without being stored; only the kept
//!   ones are rebuilt.
//! - [`Method::Nrpa`]: Nested Rollout Policy Adaptation (Rosin 2011): one independent
//!   NRPA per thread, restarted when it finishes its top level; playout moves are drawn
//!   with probability proportional to `exp(policy[code])`.
//!
//! Both share a [`Control`]: the best solution so far (every improvement is reported through
//! its callback, with its time), a stop flag and deadline, and a *target*, a value no
//! solution can beat (for fewest moves: minus a proven lower bound): reaching it stops the
//! search. The exact search running beside it can lower the target and offer solutions,
//! which then prune the anytime search.

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use super::SearchOptions;
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

/// The anytime algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Method {
    /// Beam searches of doubling width.
    #[default]
    Beam,
    /// Nested Rollout Policy Adaptation, one per thread.
    Nrpa,
}

type Improve<'a, M> = dyn Fn(i64, &[M], Duration) + Send + Sync + 'a;

/// Shared state of an anytime search: best solution, stop conditions, target.
pub struct Control<'a, M> {
    stop: Arc<AtomicBool>,
    deadline: Option<Instant>,
    start: Instant,
    best_value: AtomicI64,
    best: Mutex<Option<(i64, Vec<M>)>>,
    target: AtomicI64,
    on_improve: Box<Improve<'a, M>>,
    /// The bytes the search's buffers may take ([`SearchOptions::memory`]).
    memory: usize,
    /// Set when the beams reached `memory` and NRPA went on in their place.
    filled: AtomicBool,
    /// The work the search may do ([`Control::with_work_limit`]).
    work_limit: Option<u64>,
    /// The work done so far: positions the beams expanded, moves NRPA's playouts played.
    work: AtomicU64,
}

impl<'a, M: Clone> Control<'a, M> {
    /// A control with `opts`' stop flag, deadline and start; `on_improve(value, moves,
    /// elapsed)` is called (from any thread, one at a time) for every better solution.
    pub fn new(
        opts: &SearchOptions,
        on_improve: impl Fn(i64, &[M], Duration) + Send + Sync + 'a,
    ) -> Self {
        Control {
            stop: opts.stop.clone(),
            deadline: opts.deadline(),
            start: opts.start,
            best_value: AtomicI64::new(WORST),
            best: Mutex::new(None),
            target: AtomicI64::new(i64::MAX),
            on_improve: Box::new(on_improve),
            memory: opts.memory,
            filled: AtomicBool::new(false),
            work_limit: None,
            work: AtomicU64::new(0),
        }
    }

    /// The same control, also done once the search has done `limit` work: positions its
    /// beams expanded and moves its playouts played ([`Control::work`]). A budget of work
    /// buys the same search on a slow machine or a busy one as on a fast, quiet one, where
    /// a budget of time (wall or CPU) buys less the slower the machine. The beams count a
    /// level once it is expanded, so a beam search ends at a level's end.
    pub fn with_work_limit(mut self, limit: u64) -> Self {
        self.work_limit = Some(limit);
        self
    }

    /// The work done so far ([`Control::with_work_limit`]).
    pub fn work(&self) -> u64 {
        self.work.load(Ordering::Relaxed)
    }

    /// Counts `n` more work.
    fn add_work(&self, n: usize) {
        self.work.fetch_add(n as u64, Ordering::Relaxed);
    }

    /// Records that the beams reached the memory budget, and asks the allocator to give
    /// back what they freed before the search goes on in their place.
    pub fn fill(&self) {
        self.filled.store(true, Ordering::Relaxed);
        crate::machine::give_back_freed();
    }

    /// Did the beams reach the memory budget (a wider one would not fit), so that NRPA
    /// went on in their place?
    pub fn filled(&self) -> bool {
        self.filled.load(Ordering::Relaxed)
    }

    /// Records `moves` (worth `value`) if it beats the best so far; says whether it did.
    pub fn offer(&self, value: i64, moves: &[M]) -> bool {
        if value <= self.best_value.load(Ordering::Relaxed) {
            return false;
        }
        let mut best = self.best.lock().expect("no panics while holding the lock");
        if best.as_ref().is_some_and(|(v, _)| *v >= value) {
            return false;
        }
        *best = Some((value, moves.to_vec()));
        self.best_value.store(value, Ordering::Relaxed);
        (self.on_improve)(value, moves, self.start.elapsed());
        true
    }

    /// The value of the best solution so far ([`WORST`] if none).
    pub fn best_value(&self) -> i64 {
        self.best_value.load(Ordering::Relaxed)
    }

    /// The best solution so far.
    pub fn best(&self) -> Option<(i64, Vec<M>)> {
        self.best.lock().expect("no panics").clone()
    }

    /// No solution is worth more than `t` (e.g. minus a proven lower bound on the moves).
    pub fn set_target(&self, t: i64) {
        self.target.fetch_min(t, Ordering::Relaxed);
    }

    /// Has the best reached the target?
    pub fn reached_target(&self) -> bool {
        self.best_value() >= self.target.load(Ordering::Relaxed)
    }

    /// Stop: asked to, out of time or work once there is a solution, or nothing better
    /// exists. The deadline and the work limit wait for the first solution, so that every
    /// search gives one (its greedy start takes milliseconds) even when the machine is too
    /// busy to reach it in time.
    pub fn done(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.reached_target()
            || (self.out_of_work() || self.out_of_time()) && self.best_value() > WORST
    }

    /// Past the deadline?
    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Past the work limit?
    fn out_of_work(&self) -> bool {
        self.work_limit.is_some_and(|w| self.work() >= w)
    }
}

/// Runs `method` from `start` until `ctl` says stop (with no deadline and no target, NRPA
/// runs until stopped and beam search until its widths stop improving nothing new: give a
/// time limit). Returns the best solution and its value.
pub fn anytime<P: Scored>(
    p: &P,
    start: &P::State,
    method: Method,
    threads: usize,
    ctl: &Control<P::Move>,
) -> Option<(i64, Vec<P::Move>)> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .expect("a thread pool");
    pool.install(|| match method {
        Method::Beam => {
            let mut width = 1usize;
            'widths: while !ctl.done() {
                let mut bytes = 0;
                for ranking in 0..p.rankings() {
                    let (complete, b) = beam_measured(p, start, width, ranking, ctl);
                    if complete || width >= 1 << 24 {
                        break 'widths;
                    }
                    bytes = bytes.max(b);
                }
                // A beam twice as wide keeps about twice the positions and children, so
                // about twice the memory; with room to spare for the unevenness of
                // levels, it must fit the budget. If it does not, NRPA (whose memory is
                // its policy, a few entries per move played) goes on within it.
                if bytes.saturating_mul(NEXT_BEAM) > ctl.memory {
                    ctl.fill();
                    nrpa_until_done(p, start, threads, ctl);
                    break;
                }
                width *= 2;
            }
        }
        Method::Nrpa => {
            // A greedy first solution in milliseconds, then NRPA on every thread.
            beam(p, start, 1, ctl);
            nrpa_until_done(p, start, threads, ctl);
        }
    });
    ctl.best()
}

/// NRPA from `start` on `threads` threads (of the pool it is called in), restarted until
/// `ctl` says stop.
fn nrpa_until_done<P: Scored>(p: &P, start: &P::State, threads: usize, ctl: &Control<P::Move>) {
    (0..threads.max(1)).into_par_iter().for_each(|t| {
        let mut nrpa = Nrpa::new(p, start, ctl, 0x9e37_79b9 + t as u64 * 0x1234_5679);
        while !ctl.done() {
            nrpa.run(nrpa_level(p, start));
        }
    });
}

/// A level for NRPA: 3, or 2 for tiny boards (where level 3 would only repeat itself).
fn nrpa_level<P: Scored>(p: &P, start: &P::State) -> usize {
    let mut m = Vec::new();
    p.moves(start, &mut m);
    if m.len() < 8 {
        2
    } else {
        3
    }
}

/// A beam node's children, ranked, and the node's own final value when it has no moves.
type Expansion<M> = (Vec<Ranked<M>>, Option<i64>);

/// How many times the memory of a beam the next, twice as wide, is allowed to take.
const NEXT_BEAM: usize = 3;

/// One beam of `width` from `start`, offering every solution it meets to `ctl`. Returns
/// true when the beam never had to drop a position (the search was exhaustive).
pub fn beam<P: Scored>(p: &P, start: &P::State, width: usize, ctl: &Control<P::Move>) -> bool {
    beam_measured(p, start, width, 0, ctl).0
}

/// [`beam`], and the most bytes its buffers held at once: the levels' moves so far, the
/// positions of a level and the next, and a level's children (as ranked per parent and
/// then together, while the first are moved into the second), with the set of their keys.
fn beam_measured<P: Scored>(
    p: &P,
    start: &P::State,
    width: usize,
    ranking: usize,
    ctl: &Control<P::Move>,
) -> (bool, usize) {
    use std::mem::size_of;
    struct Node<S> {
        state: S,
        value: i64,
    }
    // (parent index in the previous level, move) per kept node, level by level.
    let mut levels: Vec<Vec<(u32, P::Move)>> = Vec::new();
    let mut beam = vec![Node {
        state: start.clone(),
        value: 0,
    }];
    let path = |levels: &[Vec<(u32, P::Move)>], mut slot: usize| {
        let mut moves = Vec::with_capacity(levels.len());
        for level in levels.iter().rev() {
            let (parent, m) = &level[slot];
            moves.push(m.clone());
            slot = *parent as usize;
        }
        moves.reverse();
        moves
    };
    let mut exhaustive = true;
    let (mut peak, mut moves_bytes) = (0usize, 0usize);
    loop {
        if ctl.done() {
            return (false, peak);
        }
        // Rank every node's children; terminal nodes end here.
        let per_node: Vec<Expansion<P::Move>> = beam
            .par_iter()
            .map_init(Vec::new, |kids, node| {
                if ctl.done() {
                    return (Vec::new(), None);
                }
                let mut out = Vec::new();
                let at = Standing {
                    value: node.value,
                    floor: ctl.best_value(),
                    ranking,
                };
                if !p.ranked_children(&node.state, at, kids, &mut out) {
                    return (Vec::new(), Some(node.value + p.terminal(&node.state)));
                }
                (out, None)
            })
            .collect();
        if ctl.done() {
            return (false, peak);
        }
        ctl.add_work(beam.len());
        let children: usize = per_node.iter().map(|(k, _)| k.capacity()).sum();
        let kid = size_of::<(i64, i64, u64, u32, P::Move)>();
        peak = peak.max(
            moves_bytes
                + 2 * beam.len() * size_of::<Node<P::State>>()
                + children * (2 * kid + 2 * size_of::<u64>()),
        );
        let mut kids = Vec::new();
        for (slot, (k, end)) in per_node.into_iter().enumerate() {
            if let Some(v) = end {
                if v > ctl.best_value() {
                    let moves = path(&levels, slot);
                    ctl.offer(v, &moves);
                }
            }
            // (rank, value, key, parent slot, move)
            kids.extend(
                k.into_iter()
                    .map(|(r, v, key, m)| (r, v, key, slot as u32, m)),
            );
        }
        if kids.is_empty() {
            return (exhaustive, peak);
        }
        // Best rank first; among equal keys keep the best.
        kids.par_sort_unstable_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
        let mut seen =
            FxHashSet::with_capacity_and_hasher(width.min(kids.len()) * 2, Default::default());
        let mut kept = Vec::with_capacity(width.min(kids.len()));
        for k in kids {
            if kept.len() == width {
                exhaustive = false;
                break;
            }
            if seen.insert(k.2) {
                kept.push(k);
            }
        }
        let next: Vec<Node<P::State>> = kept
            .par_iter()
            .map(|k| Node {
                state: p.play(&beam[k.3 as usize].state, &k.4),
                value: k.1,
            })
            .collect();
        moves_bytes += kept.len() * size_of::<(u32, P::Move)>();
        levels.push(kept.into_iter().map(|k| (k.3, k.4)).collect());
        beam = next;
    }
}

/// NRPA's policy: a weight per move code.
type Policy = FxHashMap<u64, f64>;

/// A playout (its moves are offered to the [`Control`] as it ends): its value, and the
/// codes of the legal moves at every step, the chosen one first.
struct Rollout {
    value: i64,
    codes: Vec<Vec<u64>>,
}

/// Nested Rollout Policy Adaptation for one thread.
struct Nrpa<'a, 'c, P: Scored> {
    p: &'a P,
    start: &'a P::State,
    ctl: &'a Control<'c, P::Move>,
    rng: fastrand::Rng,
    moves: Vec<P::Move>,
    weights: Vec<f64>,
}

/// Iterations per level.
const NRPA_ITERATIONS: usize = 100;
/// Policy learning rate.
const NRPA_ALPHA: f64 = 1.0;

impl<'a, 'c, P: Scored> Nrpa<'a, 'c, P> {
    fn new(p: &'a P, start: &'a P::State, ctl: &'a Control<'c, P::Move>, seed: u64) -> Self {
        Nrpa {
            p,
            start,
            ctl,
            rng: fastrand::Rng::with_seed(seed),
            moves: Vec::new(),
            weights: Vec::new(),
        }
    }

    fn run(&mut self, level: usize) -> Option<Rollout> {
        let mut policy = Policy::default();
        self.level(level, &mut policy)
    }

    fn level(&mut self, level: usize, policy: &mut Policy) -> Option<Rollout> {
        if level == 0 {
            return Some(self.playout(policy));
        }
        let mut best: Option<Rollout> = None;
        for _ in 0..NRPA_ITERATIONS {
            if self.ctl.done() {
                break;
            }
            let mut inner = policy.clone();
            if let Some(r) = self.level(level - 1, &mut inner) {
                if best.as_ref().is_none_or(|b| r.value >= b.value) {
                    best = Some(r);
                }
            }
            if let Some(b) = &best {
                adapt(policy, b);
            }
        }
        best
    }

    fn playout(&mut self, policy: &Policy) -> Rollout {
        let mut s = self.start.clone();
        let mut value = 0;
        let mut moves = Vec::new();
        let mut codes = Vec::new();
        loop {
            self.moves.clear();
            self.p.moves(&s, &mut self.moves);
            if self.moves.is_empty() {
                value += self.p.terminal(&s);
                break;
            }
            self.weights.clear();
            let mut step: Vec<u64> = Vec::with_capacity(self.moves.len());
            let mut z = 0.0;
            for m in &self.moves {
                let c = self.p.code(&s, m);
                let w = policy.get(&c).copied().unwrap_or(0.0).exp();
                z += w;
                self.weights.push(w);
                step.push(c);
            }
            let mut r = self.rng.f64() * z;
            let mut pick = self.moves.len() - 1;
            for (i, w) in self.weights.iter().enumerate() {
                if r < *w {
                    pick = i;
                    break;
                }
                r -= w;
            }
            step.swap(0, pick);
            let m = self.moves[pick].clone();
            value += self.p.reward(&s, &m);
            s = self.p.play(&s, &m);
            moves.push(m);
            codes.push(step);
        }
        self.ctl.add_work(moves.len() + 1);
        self.ctl.offer(value, &moves);
        Rollout { value, codes }
    }
}

/// Moves the policy toward the rollout `best`: raise each chosen move's weight, lower every
/// legal alternative's by its probability.
fn adapt(policy: &mut Policy, best: &Rollout) {
    let old = policy.clone();
    for step in &best.codes {
        let z: f64 = step
            .iter()
            .map(|c| old.get(c).copied().unwrap_or(0.0).exp())
            .sum();
        *policy.entry(step[0]).or_insert(0.0) += NRPA_ALPHA;
        for c in step {
            let p = old.get(c).copied().unwrap_or(0.0).exp() / z;
            *policy.entry(*c).or_insert(0.0) -= NRPA_ALPHA * p;
        }
    }
}

/// The best value reachable from `start`, exactly: a depth-first search over positions with
/// a table of solved ones. Gives up (`None`) past `max_positions` distinct positions or when
/// `ctl` says stop; otherwise returns the optimal value and a line reaching it.
pub fn exhaustive<P: Scored>(
    p: &P,
    start: &P::State,
    max_positions: usize,
    ctl: &Control<P::Move>,
) -> Option<(i64, Vec<P::Move>)> {
    struct Ctx<'a, 'c, P: Scored> {
        p: &'a P,
        ctl: &'a Control<'c, P::Move>,
        /// Keyed by the position itself: a hash collision cannot lend one position
        /// another's value, so the value returned is exact.
        memo: FxHashMap<P::State, i64>,
        max: usize,
    }
    impl<P: Scored> Ctx<'_, '_, P> {
        /// The best value still to come from `s`.
        fn value(&mut self, s: &P::State) -> Option<i64> {
            if let Some(&v) = self.memo.get(s) {
                return Some(v);
            }
            if self.memo.len() >= self.max || (self.memo.len() & 0x3ff == 0 && self.ctl.done()) {
                return None;
            }
            let mut moves = Vec::new();
            self.p.moves(s, &mut moves);
            let mut best = if moves.is_empty() {
                self.p.terminal(s)
            } else {
                WORST
            };
            for m in &moves {
                let child = self.p.play(s, m);
                best = best.max(self.p.reward(s, m) + self.value(&child)?);
            }
            self.memo.insert(s.clone(), best);
            Some(best)
        }
    }
    let mut ctx = Ctx {
        p,
        ctl,
        memo: FxHashMap::default(),
        max: max_positions,
    };
    let target = ctx.value(start)?;
    // Walk the table down an optimal line.
    let mut s = start.clone();
    let mut line = Vec::new();
    let mut moves = Vec::new();
    let mut here = target;
    loop {
        moves.clear();
        p.moves(&s, &mut moves);
        if moves.is_empty() {
            break;
        }
        let (m, child, v) = moves
            .iter()
            .map(|m| {
                let c = p.play(&s, m);
                let v = ctx.memo[&c];
                (m.clone(), c, v)
            })
            .find(|(m, _, v)| p.reward(&s, m) + v == here)
            .expect("the table holds an optimal line");
        here = v;
        line.push(m);
        s = child;
    }
    ctl.offer(target, &line);
    Some((target, line))
}
