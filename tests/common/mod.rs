//! A plain reference simulator of the click games of `RULES.md`, written independently of
//! the bitboard engine, and brute-force solvers for tiny boards.
//!
//! The grid is `cells[y][x]` with `y = 0` the BOTTOM row and `x = 0` the left column; a cell
//! is the colour's character as a byte (`b'A'`, `b'3'`, ...) or `b'.'` when empty. Nothing
//! here uses the engine: only the rule knobs (`tumble::rules::Rules`, plain data) are shared.
//!
//! Every test file includes this module but uses only part of it. [`data`] holds the few
//! boards with known optima; [`proofs`] checks a proof of one through the command line;
//! [`scratch`] is a test's directory for the files it writes.
#![allow(dead_code)]

pub mod cli;
pub mod data;
pub mod floodit;
pub mod proofs;
pub mod scratch;
pub mod server;

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};

use tumble::rules::{Clickable, Rules, Sideways};

pub const EMPTY: u8 = b'.';

/// A cell `(x, y)`, `y = 0` at the bottom.
pub type Cell = (usize, usize);

/// A board: `cells[y][x]`, bottom row first.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct RefBoard {
    pub cells: Vec<Vec<u8>>,
}

impl RefBoard {
    /// From rows given TOP row first (as a board is written), e.g. `["AB.", "ABB"]`.
    pub fn from_rows_top<S: AsRef<str>>(rows: &[S]) -> RefBoard {
        let mut cells: Vec<Vec<u8>> = rows.iter().map(|r| r.as_ref().bytes().collect()).collect();
        cells.reverse();
        let w = cells.first().map_or(0, |r| r.len());
        assert!(cells.iter().all(|r| r.len() == w), "ragged reference board");
        RefBoard { cells }
    }

    /// From the one-line form `ROW,ROW,...` (top row first).
    pub fn from_inline(s: &str) -> RefBoard {
        let rows: Vec<&str> = s.split(',').map(str::trim).collect();
        RefBoard::from_rows_top(&rows)
    }

    pub fn width(&self) -> usize {
        self.cells.first().map_or(0, |r| r.len())
    }
    pub fn height(&self) -> usize {
        self.cells.len()
    }
    pub fn get(&self, x: usize, y: usize) -> u8 {
        self.cells[y][x]
    }

    /// Rows top row first, as strings.
    pub fn rows_top(&self) -> Vec<String> {
        self.cells
            .iter()
            .rev()
            .map(|r| String::from_utf8(r.clone()).unwrap())
            .collect()
    }

    /// The one-line form.
    pub fn inline(&self) -> String {
        self.rows_top().join(",")
    }

    pub fn tiles(&self) -> usize {
        self.cells.iter().flatten().filter(|&&c| c != EMPTY).count()
    }

    pub fn is_empty(&self) -> bool {
        self.tiles() == 0
    }

    /// Does every column obey gravity (no empty cell under a tile)?
    pub fn obeys_gravity(&self) -> bool {
        (0..self.width()).all(|x| {
            (1..self.height()).all(|y| self.get(x, y) == EMPTY || self.get(x, y - 1) != EMPTY)
        })
    }

    /// The maximal 4-connected same-colour set of cells containing `(x, y)` (BFS).
    /// Empty for an empty cell.
    pub fn flood(&self, x: usize, y: usize) -> BTreeSet<Cell> {
        let mut seen = BTreeSet::new();
        let colour = self.get(x, y);
        if colour == EMPTY {
            return seen;
        }
        let (w, h) = (self.width(), self.height());
        let mut queue = VecDeque::from([(x, y)]);
        seen.insert((x, y));
        while let Some((cx, cy)) = queue.pop_front() {
            let mut next = Vec::new();
            if cx > 0 {
                next.push((cx - 1, cy));
            }
            if cx + 1 < w {
                next.push((cx + 1, cy));
            }
            if cy > 0 {
                next.push((cx, cy - 1));
            }
            if cy + 1 < h {
                next.push((cx, cy + 1));
            }
            for (nx, ny) in next {
                if self.get(nx, ny) == colour && seen.insert((nx, ny)) {
                    queue.push_back((nx, ny));
                }
            }
        }
        seen
    }

    /// Every group on the board (clickable or not).
    pub fn all_groups(&self) -> Vec<BTreeSet<Cell>> {
        let mut covered = HashSet::new();
        let mut out = Vec::new();
        for y in 0..self.height() {
            for x in 0..self.width() {
                if self.get(x, y) != EMPTY && !covered.contains(&(x, y)) {
                    let g = self.flood(x, y);
                    covered.extend(g.iter().copied());
                    out.push(g);
                }
            }
        }
        out
    }

    /// Why a group may not be clicked under `rules`, if it may not.
    pub fn group_refusal(group: &BTreeSet<Cell>, rules: &Rules) -> Option<&'static str> {
        if rules.clickable == Clickable::Bottom && !group.iter().any(|&(_, y)| y == 0) {
            return Some("bottom");
        }
        if group.len() < rules.min_group as usize {
            return Some("smallest");
        }
        None
    }

    /// The groups that may be clicked under `rules`.
    pub fn clickable_groups(&self, rules: &Rules) -> Vec<BTreeSet<Cell>> {
        self.all_groups()
            .into_iter()
            .filter(|g| Self::group_refusal(g, rules).is_none())
            .collect()
    }

    /// The board after removing the cells of `group`: gravity, then the sideways step.
    pub fn remove(&self, group: &BTreeSet<Cell>, rules: &Rules) -> RefBoard {
        let (w, h) = (self.width(), self.height());
        // Columns as bottom-up lists of the tiles that stay.
        let mut columns: Vec<Vec<u8>> = (0..w)
            .map(|x| {
                (0..h)
                    .filter(|&y| !group.contains(&(x, y)) && self.get(x, y) != EMPTY)
                    .map(|y| self.get(x, y))
                    .collect()
            })
            .collect();
        match rules.sideways {
            Sideways::None | Sideways::Centre => {}
            Sideways::Left => {
                let mut kept: Vec<Vec<u8>> =
                    columns.into_iter().filter(|c| !c.is_empty()).collect();
                kept.resize(w, Vec::new());
                columns = kept;
            }
        }
        // Gravity: rebuild every column from its tiles, bottom up.
        let mut cells = vec![vec![EMPTY; w]; h];
        for (x, col) in columns.iter().enumerate() {
            for (y, &c) in col.iter().enumerate() {
                cells[y][x] = c;
            }
        }
        if rules.sideways == Sideways::Centre {
            let m = w / 2;
            for row in cells.iter_mut() {
                let left: Vec<u8> = row[..m].iter().copied().filter(|&c| c != EMPTY).collect();
                let right: Vec<u8> = row[m..].iter().copied().filter(|&c| c != EMPTY).collect();
                let mut new = vec![EMPTY; w];
                // left tiles end at column m-1, right tiles start at column m
                new[m - left.len()..m].copy_from_slice(&left);
                new[m..m + right.len()].copy_from_slice(&right);
                *row = new;
            }
        }
        RefBoard { cells }
    }

    /// Clicks `(x, y)`: the board after the move, and the group removed, or why not.
    pub fn click(
        &self,
        x: usize,
        y: usize,
        rules: &Rules,
    ) -> Result<(RefBoard, BTreeSet<Cell>), &'static str> {
        if x >= self.width() || y >= self.height() {
            return Err("outside");
        }
        if self.get(x, y) == EMPTY {
            return Err("empty");
        }
        let g = self.flood(x, y);
        if let Some(why) = Self::group_refusal(&g, rules) {
            return Err(why);
        }
        Ok((self.remove(&g, rules), g))
    }

    /// The distinct colours left.
    pub fn colours_left(&self) -> usize {
        self.cells
            .iter()
            .flatten()
            .filter(|&&c| c != EMPTY)
            .collect::<HashSet<_>>()
            .len()
    }
}

/// Successors of a board: (a cell of the group, group size, board after).
fn successors(b: &RefBoard, rules: &Rules) -> Vec<(Cell, usize, RefBoard)> {
    b.clickable_groups(rules)
        .into_iter()
        .map(|g| {
            let cell = *g.iter().next().unwrap();
            (cell, g.len(), b.remove(&g, rules))
        })
        .collect()
}

/// Fewest clicks to clear the board (breadth-first over all positions), or `None` when it
/// cannot be cleared. For tiny boards only.
pub fn bfs_optimum(start: &RefBoard, rules: &Rules) -> Option<usize> {
    let mut seen: HashSet<RefBoard> = HashSet::from([start.clone()]);
    let mut frontier = vec![start.clone()];
    let mut depth = 0;
    while !frontier.is_empty() {
        if frontier.iter().any(RefBoard::is_empty) {
            return Some(depth);
        }
        let mut next = Vec::new();
        for b in &frontier {
            for (_, _, c) in successors(b, rules) {
                if seen.insert(c.clone()) {
                    next.push(c);
                }
            }
        }
        frontier = next;
        depth += 1;
    }
    None
}

/// Clickomania's objective by brute force: the fewest tiles that can be left, and the
/// fewest clicks that leave that few. For tiny boards only.
pub fn fewest_tiles(start: &RefBoard, rules: &Rules) -> (usize, usize) {
    // Breadth first: the first time a position is seen is with the fewest clicks.
    let mut seen: HashSet<RefBoard> = HashSet::from([start.clone()]);
    let mut frontier = vec![start.clone()];
    let mut depth = 0;
    let mut best = (start.tiles(), 0);
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for b in &frontier {
            best = best.min((b.tiles(), depth));
            for (_, _, c) in successors(b, rules) {
                if seen.insert(c.clone()) {
                    next.push(c);
                }
            }
        }
        frontier = next;
        depth += 1;
    }
    best
}

/// SameGame's objective by brute force: the highest score ((n−2)² per group of n, +1000 for
/// a cleared board) over every line of play, stopping anywhere. For tiny boards only.
pub fn best_score(start: &RefBoard, rules: &Rules) -> i64 {
    fn go(b: &RefBoard, rules: &Rules, memo: &mut HashMap<RefBoard, i64>) -> i64 {
        if let Some(&v) = memo.get(b) {
            return v;
        }
        let mut v = if b.is_empty() { 1000 } else { 0 };
        for (_, n, c) in successors(b, rules) {
            let k = n as i64 - 2;
            v = v.max(k.max(0).pow(2) + go(&c, rules, memo));
        }
        memo.insert(b.clone(), v);
        v
    }
    go(start, rules, &mut HashMap::new())
}

/// Plays clicks `(x, y)` from `start`; the final board, or the 1-based number of the first
/// illegal move and why.
pub fn replay(
    start: &RefBoard,
    rules: &Rules,
    clicks: &[Cell],
) -> Result<(RefBoard, Vec<usize>), (usize, &'static str)> {
    let mut b = start.clone();
    let mut sizes = Vec::new();
    for (i, &(x, y)) in clicks.iter().enumerate() {
        let (next, g) = b.click(x, y, rules).map_err(|e| (i + 1, e))?;
        sizes.push(g.len());
        b = next;
    }
    Ok((b, sizes))
}

/// The one random number generator of the crate, seeded by each test for repeatable
/// choices.
pub use fastrand::Rng;

/// The colour characters random boards use (mixed kinds on purpose).
pub const SYMBOLS: &[u8] = b"ABz3@%";

/// A random board that obeys gravity: column heights drawn so that some columns are
/// partly or wholly empty (when `holes`), colours from the first `colours` of [`SYMBOLS`].
pub fn random_board(rng: &mut Rng, w: usize, h: usize, colours: usize, holes: bool) -> RefBoard {
    let mut cells = vec![vec![EMPTY; w]; h];
    for x in 0..w {
        let height = if holes && rng.usize(..3) == 0 {
            rng.usize(..h + 1)
        } else {
            h
        };
        for row in cells.iter_mut().take(height) {
            row[x] = SYMBOLS[rng.usize(..colours)];
        }
    }
    RefBoard { cells }
}

/// Flood-It's fewest moves by breadth-first search over whole boards, the flood growing from
/// `origin` (`y = 0` at the bottom). A move gives the flood a colour that touches it, and
/// the board is solved when one colour is left. For tiny boards only.
pub fn floodit_bfs_optimum(start: &RefBoard, origin: Cell) -> usize {
    let mut seen: HashSet<RefBoard> = HashSet::from([start.clone()]);
    let mut frontier = vec![start.clone()];
    let mut depth = 0;
    loop {
        if frontier.iter().any(|b| b.colours_left() <= 1) {
            return depth;
        }
        let mut next = Vec::new();
        for b in &frontier {
            let flood = b.flood(origin.0, origin.1);
            let own = b.get(origin.0, origin.1);
            // the colours of the cells next to the flood
            let mut touching = BTreeSet::new();
            for &(x, y) in &flood {
                let near = [
                    (x.wrapping_sub(1), y),
                    (x + 1, y),
                    (x, y.wrapping_sub(1)),
                    (x, y + 1),
                ];
                for (nx, ny) in near {
                    if nx < b.width() && ny < b.height() && b.get(nx, ny) != own {
                        touching.insert(b.get(nx, ny));
                    }
                }
            }
            for c in touching {
                let mut after = b.clone();
                for &(x, y) in &flood {
                    after.cells[y][x] = c;
                }
                if seen.insert(after.clone()) {
                    next.push(after);
                }
            }
        }
        assert!(!next.is_empty(), "a Flood-It board always has a move");
        frontier = next;
        depth += 1;
    }
}
