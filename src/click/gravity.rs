//! What a click does to a position: the group goes, the tiles above it fall, and the
//! sideways step of the rules follows (empty columns close left, or every row squeezes
//! toward the centre). Also which cells a click can change at all ([`ClickGame::moved_region`]).

use super::edge_terms::EdgeKnown;
use super::{ClickBoard, ClickGame};
use crate::bits::{pext64, Bits, FAST_PEXT};
use crate::rules::Sideways;

impl<B: Bits> ClickGame<B> {
    /// The position after removing `group` (all of colour `colour`, 1-based): gravity, then
    /// the sideways step of the rules.
    #[inline]
    pub fn remove(&self, b: &ClickBoard<B>, group: B, colour: u8) -> ClickBoard<B> {
        let g = &self.geom;
        let h = g.height;
        let mut out = *b;
        out.edge = EdgeKnown::NOTHING;
        out.planes[colour as usize - 1] = b.planes[colour as usize - 1].without(group);
        let keep = b.occupied.without(group);
        // Columns the group touches: a connected group spans one run of columns.
        let (x0, x1) = g.columns_of(group);
        let span = g.column_span(x0, x1);
        let mut target = keep.without(span);
        for x in x0..x1 + 1 {
            let k = (keep & g.cols[x]).count() as usize;
            target |= B::low(k).shl((x * h) as u32);
        }
        if keep != target {
            for c in 0..self.colours {
                let p = out.planes[c];
                if !p.meets(span) {
                    continue;
                }
                out.planes[c] = if FAST_PEXT {
                    p.pext(keep).pdep(target)
                } else {
                    fall_by_columns(p, keep, span, (x0, x1), h)
                };
            }
        }
        out.occupied = target;
        match self.rules.sideways {
            Sideways::None => {}
            Sideways::Left => self.close_left(&mut out),
            Sideways::Centre => self.squeeze(&mut out),
        }
        out
    }

    /// Empty columns close up to the left. Every empty column left of a tile closes, not
    /// only those the last click emptied: a board may be given with gaps.
    #[inline]
    fn close_left(&self, b: &mut ClickBoard<B>) {
        let g = &self.geom;
        let cols = g.column_set(b.occupied);
        if cols & cols.wrapping_add(1) == 0 {
            return; // the non-empty columns are already 0..k
        }
        let mut keep_cols = B::EMPTY;
        for x in 0..g.width {
            if b.occupied.meets(g.cols[x]) {
                keep_cols |= g.cols[x];
            }
        }
        b.occupied = b.occupied.pext(keep_cols);
        for c in 0..self.colours {
            b.planes[c] = b.planes[c].pext(keep_cols);
        }
    }

    /// Every row squeezes toward the centre: the tiles of columns `0..m` end at `m-1`, those
    /// of `m..W` start at `m`, each half keeping its order (`m = W/2`).
    #[inline]
    fn squeeze(&self, b: &mut ClickBoard<B>) {
        let g = &self.geom;
        let left = B::low(g.half * g.height);
        for y in 0..g.height {
            let row = b.occupied & g.rows[y];
            if row.is_empty() {
                break; // gravity: rows above are empty too
            }
            let l = (row & left).count() as usize;
            let r = row.count() as usize - l;
            let target = g.squeezed[(y * (g.half + 1) + l) * (g.width - g.half + 1) + r];
            if row == target {
                continue;
            }
            b.occupied = b.occupied.without(row) | target;
            for c in 0..self.colours {
                let p = b.planes[c];
                if p.meets(row) {
                    b.planes[c] = p.without(row) | p.pext(row).pdep(target);
                }
            }
        }
    }

    /// Is `b` as the sideways step leaves a position (every row squeezed toward the
    /// centre, or no empty column left of a tile)? Every position a click makes is; a
    /// board as given need not be.
    pub fn is_settled(&self, b: &ClickBoard<B>) -> bool {
        let g = &self.geom;
        let h = g.height as u32;
        match self.rules.sideways {
            Sideways::None => true,
            Sideways::Left => {
                let cols = g.column_set(b.occupied);
                cols & cols.wrapping_add(1) == 0
            }
            Sideways::Centre => {
                // every tile of the left half but its last column has a tile to its
                // right, every tile of the right half but its first column one to its left
                let m = g.half;
                let left = B::low(m * g.height);
                let (occ_l, occ_r) = (b.occupied & left, b.occupied.without(left));
                let centre_l = if m > 0 { g.cols[m - 1] } else { B::EMPTY };
                occ_l.without(centre_l).without(occ_l.shr(h)).is_empty()
                    && occ_r.without(g.cols[m]).without(occ_r.shl(h)).is_empty()
            }
        }
    }

    /// The cells whose content clicking `group` (in the columns `x0..=x1`) in the settled
    /// position `b` ([`ClickGame::is_settled`]) may change: every other cell holds after
    /// the click what it holds now.
    ///
    /// Gravity changes only the group's columns, from the group's lowest cell in each up.
    /// Under the dust squeeze, a half the group does not touch is not changed at all; in a
    /// half it touches, with `y0` the group's lowest row there, rows below `y0` keep their
    /// tiles (gravity changed nothing there) and were squeezed already; in a row at or
    /// above `y0` the cells between the group's innermost column and the centre hold the
    /// same as before: where the row had tiles there, it had tiles all the way to the
    /// centre (settled), gravity did not touch those columns and the squeeze keeps a tile
    /// with only tiles between it and the centre where it is; where it had none, the cells
    /// farther out were empty too, and so were all cells above them (gravity), so nothing
    /// can fall or slide in. With columns closing left, gravity alone unless a column
    /// empties, and then every column from the group's first one on.
    #[inline]
    pub fn moved_region(&self, b: &ClickBoard<B>, group: B, x0: usize, x1: usize) -> B {
        debug_assert!(self.is_settled(b));
        let g = &self.geom;
        let h = g.height;
        // Cells at or above the group's lowest row in the columns `xa..=xb`.
        let above = |xa: usize, xb: usize| {
            let mut low = h;
            for x in xa..=xb {
                low = low.min(self.column_bits(group, x).trailing_zeros() as usize);
            }
            g.from_row[low]
        };
        match self.rules.sideways {
            Sideways::None => above(x0, x1) & g.column_span(x0, x1),
            Sideways::Left => {
                if (x0..=x1).any(|x| (b.occupied & g.cols[x]).without(group).is_empty()) {
                    // a column empties: every column from the group's first on may move
                    g.all.without(B::low(x0 * h))
                } else {
                    above(x0, x1) & g.column_span(x0, x1)
                }
            }
            Sideways::Centre => {
                let m = g.half;
                let mut region = B::EMPTY;
                if x0 < m {
                    let xb = x1.min(m - 1);
                    region |= above(x0, xb) & B::low((xb + 1) * h);
                }
                if x1 >= m {
                    let xa = x0.max(m);
                    region |= above(xa, x1) & g.all.without(B::low(xa * h));
                }
                region
            }
        }
    }
}

/// The tiles `p` (a subset of `keep`) after gravity, where `keep` is every tile left and
/// only the columns `x0..=x1` (the set `span`, columns of `h` cells) lost tiles: what
/// `p.pext(keep).pdep(target)` gives, column by column. Columns never move in gravity,
/// and outside the span nothing does; in a column the tiles kept end at its bottom in
/// their order, a `pext` of the column's bits. Where `pext` is a bit loop, one over a
/// column's few tiles costs far less than two over a whole board's.
#[inline]
fn fall_by_columns<B: Bits>(p: B, keep: B, span: B, (x0, x1): (usize, usize), h: usize) -> B {
    let column = <u64 as Bits>::low(h);
    let mut q = p.without(span);
    for x in x0..x1 + 1 {
        let at = (x * h) as u32;
        let kept = pext64(
            p.shr(at).low_word() & column,
            keep.shr(at).low_word() & column,
        );
        q |= B::from_word(kept).shl(at);
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::Wide;

    /// Gravity column by column is gravity on the whole board: on random boards of one
    /// word and of four, random tiles kept outside a random run of columns and any inside
    /// it, against `pext`/`pdep` over the whole board.
    fn falls_as_a_whole<B: Bits>(width: usize, h: usize, seed: u64) -> usize {
        let mut rng = fastrand::Rng::with_seed(seed);
        let word = |rng: &mut fastrand::Rng| {
            let mut b = B::EMPTY;
            for i in 0..width * h {
                if rng.u8(..4) != 0 {
                    b.insert(i);
                }
            }
            b
        };
        let mut checked = 0;
        for _ in 0..500 {
            let x0 = rng.usize(..width);
            let x1 = rng.usize(x0..width);
            let span = B::low((x1 + 1) * h).without(B::low(x0 * h));
            // settled outside the span: each column's tiles at its bottom
            let mut keep = word(&mut rng) & span;
            let mut target = B::EMPTY;
            for x in 0..width {
                let col = B::low((x + 1) * h).without(B::low(x * h));
                let n = if x0 <= x && x <= x1 {
                    (keep & col).count() as usize
                } else {
                    let n = rng.usize(..=h);
                    keep |= B::low(n).shl((x * h) as u32);
                    n
                };
                target |= B::low(n).shl((x * h) as u32);
            }
            let p = word(&mut rng) & keep;
            let want = p.pext(keep).pdep(target);
            assert_eq!(fall_by_columns(p, keep, span, (x0, x1), h), want);
            checked += 1;
        }
        checked
    }

    #[test]
    fn gravity_by_columns_is_gravity_on_the_board() {
        let one = falls_as_a_whole::<u64>(7, 9, 0x6a5);
        let four = falls_as_a_whole::<Wide<4>>(15, 15, 0x6a6);
        assert_eq!((one, four), (500, 500));
    }
}
