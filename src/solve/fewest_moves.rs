//! Fewest moves: a greedy answer, then the anytime search and IDA* side by side
//! ([`fewest_moves`]).

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use crate::bits::Bits;
use crate::click::{Click, ClickBoard, ClickGame};
use crate::objective::Objectived;
use crate::puzzle::{Puzzle, INFINITE};
use crate::report::Progress;
use crate::samegame;
use crate::search::anytime::Control;
use crate::search::{ida_star, Event, Outcome, SearchOptions, Stopped};

use super::best_value::DEFAULT_ANYTIME_LIMIT;
use super::fast::anytime_search;
use super::{Searched, Setup};

/// How much work the anytime search may do beside IDA* on boards small enough to prove
/// ([`PROVABLE_CELLS`]): positions its beams expand ([`Control::with_work_limit`]); on
/// bigger boards it runs as long as IDA*. A budget of work and not of time, because on a
/// few hard boards the proof's time hangs on the beam's finding the optimum within it
/// (IDA* then has no iteration to run at the optimum's bound), and a slow or busy machine
/// must not cut the beam's work short: on 2025-06-29 the beam finds the 17-move optimum
/// after 76k positions, and without it IDA*'s last iteration takes five times the nodes.
pub const PROOF_ANYTIME_WORK: u64 = 120_000;

/// Beside IDA*, the anytime search also stops once IDA*'s lower bound is one below its
/// best answer, but not before this. From then on only a better line can help the proof
/// (IDA* would prove it without its last, successful iteration), and the beam finds its
/// final answer on most boards within milliseconds: running on, it would take a core
/// from the proof on nearly every board to spare an iteration on a few
/// (`docs/benchmarks.md`: "What each speed-up bought" has the figures for this against
/// 40 ms, "Measured and not kept" those for longer patience).
pub const PROOF_ANYTIME_MIN: Duration = Duration::from_millis(10);

/// Once IDA* has expanded this many positions, a proof searches the edge bound's crossing
/// games further ([`crate::edge::LONG_CROSSING_REACH`]): a board not proven by then is a
/// hard one. A count of work and not a time, so that a slow or busy machine searches the
/// same way as a fast one.
pub const CROSSING_REACH_AFTER: u64 = 150_000;

/// Boards of at most this many cells count as small enough to prove (the one-word engine).
pub const PROVABLE_CELLS: usize = 64;

/// What the searches running side by side tell the thread that reports progress.
enum Msg<M> {
    /// A better solution from the anytime search.
    Solution(Vec<M>, Duration),
    /// Progress of IDA*.
    Ida(Event<M>),
    /// IDA* has finished.
    IdaDone(Outcome<M>),
    /// The anytime search has finished.
    AnytimeDone,
    /// A search thread ended by panicking.
    Panicked,
}

/// Held by a search thread: if the thread panics, it tells the message loop so, which then
/// stops waiting for it (the thread scope passes the panic on) instead of waiting for ever
/// for a message that will not come.
struct PanicNotice<M>(mpsc::Sender<Msg<M>>);

impl<M> Drop for PanicNotice<M> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let _ = self.0.send(Msg::Panicked);
        }
    }
}

/// Fewest moves: a greedy solution at once, then the anytime search (`q`) and IDA* (on
/// `p`) side by side, sharing bounds both ways: every solution either finds is offered to
/// the anytime search (pruning it), every lower bound IDA* proves becomes the anytime
/// search's target (reaching it stops it), and IDA* is stopped as soon as its lower bound
/// reaches the best solution's length. With `no_proof`, the anytime search alone on every
/// thread. With `fast` (the same position in [`samegame`]'s byte engine), that engine's
/// beam search is the anytime search. Unless proven, IDA* ran until the user's interrupt or the time
/// limit (it has no other way to end unproven: its table replaces entries when full), and
/// with `no_proof` the anytime search until those or [`DEFAULT_ANYTIME_LIMIT`].
pub(super) fn fewest_moves<B: Bits>(
    p: &ClickGame<B>,
    q: &Objectived<B>,
    start: &ClickBoard<B>,
    setup: &Setup,
    provable: bool,
    fast: Option<samegame::Board>,
    on_progress: &mut dyn FnMut(Progress),
) -> Searched {
    let opts = &setup.search;
    if p.is_solved(start) {
        return Searched {
            moves: Vec::new(),
            proven: true,
            lower: 0,
            nodes: 0,
            stopped: None,
            filled: false,
        };
    }
    // The first bound and the first answer come from the game without its edge bound,
    // which takes no time: the edge bound's relaxed games may take a second or more to
    // solve on a board just begun, and the first answer is due at once. IDA* reports the
    // edge bound of the start as its first lower bound.
    let quick = p.without_edges();
    let lower0 = quick.lower_bound(start);
    let any_stop = Arc::new(AtomicBool::new(false));
    let ida_stop = Arc::new(AtomicBool::new(false));
    let mut any_opts = opts.clone();
    any_opts.stop = any_stop.clone();
    if setup.no_proof && any_opts.time_limit.is_none() {
        any_opts.time_limit = Some(DEFAULT_ANYTIME_LIMIT);
    }
    // Where a proof is within reach the anytime search is there for a quick upper bound,
    // which it finds early: after PROOF_ANYTIME_WORK (or once IDA* is one move from its
    // answer) it leaves the cores to IDA*. Elsewhere its answer is the one that counts,
    // and it runs as long as IDA* does.
    let patient = setup.no_proof || !provable;
    let work_limit = (!patient).then_some(PROOF_ANYTIME_WORK);
    let shares = super::budget::shares(opts.memory, p.edge_bytes(), !setup.no_proof);
    any_opts.memory = shares.anytime;
    let mut ida_opts = opts.clone();
    ida_opts.memory = shares.table;
    ida_opts.stop = ida_stop.clone();
    ida_opts.expanded = Arc::new(AtomicU64::new(0));
    let ida_expanded = ida_opts.expanded.clone();
    ida_opts.upper = Arc::new(AtomicU32::new(u32::MAX));
    let ida_upper = ida_opts.upper.clone();
    // Where the anytime search is there for a quick upper bound, IDA* takes the larger
    // share of the cores while both run; elsewhere the two share them evenly.
    ida_opts.shared = Arc::new(AtomicBool::new(!patient));
    let ida_shared = ida_opts.shared.clone();
    let (tx, rx) = mpsc::channel();
    let tx_any = Mutex::new(tx.clone());
    let mut ctl = Control::new(&any_opts, move |_, moves: &[Click], elapsed| {
        let _ = tx_any
            .lock()
            .expect("no panics")
            .send(Msg::Solution(moves.to_vec(), elapsed));
    });
    if let Some(limit) = work_limit {
        ctl = ctl.with_work_limit(limit);
    }
    ctl.set_target(-(lower0 as i64));
    // The greedy solution: the first answer, and IDA*'s first upper bound. A greedy
    // descent runs even when no time is left, so that an answer is a solution whenever one
    // is easy to find.
    let unlimited = SearchOptions {
        time_limit: None,
        ..opts.clone()
    };
    if let Some(m) = crate::search::greedy(&quick, start, &unlimited) {
        ctl.offer(-(m.len() as i64), &m);
    }
    // Only a line that clears the board is a solution (the anytime search also ranks lines
    // that do not, on boards that may not be clearable).
    let clears = |m: &[Click]| crate::search::replay(p, start, m).is_some_and(|e| p.is_solved(&e));
    let known = ctl.best().map(|b| b.1).filter(|m| clears(m));
    let any_threads = if setup.no_proof {
        opts.threads
    } else {
        (opts.threads / 2).max(1)
    };
    let mut best: Option<Vec<Click>> = None;
    let mut lower = lower0;
    let mut proven = false;
    let mut nodes = 0;
    std::thread::scope(|sc| {
        let mut running = 1;
        let tx1 = tx.clone();
        let (ctl, any_opts) = (&ctl, &any_opts);
        sc.spawn(move || {
            let _notice = PanicNotice(tx1.clone());
            anytime_search(q, start, fast.as_ref(), setup, any_threads, ctl, any_opts);
            let _ = tx1.send(Msg::AnytimeDone);
        });
        if !setup.no_proof {
            running += 1;
            let tx2 = tx.clone();
            sc.spawn(move || {
                let _notice = PanicNotice(tx2.clone());
                let out = ida_star(p, start, &ida_opts, known, &mut |e| {
                    let _ = tx2.send(Msg::Ida(e));
                });
                let _ = tx2.send(Msg::IdaDone(out));
            });
        }
        drop(tx);
        let deadline = opts.deadline();
        let mut reached = setup.no_proof;
        while running > 0 {
            if !reached && ida_expanded.load(Ordering::Relaxed) >= CROSSING_REACH_AFTER {
                p.reach_crossings(crate::edge::LONG_CROSSING_REACH);
                reached = true;
            }
            if opts.stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d) {
                // Time is up, or the user asked to stop: every search stops, and so do the
                // edge bound's relaxed searches, which look at no clock themselves.
                any_stop.store(true, Ordering::Relaxed);
                ida_stop.store(true, Ordering::Relaxed);
                p.halt_bounds(true);
            }
            // Only once IDA* is one move from the best answer: until then a better answer
            // is the anytime search's to find (and the answer if the proof runs out of time).
            if !patient
                && best.as_ref().is_some_and(|b| b.len() as u32 <= lower + 1)
                && opts.start.elapsed() > PROOF_ANYTIME_MIN
            {
                any_stop.store(true, Ordering::Relaxed);
            }
            let msg = match rx.recv_timeout(Duration::from_millis(5)) {
                Ok(m) => m,
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            match msg {
                Msg::Solution(moves, elapsed) | Msg::Ida(Event::Solution { moves, elapsed }) => {
                    if best.as_ref().is_none_or(|b| moves.len() < b.len()) && clears(&moves) {
                        on_progress(Progress::Solution {
                            moves: moves.len(),
                            tiles_left: 0,
                            score: crate::rules::score(moves.iter().map(|m| m.size as u32), true),
                            elapsed,
                        });
                        // IDA*'s solutions prune the anytime search, and the anytime
                        // search's stop IDA* once it has proven them optimal.
                        ctl.offer(-(moves.len() as i64), &moves);
                        ida_upper.fetch_min(moves.len() as u32, Ordering::Relaxed);
                        best = Some(moves);
                    }
                }
                Msg::Ida(Event::LowerBound { bound, elapsed, .. }) => {
                    if bound > lower {
                        lower = bound;
                        on_progress(Progress::LowerBound { bound, elapsed });
                        ctl.set_target(-(bound as i64));
                    }
                }
                Msg::IdaDone(out) => {
                    running -= 1;
                    nodes = out.nodes;
                    lower = lower.max(out.lower_bound);
                    if lower >= INFINITE {
                        // Proven unclearable: nothing for the anytime search to find.
                        any_stop.store(true, Ordering::Relaxed);
                    }
                    if out.proven {
                        if let Some(b) = out.best {
                            if best.as_ref().is_none_or(|x| b.len() < x.len()) {
                                best = Some(b);
                            }
                        }
                        proven = true;
                        any_stop.store(true, Ordering::Relaxed);
                    }
                }
                Msg::AnytimeDone => {
                    running -= 1;
                    ida_shared.store(false, Ordering::Relaxed);
                }
                Msg::Panicked => {
                    any_stop.store(true, Ordering::Relaxed);
                    ida_stop.store(true, Ordering::Relaxed);
                    break;
                }
            }
            if lower < INFINITE && best.as_ref().is_some_and(|b| b.len() as u32 <= lower) {
                proven = true;
                any_stop.store(true, Ordering::Relaxed);
                ida_stop.store(true, Ordering::Relaxed);
            }
        }
    });
    p.halt_bounds(false);
    // No clearing line found: the best line of the anytime search (fewest tiles left, then
    // fewest moves), if it has one.
    let best = best.or_else(|| ctl.best().map(|b| b.1)).unwrap_or_default();
    let lower = if proven { best.len() as u32 } else { lower };
    let stopped = if proven {
        None
    } else if setup.no_proof {
        Stopped::by(&opts.stop, any_opts.deadline())
    } else {
        opts.stopped()
    };
    Searched {
        moves: best,
        proven,
        lower,
        nodes,
        stopped,
        filled: ctl.filled(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panicking_search_thread_says_so() {
        let (tx, rx) = mpsc::channel::<Msg<u8>>();
        let keep = tx.clone(); // the loop's other senders stay alive, as in `fewest_moves`
        let quiet = std::thread::spawn(move || {
            let _notice = PanicNotice(tx.clone());
        });
        quiet.join().unwrap();
        assert!(
            rx.try_recv().is_err(),
            "a thread that ends normally says nothing"
        );
        let t = std::thread::spawn(move || {
            let _notice = PanicNotice(keep);
            panic!("a search thread panics");
        });
        assert!(t.join().is_err());
        assert!(matches!(
            rx.recv_timeout(Duration::from_secs(5)),
            Ok(Msg::Panicked)
        ));
    }
}
