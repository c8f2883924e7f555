//! What an anytime search's threads share: the best solution, the stop conditions and the
//! target.

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::scored::WORST;
use crate::search::SearchOptions;

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
    pub(super) memory: usize,
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
    pub(super) fn add_work(&self, n: usize) {
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
