//! Iterative deepening A* with a transposition table of proven lower bounds.
//!
//! Each iteration is a depth-first search that refuses to go past `budget` moves, pruning a
//! position as soon as `moves so far + lower bound > budget`. A position whose subtree was
//! searched without finding a solution gets a *proven* lower bound (one more than its best
//! child's), which is stored in the [`Table`]; later visits, in this iteration through
//! another move order or in the next iterations, start from it. An iteration that fails
//! proves the optimum is above `budget`; the first that succeeds finds an optimal solution.
//!
//! With more than one thread, each iteration is split one move deep (two where the root
//! has too few children for the threads, [`ITEMS_PER_THREAD`]) into a list of subtrees
//! that the threads take from a shared counter; all threads share the table, so a bound
//! proven by one prunes the others. The iteration's new bound is the least over the
//! subtrees and the positions pruned above them.
//!
//! Children are tried in order of their lower bound (the table's included) and then of the
//! puzzle's [`Puzzle::priority`], so the moves most likely to lead to a solution go first.
//! A solution known in advance (from beam search) caps the budgets: when the lower bound
//! reaches its length, it is proven optimal without a last iteration.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use super::exact::Exact;
use super::memo::Memo;
use super::{Event, Outcome, SearchOptions, Table, EXPANDED_STEP};
use crate::puzzle::{Key, Puzzle, INFINITE};

enum Halt {
    Found,
    Stopped,
}

/// A child as the search orders it; its move and position stay in the level's list
/// (`at` indexes it), so sorting moves only these few bytes.
#[derive(Clone, Copy)]
struct Child {
    key: u64,
    bound: u32,
    priority: i64,
    at: u32,
}

/// The children of the position at one depth: (move, position, static bound) as
/// [`Puzzle::bounded_successors`] built them, and the order to try them in.
struct Level<P: Puzzle> {
    built: Vec<(P::Move, P::State, u32)>,
    order: Vec<Child>,
}

struct Ida<'a, P: Puzzle, M> {
    p: &'a P,
    table: &'a M,
    opts: &'a SearchOptions,
    nodes: u64,
    path: Vec<P::Move>,
    levels: Vec<Level<P>>,
    deadline: Option<Instant>,
    /// Set when another thread has found a solution.
    found_elsewhere: &'a AtomicBool,
}

impl<'a, P: Puzzle, M: Memo<P::State>> Ida<'a, P, M> {
    /// Searches `s` (reached in `depth` moves, bound `h` with `depth + h <= budget`).
    /// Returns a proven lower bound on the moves `s` needs when no solution within the
    /// budget exists.
    fn dfs(&mut self, s: &P::State, key: u64, depth: u32, budget: u32) -> Result<u32, Halt> {
        if self.p.is_solved(s) {
            return Err(Halt::Found);
        }
        if depth >= budget {
            // Unsolved with no move left (its bound was 0): it needs at least one.
            return Ok(1);
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(EXPANDED_STEP) {
            self.opts
                .expanded
                .fetch_add(EXPANDED_STEP, Ordering::Relaxed);
            if self.should_stop() {
                return Err(Halt::Stopped);
            }
        }
        let d = depth as usize;
        while self.levels.len() <= d {
            self.levels.push(Level {
                built: Vec::new(),
                order: Vec::new(),
            });
        }
        let mut level = std::mem::take(&mut self.levels[d].built);
        let mut kids = std::mem::take(&mut self.levels[d].order);
        level.clear();
        kids.clear();
        let mut best = self
            .p
            .bounded_successors(s, budget - depth - 1, &mut level)
            .saturating_add(1);
        for (at, (mv, state, bound)) in level.iter().enumerate() {
            let ckey = self.p.key(state);
            self.table.prefetch(ckey);
            kids.push(Child {
                key: ckey,
                bound: *bound,
                priority: self.p.priority(s, mv, state),
                at: at as u32,
            });
        }
        for k in kids.iter_mut() {
            let state = &level[k.at as usize].1;
            let stored = self.table.get(state, k.key, || self.p.check(state));
            if stored > k.bound {
                k.bound = stored;
            } else if depth + 1 + k.bound == budget
                && !self.p.is_solved(state)
                && !self.p.can_lower_bound(state)
            {
                // No slack left and no move lowers its (static) bound: every move
                // leaves the bound at least where it is, so it needs one more.
                k.bound += 1;
                let key = Key {
                    hash: k.key,
                    check: self.p.check(state),
                };
                self.table.store(state, key, k.bound, 1);
            }
        }
        kids.sort_unstable_by(|a, b| a.bound.cmp(&b.bound).then(b.priority.cmp(&a.priority)));
        let mut result = Ok(());
        for k in &kids {
            if depth + 1 + k.bound > budget {
                best = best.min(1 + k.bound);
                break; // sorted: the rest are no better
            }
            let (mv, state, _) = &level[k.at as usize];
            self.path.push(mv.clone());
            match self.dfs(state, k.key, depth + 1, budget) {
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
        self.levels[d] = Level {
            built: level,
            order: kids,
        };
        result?;
        let key = Key {
            hash: key,
            check: self.p.check(s),
        };
        self.table.store(s, key, best, budget - depth);
        Ok(best)
    }

    fn should_stop(&self) -> bool {
        self.opts.stop.load(Ordering::Relaxed)
            || self.found_elsewhere.load(Ordering::Relaxed)
            || self.deadline.is_some_and(|t| Instant::now() >= t)
    }

    fn new(p: &'a P, table: &'a M, opts: &'a SearchOptions, found: &'a AtomicBool) -> Self {
        Ida {
            p,
            table,
            opts,
            nodes: 0,
            path: Vec::new(),
            levels: Vec::new(),
            deadline: opts.deadline(),
            found_elsewhere: found,
        }
    }

    /// Expands the tree above depth `split` in the order the sequential search would, into
    /// a [`Frontier`]. A solved position on the way is returned as `Err(path)`.
    fn frontier(
        &mut self,
        start: &P::State,
        split: u32,
        budget: u32,
    ) -> Result<Frontier<P>, Vec<P::Move>> {
        let mut f = Frontier {
            items: Vec::new(),
            inner: Vec::new(),
            item_of: HashMap::new(),
        };
        let key = self.p.keys(start);
        self.collect(start, key, &mut Vec::new(), 0, split, budget, &mut f)?;
        Ok(f)
    }

    /// Depth-first part of [`Ida::frontier`]; returns the index of `s`'s inner node.
    #[allow(clippy::too_many_arguments)]
    fn collect(
        &mut self,
        s: &P::State,
        key: Key,
        path: &mut Vec<P::Move>,
        depth: u32,
        split: u32,
        budget: u32,
        f: &mut Frontier<P>,
    ) -> Result<usize, Vec<P::Move>> {
        self.nodes += 1;
        let me = f.inner.len();
        f.inner.push(Inner {
            state: s.clone(),
            key,
            depth,
            pruned: INFINITE,
            kids: Vec::new(),
        });
        let mut kids = Vec::new();
        // (`depth < budget`: the root's budget is above the split, and the positions
        // collected below it are above the split too)
        let least = self.p.bounded_successors(s, budget - depth - 1, &mut kids);
        let mut pruned = least.saturating_add(1);
        let mut kids: Vec<_> = kids
            .into_iter()
            .map(|(m, c, h)| {
                let key = self.p.keys(&c);
                let h = h.max(self.table.get(&c, key.hash, || key.check));
                let pr = self.p.priority(s, &m, &c);
                (m, c, key, h, pr)
            })
            .collect();
        kids.sort_by(|a, b| a.3.cmp(&b.3).then(b.4.cmp(&a.4)));
        for (m, c, key, h, _) in kids {
            path.push(m);
            if self.p.is_solved(&c) {
                return Err(path.clone());
            }
            if depth + 1 + h > budget {
                pruned = pruned.min(1 + h);
            } else if depth + 1 == split {
                // The same position reached by two paths is one piece of work; merged by
                // the position itself, not its hash.
                let item = match f.item_of.get(&c) {
                    Some(&item) => item,
                    None => {
                        f.item_of.insert(c.clone(), f.items.len());
                        f.items.push((path.clone(), c, key));
                        f.items.len() - 1
                    }
                };
                f.inner[me].kids.push(Kid::Item(item));
            } else {
                let child = self.collect(&c, key, path, depth + 1, split, budget, f)?;
                f.inner[me].kids.push(Kid::Inner(child));
            }
            path.pop();
        }
        f.inner[me].pruned = pruned;
        Ok(me)
    }
}

/// The tree above the split depth of a parallel iteration: the positions at the split
/// depth (the work, deduplicated) and the positions above them, so that the bounds the
/// work proves can be backed up and stored as the sequential search does.
struct Frontier<P: Puzzle> {
    /// (path, position, key) of each piece of work.
    items: Vec<(Vec<P::Move>, P::State, Key)>,
    /// Positions above the split, in depth-first order (a parent before its children).
    inner: Vec<Inner<P::State>>,
    item_of: HashMap<P::State, usize>,
}

struct Inner<S> {
    state: S,
    key: Key,
    depth: u32,
    /// `1 + bound` least over the children pruned without search.
    pruned: u32,
    kids: Vec<Kid>,
}

enum Kid {
    Item(usize),
    Inner(usize),
}

impl<P: Puzzle> Frontier<P> {
    /// Backs the work's proven bounds up the tree, stores each position's bound, and
    /// returns the root's.
    fn back_up<M: Memo<P::State>>(&self, results: &[u32], table: &M, budget: u32) -> u32 {
        let mut value = vec![INFINITE; self.inner.len()];
        for i in (0..self.inner.len()).rev() {
            let n = &self.inner[i];
            let mut v = n.pruned;
            for k in &n.kids {
                let child = match *k {
                    Kid::Item(j) => results[j],
                    Kid::Inner(j) => value[j],
                };
                v = v.min(child.saturating_add(1));
            }
            value[i] = v;
            table.store(&n.state, n.key, v, budget - n.depth);
        }
        value[0]
    }
}

/// A parallel iteration splits its tree where it has at least this many pieces of work
/// per thread: the threads take them in turn, so the last to end waits on one piece at
/// most, and the more there are the less that is. Fewer, larger pieces cost less to
/// make: the tree above them is expanded on one thread before the others start.
const ITEMS_PER_THREAD: usize = 4;

/// One iteration with `budget`, on `threads` threads (one more while
/// [`SearchOptions::shared`] is set). A parallel one is split one move deep or, where the
/// root has fewer than [`ITEMS_PER_THREAD`] children within the budget per thread (and
/// `budget > 3`), two; or at the depth `split` says (1 or 2: tests force each). A budget
/// too small for the split is searched on one thread.
fn iteration<P: Puzzle, M: Memo<P::State>>(
    p: &P,
    start: &P::State,
    opts: &SearchOptions,
    table: &M,
    budget: u32,
    nodes: &mut u64,
    split: Option<u32>,
) -> (Result<u32, Halt>, Vec<P::Move>) {
    let found = AtomicBool::new(false);
    let threads = opts.threads.max(1) + usize::from(opts.shared.load(Ordering::Relaxed));
    let chosen = split.is_none();
    let mut split = split.unwrap_or(1);
    if threads == 1 || budget <= split + 1 {
        let mut ida = Ida::new(p, table, opts, &found);
        let r = ida.dfs(start, p.key(start), 0, budget);
        *nodes += ida.nodes;
        return (r, ida.path);
    }
    let mut head = Ida::new(p, table, opts, &found);
    let mut frontier = head.frontier(start, split, budget);
    let too_few = |f: &Frontier<P>| f.items.len() < ITEMS_PER_THREAD * threads && budget > 3;
    if chosen && frontier.as_ref().is_ok_and(too_few) {
        split = 2;
        frontier = head.frontier(start, split, budget);
    }
    let frontier = match frontier {
        Ok(f) => f,
        Err(path) => {
            *nodes += head.nodes;
            return (Err(Halt::Found), path);
        }
    };
    *nodes += head.nodes;
    let work = &frontier.items;
    let results: Vec<AtomicU32> = work.iter().map(|_| AtomicU32::new(INFINITE)).collect();
    let next = AtomicUsize::new(0);
    let solution: Mutex<Option<Vec<P::Move>>> = Mutex::new(None);
    let stopped = AtomicBool::new(false);
    let total_nodes = AtomicU64::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.min(work.len()) {
            scope.spawn(|| {
                let mut ida = Ida::new(p, table, opts, &found);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((path, s, key)) = work.get(i) else {
                        break;
                    };
                    ida.path.clear();
                    match ida.dfs(s, key.hash, split, budget) {
                        Ok(b) => results[i].store(b, Ordering::Relaxed),
                        Err(Halt::Found) => {
                            if !found.swap(true, Ordering::Relaxed) {
                                let mut full = path.clone();
                                full.append(&mut ida.path);
                                *solution.lock().expect("no thread panics holding it") = Some(full);
                            }
                            break;
                        }
                        Err(Halt::Stopped) => {
                            stopped.store(true, Ordering::Relaxed);
                            break;
                        }
                    }
                }
                total_nodes.fetch_add(ida.nodes, Ordering::Relaxed);
            });
        }
    });
    *nodes += total_nodes.load(Ordering::Relaxed);
    if let Some(path) = solution.into_inner().expect("no thread panicked") {
        return (Err(Halt::Found), path);
    }
    if stopped.load(Ordering::Relaxed) {
        return (Err(Halt::Stopped), Vec::new());
    }
    let results: Vec<u32> = results.iter().map(|r| r.load(Ordering::Relaxed)).collect();
    (Ok(frontier.back_up(&results, table, budget)), Vec::new())
}

/// Finds an optimal solution of `start`, proving it optimal, unless time runs out.
///
/// `known` is a solution found beforehand (it caps the search: the answer is never worse).
/// Every proven lower bound and the optimal solution are reported to `on_event` as found.
/// The bounds it proves are kept in a hashed [`Table`] of at most
/// [`SearchOptions::memory`] bytes (see its module doc for what a hit rests on).
pub fn ida_star<P: Puzzle>(
    p: &P,
    start: &P::State,
    opts: &SearchOptions,
    known: Option<Vec<P::Move>>,
    on_event: &mut dyn FnMut(Event<P::Move>),
) -> Outcome<P::Move> {
    let mut table = Table::new(opts.memory);
    search(p, start, opts, known, INFINITE, &mut table, on_event)
}

/// Proves again, with every bound kept under its whole position ([`Exact`]), that `start`
/// needs at least `target` moves: no hash collision can take part in this proof. Stops as
/// soon as its lower bound reaches `target` (then `lower_bound >= target`), when it finds
/// a solution shorter than `target` (which would show the first proof wrong), or at the
/// time limit. Slower than [`ida_star`] and bounded by [`SearchOptions::memory`] as well:
/// once that is spent it forgets positions to make room ([`Exact`]), which costs time,
/// never soundness.
pub fn certify<P: Puzzle>(
    p: &P,
    start: &P::State,
    opts: &SearchOptions,
    target: u32,
) -> Outcome<P::Move> {
    let mut memo = Exact::new(opts.memory);
    search(p, start, opts, None, target, &mut memo, &mut |_| {})
}

/// IDA* with the bounds kept in `memo`: stops when its lower bound reaches the length of
/// `known` (proven), or reaches `target`, or it finds a solution (proven optimal), or it is
/// stopped.
fn search<P: Puzzle, M: Memo<P::State>>(
    p: &P,
    start: &P::State,
    opts: &SearchOptions,
    known: Option<Vec<P::Move>>,
    target: u32,
    memo: &mut M,
    on_event: &mut dyn FnMut(Event<P::Move>),
) -> Outcome<P::Move> {
    let upper = known.as_ref().map_or(INFINITE, |m| m.len() as u32);
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
    // Unsolved: at least one move, whatever the bound says.
    let mut lower = p
        .lower_bound(start)
        .max(memo.get(start, p.key(start), || p.check(start)))
        .max(1);
    // The start's own bound is the first lower bound: a board whose first iteration takes
    // a while shows it at once.
    if lower < INFINITE {
        on_event(Event::LowerBound {
            bound: lower.min(upper),
            nodes,
            elapsed: opts.start.elapsed(),
        });
    }
    loop {
        if lower >= upper {
            // The known solution is as short as the proven bound allows.
            return done(known, upper, upper < INFINITE, nodes);
        }
        if lower >= target {
            return done(known, lower, false, nodes);
        }
        if lower >= opts.upper.load(Ordering::Relaxed) {
            // So is a solution found beside this search: its finder knows it is optimal.
            return done(known, lower, false, nodes);
        }
        memo.grow(&|| opts.should_stop());
        // A growth cut short by the stop ends the search here, before an iteration begins.
        if opts.should_stop() {
            return done(known, lower, false, nodes);
        }
        let (r, path) = iteration(p, start, opts, &*memo, lower, &mut nodes, None);
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
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::click::{ClickBoard, ClickGame};
    use crate::generate::generate;
    use crate::grid::Grid;
    use crate::rules::Game;

    /// A random Former board of three colours, `w × h` (the project's generator, `seed`).
    fn former(w: usize, h: usize, seed: u64) -> (Grid, ClickGame<u64>, ClickBoard<u64>) {
        let grid = generate(w, h, 3, seed);
        let rules = Game::Former.rules().expect("a click game");
        let (game, start) = ClickGame::<u64>::new(&grid, rules).expect("a small board");
        (grid, game, start)
    }

    /// One thread and a 1 MiB table: enough for the boards of these tests.
    fn one_thread() -> SearchOptions {
        SearchOptions {
            threads: 1,
            memory: 1 << 20,
            ..SearchOptions::default()
        }
    }

    /// The first lower bound IDA* reports is the start's own, before any node is
    /// expanded, and the bounds after it rise to the optimum: on random Former boards.
    #[test]
    fn the_first_bound_reported_is_the_starts() {
        let mut boards = 0;
        for seed in 0..12 {
            let (grid, game, start) = former(5, 4, 0xb0d + seed);
            let mut bounds = Vec::new();
            let out = ida_star(&game, &start, &one_thread(), None, &mut |e| {
                if let Event::LowerBound { bound, nodes, .. } = e {
                    bounds.push((bound, nodes));
                }
            });
            let optimum = out.best.expect("a Former board clears").len() as u32;
            let first = game.lower_bound(&start).max(1);
            assert_eq!(bounds.first(), Some(&(first, 0)), "board {grid:?}");
            assert!(bounds.windows(2).all(|w| w[0].0 < w[1].0), "{bounds:?}");
            assert!(
                bounds.iter().all(|b| b.0 <= optimum),
                "{bounds:?} > {optimum}"
            );
            boards += 1;
        }
        assert_eq!(boards, 12);
    }

    /// The count of positions expanded that the options carry ([`SearchOptions::expanded`])
    /// keeps up with the nodes the search reports: in whole steps, never ahead, and on one
    /// thread behind by less than a step per iteration (each iteration counts afresh); on
    /// two threads, never ahead. On random Former boards, the count starting from zero for
    /// each search.
    #[test]
    fn the_expanded_count_follows_the_nodes() {
        let (mut searches, mut counted) = (0, 0);
        for seed in 0..8 {
            let (grid, game, start) = former(7, 7, 0xe4a + seed);
            for threads in [1, 2] {
                let opts = SearchOptions {
                    threads,
                    ..one_thread()
                };
                let mut iterations = 0;
                let out = ida_star(&game, &start, &opts, None, &mut |e| {
                    if let Event::LowerBound { .. } = e {
                        iterations += 1;
                    }
                });
                let expanded = opts.expanded.load(Ordering::Relaxed);
                assert!(out.proven, "{grid:?}");
                assert!(expanded.is_multiple_of(EXPANDED_STEP), "{grid:?}");
                assert!(
                    expanded <= out.nodes,
                    "{expanded} > {} on {grid:?}",
                    out.nodes
                );
                if threads == 1 {
                    assert!(
                        out.nodes - expanded < EXPANDED_STEP * iterations,
                        "{expanded} of {} nodes in {iterations} iterations on {grid:?}",
                        out.nodes
                    );
                }
                counted += u64::from(expanded > 0);
                searches += 1;
            }
        }
        assert_eq!(searches, 16);
        assert!(
            counted >= 10,
            "only {counted} searches expanded a step's worth"
        );
    }

    /// A parallel iteration split one move deep and one split two deep each find the
    /// optimum that the sequential search finds, as the last of a run of iterations with
    /// rising budgets: on random Former boards small enough to prove in a moment, with
    /// two and three threads.
    #[test]
    fn both_split_depths_find_the_optimum() {
        let (mut boards, mut parallel_runs) = (0, [0; 2]);
        for case in 0..24 {
            let (w, h) = [(5, 4), (4, 5), (6, 3)][case % 3];
            let (grid, game, start) = former(w, h, 0x5b117 + case as u64);
            let sequential = one_thread();
            let optimum = ida_star(&game, &start, &sequential, None, &mut |_| {})
                .best
                .expect("a Former board clears")
                .len() as u32;
            for split in [1, 2] {
                for threads in [2, 3] {
                    let opts = SearchOptions {
                        threads,
                        ..sequential.clone()
                    };
                    let table = Table::new(opts.memory);
                    let (mut budget, mut nodes) = (game.lower_bound(&start).max(1), 0);
                    let (path, found_at) = loop {
                        // (below `split + 2` the iteration runs on one thread)
                        if budget > split + 1 {
                            parallel_runs[split as usize - 1] += 1;
                        }
                        let (r, path) = iteration(
                            &game,
                            &start,
                            &opts,
                            &table,
                            budget,
                            &mut nodes,
                            Some(split),
                        );
                        match r {
                            Err(Halt::Found) => break (path, budget),
                            Err(Halt::Stopped) => panic!("nothing stops this search"),
                            Ok(bound) => budget = bound.max(budget + 1),
                        }
                    };
                    assert_eq!(path.len() as u32, optimum, "{grid:?}, split {split}");
                    // found by the iteration whose budget is the optimum, no later
                    assert_eq!(found_at, optimum, "{grid:?}, split {split}");
                    let end = crate::search::replay(&game, &start, &path).expect("legal moves");
                    assert!(game.is_solved(&end), "{grid:?}, split {split}");
                }
            }
            boards += 1;
        }
        assert_eq!(boards, 24);
        assert!(
            parallel_runs.iter().all(|&n| n > 40),
            "parallel iterations split one and two deep: {parallel_runs:?}"
        );
    }
}
