//! Anytime search: a first solution in milliseconds, better ones the longer it runs.
//!
//! Written against [`Scored`], a [`Puzzle`](crate::puzzle::Puzzle) that also says what a
//! move is worth, so one search serves every objective (fewest moves, fewest tiles,
//! highest SameGame score): the *value* of a move sequence is the sum of its moves'
//! [`Scored::reward`]s plus the [`Scored::terminal`] value of the position it ends in (no
//! moves left), and higher is better.
//!
//! Two algorithms, both parallel (a rayon pool of
//! [`SearchOptions::threads`](crate::search::SearchOptions::threads)):
//!
//! - [`Method::Beam`]: beam searches of width 1, 2, 4, … (width 1 is the greedy first
//!   solution), each width once per ranking the puzzle offers ([`Scored::rankings`]).
//!   Every level expands the beam in parallel, ranks the children by value so far plus
//!   their estimate ([`Scored::ranked_children`]), drops duplicates (by
//!   [`Puzzle::key`](crate::puzzle::Puzzle::key)) and children whose
//!   [`Scored::optimistic`] value cannot beat the best solution known, and keeps the best
//!   `width`. Children are ranked without being stored; only the kept ones are rebuilt.
//! - [`Method::Nrpa`]: Nested Rollout Policy Adaptation (Rosin 2011): one independent
//!   NRPA per thread, restarted when it finishes its top level; playout moves are drawn
//!   with probability proportional to `exp(policy[code])`.
//!
//! Both share a [`Control`]: the best solution so far (every improvement is reported through
//! its callback, with its time), a stop flag and deadline, and a *target*, a value no
//! solution can beat (for fewest moves: minus a proven lower bound): reaching it stops the
//! search. The exact search running beside it can lower the target and offer solutions,
//! which then prune the anytime search.
//!
//! The files: the trait and how a child is ranked (`scored`), the shared [`Control`]
//! (`control`), the beam searches (`beam`), NRPA (`nrpa`) and the exhaustive search for
//! small positions (`exhaustive`).

mod beam;
mod control;
mod exhaustive;
mod nrpa;
mod scored;

pub use beam::beam;
pub use control::Control;
pub use exhaustive::exhaustive;
pub use scored::{ranked_children_of, Ranked, Scored, Standing, WORST};

use beam::beam_measured;
use nrpa::nrpa_until_done;

/// The anytime algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Method {
    /// Beam searches of doubling width.
    #[default]
    Beam,
    /// Nested Rollout Policy Adaptation, one per thread.
    Nrpa,
}

/// How many times the memory of a beam the next, twice as wide, is allowed to take.
const NEXT_BEAM: usize = 3;

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
