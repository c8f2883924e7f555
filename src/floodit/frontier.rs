//! What the Flood-It search does when its A* fills the memory budget: iterative deepening
//! from the A*'s frontier (the A*+IDA* scheme), within a fixed transposition table.
//!
//! When the A* stops for memory, every node with `f` below the current layer `F` has been
//! expanded, and the open list holds the frontier: every path from the start that is not
//! pruned passes through a frontier node (or through an expanded node whose children are
//! there). So the optimum is at least `F`, and for each threshold `T = F, F + 1, …` a
//! depth-first search from every frontier node with `f ≤ T`, bounded by `T`, finds a
//! solution of length `T` if there is one. A threshold whose searches all fail proves the
//! optimum above `T`; the first one that succeeds gives an optimal solution.
//!
//! The depth-first search generates children exactly as the A* does (forced eliminations
//! chained, the same dominated move orders skipped, the same bound with pathmax), so the
//! argument of [`super::moves`] that some optimal path survives every cut holds here too:
//! that argument lets any recorded parent make a cut, and the depth-first search's parent
//! is one. The transposition table stores, for a flood, a proven lower bound on the moves
//! still needed from it (a search bounded by `T` that failed from it at depth `g` proves
//! more than `T − g`), keyed by the whole flood (no hash collision can fake a bound); a
//! slot keeps its last writer, so the table never grows past its size. Only searches that
//! ran to their end store a bound, so a stop for time leaves no wrong entry.
//!
//! The A*'s node array stays (it gives the path to each frontier node) and so does its open
//! list (the frontier itself); the duplicate index and the pruned-children table are freed
//! first, and the transposition table takes what the budget has left.

use std::time::Duration;

use super::moves::{
    candidates_among, chain_near, dominated, order_guard, play_chain, union_of_child,
    unions_by_colour,
};
use super::node::{path, Node};
use super::{bounds, set, Engine, Pos, Set};
use crate::report::Progress;
use crate::search::{SearchOptions, Stopped};

/// The smallest transposition table the deepening uses, in bytes, whatever is left of the
/// budget: the A* may end a little over its budget (its check runs every few thousand
/// expansions), and the deepening still needs a table to be more than plain IDA*.
pub const MIN_TABLE_BYTES: usize = 1 << 20;

/// A frontier node: (`f` bucket, `g`, node index); depths stay below 256 (the A*'s
/// `MAX_DEPTH`).
pub(super) type Frontier = (u8, u8, u32);

/// Where the A* left off, and what the deepening starts from.
pub(super) struct Start<'a, const N: usize> {
    pub start: &'a Pos<N>,
    pub nodes: &'a [Node<N>],
    /// The open nodes, in the order to search them (by `f`, deepest first).
    pub frontier: &'a [Frontier],
    /// Does the start have a free choice (no colour eliminable)? Its children may skip
    /// move orders only then.
    pub root_settled: bool,
    /// The proven lower bound: every node with `f` below it was expanded.
    pub lower: u32,
    /// The best solution so far.
    pub best: Vec<u8>,
    /// Bytes for the transposition table.
    pub table_bytes: usize,
}

/// What the deepening ends with.
pub(super) struct Deepened {
    pub best: Vec<u8>,
    pub lower: u32,
    pub proven: bool,
    pub expanded: u64,
    pub stopped: Option<Stopped>,
}

/// The transposition table: one `(flood, bound)` per slot, bound 0 for an empty slot.
struct Table<const N: usize> {
    slots: Vec<(Set<N>, u8)>,
}

impl<const N: usize> Table<N> {
    /// A table of at most `bytes` (a power of two of slots, at least 1024). An allocation
    /// the system refuses is retried at half the size, down to the least.
    fn new(bytes: usize) -> Table<N> {
        let each = std::mem::size_of::<(Set<N>, u8)>();
        let mut len = (bytes / each).max(1024).next_power_of_two();
        if len * each > bytes.max(1024 * each) {
            len /= 2;
        }
        loop {
            let mut slots = Vec::new();
            if slots.try_reserve_exact(len).is_ok() {
                slots.resize(len, (set::empty(), 0));
                return Table { slots };
            }
            assert!(len > 1024, "cannot allocate a table of 1024 slots");
            len /= 2;
        }
    }
    #[inline]
    fn slot(&self, flood: &Set<N>) -> usize {
        Engine::<N>::hash(flood) as usize & (self.slots.len() - 1)
    }
    /// The stored bound on the moves left from `flood` (0 when none).
    #[inline]
    fn get(&self, flood: &Set<N>) -> usize {
        let (f, d) = &self.slots[self.slot(flood)];
        if f == flood {
            *d as usize
        } else {
            0
        }
    }
    /// Stores the bound `d` for `flood` (keeping a higher one already stored for it).
    #[inline]
    fn put(&mut self, flood: &Set<N>, d: usize) {
        let i = self.slot(flood);
        let s = &mut self.slots[i];
        if s.0 != *flood || (s.1 as usize) < d {
            *s = (*flood, d.min(u8::MAX as usize) as u8);
        }
    }
}

/// A child in the depth-first search: (bound, regions flooded, flood, neighbours, first
/// move, moves in the chain).
type Kid<const N: usize> = (usize, u32, Set<N>, Set<N>, u8, usize);

struct Search<'a, const N: usize> {
    e: &'a Engine<N>,
    opts: &'a SearchOptions,
    table: Table<N>,
    /// The threshold of the current iteration.
    bound: usize,
    expanded: u64,
    stopped: Option<Stopped>,
    /// The first move of each chain on the current path from the frontier node.
    firsts: Vec<u8>,
    /// A buffer of children per depth.
    kids: Vec<Vec<Kid<N>>>,
    /// Per depth, the unions of the neighbours' adjacency by colour that a flood's
    /// children share (as in the A*: see `unions_by_colour`).
    near: Vec<Vec<Set<N>>>,
    moves: Vec<u8>,
}

impl<const N: usize> Search<'_, N> {
    /// Searches below `flood` (neighbours `nb`, reached with `g` moves, bound `h`, not
    /// solved, `g + h ≤` the threshold) for a solution within the threshold. `guard`: the
    /// move orders its children may skip, after the last move `last`; `settled`: no colour
    /// is eliminable from `flood` (true of every flood but maybe the start's), so its
    /// children may skip move orders in turn. True when found (the moves are in `firsts`).
    #[allow(clippy::too_many_arguments)]
    fn dfs(
        &mut self,
        flood: &Set<N>,
        nb: &Set<N>,
        g: usize,
        h: usize,
        guard: Option<&Set<N>>,
        last: u8,
        settled: bool,
        level: usize,
    ) -> bool {
        self.expanded += 1;
        if self.expanded & 0xfff == 0 && self.stopped.is_none() {
            self.stopped = self.opts.stopped();
        }
        if self.stopped.is_some() {
            return false;
        }
        let e = self.e;
        if self.kids.len() <= level {
            self.kids.resize_with(level + 1, Vec::new);
            self.near
                .resize_with(level + 1, || vec![set::empty(); e.colours()]);
        }
        let mut kids = std::mem::take(&mut self.kids[level]);
        kids.clear();
        let mut near = std::mem::take(&mut self.near[level]);
        let touching = unions_by_colour(e, nb, &mut near);
        let mut cands = candidates_among(e, flood, nb, touching);
        let mut found = false;
        while cands != 0 {
            let c = cands.trailing_zeros() as u8;
            cands &= cands - 1;
            self.moves.clear();
            let (f2, nb2, outside) =
                chain_near(e, flood, nb, c, &near[c as usize], &mut self.moves);
            if let Some(guard) = guard {
                let gained = set::and(nb, e.of_colour(c as usize));
                if dominated(e, guard, &gained, last, &f2) {
                    continue;
                }
            }
            let len = self.moves.len();
            let g2 = g + len;
            if set::is_empty(&nb2) {
                if g2 <= self.bound {
                    self.firsts.push(c);
                    found = true;
                    break;
                }
                continue;
            }
            if g2 + 1 > self.bound {
                continue;
            }
            let cap = (self.bound + 1 - g2) as u32;
            let near_nb2 = || union_of_child(e, nb, &nb2, touching, &near, c, len);
            let h2 = (bounds::puchert_settled(e, &f2, &nb2, outside, cap, near_nb2) as usize)
                .max(h.saturating_sub(len))
                .max(self.table.get(&f2));
            if g2 + h2 > self.bound {
                continue;
            }
            kids.push((h2, u32::MAX - set::count(&f2), f2, nb2, c, len));
        }
        if !found {
            // the most promising first: smallest bound, then the largest flood
            kids.sort_unstable_by_key(|k| (k.0, k.1));
            for &(h2, _, f2, nb2, c, len) in &kids {
                let g2 = g + len;
                let guard2 = if settled {
                    order_guard(e, &f2, flood, c)
                } else {
                    None
                };
                self.firsts.push(c);
                if self.dfs(&f2, &nb2, g2, h2, guard2.as_ref(), c, true, level + 1) {
                    found = true;
                    break;
                }
                self.firsts.pop();
                if self.stopped.is_some() {
                    break;
                }
                // no solution within the threshold below it
                self.table.put(&f2, self.bound + 1 - g2);
            }
        }
        self.kids[level] = kids;
        self.near[level] = near;
        found
    }
}

/// Deepens from the A*'s frontier until the optimum is proven, or the time limit or the
/// stop flag ends it. `memory_at`: when the A* filled its memory (for the report).
pub(super) fn deepen<const N: usize>(
    e: &Engine<N>,
    from: Start<'_, N>,
    opts: &SearchOptions,
    on_progress: &mut dyn FnMut(Progress),
) -> Deepened {
    let Start {
        start,
        nodes,
        frontier,
        root_settled,
        mut lower,
        mut best,
        table_bytes,
    } = from;
    let mut s = Search {
        e,
        opts,
        table: Table::new(table_bytes.max(MIN_TABLE_BYTES)),
        bound: lower as usize,
        expanded: 0,
        stopped: None,
        firsts: Vec::new(),
        kids: Vec::new(),
        near: Vec::new(),
        moves: Vec::new(),
    };
    let elapsed = || -> Duration { opts.start.elapsed() };
    while (lower as usize) < best.len() {
        s.bound = lower as usize;
        for &(f, g, i) in frontier {
            let (f, g) = (f as usize, g as usize);
            if f > s.bound {
                break; // the frontier is ordered by `f`
            }
            let node = &nodes[i as usize];
            if node.g as usize != g {
                continue; // reached again by a shorter path, which is in the frontier too
            }
            let h = (node.h as usize).max(s.table.get(&node.flood));
            if g + h > s.bound {
                continue;
            }
            let guard = match node.parent {
                u32::MAX => None,
                0 if !root_settled => None,
                p => order_guard(e, &node.flood, &nodes[p as usize].flood, node.colour),
            };
            let nb = e.neighbours(&node.flood);
            s.firsts.clear();
            let settled = node.parent != u32::MAX || root_settled;
            if s.dfs(
                &node.flood,
                &nb,
                g,
                h,
                guard.as_ref(),
                node.colour,
                settled,
                0,
            ) {
                let mut moves = path(e, start, nodes, i);
                let mut p = Pos {
                    flood: node.flood,
                    colour: node.colour,
                };
                for &c in &s.firsts {
                    p = play_chain(e, &p, c, &mut moves);
                }
                debug_assert!(moves.len() <= s.bound);
                if moves.len() < best.len() {
                    best = moves;
                    on_progress(Progress::Solution {
                        moves: best.len(),
                        tiles_left: 0,
                        score: 0,
                        elapsed: elapsed(),
                    });
                }
                // every threshold below this one failed: it is the optimum
                return Deepened {
                    lower: best.len() as u32,
                    best,
                    proven: true,
                    expanded: s.expanded,
                    stopped: None,
                };
            }
            if s.stopped.is_some() {
                return Deepened {
                    best,
                    lower,
                    proven: false,
                    expanded: s.expanded,
                    stopped: s.stopped,
                };
            }
            s.table.put(&node.flood, s.bound + 1 - g);
        }
        // no solution of length `bound` or less
        lower += 1;
        if (lower as usize) < best.len() {
            on_progress(Progress::LowerBound {
                bound: lower,
                elapsed: elapsed(),
            });
        }
    }
    Deepened {
        lower: best.len() as u32,
        best,
        proven: true,
        expanded: s.expanded,
        stopped: None,
    }
}
