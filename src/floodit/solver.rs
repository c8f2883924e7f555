//! The dedicated Flood-It search: A* over flooded sets with Puchert's bound.
//!
//! - **Greedy start** ([`super::beam`]). A greedy play (eliminate a colour when possible,
//!   else the move with the smallest bound) and a narrow beam search ranked by
//!   `f = g + h` give first solutions at once; the best caps the search (children with
//!   `f ≥` its length are dropped, their bounds computed only until they reach it, and
//!   when the smallest `f` reaches it, it is proven) and is reported as progress. While
//!   the A* grows, beams four times wider each run after a number of expansions
//!   proportional to their width: an A* capped by a solution one move too long keeps every
//!   child of the last `f` layer, so a better solution found early saves it time and
//!   memory.
//! - **Colour elimination.** If a move takes the last regions of a colour, it is the only
//!   child generated (some optimal solution starts with it, see [`super::bounds`]); such
//!   forced moves are chained into one edge of the search graph, so chains of eliminations
//!   cost one node.
//! - **Move orders** ([`super::moves`]). A free move that gains nothing next to what the
//!   move before it (a single move) gained, and that would let that move gain more had it
//!   come first, is not generated: the other order reaches a larger flood with as many
//!   moves (see `order_guard`).
//! - **A\*.** Nodes live in one array (flooded set, parent, move, g, h); a hash table of
//!   node indices with 32-bit tags finds duplicates; the open list is a bucket queue by
//!   `f`, then deepest `g` first. The bound is made consistent along paths with pathmax
//!   (`h(child) ≥ h(parent) − cost`), and a node reached again by a shorter path is
//!   reopened. When the smallest `f` in the open list reaches the best solution's length,
//!   that solution is optimal. A node's children are chained first and their table slots
//!   prefetched, then looked up; children the bound prunes are remembered in a small lossy
//!   table, so the same flood reached again (another order of the same moves) is pruned
//!   without its bound.
//! - **Limits.** The time limit and the stop flag end the search with the best solution,
//!   the proven lower bound (the smallest `f` left) and which of them ended it
//!   ([`Outcome::stopped`]). The memory budget ([`SearchOptions::memory`]) is the whole
//!   search's: the node array and the index are checked against it every expansion (one
//!   about to double counts three times its size), the open list every 4096. When
//!   the A* fills it, the search does not stop: it frees the index and goes on by
//!   iterative deepening from the A*'s frontier in a table of what is left
//!   ([`super::frontier`]), and the report says when the memory filled
//!   ([`Outcome::memory_filled`]).

use super::beam::{beam, greedy};
use super::frontier::{self, Frontier};
use super::moves::{
    candidates_among, chain_near, dominated, order_guard, union_of_child, unions_by_colour,
};
use super::node::{path, Node, NONE};
use super::{bounds, set, Engine, Pos, Set};
use crate::report::Progress;
use crate::search::{SearchOptions, Stopped};

/// What the search ends with.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The best solution found: colours `0..K`.
    pub moves: Vec<u8>,
    /// Is it proven optimal?
    pub proven: bool,
    /// A proven lower bound on the optimum.
    pub lower_bound: u32,
    /// Nodes expanded.
    pub nodes: u64,
    /// Why the search ended before it had finished (`None` when it finished).
    pub stopped: Option<Stopped>,
    /// When the A* filled its memory budget and the search went on by deepening from its
    /// frontier ([`super::frontier`]), if it did.
    pub memory_filled: Option<std::time::Duration>,
}

/// Solutions at least this long are not searched (depths are stored in 8 bits).
const MAX_DEPTH: usize = 250;
/// The width of the beam search that finds the first solution the A* has to beat: one
/// per [`BEAM_REGIONS`] regions of the board, within `BEAM_WIDTHS`. A larger board needs a
/// wider beam for a solution as close to the optimum, and its A* costs far more than its
/// beam; on a small board the A* is often done after a few thousand expansions, where the
/// beam is a good part of the work. A beam can miss the optimum by a move, and an A* capped
/// by a solution one move too long keeps a whole extra `f` layer (on the hardest boards,
/// more than its memory budget): there the wider beams that follow, early in a long
/// search, find the shorter solution.
fn first_beam_width(regions: usize) -> usize {
    (regions / BEAM_REGIONS).clamp(*BEAM_WIDTHS.start(), *BEAM_WIDTHS.end())
}
/// See [`first_beam_width`].
const BEAM_REGIONS: usize = 10;
/// See [`first_beam_width`].
const BEAM_WIDTHS: std::ops::RangeInclusive<usize> = 12..=40;
/// Each further beam is this many times wider than the one before.
const BEAM_GROWTH: usize = 4;
/// A beam of width `w` runs once the A* has expanded `w · BEAM_EVERY` nodes.
const BEAM_EVERY: usize = 300;
/// The table of pruned children has `2^PRUNED_BITS` slots.
const PRUNED_BITS: u32 = 12;

/// Asks the CPU to start loading the cache line of `x` (a hint; it never faults).
#[inline(always)]
fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint and never faults, whatever the address.
    unsafe {
        core::arch::x86_64::_mm_prefetch(
            x as *const T as *const i8,
            core::arch::x86_64::_MM_HINT_T0,
        )
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// Open-addressing table from flooded sets to node indices.
struct Index {
    slots: Vec<u64>,
    len: usize,
}

impl Index {
    fn new() -> Index {
        Index {
            slots: vec![0; 1 << 12],
            len: 0,
        }
    }
    fn bytes(&self) -> usize {
        self.slots.len() * 8
    }
    /// Will the next expansion's children (at most 32) make the table grow?
    fn full_soon(&self) -> bool {
        (self.len + 32) * 4 >= self.slots.len() * 3
    }
    /// Finds `flood` (whose [`Engine::hash`] is `hash`): `Ok(node)`, or `Err(slot)` where
    /// it may be inserted with [`Index::insert`] (before any other change to the table).
    fn find<const N: usize>(
        &mut self,
        nodes: &[Node<N>],
        flood: &Set<N>,
        hash: u64,
    ) -> Result<u32, usize> {
        if self.len * 4 >= self.slots.len() * 3 {
            self.grow(nodes);
        }
        let tag = hash >> 32;
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let s = self.slots[i];
            if s == 0 {
                return Err(i);
            }
            if s >> 32 == tag {
                let j = (s as u32) - 1;
                if nodes[j as usize].flood == *flood {
                    return Ok(j);
                }
            }
            i = (i + 1) & mask;
        }
    }
    fn insert(&mut self, slot: usize, hash: u64, idx: u32) {
        self.slots[slot] = hash >> 32 << 32 | (idx as u64 + 1);
        self.len += 1;
    }
    /// Starts loading the slot where a flood with hash `hash` is looked up first.
    #[inline]
    fn prefetch(&self, hash: u64) {
        prefetch(&self.slots[hash as usize & (self.slots.len() - 1)]);
    }
    fn grow<const N: usize>(&mut self, nodes: &[Node<N>]) {
        let old = std::mem::take(&mut self.slots);
        self.slots = vec![0; old.len() * 2];
        let mask = self.slots.len() - 1;
        for s in old.into_iter().filter(|&s| s != 0) {
            let j = (s as u32 - 1) as usize;
            let mut i = Engine::<N>::hash(&nodes[j].flood) as usize & mask;
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = s;
        }
    }
}

/// Children the bound pruned, remembered lossily (one per slot, the last one wins): a
/// child pruned at depth `g` (`g + h ≥` the best length then, with `h` admissible) is
/// pruned again when reached at depth `g` or more, as the best length never grows. Most
/// repeats come soon after (the same moves in another order), so a small table catches
/// most of them without computing the bound again.
struct Pruned<const N: usize> {
    /// (flood, depth); depth `u8::MAX` marks an empty slot.
    slots: Vec<(Set<N>, u8)>,
}

impl<const N: usize> Pruned<N> {
    const BITS: u32 = PRUNED_BITS;
    fn new() -> Self {
        Pruned {
            slots: vec![(set::empty(), u8::MAX); 1 << Self::BITS],
        }
    }
    #[inline]
    fn slot(hash: u64) -> usize {
        (hash >> 40) as usize & ((1 << Self::BITS) - 1)
    }
    /// Was `flood` (with hash `hash`) pruned at depth `g` or less?
    #[inline]
    fn contains(&self, hash: u64, flood: &Set<N>, g: usize) -> bool {
        let (f, d) = &self.slots[Self::slot(hash)];
        (*d as usize) <= g && f == flood
    }
    #[inline]
    fn insert(&mut self, hash: u64, flood: &Set<N>, g: usize) {
        self.slots[Self::slot(hash)] = (*flood, g as u8);
    }
    #[inline]
    fn prefetch(&self, hash: u64) {
        prefetch(&self.slots[Self::slot(hash)]);
    }
}

/// Bucket queue by `f`, then highest `g`.
struct Open {
    buckets: Vec<Vec<Vec<u32>>>,
    hi: Vec<usize>,
    len: usize,
}

impl Open {
    fn push(&mut self, f: usize, g: usize, idx: u32) {
        while self.buckets.len() <= f {
            self.buckets.push(Vec::new());
            self.hi.push(0);
        }
        let b = &mut self.buckets[f];
        while b.len() <= g {
            b.push(Vec::new());
        }
        b[g].push(idx);
        self.hi[f] = self.hi[f].max(g);
        self.len += 1;
    }
    /// Pops from bucket `f` (deepest first).
    fn pop(&mut self, f: usize) -> Option<(usize, u32)> {
        let b = self.buckets.get_mut(f)?;
        loop {
            let g = self.hi[f];
            if let Some(i) = b.get_mut(g).and_then(|v| v.pop()) {
                self.len -= 1;
                return Some((g, i));
            }
            if g == 0 {
                return None;
            }
            self.hi[f] = g - 1;
        }
    }
    fn bytes(&self) -> usize {
        self.buckets
            .iter()
            .flatten()
            .map(|v| v.capacity() * 4)
            .sum()
    }
}

/// A* from `start`. Reports improving solutions and lower bounds to `on_progress`.
pub fn astar<const N: usize>(
    e: &Engine<N>,
    start: &Pos<N>,
    opts: &SearchOptions,
    on_progress: &mut dyn FnMut(Progress),
) -> Outcome {
    let solution = |moves: usize| Progress::Solution {
        moves,
        tiles_left: 0,
        score: 0,
        elapsed: opts.start.elapsed(),
    };
    if e.is_solved(start) {
        on_progress(solution(0));
        return Outcome {
            moves: Vec::new(),
            proven: true,
            lower_bound: 0,
            nodes: 0,
            stopped: None,
            memory_filled: None,
        };
    }
    let mut best = greedy(e, start);
    on_progress(solution(best.len()));
    let first_width = first_beam_width(e.regions());
    if let Some(b) = beam(e, start, first_width, best.len()) {
        best = b;
        on_progress(solution(best.len()));
    }
    let h0 = bounds::puchert(e, &start.flood);
    let mut lower = h0;
    if lower > 0 {
        on_progress(Progress::LowerBound {
            bound: lower,
            elapsed: opts.start.elapsed(),
        });
    }
    if best.len() as u32 <= lower || best.len() >= MAX_DEPTH {
        // proven by the bound already, or too long for the search's 8-bit depths (boards
        // shaped as long paths): the best found, with the bound
        let proven = best.len() as u32 <= lower;
        return Outcome {
            lower_bound: if proven { best.len() as u32 } else { lower },
            moves: best,
            proven,
            nodes: 0,
            stopped: None,
            memory_filled: None,
        };
    }
    let mut nodes: Vec<Node<N>> = vec![Node {
        flood: start.flood,
        parent: NONE,
        colour: start.colour,
        g: 0,
        h: h0 as u8,
    }];
    let mut index = Index::new();
    let mut pruned = Pruned::<N>::new();
    // the children of the node being expanded: (flood, neighbours, hash, colours outside,
    // first move, moves in the chain)
    let mut kids: Vec<(Set<N>, Set<N>, u64, u32, u8, u8)> = Vec::new();
    let mut near = vec![set::empty::<N>(); e.colours()];
    let hash = Engine::<N>::hash(&start.flood);
    if let Err(slot) = index.find(&nodes, &start.flood, hash) {
        index.insert(slot, hash, 0);
    }
    let mut open = Open {
        buckets: Vec::new(),
        hi: Vec::new(),
        len: 0,
    };
    open.push(h0 as usize, 0, 0);
    let mut f = h0 as usize;
    let mut expanded = 0u64;
    let mut width = first_width * BEAM_GROWTH;
    let mut next_beam = (width * BEAM_EVERY) as u64;
    let mut moves = Vec::new();
    let mut pushes: Vec<(usize, usize, u32, u32)> = Vec::new();
    let mut proven = false;
    let mut stopped = None;
    let mut memory_filled = None;
    // the root's children may skip move orders only if the root had a free choice
    let root_settled = bounds::colour_masks(e, &start.flood, &e.neighbours(&start.flood)).1 == 0;
    'search: loop {
        if f >= best.len() {
            proven = true;
            lower = best.len() as u32;
            break;
        }
        let Some((g, i)) = open.pop(f) else {
            if open.len == 0 {
                // nothing left below the best length: it is optimal
                proven = true;
                lower = best.len() as u32;
                break;
            }
            f += 1;
            if f < best.len() && f as u32 > lower {
                lower = f as u32;
                on_progress(Progress::LowerBound {
                    bound: lower,
                    elapsed: opts.start.elapsed(),
                });
            }
            continue;
        };
        let node = nodes[i as usize];
        if node.g as usize != g {
            continue; // reopened with a shorter path since
        }
        expanded += 1;
        if expanded == next_beam {
            // the A* is large and the best solution may not be optimal: a wider beam
            if let Some(b) = beam(e, start, width, best.len()) {
                best = b;
                on_progress(solution(best.len()));
            }
            width *= BEAM_GROWTH;
            next_beam = (width * BEAM_EVERY) as u64;
        }
        // the node array and the index every expansion (two multiplications), the open
        // list's buckets with the clock; an array or index about to double counts as the
        // old and the new one together, as both are live while it is copied
        let node_bytes = nodes.capacity() * std::mem::size_of::<Node<N>>();
        let mut bytes = node_bytes
            * if nodes.len() + 32 > nodes.capacity() {
                3
            } else {
                1
            }
            + index.bytes() * if index.full_soon() { 3 } else { 1 };
        if expanded & 0xfff == 0 {
            bytes += open.bytes();
            stopped = opts.stopped();
            if stopped.is_some() {
                break 'search;
            }
        }
        if bytes > opts.memory {
            memory_filled = Some(opts.start.elapsed());
            break 'search;
        }
        let nb = e.neighbours(&node.flood);
        pushes.clear();
        // the move orders this node's children may skip (see `order_guard`)
        let guard = match node.parent {
            NONE => None,
            0 if !root_settled => None,
            p => order_guard(e, &node.flood, &nodes[p as usize].flood, node.colour),
        };
        // First every child's chain, starting the loads of its slots in the tables; then
        // the look-ups, by which time the slots have arrived.
        kids.clear();
        // near[c]: the regions adjacent to the neighbours of colour `c`, for each colour
        // touching the flood (their union is `e.union_adjacent(&nb)`), shared by the chains
        // and the bounds
        let touching = unions_by_colour(e, &nb, &mut near);
        let mut cands = candidates_among(e, &node.flood, &nb, touching);
        while cands != 0 {
            let c = cands.trailing_zeros() as u8;
            cands &= cands - 1;
            moves.clear();
            let (flood, nb2, outside) =
                chain_near(e, &node.flood, &nb, c, &near[c as usize], &mut moves);
            if let Some(guard) = &guard {
                let gained = set::and(&nb, e.of_colour(c as usize));
                if dominated(e, guard, &gained, node.colour, &flood) {
                    continue;
                }
            }
            let g2 = g + moves.len();
            if set::is_empty(&nb2) {
                // solved
                if g2 < best.len() {
                    let mut m = path(e, start, &nodes, i);
                    m.extend_from_slice(&moves);
                    best = m;
                    on_progress(solution(best.len()));
                }
                continue;
            }
            let hash = Engine::<N>::hash(&flood);
            index.prefetch(hash);
            pruned.prefetch(hash);
            kids.push((flood, nb2, hash, outside, c, moves.len() as u8));
        }
        for &(flood, nb2, hash, outside, c, len) in &kids {
            let g2 = g + len as usize;
            if g2 + 1 >= best.len() {
                continue;
            }
            match index.find(&nodes, &flood, hash) {
                Ok(j) => {
                    let old = &mut nodes[j as usize];
                    if (old.g as usize) > g2 {
                        old.g = g2 as u8;
                        old.parent = i;
                        old.colour = c;
                        let f2 = g2 + old.h as usize;
                        if f2 < best.len() {
                            open.push(f2.max(f), g2, j);
                        }
                    }
                }
                Err(slot) => {
                    if pruned.contains(hash, &flood, g2) {
                        continue;
                    }
                    // beyond the best length, only that the child reaches it matters
                    let cap = (best.len() - g2) as u32;
                    let near_nb2 =
                        || union_of_child(e, &nb, &nb2, touching, &near, c, len as usize);
                    let h2 = bounds::puchert_settled(e, &flood, &nb2, outside, cap, near_nb2)
                        .max((node.h as u32).saturating_sub(len as u32))
                        as usize;
                    if g2 + h2 >= best.len() {
                        pruned.insert(hash, &flood, g2);
                        continue;
                    }
                    let idx = nodes.len() as u32;
                    index.insert(slot, hash, idx);
                    nodes.push(Node {
                        flood,
                        parent: i,
                        colour: c,
                        g: g2 as u8,
                        h: h2 as u8,
                    });
                    pushes.push(((g2 + h2).max(f), g2, set::count(&flood), idx));
                }
            }
        }
        // Children with the same f and g are popped last in, first out: push the biggest
        // flood last so that it is tried first.
        pushes.sort_unstable_by_key(|x| x.2);
        for &(f2, g2, _, idx) in &pushes {
            open.push(f2, g2, idx);
        }
    }
    if memory_filled.is_some() {
        // go on within the memory: deepen from the open list (see `super::frontier`)
        drop(index);
        drop(pruned);
        let mut frontier: Vec<Frontier> = Vec::with_capacity(open.len);
        for (fb, bucket) in open.buckets.iter().enumerate().skip(f) {
            for (g, v) in bucket.iter().enumerate().rev() {
                frontier.extend(v.iter().rev().map(|&i| (fb as u8, g as u8, i)));
            }
        }
        drop(open);
        // The freed index and open list can stay in the allocator's heap; handing those
        // pages back lets the deepening's table take their place within the budget.
        crate::machine::give_back_freed();
        let used = nodes.capacity() * std::mem::size_of::<Node<N>>()
            + frontier.capacity() * std::mem::size_of::<Frontier>();
        let d = frontier::deepen(
            e,
            frontier::Start {
                start,
                nodes: &nodes,
                frontier: &frontier,
                root_settled,
                lower: lower.max(f as u32),
                best,
                table_bytes: opts.memory.saturating_sub(used),
            },
            opts,
            on_progress,
        );
        return Outcome {
            moves: d.best,
            proven: d.proven,
            lower_bound: d.lower,
            nodes: expanded + d.expanded,
            stopped: d.stopped,
            memory_filled,
        };
    }
    // The node arena and its index are most of the memory; the answer is ready.
    let bytes = nodes.capacity() * std::mem::size_of::<Node<N>>() + index.bytes();
    crate::machine::drop_aside((nodes, index), bytes);
    Outcome {
        moves: best,
        proven,
        lower_bound: lower,
        nodes: expanded,
        stopped,
        memory_filled,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::floodit::moves::chain;
    use crate::grid::Grid;
    use proptest::prelude::*;
    use std::collections::{HashSet, VecDeque};

    /// Breadth-first search over positions: the exact optimum.
    fn bfs(e: &Engine<2>, p: &Pos<2>) -> usize {
        let mut seen = HashSet::new();
        let mut queue = VecDeque::from([(*p, 0usize)]);
        seen.insert(p.flood);
        while let Some((q, d)) = queue.pop_front() {
            if e.is_solved(&q) {
                return d;
            }
            for c in 0..e.colours() as u8 {
                if let Some(r) = e.play(&q, c) {
                    if seen.insert(r.flood) {
                        queue.push_back((r, d + 1));
                    }
                }
            }
        }
        unreachable!("every Flood-It board can be solved")
    }

    /// A `w`×`h` board of `k` colours from the random `cells`, started at `start` (wrapped).
    fn small_board(
        w: usize,
        h: usize,
        k: u8,
        cells: &[u8],
        start: (usize, usize),
    ) -> (Engine<2>, Pos<2>) {
        let cells: Vec<u8> = cells.iter().take(w * h).map(|c| c % k + 1).collect();
        let palette: Vec<char> = "ABCDE".chars().take(k as usize).collect();
        let g = Grid::parse(&Grid::from_cells(w, h, cells, palette).to_text()).unwrap();
        Engine::<2>::new(&g, (start.0 % w, start.1 % h)).unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(80))]
        /// Up to 5 colours: boards where many move orders are skipped as dominated.
        #[test]
        fn astar_finds_the_bfs_optimum(
            w in 3usize..=7, h in 3usize..=6, k in 3u8..=5,
            cells in proptest::collection::vec(0u8..5, 42),
            sx in 0usize..7, sy in 0usize..6,
        ) {
            let (e, p) = small_board(w, h, k, &cells, (sx, sy));
            let out = astar(&e, &p, &SearchOptions::default(), &mut |_| {});
            prop_assert!(out.proven);
            prop_assert_eq!(out.moves.len(), bfs(&e, &p));
            prop_assert_eq!(out.lower_bound as usize, out.moves.len());
            let mut q = p;
            for &c in &out.moves {
                q = e.play(&q, c).expect("legal");
            }
            prop_assert!(e.is_solved(&q));
            let greedy_len = greedy(&e, &p).len();
            prop_assert!(greedy_len >= out.moves.len());
            // a beam's solution replays and beats its limit; none beats the optimum
            for width in [1, 4] {
                if let Some(b) = beam(&e, &p, width, greedy_len) {
                    prop_assert!(b.len() < greedy_len);
                    let mut q = p;
                    for &c in &b {
                        q = e.play(&q, c).expect("legal");
                    }
                    prop_assert!(e.is_solved(&q));
                }
                prop_assert!(beam(&e, &p, width, out.moves.len()).is_none());
            }
        }
    }

    #[test]
    fn a_move_that_could_have_come_first_is_dominated() {
        // A S B A C A in a row, start S: after A (gaining the left A), B gains the B, which
        // touches no region A gained; from the start, B then A also takes the A right of B
        let g: Grid = "ASBACA".parse().unwrap();
        let (e, p) = Engine::<2>::new(&g, (1, 0)).unwrap();
        let region = |x: usize| e.cell_region[x] as usize;
        let (a, b) = (e.colour_of(region(0)), e.colour_of(region(2)));
        let x = e.play(&p, a).unwrap();
        let guard = order_guard(&e, &x.flood, &p.flood, a).expect("a single move");
        let nb = e.neighbours(&x.flood);
        let gained = set::and(&nb, e.of_colour(b as usize));
        let mut moves = Vec::new();
        let (child, _, _) = chain(&e, &x.flood, &nb, b, &mut moves);
        assert!(dominated(&e, &guard, &gained, a, &child));
        // the other order is kept: A's gain holds the A that B's gain made a neighbour
        let y = e.play(&p, b).unwrap();
        let guard = order_guard(&e, &y.flood, &p.flood, b).expect("a single move");
        let nb = e.neighbours(&y.flood);
        let gained = set::and(&nb, e.of_colour(a as usize));
        moves.clear();
        let (child, _, _) = chain(&e, &y.flood, &nb, a, &mut moves);
        assert!(!dominated(&e, &guard, &gained, b, &child));
        // and the search still finds the optimum: B, A, C, A (four moves)
        let out = astar(&e, &p, &SearchOptions::default(), &mut |_| {});
        assert_eq!(out.moves.len(), bfs(&e, &p));
    }
}
