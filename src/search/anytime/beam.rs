//! Beam search of a fixed width over a [`Scored`] puzzle.

use rayon::prelude::*;
use rustc_hash::FxHashSet;

use super::control::Control;
use super::scored::{Ranked, Scored, Standing};

/// A beam node's children, ranked, and the node's own final value when it has no moves.
type Expansion<M> = (Vec<Ranked<M>>, Option<i64>);

/// One beam of `width` from `start`, offering every solution it meets to `ctl`. Returns
/// true when the beam never had to drop a position (the search was exhaustive).
pub fn beam<P: Scored>(p: &P, start: &P::State, width: usize, ctl: &Control<P::Move>) -> bool {
    beam_measured(p, start, width, 0, ctl).0
}

/// [`beam`], and the most bytes its buffers held at once: the levels' moves so far, the
/// positions of a level and the next, and a level's children (as ranked per parent and
/// then together, while the first are moved into the second), with the set of their keys.
pub(super) fn beam_measured<P: Scored>(
    p: &P,
    start: &P::State,
    width: usize,
    ranking: usize,
    ctl: &Control<P::Move>,
) -> (bool, usize) {
    use std::mem::size_of;
    struct Node<S> {
        state: S,
        value: i64,
    }
    // (parent index in the previous level, move) per kept node, level by level.
    let mut levels: Vec<Vec<(u32, P::Move)>> = Vec::new();
    let mut beam = vec![Node {
        state: start.clone(),
        value: 0,
    }];
    let path = |levels: &[Vec<(u32, P::Move)>], mut slot: usize| {
        let mut moves = Vec::with_capacity(levels.len());
        for level in levels.iter().rev() {
            let (parent, m) = &level[slot];
            moves.push(m.clone());
            slot = *parent as usize;
        }
        moves.reverse();
        moves
    };
    let mut exhaustive = true;
    let (mut peak, mut moves_bytes) = (0usize, 0usize);
    loop {
        if ctl.done() {
            return (false, peak);
        }
        // Rank every node's children; terminal nodes end here.
        let per_node: Vec<Expansion<P::Move>> = beam
            .par_iter()
            .map_init(Vec::new, |kids, node| {
                if ctl.done() {
                    return (Vec::new(), None);
                }
                let mut out = Vec::new();
                let at = Standing {
                    value: node.value,
                    floor: ctl.best_value(),
                    ranking,
                };
                if !p.ranked_children(&node.state, at, kids, &mut out) {
                    return (Vec::new(), Some(node.value + p.terminal(&node.state)));
                }
                (out, None)
            })
            .collect();
        if ctl.done() {
            return (false, peak);
        }
        ctl.add_work(beam.len());
        let children: usize = per_node.iter().map(|(k, _)| k.capacity()).sum();
        let kid = size_of::<(i64, i64, u64, u32, P::Move)>();
        peak = peak.max(
            moves_bytes
                + 2 * beam.len() * size_of::<Node<P::State>>()
                + children * (2 * kid + 2 * size_of::<u64>()),
        );
        let mut kids = Vec::new();
        for (slot, (k, end)) in per_node.into_iter().enumerate() {
            if let Some(v) = end {
                if v > ctl.best_value() {
                    let moves = path(&levels, slot);
                    ctl.offer(v, &moves);
                }
            }
            // (rank, value, key, parent slot, move)
            kids.extend(
                k.into_iter()
                    .map(|(r, v, key, m)| (r, v, key, slot as u32, m)),
            );
        }
        if kids.is_empty() {
            return (exhaustive, peak);
        }
        // Best rank first; among equal keys keep the best.
        kids.par_sort_unstable_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
        let mut seen =
            FxHashSet::with_capacity_and_hasher(width.min(kids.len()) * 2, Default::default());
        let mut kept = Vec::with_capacity(width.min(kids.len()));
        for k in kids {
            if kept.len() == width {
                exhaustive = false;
                break;
            }
            if seen.insert(k.2) {
                kept.push(k);
            }
        }
        let next: Vec<Node<P::State>> = kept
            .par_iter()
            .map(|k| Node {
                state: p.play(&beam[k.3 as usize].state, &k.4),
                value: k.1,
            })
            .collect();
        moves_bytes += kept.len() * size_of::<(u32, P::Move)>();
        levels.push(kept.into_iter().map(|k| (k.3, k.4)).collect());
        beam = next;
    }
}
