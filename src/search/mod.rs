//! Search algorithms, generic over [`Puzzle`]: every algorithm serves every game.
//!
//! - [`ida_star`]: exact. Iterative deepening A* with a shared transposition table that
//!   keeps proven lower bounds, so each iteration reuses the last one's work. It proves
//!   optimality, or stops at the time limit with the best lower bound proven so far.
//! - [`beam_search`]: fast and inexact. Gives the first upper bounds in milliseconds.
//! - [`anytime`]: anytime search for every objective (beam searches of doubling width,
//!   NRPA), on all cores, sharing its best solution and a target with the exact search.
//!
//! Algorithms report progress through a callback of [`Event`]s (a new best solution, a
//! new proven lower bound), which the front ends print as they come. A search that ends
//! before it has finished says why ([`Stopped`]: the time limit, the memory budget, or
//! the stop flag, which only the user's interrupt sets).

pub mod anytime;
mod beam;
mod exact;
mod ida;
mod memo;
mod table;

pub use beam::{beam_search, greedy};
pub use exact::{table_bytes, Exact};
pub use ida::{certify, ida_star};
pub use memo::Memo;
pub use table::Table;

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::puzzle::Puzzle;
pub use crate::report::Stopped;

/// Limits and resources for a search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Stop after this long (the answer is then the best found, with a lower bound).
    pub time_limit: Option<Duration>,
    /// The memory budget, in bytes: the most this search's large structures take together
    /// (the solve layer shares a click game's out among the edge memos, the table and the
    /// anytime search: [`crate::solve::budget`]; Flood-It's search holds to it in all).
    /// See "Memory" in docs/architecture.md.
    pub memory: usize,
    /// Threads to use (searches that are not parallel ignore it).
    pub threads: usize,
    /// Set from outside to stop the search early: the user's interrupt (a search that ends
    /// because of it reports [`Stopped::Interrupted`]). The searches stop each other with
    /// flags of their own, never with this one.
    pub stop: Arc<AtomicBool>,
    /// When the search started (for elapsed times in events).
    pub start: Instant,
    /// The length of the shortest solution found elsewhere, by a search running beside
    /// this one (`u32::MAX` while there is none): [`ida_star`] stops once its proven lower
    /// bound reaches it, where its own known solution would be longer.
    pub upper: Arc<AtomicU32>,
    /// Set while a search beside this one shares its cores (the anytime search beside
    /// IDA*): a parallel [`ida_star`] iteration begun meanwhile runs one thread more than
    /// `threads`, so that IDA* has the larger share of the cores' time while both run
    /// (`docs/benchmarks.md`, "What each speed-up bought").
    pub shared: Arc<AtomicBool>,
    /// The positions [`ida_star`]'s depth-first searches have expanded so far, added in
    /// steps of [`EXPANDED_STEP`] as they go: how far a proof has got in work rather than
    /// time, for the decisions beside it that must not hang on the machine's speed. It
    /// runs a little behind the nodes [`Outcome::nodes`] reports: each thread's last part
    /// of a step in an iteration is not added, nor are the few positions a parallel
    /// iteration expands to split its work among the threads.
    pub expanded: Arc<AtomicU64>,
}

/// A time limit of `seconds` (finite and at least 0, as the front ends check): one longer
/// than a [`Duration`] can hold is the longest there is, which never runs out
/// ([`SearchOptions::deadline`]).
pub fn time_limit(seconds: f64) -> Duration {
    Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX)
}

/// [`SearchOptions::expanded`] grows by this many positions at a time.
pub const EXPANDED_STEP: u64 = 64;

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            time_limit: None,
            memory: 1 << 30,
            threads: crate::machine::cores(),
            stop: Arc::new(AtomicBool::new(false)),
            start: Instant::now(),
            upper: Arc::new(AtomicU32::new(u32::MAX)),
            shared: Arc::new(AtomicBool::new(false)),
            expanded: Arc::new(AtomicU64::new(0)),
        }
    }
}

impl SearchOptions {
    /// The instant the time limit runs out, if any: none for a limit so long that no
    /// instant is that far ahead (it never runs out).
    pub fn deadline(&self) -> Option<Instant> {
        self.time_limit.and_then(|t| self.start.checked_add(t))
    }
    /// Has the time run out or has someone asked to stop?
    pub fn should_stop(&self) -> bool {
        self.stopped().is_some()
    }
    /// Why a search under these options has to stop now, if it has to.
    pub fn stopped(&self) -> Option<Stopped> {
        Stopped::by(&self.stop, self.deadline())
    }
}

/// Progress reported while searching.
#[derive(Clone, Debug)]
pub enum Event<M> {
    /// A solution better than any before it.
    Solution { moves: Vec<M>, elapsed: Duration },
    /// A proven lower bound on the optimum, higher than any before it.
    LowerBound {
        bound: u32,
        nodes: u64,
        elapsed: Duration,
    },
}

/// What a search ends with.
#[derive(Clone, Debug)]
pub struct Outcome<M> {
    /// The best solution found, if any.
    pub best: Option<Vec<M>>,
    /// A proven lower bound on the optimum.
    pub lower_bound: u32,
    /// Is `best` proven optimal (or, with no `best`, proven unsolvable)?
    pub proven: bool,
    /// Positions expanded.
    pub nodes: u64,
}

/// Plays `moves` from `start` by matching each move's successor (moves compare by value).
/// Returns the final position, or `None` if a move is not legal.
pub fn replay<P: Puzzle>(p: &P, start: &P::State, moves: &[P::Move]) -> Option<P::State>
where
    P::Move: PartialEq,
{
    let mut s = start.clone();
    let mut kids = Vec::new();
    for m in moves {
        kids.clear();
        p.successors(&s, &mut kids);
        s = kids.drain(..).find(|(k, _)| k == m)?.1;
    }
    Some(s)
}
