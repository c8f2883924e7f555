//! The groups of a SameGame position kept up to date across clicks, for playouts.
//!
//! [`Board::forest`] finds every group of a position in one pass over its tiles; a playout
//! that calls it before every move spends most of its time rebuilding groups the last click
//! did not touch. [`Live`] keeps a group number per tile and, per group, its lowest cell,
//! colour, size and last column; a click ([`Live::play`]) re-finds only the groups it can
//! have changed:
//!
//! - In each column of the clicked group, the tiles below its lowest tile there stay put;
//!   the ones above fall (and, if a column empties, every column right of it moves left).
//!   These *moved* tiles carry their group numbers with them.
//! - Every group that had a moved tile is dissolved: its tiles (moved or not) are grouped
//!   anew by flood fill over the new position. A flood fill that reaches a tile of a group
//!   that was not dissolved (it now touches a moved tile of its colour) absorbs that whole
//!   group, so every new group is found whole and no stale group survives.
//!
//! Groups of at least `min_group` tiles are the legal moves, kept in a list with a value
//! and a weight each from a caller's function of (lowest cell, colour, size), called only
//! for new groups: a policy playout draws a move from the list without recomputing the
//! weights of the groups that stayed. The list's order is not the cell order (removal
//! swaps the last entry in); callers that need an order sort it. `tests/samegame.rs` checks
//! the position and groups after every click of random games against [`Board::remove`]
//! and [`Board::groups`] (themselves checked against the plain reference simulator).

use super::board::{Board, CELLS, SIDE};

/// Group slots: the groups of a position, plus those a click creates before it frees the
/// ones it dissolved.
const SLOTS: usize = 2 * CELLS;
/// Not in the legal list.
const OUT: u16 = u16::MAX;

/// A group: lowest cell, colour, size, last column and place in the legal list.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    root: u8,
    colour: u8,
    size: u16,
    x1: u8,
    pos: u16,
}

/// The legal moves: group numbers, values and weights, in the same order.
#[derive(Clone, Debug)]
struct Legal<T> {
    ids: Vec<u16>,
    values: Vec<T>,
    weights: Vec<f64>,
}

impl<T: Copy> Legal<T> {
    fn clear(&mut self) {
        self.ids.clear();
        self.values.clear();
        self.weights.clear();
    }

    /// Takes group `id` out of the list if it is in it (the last entry takes its place).
    fn remove(&mut self, slots: &mut [Slot], id: u16) {
        let pos = slots[id as usize].pos;
        if pos == OUT {
            return;
        }
        let pos = pos as usize;
        self.ids.swap_remove(pos);
        self.values.swap_remove(pos);
        self.weights.swap_remove(pos);
        if let Some(&moved) = self.ids.get(pos) {
            slots[moved as usize].pos = pos as u16;
        }
    }
}

/// A position with its groups (see the module docs); `T` is what a caller keeps per legal
/// move beside its weight.
#[derive(Clone, Debug)]
pub struct Live<T> {
    board: Board,
    min_group: u16,
    /// Group number of each tile (stale on empty cells).
    label: [u16; CELLS],
    slots: Vec<Slot>,
    free: Vec<u16>,
    legal: Legal<T>,
    /// Scratch of a click: which tiles are grouped anew (`seen == stamp`), which groups
    /// are dissolved (`gone == stamp`), the dissolved groups, the moved tiles and the
    /// flood fill's stack.
    seen: [u32; CELLS],
    gone: Vec<u32>,
    stamp: u32,
    dead: Vec<u16>,
    moved: Vec<u8>,
    stack: [u8; CELLS],
}

impl<T: Copy> Live<T> {
    /// `board` with its groups; `weigh(lowest cell, colour, size)` gives each legal move's
    /// value and weight.
    pub fn new(board: &Board, min_group: u16, weigh: impl FnMut(u8, u8, u16) -> (T, f64)) -> Self {
        let mut live = Live::empty();
        live.reset(board, min_group, weigh);
        live
    }

    /// No tiles, no groups.
    pub fn empty() -> Self {
        Live {
            board: Board::empty(),
            min_group: 1,
            label: [0; CELLS],
            slots: vec![Slot::default(); SLOTS],
            free: Vec::with_capacity(SLOTS),
            legal: Legal {
                ids: Vec::with_capacity(CELLS),
                values: Vec::with_capacity(CELLS),
                weights: Vec::with_capacity(CELLS),
            },
            seen: [0; CELLS],
            gone: vec![0; SLOTS],
            stamp: 0,
            dead: Vec::with_capacity(CELLS),
            moved: Vec::with_capacity(CELLS),
            stack: [0; CELLS],
        }
    }

    /// Starts again from `board`, moves of at least `min_group` tiles (groups found anew).
    pub fn reset(
        &mut self,
        board: &Board,
        min_group: u16,
        mut weigh: impl FnMut(u8, u8, u16) -> (T, f64),
    ) {
        self.board = *board;
        self.min_group = min_group;
        self.free.clear();
        self.free.extend((0..SLOTS as u16).rev());
        self.legal.clear();
        self.next_stamp();
        // Every number counts as dissolved, so no fill takes a stale label for a group.
        self.gone.fill(self.stamp);
        for x in 0..self.board.width as usize {
            for i in x * SIDE..x * SIDE + self.board.heights[x] as usize {
                if self.seen[i] != self.stamp {
                    self.fill(i as u8, &mut weigh);
                }
            }
        }
        self.dead.clear();
    }

    /// Starts again from `from`'s position and groups (a copy, cheaper than
    /// [`Live::reset`]), `weigh` giving the legal moves' values and weights anew.
    pub fn restart(&mut self, from: &Live<T>, mut weigh: impl FnMut(u8, u8, u16) -> (T, f64)) {
        self.board = from.board;
        self.min_group = from.min_group;
        self.label = from.label;
        self.slots.copy_from_slice(&from.slots);
        self.free.clone_from(&from.free);
        self.legal.ids.clone_from(&from.legal.ids);
        self.legal.values.clear();
        self.legal.weights.clear();
        for &id in &from.legal.ids {
            let s = &self.slots[id as usize];
            let (value, weight) = weigh(s.root, s.colour, s.size);
            self.legal.values.push(value);
            self.legal.weights.push(weight);
        }
    }

    /// The position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The legal moves' group numbers (for [`Live::play`] and [`Live::group`]).
    pub fn ids(&self) -> &[u16] {
        &self.legal.ids
    }

    /// The legal moves' values, in the order of [`Live::ids`].
    pub fn values(&self) -> &[T] {
        &self.legal.values
    }

    /// The legal moves' weights, in the order of [`Live::ids`].
    pub fn weights(&self) -> &[f64] {
        &self.legal.weights
    }

    /// Group `id`'s lowest cell, colour and size.
    pub fn group(&self, id: u16) -> (u8, u8, u16) {
        let s = &self.slots[id as usize];
        (s.root, s.colour, s.size)
    }

    /// Where group `id` is in the legal list ([`Live::ids`]), if it is a legal move.
    pub fn index(&self, id: u16) -> Option<usize> {
        let pos = self.slots[id as usize].pos;
        (pos != OUT).then_some(pos as usize)
    }

    /// The group number of the group whose lowest cell is `cell`, if there is one.
    pub fn at(&self, cell: u8) -> Option<u16> {
        let (x, y) = Board::xy(cell);
        if x >= self.board.width as usize || y >= self.board.heights[x] as usize {
            return None;
        }
        let id = self.label[cell as usize];
        (self.slots[id as usize].root == cell).then_some(id)
    }

    fn next_stamp(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen = [0; CELLS];
            self.gone.fill(0);
            self.stamp = 1;
        }
    }

    /// Dissolves group `id`: out of the legal list, its number freed at the end of the
    /// click.
    fn dissolve(&mut self, id: u16) {
        self.gone[id as usize] = self.stamp;
        self.dead.push(id);
        self.legal.remove(&mut self.slots, id);
    }

    /// Groups the tiles connected to `start` (not yet seen in this stamp) under a new
    /// number, dissolving any group not yet dissolved that it reaches.
    fn fill(&mut self, start: u8, weigh: &mut impl FnMut(u8, u8, u16) -> (T, f64)) {
        let id = self.free.pop().expect("fewer groups than slots");
        let cells = &self.board.cells;
        let colour = cells[start as usize];
        let (mut root, mut size, mut x1) = (start, 0u16, 0u8);
        self.seen[start as usize] = self.stamp;
        // Every tile is pushed once (marked seen), so the stack holds at most all of them.
        self.stack[0] = start;
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let i = self.stack[top];
            let iu = i as usize;
            let old = self.label[iu];
            if self.gone[old as usize] != self.stamp && old != id {
                // A group that did not move but now touches this one: it merges into it
                // (this fill reaches all its tiles), so it is dissolved.
                self.gone[old as usize] = self.stamp;
                self.dead.push(old);
                self.legal.remove(&mut self.slots, old);
            }
            self.label[iu] = id;
            size += 1;
            root = root.min(i);
            x1 = x1.max((iu / SIDE) as u8);
            let y = iu % SIDE;
            let mut visit = |j: usize| {
                if cells[j] == colour && self.seen[j] != self.stamp {
                    self.seen[j] = self.stamp;
                    self.stack[top] = j as u8;
                    top += 1;
                }
            };
            if y + 1 < SIDE {
                visit(iu + 1);
            }
            if y > 0 {
                visit(iu - 1);
            }
            if iu >= SIDE {
                visit(iu - SIDE);
            }
            if iu + SIDE < CELLS {
                visit(iu + SIDE);
            }
        }
        let mut slot = Slot {
            root,
            colour,
            size,
            x1,
            pos: OUT,
        };
        if size >= self.min_group {
            let (value, weight) = weigh(root, colour, size);
            slot.pos = self.legal.ids.len() as u16;
            self.legal.ids.push(id);
            self.legal.values.push(value);
            self.legal.weights.push(weight);
        }
        self.slots[id as usize] = slot;
    }

    /// Clicks group `id` (a legal move): its tiles go, the rest fall and empty columns
    /// close to the left; the groups this changed are found anew, `weigh` giving the new
    /// legal moves' values and weights. Returns the group's size.
    pub fn play(&mut self, id: u16, mut weigh: impl FnMut(u8, u8, u16) -> (T, f64)) -> u16 {
        let g = self.slots[id as usize];
        let (x0, x1) = (g.root as usize / SIDE, g.x1 as usize);
        self.next_stamp();
        self.dead.clear();
        self.dissolve(id);
        // Remove the tiles (labels moving with them), noting where each column's moved
        // tiles start and the first column emptied.
        let b = &mut self.board;
        let label = &mut self.label;
        let mut low = [0u8; SIDE];
        let mut emptied = SIDE;
        for (x, low) in low.iter_mut().enumerate().take(x1 + 1).skip(x0) {
            *low = b.fall(x, |i, to| {
                let keep = label[i] != id;
                if keep {
                    label[to] = label[i];
                }
                keep
            }) as u8;
            if b.heights[x] == 0 && emptied == SIDE {
                emptied = x;
            }
        }
        b.counts[g.colour as usize - 1] -= g.size;
        if emptied < SIDE {
            b.close_columns(emptied, |x, to| {
                label.copy_within(x * SIDE..x * SIDE + SIDE, to * SIDE)
            });
        }
        // The moved tiles: their groups are dissolved.
        self.moved.clear();
        let moved_end = if emptied < SIDE { emptied } else { x1 + 1 };
        for (x, &low) in low.iter().enumerate().take(moved_end).skip(x0) {
            let base = x * SIDE;
            let h = self.board.heights[x] as usize;
            self.moved
                .extend((base + low as usize..base + h).map(|i| i as u8));
        }
        if emptied < SIDE {
            for x in emptied..self.board.width as usize {
                let base = x * SIDE;
                let h = self.board.heights[x] as usize;
                self.moved.extend((base..base + h).map(|i| i as u8));
            }
        }
        for k in 0..self.moved.len() {
            let old = self.label[self.moved[k] as usize];
            if self.gone[old as usize] != self.stamp {
                self.dissolve(old);
            }
        }
        // Group anew every tile of a dissolved group. The moved ones lie in columns
        // `x0..=x1` and from `emptied` on. An unmoved tile's neighbours are unmoved or
        // the clicked group's, unless it is next to a moved tile; so every part of a
        // dissolved group that did not move is next to one that did, in the columns beside
        // the moved ones: `x0 − 1..=x1 + 1` (where a fill starts from it) unless a fill from
        // a moved tile reaches it first.
        let w = self.board.width as usize;
        let near = x0.saturating_sub(1)..(x1 + 2).min(w);
        let far = emptied.max(near.end)..w;
        for x in near.chain(far) {
            let base = x * SIDE;
            for i in base..base + self.board.heights[x] as usize {
                if self.gone[self.label[i] as usize] == self.stamp && self.seen[i] != self.stamp {
                    self.fill(i as u8, &mut weigh);
                }
            }
        }
        self.free.extend_from_slice(&self.dead);
        g.size
    }
}
