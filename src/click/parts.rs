//! The parts of a position (4-connected sets of one colour's tiles), to tell without
//! building a child that no colour of it can be whole.
//!
//! - **a part out of reach**: a part `P` (a maximal 4-connected set of one colour) other
//!   than the clicked group, with neither a cell in the moved region
//!   ([`ClickGame::moved_region`]) nor a neighbour in it, is a part of the child too: its
//!   cells and its neighbours' cells hold what they held, and those neighbours were not of
//!   its colour. If its colour has another part (which loses no tile: only the group's
//!   tiles go), that colour is not whole in the child.
//! - **no tile that moves**: a tile that moves leaves a cell of the region and lands in
//!   one, so a colour with no tile in the region (the group's aside) has no tile that
//!   moves; every part of it lies outside the region, and the cells beside it that are
//!   in the region do not get its colour: its parts stay apart.

use super::{ClickBoard, ClickGame};
use crate::bits::Bits;
use crate::grid::MAX_COLOURS;

/// The most parts [`Parts`] holds; a position with more is searched without it.
const PARTS_MAX: usize = 64;

/// Every part (4-connected set of one colour's tiles, clickable or not) of a settled
/// position ([`ClickGame::is_settled`]), colour by colour, each colour's parts in the
/// order of their lowest cell: for telling, without building a child, that no colour of
/// it can be whole ([`Parts::may_leave_whole`]).
pub(super) struct Parts<B> {
    pub(super) sets: [B; PARTS_MAX],
    pub(super) colour: [u8; PARTS_MAX],
    pub(super) n: usize,
    /// Colour `c`'s parts are `sets[start[c]..start[c + 1]]`.
    start: [u8; MAX_COLOURS + 1],
    /// The colours with one part, with two, and with two or more (bit `c` for colour `c`).
    one: u32,
    two: u32,
    more: u32,
}

impl<B: Bits> Parts<B> {
    /// The parts of `s`, or `None` if `s` is not settled or has more than
    /// [`PARTS_MAX`] parts.
    pub(super) fn of(game: &ClickGame<B>, s: &ClickBoard<B>) -> Option<Self> {
        if !game.is_settled(s) {
            return None;
        }
        let mut p = Parts {
            sets: [B::EMPTY; PARTS_MAX],
            colour: [0; PARTS_MAX],
            n: 0,
            start: [0; MAX_COLOURS + 1],
            one: 0,
            two: 0,
            more: 0,
        };
        for (c, &plane) in s.planes[..game.colours].iter().enumerate() {
            p.start[c] = p.n as u8;
            let mut seeds = plane;
            while let Some(i) = seeds.first() {
                if p.n == PARTS_MAX {
                    return None;
                }
                let part = game.geom.flood(B::single(i), plane);
                seeds = seeds.without(part);
                p.sets[p.n] = part;
                p.colour[p.n] = c as u8;
                p.n += 1;
            }
            let k = p.n - p.start[c] as usize;
            p.one |= u32::from(k == 1) << c;
            p.two |= u32::from(k == 2) << c;
            p.more |= u32::from(k >= 2) << c;
        }
        p.start[game.colours] = p.n as u8;
        Some(p)
    }

    /// Can some colour be one part after clicking part `i` (of colour `c`, in the
    /// columns `x0..=x1`) of `s`? `false` is a proof that it cannot: a colour left with
    /// two parts or more, one of which neither lies in nor touches the cells the click
    /// may change, keeps that part as a part of its own.
    #[inline]
    pub(super) fn may_leave_whole(
        &self,
        game: &ClickGame<B>,
        s: &ClickBoard<B>,
        i: usize,
        (x0, x1): (usize, usize),
    ) -> bool {
        let c = self.colour[i] as usize;
        if self.one & !(1 << c) != 0 || self.two & (1 << c) != 0 {
            return true; // a colour whole already (it may stay so)
        }
        let group = self.sets[i];
        let moved = game.moved_region(s, group, x0, x1);
        let reach = moved | game.geom.neighbours(moved);
        // a colour of two parts or more (besides the group) with a tile that may move,
        // and no part out of the click's reach
        let mut more = self.more;
        while more != 0 {
            let d = more.trailing_zeros() as usize;
            more &= more - 1;
            if !s.planes[d].without(group).meets(moved) {
                continue;
            }
            let (a, b) = (self.start[d] as usize, self.start[d + 1] as usize);
            if self.sets[a..b]
                .iter()
                .enumerate()
                .all(|(j, p)| a + j == i || p.meets(reach))
            {
                return true;
            }
        }
        false
    }
}
