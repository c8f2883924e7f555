//! The first solutions, which cap the A* ([`super::solver`]): a greedy play, and a beam
//! search ranked by `f = g + h` that looks for a solution shorter than a given one.

use super::moves::{
    candidate_mask, candidates_among, chain_near, play_chain, union_of_child, unions_by_colour,
};
use super::node::NONE;
use super::{bounds, set, Engine, Pos, Set};

/// The candidate first moves from `p` (see [`candidate_mask`]).
fn candidates<const N: usize>(e: &Engine<N>, p: &Pos<N>) -> Vec<u8> {
    let nb = e.neighbours(&p.flood);
    let m = candidate_mask(e, &p.flood, &nb);
    (0..32u8).filter(|c| m >> c & 1 != 0).collect()
}

/// A greedy solution: eliminations first, else the move with the smallest bound (then the
/// most regions).
pub fn greedy<const N: usize>(e: &Engine<N>, start: &Pos<N>) -> Vec<u8> {
    let mut p = *start;
    let mut moves = Vec::new();
    while !e.is_solved(&p) {
        let best = candidates(e, &p)
            .into_iter()
            .map(|c| {
                let q = e.play(&p, c).expect("candidates are legal");
                let key = (
                    bounds::puchert(e, &q.flood),
                    u32::MAX - set::count(&q.flood),
                );
                (key, c, q)
            })
            .min_by_key(|x| x.0)
            .expect("an unsolved position has a move");
        moves.push(best.1);
        p = best.2;
    }
    moves
}

/// Beam search of width `width` for a solution shorter than `limit` moves: keeps the
/// `width` positions with the smallest `f = g + h` (then the most regions) at each depth;
/// forced eliminations are chained. A child whose `f` reaches `limit` cannot lead to a
/// shorter solution, so its bound is computed only until it does, and it is dropped.
/// Returns the first solution found, if any.
pub fn beam<const N: usize>(
    e: &Engine<N>,
    start: &Pos<N>,
    width: usize,
    limit: usize,
) -> Option<Vec<u8>> {
    // (parent, first move of the edge's chain): the chain replays from it
    let mut arena: Vec<(u32, u8)> = vec![(NONE, 0)];
    let nb0 = e.neighbours(&start.flood);
    // (flood, neighbours, arena index, g)
    let mut layer: Vec<(Set<N>, Set<N>, u32, u32)> = vec![(start.flood, nb0, 0, 0)];
    let mut next: Vec<(u64, u32, Set<N>, Set<N>, u32, u32)> = Vec::new();
    let mut moves = Vec::new();
    // as in the A*: a flood's children share the unions of its neighbours' adjacency
    let mut near = vec![set::empty::<N>(); e.colours()];
    while !layer.is_empty() {
        next.clear();
        for &(flood, nb, at, g) in &layer {
            let touching = unions_by_colour(e, &nb, &mut near);
            let mut cands = candidates_among(e, &flood, &nb, touching);
            while cands != 0 {
                let c = cands.trailing_zeros() as u8;
                cands &= cands - 1;
                moves.clear();
                let (f2, nb2, outside) =
                    chain_near(e, &flood, &nb, c, &near[c as usize], &mut moves);
                let g2 = g as usize + moves.len();
                if set::is_empty(&nb2) {
                    if g2 >= limit {
                        continue;
                    }
                    let mut firsts = vec![c];
                    let mut k = at;
                    while arena[k as usize].0 != NONE {
                        firsts.push(arena[k as usize].1);
                        k = arena[k as usize].0;
                    }
                    let mut p = *start;
                    let mut out = Vec::new();
                    for &c in firsts.iter().rev() {
                        p = play_chain(e, &p, c, &mut out);
                    }
                    return Some(out);
                }
                if g2 + 1 >= limit {
                    continue;
                }
                let cap = (limit - g2) as u32;
                let len = moves.len();
                let near_nb2 = || union_of_child(e, &nb, &nb2, touching, &near, c, len);
                let h = bounds::puchert_settled(e, &f2, &nb2, outside, cap, near_nb2);
                if h >= cap {
                    continue;
                }
                arena.push((at, c));
                let key = ((g2 as u64 + h as u64) << 32) | (u32::MAX - set::count(&f2)) as u64;
                next.push((
                    key,
                    arena.len() as u32 - 1,
                    f2,
                    nb2,
                    Engine::<N>::hash(&f2) as u32,
                    g2 as u32,
                ));
            }
        }
        // the best first, duplicates (same flood: same key) next to each other
        next.sort_unstable_by_key(|x| (x.0, x.4));
        layer.clear();
        let mut last = None;
        for x in &next {
            if last == Some((x.0, x.4)) {
                continue;
            }
            last = Some((x.0, x.4));
            layer.push((x.2, x.3, x.1, x.5));
            if layer.len() == width {
                break;
            }
        }
    }
    None
}
