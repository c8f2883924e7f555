//! The end of a line searched through: from the positions near its end, every way to play
//! on is tried, and the line takes the best of them where that is worth more.
//!
//! A line's last few dozen moves are played among few tiles, where a search that stops at
//! nothing can see what a playout does not: two small groups merged into a larger one by
//! clicking a third first. [`polish`] walks a line backwards from its end; at each
//! position it finds the best value of playing on by exhaustive search, remembering the
//! best from every position it reaches (the positions near the end of the line are mostly
//! reached again from those before them), until its effort or time runs out. Where some
//! position's best beats what the line makes from there, the line is cut there and
//! continued the best way.
//!
//! **Exact and honest.** `best(p)` is the most `Σ reward + terminal` any sequence of legal
//! moves from `p` makes: it is `terminal(p)` where no move is legal, else the largest
//! `reward(g) + best(p after g)` over the legal groups `g`, which is what the search
//! computes. A search cut short stores nothing of the position it was in, so every stored
//! value is exact (up to a clash of two positions' 64-bit keys). The line returned is
//! replayed from the start and its value counted afresh, and it is returned only when that
//! value beats the line given: a key clash can cost a gain, never give a wrong answer.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

use rustc_hash::FxHashMap;

use super::{Board, Found, Groups};
use crate::rules::Objective;

/// The most positions [`polish`] remembers, whatever its memory.
pub const MAX_POSITIONS: usize = 4 << 20;

/// What a position remembered may cost at most: its slot (24 bytes and a control byte) in
/// a table at most seven eighths full, counted when the table doubles, with the old table
/// still beside the new one (86 bytes per position), rounded up.
pub const POSITION_BYTES: usize = 96;

/// The most positions [`polish`] may remember within `memory` bytes.
pub fn positions_within(memory: usize) -> usize {
    (memory / POSITION_BYTES).min(MAX_POSITIONS)
}

/// The share of a timed search's time [`then_polish`] leaves for the end of its best line.
pub const ENDGAME_PART: f64 = 0.03;

/// The clock is read once per this many positions searched.
const CLOCK_EVERY: usize = 1024;

/// `line` (lowest cells of the groups clicked, from `start`) with its end searched through
/// (walking back from its end, every way to play on tried) until `deadline`, `stop` or
/// `positions` remembered (see [`positions_within`]): the better line and its value under
/// `goal`, or `None` where none was found. `line` must be legal from `start` under
/// `min_group`.
pub fn polish(
    start: &Board,
    line: &[u8],
    min_group: u16,
    goal: Objective,
    positions: usize,
    stop: &AtomicBool,
    deadline: Option<Instant>,
) -> Option<(i64, Vec<u8>)> {
    // The positions along the line, and what each move of it adds.
    let mut boards = Vec::with_capacity(line.len() + 1);
    let mut rewards = Vec::with_capacity(line.len());
    let mut groups = Groups::default();
    let mut board = *start;
    boards.push(board);
    for &cell in line {
        let size = play(&mut board, &mut groups, cell, min_group)?;
        rewards.push(goal.reward(size as u32));
        boards.push(board);
    }
    // what the line makes from position k on (it may stop with moves left)
    let mut rest = vec![goal.terminal(board.tiles()); boards.len()];
    for k in (0..line.len()).rev() {
        rest[k] = rest[k + 1] + rewards[k];
    }
    let mut search = Search {
        min_group,
        goal,
        positions,
        memo: FxHashMap::default(),
        stop,
        deadline,
        searched: 0,
        groups: Vec::new(),
    };
    let mut cut: Option<(i64, usize)> = None;
    for k in (0..boards.len()).rev() {
        let Some(best) = search.best(&boards[k], 0) else {
            break;
        };
        if best - rest[k] > cut.map_or(0, |c| c.0) {
            cut = Some((best - rest[k], k));
        }
    }
    let (_, k) = cut?;
    let mut better = line[..k].to_vec();
    let mut board = boards[k];
    while let Some(&(_, cell)) = search.memo.get(&board.key()) {
        if cell == NO_MOVE {
            break;
        }
        play(&mut board, &mut groups, cell, min_group)?;
        better.push(cell);
    }
    let value = value_of(start, &better, min_group, goal)?;
    (value > rest[0]).then_some((value, better))
}

/// `search` until the last [`ENDGAME_PART`] of the time to `deadline` begins (it is given
/// that instant), then the end of the best line it found searched through ([`polish`],
/// remembering at most `positions`) until `deadline`; what `search` returns. `search`
/// reports its lines to a `found` that keeps the best and passes each on to `found`, as
/// this does the polished line where it makes more. Without a deadline there is no last
/// part to give: `search` runs alone, with no deadline, reporting straight to `found`.
/// The searches a solve runs on the byte engine end this way.
#[allow(clippy::too_many_arguments)]
pub fn then_polish<R>(
    start: &Board,
    min_group: u16,
    goal: Objective,
    positions: usize,
    found: &Found,
    stop: &AtomicBool,
    deadline: Option<Instant>,
    search: impl FnOnce(&Found, Option<Instant>) -> R,
) -> R {
    let Some(deadline) = deadline else {
        return search(found, None);
    };
    let now = Instant::now();
    let end = deadline
        - deadline
            .saturating_duration_since(now)
            .mul_f64(ENDGAME_PART);
    let best = Mutex::new((i64::MIN, Vec::new()));
    let keep = |value: i64, cells: &[u8]| {
        {
            let mut b = best.lock().expect("no panics");
            if value > b.0 {
                *b = (value, cells.to_vec());
            }
        }
        found(value, cells);
    };
    let out = search(&keep, Some(end));
    let (value, line) = best.into_inner().expect("no panics");
    if value > i64::MIN {
        if let Some((better, line)) = polish(
            start,
            &line,
            min_group,
            goal,
            positions,
            stop,
            Some(deadline),
        ) {
            found(better, &line);
        }
    }
    out
}

/// Where no move is legal: no best move.
const NO_MOVE: u8 = u8::MAX;

/// The exhaustive search, with its table of positions searched through: the best value
/// from each and the lowest cell of a group that makes it.
struct Search<'a> {
    min_group: u16,
    goal: Objective,
    /// The most positions `memo` may hold.
    positions: usize,
    memo: FxHashMap<u64, (i64, u8)>,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    searched: usize,
    /// The groups of the position at each depth of the search.
    groups: Vec<Groups>,
}

impl Search<'_> {
    /// The most playing on from `board` makes, or `None` once the search must end.
    fn best(&mut self, board: &Board, depth: usize) -> Option<i64> {
        let key = board.key();
        if let Some(&(value, _)) = self.memo.get(&key) {
            return Some(value);
        }
        self.searched += 1;
        if self.memo.len() >= self.positions
            || (self.searched.is_multiple_of(CLOCK_EVERY)
                && (self.stop.load(Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)))
        {
            return None;
        }
        if self.groups.len() <= depth {
            self.groups.push(Groups::default());
        }
        let mut groups = std::mem::take(&mut self.groups[depth]);
        board.groups(&mut groups);
        let best = self.best_move(board, &groups, depth);
        self.groups[depth] = groups;
        let best = best?;
        self.memo.insert(key, best);
        Some(best.0)
    }

    /// The best of the legal moves among `groups` (`board`'s) and what it makes, or the
    /// end's value and [`NO_MOVE`] where none is legal.
    fn best_move(&mut self, board: &Board, groups: &Groups, depth: usize) -> Option<(i64, u8)> {
        let mut best = (self.goal.terminal(board.tiles()), NO_MOVE);
        let mut legal = false;
        for (id, g) in groups.list.iter().enumerate() {
            if g.size < self.min_group {
                continue;
            }
            let mut next = *board;
            next.remove(groups, id);
            let value = self.goal.reward(g.size as u32) + self.best(&next, depth + 1)?;
            if !legal || value > best.0 {
                best = (value, g.seed);
            }
            legal = true;
        }
        Some(best)
    }
}

/// The value of `line` from `start` played to its end, `None` if a move is not legal.
pub fn value_of(start: &Board, line: &[u8], min_group: u16, goal: Objective) -> Option<i64> {
    let mut groups = Groups::default();
    let mut board = *start;
    let mut value = 0;
    for &cell in line {
        value += goal.reward(play(&mut board, &mut groups, cell, min_group)? as u32);
    }
    Some(value + goal.terminal(board.tiles()))
}

/// Plays one move of a line (the lowest cell of the group clicked) on `board`, finding its
/// groups into `groups`: the size of the group taken, or `None` where no group of at least
/// `min_group` tiles starts at `cell` (the board is then left as it was).
fn play(board: &mut Board, groups: &mut Groups, cell: u8, min_group: u16) -> Option<u16> {
    board.groups(groups);
    let id = groups.starting_at(cell)?;
    let size = groups.list[id].size;
    if size < min_group {
        return None;
    }
    board.remove(groups, id);
    Some(size)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::grid::Grid;

    /// The most a line from `board` makes, by trying every line (no table, no cut).
    fn brute(board: &Board, min_group: u16, goal: Objective) -> i64 {
        let mut groups = Groups::default();
        board.groups(&mut groups);
        let legal: Vec<(usize, u16)> = (groups.list.iter().enumerate())
            .filter(|(_, g)| g.size >= min_group)
            .map(|(id, g)| (id, g.size))
            .collect();
        if legal.is_empty() {
            return goal.terminal(board.tiles());
        }
        (legal.into_iter())
            .map(|(id, size)| {
                let mut next = *board;
                next.remove(&groups, id);
                goal.reward(size as u32) + brute(&next, min_group, goal)
            })
            .max()
            .expect("a legal move")
    }

    /// A random `w`×`h` board of `k` colours.
    fn board(rng: &mut fastrand::Rng, w: usize, h: usize, k: u8) -> Board {
        let rows: Vec<String> = (0..h)
            .map(|_| (0..w).map(|_| (b'A' + rng.u8(..k)) as char).collect())
            .collect();
        let grid: Grid = rows.join(",").parse().expect("a board");
        Board::from_grid(&grid).expect("fits")
    }

    /// A line played at random to its end.
    fn random_line(rng: &mut fastrand::Rng, start: &Board, min_group: u16) -> Vec<u8> {
        let (mut board, mut groups, mut line) = (*start, Groups::default(), Vec::new());
        loop {
            board.groups(&mut groups);
            let legal: Vec<usize> = (0..groups.list.len())
                .filter(|&id| groups.list[id].size >= min_group)
                .collect();
            if legal.is_empty() {
                return line;
            }
            let id = legal[rng.usize(..legal.len())];
            line.push(groups.list[id].seed);
            board.remove(&groups, id);
        }
    }

    /// A random board of 2–4 × 2–4 in 2 or 3 colours, a line played at random on it to its
    /// end, and that line's value.
    fn small_case(
        rng: &mut fastrand::Rng,
        min_group: u16,
        goal: Objective,
    ) -> (Board, Vec<u8>, i64) {
        let (w, h, k) = (rng.usize(2..=4), rng.usize(2..=4), rng.u8(2..=3));
        let start = board(rng, w, h, k);
        let line = random_line(rng, &start, min_group);
        let given = value_of(&start, &line, min_group, goal).expect("legal");
        (start, line, given)
    }

    #[test]
    fn a_line_polished_without_limits_makes_the_most_any_line_makes() {
        let mut rng = fastrand::Rng::with_seed(7);
        let never = AtomicBool::new(false);
        let (mut cases, mut better) = (0, 0);
        for goal in [Objective::Score, Objective::Moves, Objective::Tiles] {
            for min_group in [1, 2] {
                for _ in 0..12 {
                    let (start, line, given) = small_case(&mut rng, min_group, goal);
                    let most = brute(&start, min_group, goal);
                    match polish(&start, &line, min_group, goal, MAX_POSITIONS, &never, None) {
                        Some((value, polished)) => {
                            assert!(value > given, "{value} after {given}");
                            assert_eq!(value, most, "{line:?} → {polished:?}");
                            assert_eq!(value_of(&start, &polished, min_group, goal), Some(value));
                            better += 1;
                        }
                        None => assert_eq!(given, most, "{line:?} left as it was"),
                    }
                    cases += 1;
                }
            }
        }
        assert_eq!(cases, 72);
        assert!(better > 10, "only {better} lines improved");
    }

    #[test]
    fn a_timed_search_ends_with_its_best_line_polished() {
        let mut rng = fastrand::Rng::with_seed(13);
        let never = AtomicBool::new(false);
        let (mut cases, mut better) = (0, 0);
        for goal in [Objective::Score, Objective::Moves, Objective::Tiles] {
            for _ in 0..12 {
                let (start, line, given) = small_case(&mut rng, 1, goal);
                // without a deadline the search runs alone, with none, and nothing follows
                let alone = Mutex::new(Vec::new());
                let to_alone = |value: i64, cells: &[u8]| {
                    alone.lock().unwrap().push((value, cells.to_vec()));
                };
                let returned = then_polish(
                    &start,
                    1,
                    goal,
                    MAX_POSITIONS,
                    &to_alone,
                    &never,
                    None,
                    |f, end| {
                        assert!(end.is_none());
                        f(given, &line);
                        given
                    },
                );
                assert_eq!(returned, given);
                assert_eq!(alone.into_inner().unwrap(), vec![(given, line.clone())]);
                let reported = Mutex::new(Vec::new());
                let found = |value: i64, cells: &[u8]| {
                    reported.lock().unwrap().push((value, cells.to_vec()));
                };
                let (before, deadline) = (Instant::now(), Instant::now() + Duration::from_secs(60));
                then_polish(
                    &start,
                    1,
                    goal,
                    MAX_POSITIONS,
                    &found,
                    &never,
                    Some(deadline),
                    |f, end| {
                        // the search ends before the end's share of the time, and not long before
                        let end = end.expect("a deadline");
                        let share = Duration::from_secs(60).mul_f64(ENDGAME_PART);
                        assert!(end < deadline && end + share >= deadline && end > before);
                        f(given, &line);
                    },
                );
                let reported = reported.into_inner().unwrap();
                assert_eq!(
                    reported[0],
                    (given, line.clone()),
                    "the search's own line first"
                );
                // each line reported beats the one before, and the last is the best there is
                for pair in reported.windows(2) {
                    assert!(pair[1].0 > pair[0].0);
                }
                let (value, last) = reported.last().expect("a line");
                assert_eq!(value_of(&start, last, 1, goal), Some(*value));
                assert_eq!(*value, brute(&start, 1, goal));
                better += usize::from(reported.len() > 1);
                cases += 1;
            }
        }
        assert_eq!(cases, 36);
        assert!(better > 5, "only {better} lines improved");
    }

    #[test]
    fn a_polish_cut_short_ends_and_returns_a_better_legal_line_or_none() {
        let mut rng = fastrand::Rng::with_seed(11);
        let stop = AtomicBool::new(true);
        let passed = Some(Instant::now());
        let mut cases = 0;
        for _ in 0..6 {
            let start = board(&mut rng, 15, 15, 5);
            let line = random_line(&mut rng, &start, 2);
            let given = value_of(&start, &line, 2, Objective::Score).expect("legal");
            // stopped, out of time, and out of room (1,000 positions remembered)
            let never = AtomicBool::new(false);
            for (stop, deadline, positions) in [
                (&stop, None, MAX_POSITIONS),
                (&never, passed, MAX_POSITIONS),
                (&never, None, 1000),
            ] {
                if let Some((value, polished)) = polish(
                    &start,
                    &line,
                    2,
                    Objective::Score,
                    positions,
                    stop,
                    deadline,
                ) {
                    assert!(value > given);
                    assert_eq!(
                        value_of(&start, &polished, 2, Objective::Score),
                        Some(value)
                    );
                }
                cases += 1;
            }
        }
        assert_eq!(cases, 18);
    }
}
