//! Admissible lower bounds on the moves still needed to flood a board.
//!
//! All bounds are stated for a *relaxed* position: any set `G` of regions (not only a real,
//! connected flood). In the relaxed game a move of colour `c` adds to `G` every region of
//! colour `c` adjacent to `G`, and `G` is done when it holds every region. Write `d(G)` for
//! the fewest moves that finish `G`. A real position is the special case where `G` is the
//! flood, so a lower bound on `d(G)` is a lower bound on the real optimum. Two facts are
//! used throughout:
//!
//! - **Monotonicity.** If `G ⊆ G'` then `d(G') ≤ d(G)`: play the same colours from `G'`;
//!   by induction the set stays a superset (`G ∪ N_c(G) ⊆ G' ∪ N_c(G')`, where `N_c(G)` is
//!   the colour-`c` neighbours), and moves that became no-ops are dropped.
//! - **Colour elimination.** If every region of colour `c` outside `G` is adjacent to `G`,
//!   some optimal sequence from `G` starts with `c`. A region of colour `c` can only be
//!   gained by a move `c`, so every finishing sequence contains `c`; moving its first `c`
//!   to the front gives a set after each later move that contains the original one (all of
//!   `c` is gained at once, the rest follows by monotonicity), with no more moves.
//!
//! The bounds, weakest first:
//! - [`colours`]: each colour left outside needs a move of its own;
//! - [`distance`]: the eccentricity of `G` in the region graph (the seed article's
//!   distance bound);
//! - [`seed`]: the seed article's distance-and-colour bound;
//! - [`puchert`]: the bound of the strongest public optimal solvers (Puchert's, used by
//!   ColorFill), combined with the colour bound at every layer.

use super::{set, Engine, Set};

/// The number of colours with a region outside `g`.
///
/// Admissible: a move adds regions of one colour only, and each such colour has a region
/// that must be added, so each needs at least one move.
pub fn colours<const N: usize>(e: &Engine<N>, g: &Set<N>) -> u32 {
    e.colours_outside(g).count_ones()
}

/// The number of all-colour expansion steps `G → G ∪ N(G)` until every region is in:
/// the largest graph distance from `G` to a region.
///
/// Admissible: one real move adds a subset of `N(G)`, so after `k` moves the set is inside
/// the `k`-th expansion (monotonicity), and a region at distance `D` is not in before `D`
/// moves.
pub fn distance<const N: usize>(e: &Engine<N>, g: &Set<N>) -> u32 {
    layers(e, g).len() as u32
}

/// The layers of the expansion from `g`: `layers[k]` are the regions at distance `k + 1`.
fn layers<const N: usize>(e: &Engine<N>, g: &Set<N>) -> Vec<Set<N>> {
    let mut out = Vec::new();
    let mut seen = *g;
    let mut frontier = e.neighbours(g);
    while !set::is_empty(&frontier) {
        seen = set::or(&seen, &frontier);
        let mut next = set::empty::<N>();
        set::for_each(&frontier, |r| {
            next = set::or(&next, e.adjacent(r));
        });
        out.push(frontier);
        frontier = set::and_not(&next, &seen);
    }
    out
}

/// The seed article's bound: with `D_c` the largest distance of a region of colour `c`,
/// `max over d ≥ 1 of (d − 1 + #{c : D_c ≥ d})` (at `d = D` it is "distance + the colours
/// at the largest distance − 1"; at `d = 1` it is [`colours`]).
///
/// Admissible: a region at distance `k` cannot be gained within fewer than `k` moves (see
/// [`distance`]), so after `d − 1` moves every colour with `D_c ≥ d` is still on the board
/// outside the set, and each needs a move of its own after that.
pub fn seed<const N: usize>(e: &Engine<N>, g: &Set<N>) -> u32 {
    let ls = layers(e, g);
    // far[c] = largest distance of a region of colour c
    let mut far = [0u32; 32];
    for (k, l) in ls.iter().enumerate() {
        set::for_each(l, |r| far[e.colour_of(r) as usize] = k as u32 + 1);
    }
    (1..=ls.len() as u32)
        .map(|d| d - 1 + far.iter().filter(|&&f| f >= d).count() as u32)
        .max()
        .unwrap_or(0)
}

/// Puchert's bound, strengthened by the colour bound at every layer.
///
/// Defined recursively on a relaxed set `G` with frontier `F = N(G)`:
/// - `h(G) = 0` if `G` holds every region;
/// - if the set `E` of colours all of whose outside regions lie in `F` is not empty:
///   `h(G) = |E| + h(G ∪ (F ∩ regions of E))`;
/// - otherwise `h(G) = 1 + h(G ∪ F)`;
///
/// and the value returned is `H(G) = max(colours(G), h-step + H(next))` at every level.
///
/// Admissible, by induction on the regions outside `G` (`H(G) ≤ d(G)`):
/// - `colours(G) ≤ d(G)` (see [`colours`]);
/// - eliminating: by colour elimination some optimal sequence starts with any `c ∈ E`;
///   after it the other colours of `E` are still wholly adjacent, so applying the argument
///   `|E|` times gives `d(G) = |E| + d(G ∪ regions of E)`;
/// - otherwise every move `c` leads to `G ∪ N_c(G) ⊆ G ∪ F`, so by monotonicity
///   `d(G) ≥ 1 + d(G ∪ F)`.
///
/// It is at least [`distance`] (each step moves the frontier out by at most one layer) and
/// at least [`colours`].
pub fn puchert<const N: usize>(e: &Engine<N>, g: &Set<N>) -> u32 {
    puchert_with(e, g, &e.neighbours(g))
}

/// [`puchert`] given the neighbours `nb` of `g` (`nb = N(G)`), which the search has at hand.
pub fn puchert_with<const N: usize>(e: &Engine<N>, g: &Set<N>, nb: &Set<N>) -> u32 {
    puchert_capped(e, g, nb, u32::MAX)
}

/// [`puchert_with`], stopped once the bound reaches `cap`: the value returned is never
/// above [`puchert`] (so it is admissible), equals it when it is below `cap`, and is at
/// least `cap` otherwise. The search only needs to know whether a child's bound reaches the
/// length of the best solution, and most of the children it bounds do.
///
/// The bound is the last `dist + left` of the layers (`dist` the steps so far, `left` the
/// colours not yet eliminated): a step that eliminates colours adds as much to `dist` as it
/// takes from `left`, and any other step adds one to `dist`, so `dist + left` never falls
/// and the largest value over the layers (see [`puchert`]) is the last. Once it reaches
/// `cap` the rest can be skipped.
pub fn puchert_capped<const N: usize>(e: &Engine<N>, g: &Set<N>, nb: &Set<N>, cap: u32) -> u32 {
    finish(e, e.colours_outside(g), *g, *nb, 0, cap)
}

/// [`puchert_capped`] for a flood `g` from which no colour can be eliminated (every colour
/// with a region outside `g` has one outside `g ∪ nb`), given the colours outside `g`
/// (`outside`): what the search knows of every child it bounds. The first step is then
/// known not to eliminate, and the colours need not be counted again. `near` gives
/// `e.union_adjacent(nb)`, called only when the colours alone do not settle the bound: the
/// search can often build it from unions it has at hand.
#[inline]
pub fn puchert_settled<const N: usize>(
    e: &Engine<N>,
    g: &Set<N>,
    nb: &Set<N>,
    outside: u32,
    cap: u32,
    near: impl FnOnce() -> Set<N>,
) -> u32 {
    let left = outside.count_ones();
    if left <= 1 || left >= cap {
        return left;
    }
    if 1 + left >= cap {
        return 1 + left;
    }
    let visited = set::or(g, nb);
    let frontier = set::and_not(&near(), &visited);
    finish(e, outside, visited, frontier, 1, cap)
}

/// The colours with a region outside `g`, and those of them all of whose regions outside
/// `g` lie in `nb` (the colours a move eliminates: colour elimination, in the module docs).
#[inline]
pub fn colour_masks<const N: usize>(e: &Engine<N>, g: &Set<N>, nb: &Set<N>) -> (u32, u32) {
    let inside = set::or(g, nb);
    let (mut outside, mut eliminable) = (0u32, 0u32);
    for c in 0..e.colours() {
        let rs = e.of_colour(c);
        if !set::subset(rs, g) {
            outside |= 1 << c;
            if set::subset(rs, &inside) {
                eliminable |= 1 << c;
            }
        }
    }
    (outside, eliminable)
}

/// The layers of [`puchert_capped`] from the set `visited` with frontier `frontier` after
/// `dist` steps, with the colours `remaining` not yet eliminated.
#[inline]
fn finish<const N: usize>(
    e: &Engine<N>,
    mut remaining: u32,
    mut visited: Set<N>,
    mut frontier: Set<N>,
    mut dist: u32,
    cap: u32,
) -> u32 {
    let mut left = remaining.count_ones();
    // The loop ends as soon as the value is known (at most one colour left) or reaches
    // `cap`, before the next layer is built: that last layer is the costly part of a step.
    while left > 1 && dist + left < cap {
        visited = set::or(&visited, &frontier);
        let mut done = 0u32;
        let mut rest = remaining;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            done |= (set::subset(e.of_colour(c), &visited) as u32) << c;
        }
        if done != 0 {
            remaining ^= done;
            dist += done.count_ones();
            left = remaining.count_ones();
            if left <= 1 {
                break;
            }
            let mut absorbed = set::empty::<N>();
            let mut d = done;
            while d != 0 {
                absorbed = set::or(&absorbed, e.of_colour(d.trailing_zeros() as usize));
                d &= d - 1;
            }
            let absorbed = set::and(&absorbed, &frontier);
            frontier = set::or(
                &set::and_not(&e.union_adjacent(&absorbed), &visited),
                &set::and_not(&frontier, &absorbed),
            );
        } else {
            dist += 1;
            if dist + left >= cap {
                break;
            }
            frontier = set::and_not(&e.union_adjacent(&frontier), &visited);
        }
    }
    dist + left
}

#[cfg(test)]
mod tests {
    use super::super::{Engine, Pos};
    use super::*;
    use crate::grid::Grid;
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// Exact distances to solved for every reachable position, by breadth-first search
    /// backwards is awkward, so: a memoised forward search over flooded sets.
    fn optimum(e: &Engine<2>, p: &Pos<2>, memo: &mut HashMap<Set<2>, u32>) -> u32 {
        if e.is_solved(p) {
            return 0;
        }
        if let Some(&v) = memo.get(&p.flood) {
            return v;
        }
        let mut best = u32::MAX;
        for c in 0..e.colours() as u8 {
            if let Some(q) = e.play(p, c) {
                best = best.min(1 + optimum(e, &q, memo));
            }
        }
        memo.insert(p.flood, best);
        best
    }

    fn board(w: usize, h: usize, k: u8, cells: &[u8]) -> Grid {
        let cells: Vec<u8> = cells.iter().take(w * h).map(|c| c % k + 1).collect();
        let palette: Vec<char> = "ABCDEF".chars().take(k as usize).collect();
        // keep the palette exactly the colours used
        Grid::parse(&Grid::from_cells(w, h, cells, palette).to_text()).unwrap()
    }

    /// Every position reachable from the start, with its exact optimum.
    fn all_positions(e: &Engine<2>, p: &Pos<2>) -> Vec<(Pos<2>, u32)> {
        let mut memo = HashMap::new();
        let mut seen = HashMap::new();
        let mut stack = vec![*p];
        while let Some(q) = stack.pop() {
            if seen.contains_key(&q) {
                continue;
            }
            let v = optimum(e, &q, &mut memo);
            seen.insert(q, v);
            for c in 0..e.colours() as u8 {
                if let Some(r) = e.play(&q, c) {
                    stack.push(r);
                }
            }
        }
        seen.into_iter().collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(60))]
        #[test]
        fn bounds_are_admissible(
            w in 3usize..=5, h in 3usize..=5, k in 3u8..=4,
            cells in proptest::collection::vec(0u8..4, 25),
            sx in 0usize..5, sy in 0usize..5,
        ) {
            let g = board(w, h, k, &cells);
            let (e, p) = Engine::<2>::new(&g, (sx % w, sy % h)).unwrap();
            for (q, opt) in all_positions(&e, &p) {
                let f = &q.flood;
                let (c, d, s, pu) = (colours(&e, f), distance(&e, f), seed(&e, f), puchert(&e, f));
                prop_assert!(c <= opt, "colour bound {c} > optimum {opt}");
                prop_assert!(d <= opt, "distance bound {d} > optimum {opt}");
                prop_assert!(s <= opt, "seed bound {s} > optimum {opt}");
                prop_assert!(pu <= opt, "Puchert bound {pu} > optimum {opt}");
                prop_assert!(pu >= d.max(c), "Puchert bound {pu} below distance {d} or colours {c}");
                prop_assert!(s >= d.max(c));
                let nb = e.neighbours(f);
                let (outside, eliminable) = colour_masks(&e, f, &nb);
                prop_assert_eq!(outside, e.colours_outside(f));
                let settled = eliminable == 0 && !set::is_empty(&nb);
                for cap in 0..=pu + 1 {
                    let v = puchert_capped(&e, f, &nb, cap);
                    prop_assert!(v <= pu, "capped bound {v} above the bound {pu}");
                    prop_assert!(if pu < cap { v == pu } else { v >= cap }, "cap {cap}: {v} vs {pu}");
                    if settled {
                        let near = || e.union_adjacent(&nb);
                        prop_assert_eq!(puchert_settled(&e, f, &nb, outside, cap, near), v, "cap {}", cap);
                    }
                }
            }
        }
    }

    #[test]
    fn solved_positions_have_bound_zero() {
        let g: Grid = "AAA,AAA".parse().unwrap();
        let (e, p) = Engine::<2>::new(&g, (0, 1)).unwrap();
        assert_eq!(puchert(&e, &p.flood), 0);
        assert_eq!(seed(&e, &p.flood), 0);
        assert_eq!(distance(&e, &p.flood), 0);
    }

    #[test]
    fn a_line_of_colours_needs_one_move_each() {
        // A B C D in a row: three moves, all bounds agree
        let g: Grid = "ABCD".parse().unwrap();
        let (e, p) = Engine::<2>::new(&g, (0, 0)).unwrap();
        assert_eq!(distance(&e, &p.flood), 3);
        assert_eq!(seed(&e, &p.flood), 3);
        assert_eq!(puchert(&e, &p.flood), 3);
    }
}
