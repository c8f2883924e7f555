//! Beam search and greedy descent: quick solutions, no proof.
//!
//! Beam search keeps, at every depth, the `width` most promising distinct positions (by
//! lower bound, then the puzzle's priority) and expands only those. Width 1 is a greedy
//! descent. Used for the first upper bounds before the exact search; doubling the width
//! makes it an anytime algorithm.

use rustc_hash::FxHashSet;

use super::SearchOptions;
use crate::puzzle::{Puzzle, INFINITE};

/// A child in the making: (bound, -priority, parent slot, move, position).
type Candidate<P> = (u32, i64, usize, <P as Puzzle>::Move, <P as Puzzle>::State);

/// A beam search of `width`; returns the shortest solution it finds, if any.
pub fn beam_search<P: Puzzle>(
    p: &P,
    start: &P::State,
    width: usize,
    opts: &SearchOptions,
) -> Option<Vec<P::Move>> {
    if p.is_solved(start) {
        return Some(Vec::new());
    }
    // (parent index in the previous level, move) per node, level by level
    // Node `i` of the last level is `beam[i]`.
    let mut levels: Vec<Vec<(usize, P::Move)>> = Vec::new();
    let mut beam: Vec<P::State> = vec![start.clone()];
    let mut kids = Vec::new();
    let mut seen = FxHashSet::default();
    for _ in 0..10_000 {
        let mut next: Vec<Candidate<P>> = Vec::new();
        seen.clear();
        for (slot, s) in beam.iter().enumerate() {
            kids.clear();
            p.successors(s, &mut kids);
            for (m, c) in kids.drain(..) {
                if !seen.insert(p.key(&c)) {
                    continue;
                }
                let h = p.lower_bound(&c);
                if h >= INFINITE {
                    continue;
                }
                let pr = p.priority(s, &m, &c);
                next.push((h, -pr, slot, m, c));
            }
        }
        if next.is_empty() || opts.should_stop() {
            return None;
        }
        if let Some(i) = next.iter().position(|n| p.is_solved(&n.4)) {
            let (_, _, mut slot, m, _) = next.swap_remove(i);
            let mut moves = vec![m];
            for level in levels.iter().rev() {
                let (parent, mv) = &level[slot];
                moves.push(mv.clone());
                slot = *parent;
            }
            moves.reverse();
            return Some(moves);
        }
        let keep = width.min(next.len());
        if keep < next.len() {
            next.select_nth_unstable_by(keep - 1, |a, b| (a.0, a.1).cmp(&(b.0, b.1)));
            next.truncate(keep);
        }
        levels.push(next.iter().map(|n| (n.2, n.3.clone())).collect());
        beam = next.into_iter().map(|n| n.4).collect();
    }
    None
}

/// Greedy descent: beam search of width 1.
pub fn greedy<P: Puzzle>(p: &P, start: &P::State, opts: &SearchOptions) -> Option<Vec<P::Move>> {
    beam_search(p, start, 1, opts)
}
