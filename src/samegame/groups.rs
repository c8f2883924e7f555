//! The groups of a position, all found in one pass of union-find over its cells, and a
//! click's removal of one.

use super::board::{Board, CELLS, SIDE};
use super::live::Live;

/// No group (a label).
pub(super) const NONE: u16 = u16::MAX;

/// A group of a position: its lowest cell (lowest column, then lowest row), colour, size
/// and column range.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Group {
    pub seed: u8,
    pub colour: u8,
    pub size: u16,
    pub x0: u8,
    pub x1: u8,
}

/// The groups of a position, as [`Board::groups`] finds them.
#[derive(Clone, Debug)]
pub struct Groups {
    /// Group number of each cell ([`NONE`] for empty cells).
    pub(super) label: [u16; CELLS],
    /// Every group, singletons included, in the order of their lowest cells.
    pub list: Vec<Group>,
    /// The union-find forest they were read from.
    forest: Forest,
    /// A [`playout`]'s groups, each legal move with its key.
    pub(super) live: Live<u64>,
}

impl Default for Groups {
    fn default() -> Self {
        Groups {
            label: [NONE; CELLS],
            list: Vec::with_capacity(CELLS),
            forest: Forest::default(),
            live: Live::empty(),
        }
    }
}

impl Groups {
    /// The number of the group whose lowest cell is `cell` (a move as a line records it),
    /// or `None` where no group starts there.
    #[inline]
    pub fn starting_at(&self, cell: u8) -> Option<usize> {
        let id = *self.label.get(cell as usize)?;
        (id != NONE && self.list[id as usize].seed == cell).then_some(id as usize)
    }
}

/// The groups of a position as a union-find forest over its cells ([`Board::forest`]),
/// before [`Board::groups`] numbers them.
#[derive(Clone, Debug)]
pub struct Forest {
    /// Parent cell of each tile (a root is its own parent: its group's lowest cell).
    parent: [u8; CELLS],
    /// At a root: its group's size.
    size: [u16; CELLS],
    /// At a root: its group's last column.
    x1: [u8; CELLS],
}

impl Default for Forest {
    fn default() -> Self {
        Forest {
            parent: [0; CELLS],
            size: [0; CELLS],
            x1: [0; CELLS],
        }
    }
}

impl Forest {
    /// The root of tile `i` (halving the path on the way).
    #[inline(always)]
    fn find(&mut self, mut i: u8) -> u8 {
        while self.parent[i as usize] != i {
            let p = self.parent[i as usize];
            self.parent[i as usize] = self.parent[p as usize];
            i = p;
        }
        i
    }
}

impl Board {
    /// Joins every tile to its group ([`Forest`]): one pass of union-find over the cells
    /// in column-major order, each tile joined to the one below and the one to its left
    /// when they match. Every tree is rooted at its group's lowest cell (the smallest cell
    /// index: the union keeps the smaller root), which holds the group's size and last
    /// column.
    pub fn forest(&self, f: &mut Forest) {
        let w = self.width as usize;
        for x in 0..w {
            let base = x * SIDE;
            let h = self.heights[x] as usize;
            let xb = x as u8;
            for y in 0..h {
                let i = base + y;
                let c = self.cells[i];
                let mut r = i as u8;
                if y > 0 && self.cells[i - 1] == c {
                    r = f.find((i - 1) as u8);
                    f.size[r as usize] += 1;
                    f.x1[r as usize] = xb;
                } else {
                    f.size[i] = 1;
                    f.x1[i] = xb;
                }
                f.parent[i] = r;
                // Left: an empty cell holds 0, never a colour.
                if x > 0 && self.cells[i - SIDE] == c {
                    let l = f.find((i - SIDE) as u8);
                    if l != r {
                        let (lo, hi) = if l < r { (l, r) } else { (r, l) };
                        f.parent[hi as usize] = lo;
                        f.parent[i] = lo;
                        f.size[lo as usize] += f.size[hi as usize];
                        f.x1[lo as usize] = xb;
                    }
                }
            }
        }
    }

    /// Finds every group (singletons included) into `out`: the [`Board::forest`], then its
    /// roots numbered in scan order and every tile labelled with its root's number.
    pub fn groups(&self, out: &mut Groups) {
        out.list.clear();
        out.label = [NONE; CELLS];
        let f = &mut out.forest;
        self.forest(f);
        for x in 0..self.width as usize {
            let base = x * SIDE;
            let h = self.heights[x] as usize;
            for y in 0..h {
                let i = base + y;
                let r = f.find(i as u8) as usize;
                if r == i {
                    out.label[i] = out.list.len() as u16;
                    out.list.push(Group {
                        seed: i as u8,
                        colour: self.cells[i],
                        size: f.size[i],
                        x0: x as u8,
                        x1: f.x1[i],
                    });
                } else {
                    out.label[i] = out.label[r];
                }
            }
        }
    }

    /// Removes group number `id` of `groups` (found on this board): tiles fall, empty
    /// columns close to the left.
    pub fn remove(&mut self, groups: &Groups, id: usize) {
        let g = groups.list[id];
        let id = id as u16;
        let mut emptied = false;
        for x in g.x0 as usize..=g.x1 as usize {
            self.fall(x, |i, _| groups.label[i] != id);
            emptied |= self.heights[x] == 0;
        }
        self.counts[g.colour as usize - 1] -= g.size;
        if emptied {
            self.close_columns(g.x0 as usize, |_, _| {});
        }
    }
}
