//! One beam search of a fixed width.

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::Instant;

use rayon::prelude::*;
use rustc_hash::FxHashSet;

use super::board::{Board, COLOURS};
use super::estimate::{most, upper, Weights};
use super::groups::Groups;
use super::playout::playout;
use crate::rules::Objective;

/// A beam node.
#[derive(Clone)]
struct Node {
    board: Board,
    /// The value of the line so far.
    value: i64,
    /// With playouts, for the score: the moves of the best line known through this node
    /// after it (its playout's, or its parent's less the move to it), and that line's
    /// value. A child by the first of these moves inherits the rest and needs no playout.
    tail: Vec<u8>,
    known: i64,
}

/// An upper estimate of a beam's memory per unit of width, in bytes: a level's positions
/// and the next level's (two nodes of about 300 bytes, with their lines of a few dozen
/// moves), the children rebuilt (up to four per unit with the largest `build` of the
/// weights, each a node, its key and values) and the candidates ranked (a few dozen per
/// parent, 16 bytes each).
pub const BEAM_BYTES: usize = 4096;

/// The widest beam that `beams` beams running side by side can each have within `memory`
/// bytes ([`BEAM_BYTES`] per unit of width), at least 1.
pub fn widest(memory: usize, beams: usize) -> usize {
    (memory / beams.max(1) / BEAM_BYTES).max(1)
}

/// What a beam reports: a finished line's value and moves (cell indices, one per move, on
/// the board it was played on).
pub type Found<'a> = dyn Fn(i64, &[u8]) + Sync + 'a;

/// One beam search of `width` from `start`. Calls `found` with every line better than
/// `floor` it finishes (and raises `floor`). Returns `None` if `stop` or the deadline cut it
/// short, else whether it was exhaustive (no level had more children than it kept, so a
/// wider beam finds nothing new).
#[allow(clippy::too_many_arguments)]
pub fn beam(
    start: &Board,
    min_group: u16,
    width: usize,
    w: &Weights,
    floor: &AtomicI64,
    found: &Found,
    stop: &AtomicBool,
    deadline: Option<Instant>,
) -> Option<bool> {
    let done = || stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d);
    let mut levels: Vec<Vec<(u32, u8)>> = Vec::new();
    let mut beam = vec![Node {
        board: *start,
        value: 0,
        tail: Vec::new(),
        known: i64::MIN,
    }];
    let path = |levels: &[Vec<(u32, u8)>], mut slot: usize| {
        let mut moves = Vec::with_capacity(levels.len());
        for level in levels.iter().rev() {
            let (parent, m) = level[slot];
            moves.push(m);
            slot = parent as usize;
        }
        moves.reverse();
        moves
    };
    let build = w.build.max(4).saturating_mul(width).div_ceil(4);
    // Cut short: the line of a playout from the best node of the last level, if better
    // (without playouts, a beam cut short has no line of its own).
    let cut = |levels: &[Vec<(u32, u8)>], beam: &[Node]| {
        let node = beam.first()?;
        let mut moves = path(levels, 0);
        let (r, end) = playout(
            &node.board,
            min_group,
            w.goal,
            &mut Groups::default(),
            &mut moves,
        );
        let v = node.value + r + w.goal.terminal(end.tiles());
        if floor.fetch_max(v, Ordering::Relaxed) < v {
            found(v, &moves);
        }
        None
    };
    let mut exhaustive = true;
    const CHUNK: usize = 64;
    loop {
        if done() {
            return cut(&levels, &beam);
        }
        let bar = floor.load(Ordering::Relaxed);
        // Rank every child: (estimate, parent, group seed), built in a scratch board and
        // dropped; note finished nodes.
        type Ranked = (Vec<(i64, u32, u8)>, Option<(i64, usize)>);
        let per_chunk: Vec<Ranked> = beam
            .par_chunks(CHUNK)
            .enumerate()
            .map_init(Groups::default, |groups, (k, chunk)| {
                let mut out = Vec::with_capacity(chunk.len() * 24);
                let mut end: Option<(i64, usize)> = None;
                for (j, node) in chunk.iter().enumerate() {
                    let slot = k * CHUNK + j;
                    node.board.groups(groups);
                    let mut wts = [w.group; COLOURS + 1];
                    wts[0] = 0;
                    wts[most(&node.board.counts) + 1] += w.tabu_group;
                    let weighed = w.group != 0 || w.tabu_group != 0;
                    let parts = if weighed && node.board.width > 0 {
                        node.board.region(0, node.board.width as usize - 1, &wts)
                    } else {
                        0
                    };
                    let before = out.len();
                    for (id, g) in groups.list.iter().enumerate() {
                        if g.size < min_group {
                            continue;
                        }
                        let mut counts = node.board.counts;
                        counts[g.colour as usize - 1] -= g.size;
                        let value = node.value + w.goal.reward(g.size as u32);
                        if value + upper(w.goal, &counts, min_group) <= bar {
                            continue;
                        }
                        let mut e = value * 16 + w.counts_term(&counts, min_group);
                        if weighed {
                            let mut child = node.board;
                            child.remove(groups, id);
                            let (x0, x1) = (g.x0 as usize, g.x1 as usize);
                            let parts = if child.width == 0 {
                                0
                            } else if child.width == node.board.width {
                                parts - node.board.region(x0, x1, &wts) + child.region(x0, x1, &wts)
                            } else {
                                child.region(0, child.width as usize - 1, &wts)
                            };
                            debug_assert_eq!(
                                parts,
                                if child.width == 0 {
                                    0
                                } else {
                                    child.region(0, child.width as usize - 1, &wts)
                                }
                            );
                            e -= parts;
                        }
                        out.push((e, slot as u32, g.seed));
                    }
                    if out.len() == before {
                        let v = node.value + w.goal.terminal(node.board.tiles());
                        if end.is_none_or(|(b, _)| v > b) {
                            end = Some((v, slot));
                        }
                    }
                }
                (out, end)
            })
            .collect();
        let mut cands = Vec::new();
        let mut end: Option<(i64, usize)> = None;
        for (c, e) in per_chunk {
            if cands.is_empty() {
                cands = c;
            } else {
                cands.extend(c);
            }
            if let Some((v, s)) = e {
                if end.is_none_or(|(b, _)| v > b) {
                    end = Some((v, s));
                }
            }
        }
        if let Some((v, slot)) = end {
            if floor.fetch_max(v, Ordering::Relaxed) < v {
                found(v, &path(&levels, slot));
            }
        }
        if cands.is_empty() {
            return Some(exhaustive);
        }
        if done() {
            return cut(&levels, &beam);
        }
        // The best few (a margin for duplicates), rebuilt with their keys.
        if cands.len() > build {
            exhaustive = false;
            cands.select_nth_unstable_by(build - 1, |a, b| b.0.cmp(&a.0));
            cands.truncate(build);
        }
        // Children of one parent together: its groups are found once.
        cands.par_sort_unstable_by_key(|c| c.1);
        // Each rebuilt: its node, key, and (with rollouts) the value of a tabu playout
        // from it; the best playout of each chunk with its moves.
        type Built = (Vec<(Node, u64, (i64, i64))>, Option<(i64, usize, Vec<u8>)>);
        let per_chunk: Vec<Built> = cands
            .par_chunks(CHUNK)
            .enumerate()
            .map_init(
                || (Groups::default(), Groups::default(), Vec::new()),
                |(groups, scratch, moves), (k, chunk)| {
                    let mut last = u32::MAX;
                    let mut best: Option<(i64, usize, Vec<u8>)> = None;
                    let out = chunk
                        .iter()
                        .enumerate()
                        .map(|(j, &(e, parent, seed))| {
                            let node = &beam[parent as usize];
                            if parent != last {
                                node.board.groups(groups);
                                last = parent;
                            }
                            let id = groups.label[seed as usize] as usize;
                            let mut board = node.board;
                            board.remove(groups, id);
                            let value = node.value + w.goal.reward(groups.list[id].size as u32);
                            let mut tail = Vec::new();
                            let mut known = i64::MIN;
                            let ranked = if w.playouts
                                && w.goal == Objective::Score
                                && node.tail.first() == Some(&seed)
                            {
                                // The parent's line goes on through this child.
                                tail.extend_from_slice(&node.tail[1..]);
                                known = node.known;
                                (known, e)
                            } else if w.playouts && board.tiles() <= w.playout_tiles {
                                moves.clear();
                                let (r, end) = playout(&board, min_group, w.goal, scratch, moves);
                                let v = value + r + w.goal.terminal(end.tiles());
                                if best.as_ref().is_none_or(|b| v > b.0) {
                                    best = Some((v, k * CHUNK + j, moves.clone()));
                                }
                                match w.goal {
                                    Objective::Score => {
                                        tail.extend_from_slice(moves);
                                        known = v;
                                        (v, e)
                                    }
                                    // Clearing: whether the playout clears, then the
                                    // estimate (the playout's length only adds noise).
                                    Objective::Moves | Objective::Tiles => {
                                        (-(end.tiles() as i64), e)
                                    }
                                }
                            } else {
                                (0, e)
                            };
                            let node = Node {
                                board,
                                value,
                                tail,
                                known,
                            };
                            (node, board.key(), ranked)
                        })
                        .collect::<Vec<_>>();
                    (out, best)
                },
            )
            .collect();
        let mut built = Vec::with_capacity(cands.len());
        let mut best: Option<(i64, usize, Vec<u8>)> = None;
        for (b, l) in per_chunk {
            built.extend(b);
            if let Some(l) = l {
                if best.as_ref().is_none_or(|b| l.0 > b.0) {
                    best = Some(l);
                }
            }
        }
        if let Some((v, i, tail)) = best {
            if floor.fetch_max(v, Ordering::Relaxed) < v {
                let (_, parent, seed) = cands[i];
                let mut line = path(&levels, parent as usize);
                line.push(seed);
                line.extend(tail);
                found(v, &line);
            }
        }
        let mut order: Vec<(i64, i64, u64, u32)> = built
            .iter()
            .enumerate()
            .map(|(i, b)| (b.2 .0, b.2 .1, b.1, i as u32))
            .collect();
        order.par_sort_unstable_by(|a, b| (b.0, b.1).cmp(&(a.0, a.1)));
        let mut seen: FxHashSet<u64> =
            FxHashSet::with_capacity_and_hasher(width.min(order.len()) * 2, Default::default());
        let mut next = Vec::with_capacity(width.min(order.len()));
        let mut level = Vec::with_capacity(width.min(order.len()));
        for (_, _, key, i) in order {
            if next.len() == width {
                exhaustive = false;
                break;
            }
            if seen.insert(key) {
                let (_, parent, seed) = cands[i as usize];
                next.push(built[i as usize].0.clone());
                level.push((parent, seed));
            }
        }
        levels.push(level);
        beam = next;
    }
}
