//! Iterative deepening A* with a transposition table of proven lower bounds.
//!
//! Each iteration is a depth-first search that refuses to go past `budget` moves, pruning a
//! position as soon as `moves so far + lower bound > budget`. A position whose subtree was
//! searched without finding a solution gets a *proven* lower bound (one more than its best
//! child's), which is stored in the [`Table`]; later visits, in this iteration through
//! another move order or in the next iterations, start from it. An iteration that fails
//! proves the optimum is above `budget`; the first that succeeds finds an optimal solution.
//!
//! Children are tried in order of their lower bound (the table's included) and then of the
//! puzzle's [`Puzzle::priority`], so the moves most likely to lead to a solution go first.
//! A solution known in advance (from beam search) caps the budgets: when the lower bound
//! reaches its length, it is proven optimal without a last iteration.

use std::time::Instant;

use super::{Event, Outcome, SearchOptions, Table};
use crate::puzzle::{Puzzle, INFINITE};

enum Halt {
    Found,
    Stopped,
}

struct Child<P: Puzzle> {
    mv: P::Move,
    state: P::State,
    key: u64,
    bound: u32,
    priority: i64,
}

struct Ida<'a, P: Puzzle> {
    p: &'a P,
    table: &'a Table,
    opts: &'a SearchOptions,
    nodes: u64,
    path: Vec<P::Move>,
    levels: Vec<Vec<Child<P>>>,
    scratch: Vec<(P::Move, P::State)>,
    deadline: Option<Instant>,
}

impl<P: Puzzle> Ida<'_, P> {
    /// Searches `s` (reached in `depth` moves, bound `h` with `depth + h <= budget`).
    /// Returns a proven lower bound on the moves `s` needs when no solution within the
    /// budget exists.
    fn dfs(&mut self, s: &P::State, key: u64, depth: u32, budget: u32) -> Result<u32, Halt> {
        if self.p.is_solved(s) {
            return Err(Halt::Found);
        }
        self.nodes += 1;
        if self.nodes & 0xfff == 0 && self.should_stop() {
            return Err(Halt::Stopped);
        }
        let d = depth as usize;
        if self.levels.len() <= d {
            self.levels.push(Vec::new());
        }
        let mut kids = std::mem::take(&mut self.levels[d]);
        kids.clear();
        self.scratch.clear();
        self.p.successors(s, &mut self.scratch);
        let mut best = INFINITE;
        for (mv, state) in self.scratch.drain(..) {
            let bound = self.p.lower_bound(&state);
            if depth + 1 + bound > budget {
                // Pruned by the static bound alone: no need to ask the table.
                best = best.min(1 + bound);
                continue;
            }
            let ckey = self.p.key(&state);
            self.table.prefetch(ckey);
            let priority = self.p.priority(s, &mv, &state);
            kids.push(Child {
                mv,
                state,
                key: ckey,
                bound,
                priority,
            });
        }
        for k in kids.iter_mut() {
            k.bound = k.bound.max(self.table.get(k.key));
        }
        kids.sort_unstable_by(|a, b| a.bound.cmp(&b.bound).then(b.priority.cmp(&a.priority)));
        let mut result = Ok(());
        for k in &kids {
            if depth + 1 + k.bound > budget {
                best = best.min(1 + k.bound);
                break; // sorted: the rest are no better
            }
            self.path.push(k.mv.clone());
            match self.dfs(&k.state, k.key, depth + 1, budget) {
                Ok(r) => {
                    best = best.min(1 + r);
                    self.path.pop();
                }
                Err(h) => {
                    result = Err(h);
                    break;
                }
            }
        }
        self.levels[d] = kids;
        result?;
        self.table.store(key, best, budget - depth);
        Ok(best)
    }

    fn should_stop(&self) -> bool {
        self.opts.stop.load(std::sync::atomic::Ordering::Relaxed)
            || self.deadline.is_some_and(|t| Instant::now() >= t)
    }
}

/// Finds an optimal solution of `start`, proving it optimal, unless time runs out.
///
/// `known` is a solution found beforehand (it caps the search: the answer is never worse).
/// Every proven lower bound and the optimal solution are reported to `on_event` as found.
pub fn ida_star<P: Puzzle>(
    p: &P,
    start: &P::State,
    opts: &SearchOptions,
    known: Option<Vec<P::Move>>,
    on_event: &mut dyn FnMut(Event<P::Move>),
) -> Outcome<P::Move> {
    let mut table = Table::new(opts.memory);
    ida_star_with_table(p, start, opts, known, &mut table, on_event)
}

/// [`ida_star`] with a caller-provided table (kept between calls).
pub(crate) fn ida_star_with_table<P: Puzzle>(
    p: &P,
    start: &P::State,
    opts: &SearchOptions,
    known: Option<Vec<P::Move>>,
    table: &mut Table,
    on_event: &mut dyn FnMut(Event<P::Move>),
) -> Outcome<P::Move> {
    let upper = known.as_ref().map_or(INFINITE, |m| m.len() as u32);
    let mut lower = p.lower_bound(start).max(table.get(p.key(start)));
    let mut nodes = 0;
    let done = |best: Option<Vec<P::Move>>, lower: u32, proven: bool, nodes: u64| Outcome {
        best,
        lower_bound: lower,
        proven,
        nodes,
    };
    if p.is_solved(start) {
        return done(Some(Vec::new()), 0, true, 0);
    }
    loop {
        if lower >= upper {
            // The known solution is as short as the proven bound allows.
            return done(known, upper, upper < INFINITE, nodes);
        }
        let mut ida = Ida {
            p,
            table,
            opts,
            nodes: 0,
            path: Vec::new(),
            levels: Vec::new(),
            scratch: Vec::new(),
            deadline: opts.deadline(),
        };
        let r = ida.dfs(start, p.key(start), 0, lower);
        nodes += ida.nodes;
        let path = std::mem::take(&mut ida.path);
        match r {
            Err(Halt::Found) => {
                on_event(Event::Solution {
                    moves: path.clone(),
                    elapsed: opts.start.elapsed(),
                });
                return done(Some(path), lower, true, nodes);
            }
            Err(Halt::Stopped) => return done(known, lower, false, nodes),
            Ok(bound) => {
                lower = bound.max(lower + 1);
                if lower < INFINITE {
                    on_event(Event::LowerBound {
                        bound: lower.min(upper),
                        nodes,
                        elapsed: opts.start.elapsed(),
                    });
                }
                table.grow();
            }
        }
    }
}
