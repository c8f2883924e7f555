//! The edge bound of a position ([`crate::edge`], with its proof) in parts: each edge
//! slice's mask of starting tiles and relaxed optimum, the runs beyond each slice and
//! between a left and a right one, and the clicks that can touch both; and a child's edge
//! bound from its parent's parts, without reading the child's columns.

use super::{ClickBoard, ClickGame};
use crate::bits::Bits;
use crate::edge::{EdgeBound, Mask, MAX_SLICE};
use crate::grid::MAX_COLOURS;

/// Each edge slice's mask and relaxed optimum ([`crate::edge`]) of a position, as the
/// parent's [`ClickGame::child_edge_bound`] found them when the search built it, so
/// that the position's own edge terms need not read its columns again nor look the
/// optima up. Only [`ClickGame::bounded_successors`] sets it, on the children it builds;
/// every other way to make a position leaves it [`EdgeKnown::NOTHING`].
#[derive(Clone, Copy, Debug)]
pub(super) struct EdgeKnown {
    /// Each side's mask, [`EdgeKnown::UNKNOWN`] where not known.
    mask: [Mask; SIDES],
    /// Each side's relaxed optimum where its mask is known, or the lower bound on it that
    /// a search cut short found ([`EdgeBound::opt_capped`]).
    opt: [u8; SIDES],
}

impl EdgeKnown {
    /// No mask has all 64 bits (a slice has at most [`crate::edge::MAX_TILES_4`] tiles).
    pub(super) const UNKNOWN: Mask = Mask::MAX;
    pub(super) const NOTHING: EdgeKnown = EdgeKnown {
        mask: [Self::UNKNOWN; SIDES],
        opt: [0; SIDES],
    };
}

/// The most edge slices ([`crate::edge`]): the narrow left and right, the wide left and
/// right.
pub(super) const SIDES: usize = 4;

/// The pairs of a left and a right slice that make a joint bound ([`crate::edge`]), by
/// side: both narrow, the wide left with the narrow right, the narrow left with the
/// wide right.
const JOINTS: [(usize, usize); 3] = [(0, 1), (2, 1), (0, 3)];

/// A joint bound ([`JOINTS`]) from its two sides' relaxed optima, the runs lying wholly
/// between its slices (`mid`) and an upper bound on the clicks that can take tiles of both
/// (`span`): the clicks taking tiles of each slice number at least its optimum, those
/// taking tiles of neither at least `mid`, and only the clicks taking tiles of both are
/// counted twice, so the sum less `span` is a lower bound ([`crate::edge`]).
#[inline(always)]
fn joint_bound(opt_l: u32, opt_r: u32, mid: u32, span: u32) -> u32 {
    (opt_l + opt_r + mid).saturating_sub(span)
}

/// The joint of [`JOINTS`] that a wide side (2 or 3) makes: its one pair, with the
/// other edge's narrow slice.
#[inline(always)]
fn joint_of_wide(side: usize) -> usize {
    side - 1
}

const _: () = assert!(
    JOINTS[1].0 == 2 && JOINTS[2].1 == 3,
    "joint_of_wide: a wide side's joint is the one before it"
);

/// The narrow and the wide side of a joint of [`JOINTS`] other than the first (whose
/// sides are both narrow).
#[inline(always)]
fn narrow_and_wide((l, r): (usize, usize)) -> (usize, usize) {
    if l < 2 {
        (l, r)
    } else {
        (r, l)
    }
}

/// The columns of an edge slice (by side: 0 and 1 narrow, of `slice` columns; 2 and 3
/// wide).
#[inline(always)]
pub(super) fn side_width(slice: usize, side: usize) -> usize {
    if side < 2 {
        slice
    } else {
        MAX_SLICE
    }
}

/// Is an edge slice (by side) at the left edge? (Even sides are, odd ones the right.)
#[inline(always)]
pub(super) fn is_left(side: usize) -> bool {
    side & 1 == 0
}

/// The parts of the edge bound of a position ([`crate::edge`]): each side's mask of
/// starting tiles left (`None` if the position is not from the board's start, or the side
/// is not there) and relaxed optimum, the runs lying wholly beyond each side's slice, and
/// each colour's share of those; for each joint bound ([`JOINTS`]), the runs between its
/// slices and how many clicks can touch both. (A side's optimum may be only a lower bound
/// on it, from a search cut short: [`EdgeBound::opt_capped`].)
pub(super) struct EdgeTerms {
    mask: [Option<Mask>; SIDES],
    opt: [u32; SIDES],
    beyond: [u32; SIDES],
    of: [[u32; SIDES]; MAX_COLOURS],
    /// Runs lying wholly between a joint's two slices, in all and per colour.
    mid: [u32; 3],
    mid_of: [[u32; 3]; MAX_COLOURS],
    /// An upper bound on the clicks that can touch both of a joint's slices, in all and
    /// per colour.
    span: [u32; 3],
    span_of: [[u32; 3]; MAX_COLOURS],
}

impl EdgeTerms {
    #[inline]
    pub(super) fn bound(&self) -> u32 {
        let [l, r, joint] = self.parts();
        l.max(r).max(joint)
    }

    /// The left edges' bound, the right edges' and the joint one (0 where not known).
    #[inline]
    pub(super) fn parts(&self) -> [u32; 3] {
        let side = |k: usize| self.mask[k].map_or(0, |_| self.opt[k] + self.beyond[k]);
        let mut joint = 0;
        for (j, &(l, r)) in JOINTS.iter().enumerate() {
            if self.mask[l].is_some() && self.mask[r].is_some() {
                let v = joint_bound(self.opt[l], self.opt[r], self.mid[j], self.span[j]);
                joint = joint.max(v);
            }
        }
        [side(0).max(side(2)), side(1).max(side(3)), joint]
    }
}

/// A joint's terms ([`JOINTS`]) for a child, each worked out at most once for it: the
/// runs lying wholly between its two slices, and an upper bound on the clicks that can
/// touch both, of the colours other than the clicked one (the parent's share, `others`)
/// and of the clicked one (`own`, counted only when a check needs it:
/// [`ClickGame::joint_own`]). Their sum is the joint's span ([`ClickGame::joint_span`]).
#[derive(Clone, Copy)]
struct ChildJoint {
    mid: u32,
    others: u32,
    own: Option<u32>,
}

impl<B: Bits> ClickGame<B> {
    /// The parts of the edge bound of `b`, from which a child's is updated
    /// ([`ClickGame::child_edge_bound`]).
    #[inline]
    pub(super) fn edge_terms(&self, b: &ClickBoard<B>) -> Option<EdgeTerms> {
        let edge = self.edge.as_ref()?;
        let known = b.edge;
        let mut t = EdgeTerms {
            mask: [None; SIDES],
            opt: [0; SIDES],
            beyond: [0; SIDES],
            of: [[0; SIDES]; MAX_COLOURS],
            mid: [0; 3],
            mid_of: [[0; 3]; MAX_COLOURS],
            span: [0; 3],
            span_of: [[0; 3]; MAX_COLOURS],
        };
        for side in 0..self.sides {
            (t.mask[side], t.opt[side]) = match known.mask[side] {
                EdgeKnown::UNKNOWN => match self.edge_mask(edge, b, side) {
                    Some(m) => (Some(m), edge.opt(side, m)),
                    None => (None, 0),
                },
                m => (Some(m), known.opt[side] as u32),
            };
        }
        for (c, &p) in b.planes[..self.colours].iter().enumerate() {
            let cols = self.geom.column_set(p);
            for side in 0..self.sides {
                t.of[c][side] = self.beyond(cols, side);
                t.beyond[side] += t.of[c][side];
            }
            for j in 0..self.joints() {
                let (lw, rw) = self.joint_widths(j);
                t.mid_of[c][j] = self.between(cols, lw, rw);
                t.mid[j] += t.mid_of[c][j];
                t.span_of[c][j] = self.spanning(p, lw, rw);
                t.span[j] += t.span_of[c][j];
            }
        }
        Some(t)
    }

    /// The crossing games' bound of a position with the edge terms `t` (`crate::edge`'s
    /// `crossing.rs`): for each joint of a narrow slice and the other edge's wide one that
    /// meet, the wide one's optimum plus the narrow one's crossing game with the joint's
    /// span as its budget, and each colour's share of it as the colour's own; 0 where the
    /// board has no crossing games.
    ///
    /// It is admissible, but it is not part of the position's edge bound: it only drops
    /// children ([`ClickGame::child_edge_bound`]). A child kept has the bound the other
    /// parts give it, because IDA*'s "one more when no move lowers the bound"
    /// ([`crate::puzzle::Puzzle::can_lower_bound`]) is about the column runs, and claims
    /// it only where the position's edge bound is not above them: a kept child's bound
    /// must then be the column runs'. The crossing games' searches are cut short and
    /// their memo is lossy, so a second search of a position may give less than the first,
    /// and a child's crossing part could not be told from its own edge bound.
    pub(super) fn crossing_bound(&self, t: &EdgeTerms) -> u32 {
        let Some(edge) = self.edge.as_ref().filter(|e| e.crossing()) else {
            return 0;
        };
        let mut best = 0;
        for (j, &(l, r)) in JOINTS.iter().enumerate().skip(1) {
            let (narrow, wide) = narrow_and_wide((l, r));
            if let (Some(mask), Some(_)) = (t.mask[narrow], t.mask[wide]) {
                let share = |c: usize| t.span_of[c][j];
                let g = edge.crossing_capped(narrow, mask, t.span[j], share, u32::MAX);
                best = best.max(t.opt[wide] + g);
            }
        }
        best
    }

    /// How many of [`JOINTS`] there are: 1 with narrow slices only, else 3.
    #[inline(always)]
    fn joints(&self) -> usize {
        if self.sides == 4 {
            3
        } else {
            1
        }
    }

    /// The columns of an edge slice (by side: 0 and 1 narrow, 2 and 3 wide).
    #[inline(always)]
    fn edge_width(&self, side: usize) -> usize {
        side_width(self.slice, side)
    }

    /// The edge bound of the position after clicking `group` (of colour `c`, in the columns
    /// `x0..=x1`) in a position with edge terms `t`, which leaves of that colour the tiles
    /// `rest` (before gravity): a slice the click does not touch is as it was, one it
    /// touches loses the group's tiles there, and only colour `c`'s runs change (other
    /// colours keep their share of the clicks touching both slices: it can only have
    /// fallen, so the parent's stays an upper bound). A bound above `limit` may come back
    /// lower than the full one but still above `limit`: a slice's optimum is only searched
    /// for as far as it matters (a wide slice's until its joint bound with the other edge
    /// is above `limit`, [`ClickGame::joint_cap`]), and a wide slice's only with a few
    /// expansions ([`EdgeBound::opt_capped`]), which may give a lower bound on it instead:
    /// every part of the bound stays a lower bound. Where a pair of a narrow and a wide
    /// slice that meet has its joint bound at `limit` (or up to the edge's crossing reach
    /// below it, [`EdgeBound::reach_crossings`]), its crossing game is searched too, up to
    /// `limit`: a child it puts above `limit` is dropped with its bound, one it does not
    /// keeps the bound without it ([`ClickGame::crossing_bound`] says why); elsewhere it
    /// seldom drops a child and costs more than it saves. Each side's mask and optimum (or
    /// bound) go to `known`, for the child if it is kept.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn child_edge_bound(
        &self,
        t: &EdgeTerms,
        group: B,
        c: usize,
        rest: B,
        (x0, x1): (usize, usize),
        limit: u32,
        known: &mut EdgeKnown,
    ) -> u32 {
        let Some(edge) = &self.edge else {
            return 0;
        };
        let cols = self.geom.column_set(rest);
        let mut best = 0;
        let mut opts = [0u32; SIDES];
        // the sides whose optimum is known (bit per side), the joints not yet checked
        let mut have = 0u32;
        let mut pending = (1u32 << self.joints()) - 1;
        // each joint's terms for the child, worked out when first needed
        let mut joint = [None::<ChildJoint>; 3];
        // Sides the click leaves alone first (their values are known and may drop the
        // child), then the narrow ones it touches, then the wide ones (dearest to search).
        let clicked = (u64::MAX >> (63 - x1)) & !((1u64 << x0) - 1);
        let touched = |side: usize| self.side_columns[side] & clicked != 0;
        let mut order = [0usize; SIDES];
        let mut k = 0;
        for pass in [false, true] {
            for side in 0..self.sides {
                if touched(side) == pass {
                    order[k] = side;
                    k += 1;
                }
            }
        }
        for &side in &order[..self.sides] {
            let Some(mask) = t.mask[side] else {
                continue;
            };
            let beyond = t.beyond[side] - t.of[c][side] + self.beyond(cols, side);
            let (mask, opt) = if touched(side) {
                let xs = self.edge_columns(side);
                let mut taken = [0u64; MAX_SLICE];
                for (k, &x) in xs[..self.edge_width(side)].iter().enumerate() {
                    taken[k] = self.column_bits(group, x);
                }
                // past `limit` the child is dropped whatever the value; a wide side
                // (searched after the other edge's narrow one) past where its joint
                // bound with that side goes above `limit`
                let mut cap = limit.saturating_sub(beyond);
                if side >= 2 {
                    let j = joint_of_wide(side);
                    let (narrow, _) = narrow_and_wide(JOINTS[j]);
                    if have & (1 << narrow) != 0 {
                        let terms = joint[j].get_or_insert_with(|| self.child_joint(t, c, cols, j));
                        cap = cap.min(self.joint_cap(terms, rest, j, opts[narrow], limit));
                    }
                }
                let mask = edge.take(side, mask, &taken);
                (mask, edge.opt_capped(side, mask, cap))
            } else {
                (mask, t.opt[side])
            };
            known.mask[side] = mask;
            known.opt[side] = opt as u8;
            best = best.max(opt + beyond);
            if best > limit {
                return best; // dropped: the rest cannot save it
            }
            opts[side] = opt;
            have |= 1 << side;
            // each joint bound as soon as both its sides are known: it may drop the child
            // before a dearer side is searched
            let mut ready = pending;
            while ready != 0 {
                let j = ready.trailing_zeros() as usize;
                ready &= ready - 1;
                let (l, r) = JOINTS[j];
                if have & (1 << l | 1 << r) != (1 << l | 1 << r) {
                    continue;
                }
                pending &= !(1 << j);
                let terms = joint[j].get_or_insert_with(|| self.child_joint(t, c, cols, j));
                let mid = terms.mid;
                // the joint bound with colour c spanning nothing (an upper bound on the
                // refined one): worth refining only if it beats the rest
                if joint_bound(opts[l], opts[r], mid, terms.others) > best {
                    let span = self.joint_span(terms, rest, j);
                    best = best.max(joint_bound(opts[l], opts[r], mid, span));
                    if best > limit {
                        return best;
                    }
                }
                // where a narrow slice meets the other edge's wide one and this pair's
                // bound is at the limit (or within the edge's crossing reach below it), the
                // crossing game on the narrow one (`crate::edge`'s `crossing.rs`) may drop
                // the child; it is searched for no other
                if j > 0 && edge.crossing() {
                    let span = self.joint_span(terms, rest, j);
                    let bound = joint_bound(opts[l], opts[r], mid, span);
                    if bound + edge.crossing_reach() < limit {
                        continue;
                    }
                    let (narrow, wide) = narrow_and_wide((l, r));
                    let cap = limit.saturating_sub(opts[wide]);
                    // each colour's share of the span: the clicked colour's counted anew,
                    // the others' the parent's (upper bounds, as in `others`)
                    let own = self.joint_own(terms, rest, j);
                    let share = |k: usize| if k == c { own } else { t.span_of[k][j] };
                    let tiles = known.mask[narrow];
                    let g = edge.crossing_capped(narrow, tiles, span, share, cap);
                    if opts[wide] + g > limit {
                        return opts[wide] + g;
                    }
                }
            }
        }
        best
    }

    /// The most a wide side's relaxed optimum may be for the child's joint bound `j` (the
    /// wide side with the other edge's narrow one, [`JOINTS`], whose `terms` these are) to
    /// stay within `limit`, given the narrow side's optimum `opt_narrow`. With `mid` the
    /// child's runs between the two slices and `span` the clicks that can take tiles of
    /// both, the joint bound ([`joint_bound`]) is `opt_w + opt_n + mid − span` (at least
    /// 0), above `limit` exactly when `opt_w > limit + span − opt_n − mid`. So the wide
    /// side's search need not go past that value: a lower bound above it puts the joint
    /// bound above `limit` as the optimum would, and [`child_edge_bound`] drops the child
    /// when it checks the joint, as it does next. Any cap keeps the bound admissible (a
    /// search cut short gives a lower bound); this one drops every child that searching on
    /// to the side's own cap would drop, with the same thresholds tried in the same order,
    /// and no more effort.
    ///
    /// (Only the wide sides are searched this short: they give up after a few
    /// expansions in any case, while a narrow side's optimum, searched until known, is
    /// remembered exactly for the other children and positions that meet its slice.)
    ///
    /// [`child_edge_bound`]: ClickGame::child_edge_bound
    #[inline(always)]
    fn joint_cap(
        &self,
        terms: &mut ChildJoint,
        rest: B,
        j: usize,
        opt_narrow: u32,
        limit: u32,
    ) -> u32 {
        let span = self.joint_span(terms, rest, j);
        limit
            .saturating_add(span)
            .saturating_sub(opt_narrow + terms.mid)
    }

    /// Joint `j`'s terms ([`ChildJoint`]) for the child that leaves colour `c` in the
    /// columns `cols` (a bit set), from the parent's terms `t`: colour `c`'s runs between
    /// the slices are counted again, every other colour's are the parent's.
    #[inline(always)]
    fn child_joint(&self, t: &EdgeTerms, c: usize, cols: u64, j: usize) -> ChildJoint {
        let (lw, rw) = self.joint_widths(j);
        ChildJoint {
            mid: t.mid[j] - t.mid_of[c][j] + self.between(cols, lw, rw),
            others: t.span[j] - t.span_of[c][j],
            own: None,
        }
    }

    /// The clicks of the child that can take tiles of both of joint `j`'s slices: the
    /// other colours' share in `terms` and the clicked colour's ([`ClickGame::joint_own`]).
    #[inline(always)]
    fn joint_span(&self, terms: &mut ChildJoint, rest: B, j: usize) -> u32 {
        terms.others + self.joint_own(terms, rest, j)
    }

    /// The clicked colour's share of the clicks of the child that can take tiles of both
    /// of joint `j`'s slices, from its tiles left, `rest`: counted the first time it is
    /// asked for, then kept in `terms`.
    #[inline(always)]
    fn joint_own(&self, terms: &mut ChildJoint, rest: B, j: usize) -> u32 {
        *terms.own.get_or_insert_with(|| {
            let (lw, rw) = self.joint_widths(j);
            self.spanning(rest, lw, rw)
        })
    }

    /// The columns of joint `j`'s left slice and of its right one.
    #[inline(always)]
    fn joint_widths(&self, j: usize) -> (usize, usize) {
        let (l, r) = JOINTS[j];
        (self.edge_width(l), self.edge_width(r))
    }

    /// The runs of a colour in the columns `cols` (a bit set) that lie wholly beyond a
    /// side's slice ([`crate::edge`]).
    #[inline(always)]
    fn beyond(&self, cols: u64, side: usize) -> u32 {
        let (w, n) = (self.geom.width, self.edge_width(side));
        if is_left(side) {
            (cols & !(cols << 1) & !((1 << n) - 1)).count_ones()
        } else {
            (cols & !(cols >> 1) & ((1 << (w - n)) - 1)).count_ones()
        }
    }

    /// At most how many clicks of the colour whose tiles are `p` can take tiles of both
    /// a left slice of `lw` columns and a right one of `rw`: such a click takes a whole
    /// vertical run of `p` in each column from the left slice's boundary column to the
    /// right's, and runs in a column never split, so the fewest runs in one of those
    /// columns.
    #[inline(always)]
    fn spanning(&self, p: B, lw: usize, rw: usize) -> u32 {
        let mut least = u32::MAX;
        for x in lw - 1..=self.geom.width - rw {
            let v = self.column_bits(p, x);
            least = least.min((v & !(v << 1)).count_ones());
        }
        least
    }

    /// The runs of a colour in the columns `cols` (a bit set) that touch neither a left
    /// slice of `lw` columns nor a right one of `rw`: the runs of its columns between the
    /// slices, less a first one that goes on into the left slice and a last one that goes
    /// on into the right (one run may do both).
    #[inline(always)]
    fn between(&self, cols: u64, lw: usize, rw: usize) -> u32 {
        let w = self.geom.width;
        let middle = ((1u64 << (w - rw)) - 1) & !((1u64 << lw) - 1);
        if middle == 0 {
            return 0;
        }
        let inner = cols & middle;
        let runs = (inner & !(inner << 1)).count_ones();
        let on_left = ((inner >> lw) & (cols >> (lw - 1)) & 1) as u32;
        let on_right = ((inner >> (w - rw - 1)) & (cols >> (w - rw)) & 1) as u32;
        let both = u32::from(inner == middle && on_left + on_right == 2);
        runs + both - on_left - on_right
    }

    /// The mask of starting tiles ([`crate::edge`]) that one edge slice of `b` (by side)
    /// has left, read column by column; `None` if `b` is not from the start.
    fn edge_mask(&self, edge: &EdgeBound, b: &ClickBoard<B>, side: usize) -> Option<Mask> {
        let mut bits = [[0u64; MAX_COLOURS]; MAX_SLICE];
        let n = self.edge_width(side);
        for (k, x) in self.edge_columns(side)[..n].iter().copied().enumerate() {
            for (c, &p) in b.planes[..self.colours].iter().enumerate() {
                bits[k][c] = self.column_bits(p, x);
            }
        }
        edge.mask_of_bits(side, &bits)
    }

    /// The columns of an edge slice ([`crate::edge`]), outermost first: left for an even
    /// side, right for an odd one (as many as [`ClickGame::edge_width`] says).
    #[inline(always)]
    fn edge_columns(&self, side: usize) -> [usize; MAX_SLICE] {
        let w = self.geom.width;
        if is_left(side) {
            [0, 1, 2, 3]
        } else {
            [w - 1, w - 2, w.saturating_sub(3), w.saturating_sub(4)]
        }
    }

    /// The cells of `s` in column `x`, as bits from the bottom (bit `y` for row `y`).
    #[inline(always)]
    pub(super) fn column_bits(&self, s: B, x: usize) -> u64 {
        let h = self.geom.height;
        s.shr((x * h) as u32).low_word() & (u64::MAX >> (64 - h))
    }
}
