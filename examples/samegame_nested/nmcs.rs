//! Nested Monte-Carlo search (Cazenave 2009) on the byte engine, a search to compare the
//! library's with: at every step of a level-`n` search, every legal move is followed by a
//! level-`n − 1` search (level 0: the tabu [`playout`]); the best line found so far is
//! memorised and its next move played. Level 1 costs a playout per move and step, level 2
//! that squared; the top level's moves are searched in parallel.
//!
//! Every line better than the shared `floor` goes to `found`, with the moves of `prefix`
//! (the line from the position the caller started at) in front.

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::Instant;

use rayon::prelude::*;
use tumble::rules::Objective;
use tumble::samegame::{playout, Board, Found, Groups, Start};

/// The number of the group whose lowest cell is `cell`.
fn at(groups: &Groups, cell: u8) -> usize {
    groups
        .list
        .iter()
        .position(|g| g.seed == cell)
        .expect("a group at a legal move's cell")
}

/// The shared part of an [`nmcs`]: its limits and where lines go.
struct Nested<'a, 'f> {
    min_group: u16,
    goal: Objective,
    floor: &'a AtomicI64,
    found: &'a Found<'f>,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
}

impl Nested<'_, '_> {
    fn done(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// A level-`level` search from `b`, reached by `path` worth `value`: the best line's
    /// value from `b` and its moves.
    fn search(
        &self,
        b: &Board,
        level: usize,
        path: &mut Vec<u8>,
        value: i64,
        groups: &mut Groups,
        top: bool,
    ) -> (i64, Vec<u8>) {
        if level == 0 {
            let mut moves = Vec::new();
            let (r, end) = playout(b, self.min_group, self.goal, groups, &mut moves);
            let v = r + self.goal.terminal(end.tiles());
            if self.floor.fetch_max(value + v, Ordering::Relaxed) < value + v {
                let mut all = path.clone();
                all.extend_from_slice(&moves);
                (self.found)(value + v, &all);
            }
            return (v, moves);
        }
        let depth = path.len();
        let mut b = *b;
        let mut acc = 0;
        let mut best: Option<(i64, Vec<u8>)> = None;
        let mut played = 0;
        loop {
            b.groups(groups);
            let legal: Vec<(u8, u16)> = groups
                .list
                .iter()
                .filter(|g| g.size >= self.min_group)
                .map(|g| (g.seed, g.size))
                .collect();
            if legal.is_empty() || self.done() {
                break;
            }
            let child = |m: u8, size: u16, path: &mut Vec<u8>, groups: &mut Groups| {
                let mut c = b;
                c.groups(groups);
                let id = at(groups, m);
                c.remove(groups, id);
                let r = self.goal.reward(size as u32);
                path.push(m);
                let (v, line) = self.search(&c, level - 1, path, value + acc + r, groups, false);
                path.pop();
                (r + v, m, line)
            };
            let tried: Vec<(i64, u8, Vec<u8>)> = if top && level >= 2 {
                legal
                    .par_iter()
                    .map_init(
                        || (path.clone(), Groups::default()),
                        |(p, g), &(m, size)| child(m, size, p, g),
                    )
                    .collect()
            } else {
                legal
                    .iter()
                    .map(|&(m, size)| child(m, size, path, groups))
                    .collect()
            };
            for (v, m, line) in tried {
                let total = acc + v;
                if best.as_ref().is_none_or(|(bv, _)| total > *bv) {
                    let mut moves = path[depth..].to_vec();
                    moves.push(m);
                    moves.extend(line);
                    best = Some((total, moves));
                }
            }
            let (_, moves) = best.as_ref().expect("a line");
            let m = moves[played];
            b.groups(groups);
            let id = at(groups, m);
            acc += self.goal.reward(groups.list[id].size as u32);
            b.remove(groups, id);
            path.push(m);
            played += 1;
        }
        path.truncate(depth);
        // Nothing tried (no move, or no time): a playout, reported as at level 0.
        best.unwrap_or_else(|| self.search(&b, 0, path, value, groups, false))
    }
}

/// Nested Monte-Carlo search of `level` from `start` (its top level's moves searched in
/// parallel on the current rayon pool), memorising the best line, until it ends, `stop` or
/// the deadline. Every line better than `floor` goes to `found`. Returns the best line's
/// value from `start.board` and its moves.
#[allow(clippy::too_many_arguments)]
pub fn nmcs(
    start: Start,
    min_group: u16,
    goal: Objective,
    level: usize,
    floor: &AtomicI64,
    found: &Found,
    stop: &AtomicBool,
    deadline: Option<Instant>,
) -> (i64, Vec<u8>) {
    let n = Nested {
        min_group,
        goal,
        floor,
        found,
        stop,
        deadline,
    };
    let mut path = start.prefix.to_vec();
    n.search(
        start.board,
        level,
        &mut path,
        start.value,
        &mut Groups::default(),
        true,
    )
}
