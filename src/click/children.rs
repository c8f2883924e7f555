//! The children a bounded search is given
//! ([`Puzzle::bounded_successors`](crate::puzzle::Puzzle::bounded_successors)): each
//! bounded from its parent before it is built, a forced group ([`ClickGame::forced_group`])
//! standing for all, and those that cannot be within the search's bound left unbuilt.
//!
//! ## Children that cannot lower the bound (only when columns move)
//! When columns move the bound is the colours left, and only a click that takes a whole
//! colour lowers it. So a position in which no colour is one clickable group needs a click
//! more than its bound, and a search with no slack left at a child that keeps every colour
//! can drop it when no colour of it is whole. Most such children are told from the parent,
//! without building them: clicking a group changes only the cells of its moved region
//! ([`ClickGame::moved_region`], with its proof), and a colour with a part out of the
//! click's reach or no tile in that region cannot be whole in the child (`parts.rs`, with
//! its proof). So when every colour has two parts or more and one of them out of the
//! click's reach or none of its tiles in the region, the child has no whole colour, needs
//! at least the bound plus one, and is not built. The children that are built are checked
//! whole before they are handed to the search, which would otherwise hash, probe and store
//! each to drop it. `tests/engine_vs_reference.rs` checks the moved region cell by cell,
//! and that no child left out has a whole clickable colour, against the reference
//! simulator.

use super::edge_terms::EdgeKnown;
use super::parts::Parts;
use super::{Click, ClickBoard, ClickGame};
use crate::bits::Bits;
use crate::grid::MAX_COLOURS;
use crate::puzzle::INFINITE;

impl<B: Bits> ClickGame<B> {
    /// Bounds each child from its parent before building it: a click of colour `c` leaves
    /// every other colour's columns (and presence) as they were, so only `c`'s term of the
    /// bound changes, and it can be computed from `c`'s plane minus the group, without
    /// gravity. Only children within `max_bound` are built. A forced group
    /// ([`ClickGame::forced_group`]), found on the way, replaces all other children.
    #[inline]
    pub(super) fn bounded_children(
        &self,
        s: &ClickBoard<B>,
        max_bound: u32,
        out: &mut Vec<(Click, ClickBoard<B>, u32)>,
    ) -> u32 {
        let mut terms = [0u32; MAX_COLOURS];
        for (t, &p) in terms.iter_mut().zip(&s.planes[..self.colours]) {
            *t = self.bound_term(p);
        }
        let total: u32 = terms.iter().sum();
        let start = out.len();
        if max_bound < total {
            return self.bound_lowering_children(s, total, out);
        }
        if !self.rules.columns_fixed() && max_bound == total {
            if let Some(pruned) = self.children_in_reach(s, total, out) {
                return pruned;
            }
        }
        let mut pruned = INFINITE;
        let edge = self.edge_terms(s);
        self.for_each_raw_group(s, |c, plane, group, size| {
            let rest = plane.without(group);
            let left = rest.count();
            let h = if left != 0 && left < self.rules.min_group {
                INFINITE
            } else {
                total - terms[c] + self.bound_term(rest)
            };
            let forced = self.is_forced(s, plane, group);
            if forced {
                out.truncate(start);
                pruned = INFINITE;
            }
            if h > max_bound {
                pruned = pruned.min(h);
            } else {
                let click = self.click_of(group, c, size);
                let mut known = EdgeKnown::NOTHING;
                let h = match &edge {
                    Some(t) => {
                        let x = (click.x0 as usize, click.x1 as usize);
                        let e = self.child_edge_bound(t, group, c, rest, x, max_bound, &mut known);
                        h.max(e)
                    }
                    None => h,
                };
                if h > max_bound {
                    pruned = pruned.min(h);
                } else {
                    let mut child = self.remove(s, group, click.colour);
                    child.edge = known;
                    out.push((click, child, h));
                }
            }
            forced
        });
        pruned
    }

    /// The children of `s` whose bound is below the parent's `total`, for a search with no
    /// slack left. One click lowers the bound by at most one, and only by taking a whole term
    /// away: a whole colour (colour bound) or, when columns never move, a whole run of a
    /// colour (a group lies within one run, and other colours' runs do not change). So one
    /// flood per run finds them all, instead of one per group. Returns the least bound of the
    /// children left out (at least `total`).
    fn bound_lowering_children(
        &self,
        s: &ClickBoard<B>,
        total: u32,
        out: &mut Vec<(Click, ClickBoard<B>, u32)>,
    ) -> u32 {
        let start = out.len();
        let mut pruned = INFINITE;
        let edge = self.edge_terms(s);
        let forced = self.whole_run_groups(s, |c, plane, group| {
            let click = self.click_of(group, c, group.count());
            let forced = self.is_forced(s, plane, group);
            if forced {
                out.truncate(start);
                pruned = INFINITE;
            }
            let mut known = EdgeKnown::NOTHING;
            let h = match &edge {
                Some(t) => {
                    let x = (click.x0 as usize, click.x1 as usize);
                    let rest = plane.without(group);
                    let e = self.child_edge_bound(t, group, c, rest, x, total - 1, &mut known);
                    (total - 1).max(e)
                }
                None => total - 1,
            };
            if h < total {
                let mut child = self.remove(s, group, click.colour);
                child.edge = known;
                out.push((click, child, h));
            } else {
                pruned = pruned.min(h);
            }
            forced
        });
        if forced {
            pruned // the forced child stands for all
        } else {
            pruned.min(total)
        }
    }

    /// Calls `f(colour index, plane, group)` for every clickable group that is a whole run
    /// of its colour (a whole colour when columns move) and leaves of its colour nothing or
    /// enough to click: the clicks that can lower the bound. One flood per run. Stops, and
    /// returns `true`, when `f` does.
    #[inline]
    pub(super) fn whole_run_groups(
        &self,
        s: &ClickBoard<B>,
        mut f: impl FnMut(usize, B, B) -> bool,
    ) -> bool {
        let g = &self.geom;
        let fixed = self.rules.columns_fixed();
        for (c, &plane) in s.planes[..self.colours].iter().enumerate() {
            if plane.is_empty() {
                continue;
            }
            // Runs as a bit set of columns; when columns move, the whole plane is one "run".
            let mut runs = if fixed { g.column_set(plane) } else { 1 };
            while runs != 0 {
                let part = if fixed {
                    let x0 = runs.trailing_zeros() as usize;
                    let len = (runs >> x0).trailing_ones() as usize;
                    runs &= !(((1u64 << len) - 1) << x0);
                    plane & g.column_span(x0, x0 + len - 1)
                } else {
                    runs = 0;
                    plane
                };
                let seed = part.first().expect("a run has tiles");
                let group = g.flood(B::single(seed), plane);
                if group != part || !self.clickable(group) {
                    continue;
                }
                let left = plane.count() - group.count();
                if (left == 0 || left >= self.rules.min_group) && f(c, plane, group) {
                    return true;
                }
            }
        }
        false
    }

    /// [`crate::puzzle::Puzzle::bounded_successors`] where columns move and the children that keep every
    /// colour have no slack (the bound they may have is the colour bound `total` of `s`):
    /// those in which no colour can be whole need one more (this file's docs, "Children that
    /// cannot lower the bound"), and are told from the parts of `s` without being built.
    /// (No edge bound and no forced moves where columns move.) `None` where [`Parts`]
    /// cannot be had. Kept out of line, away from the search where columns stay.
    #[inline(never)]
    fn children_in_reach(
        &self,
        s: &ClickBoard<B>,
        total: u32,
        out: &mut Vec<(Click, ClickBoard<B>, u32)>,
    ) -> Option<u32> {
        let parts = Parts::of(self, s)?;
        let max_bound = total;
        let mut pruned = INFINITE;
        for i in 0..parts.n {
            let (c, group) = (parts.colour[i] as usize, parts.sets[i]);
            if !self.clickable(group) {
                continue;
            }
            let left = (s.planes[c].count() - group.count()) as usize;
            let h = if left == 0 {
                total - 1
            } else if left < self.rules.min_group as usize {
                INFINITE
            } else {
                total
            };
            let click = self.click_of(group, c, group.count());
            if h > max_bound {
                pruned = pruned.min(h);
            } else if h == max_bound
                && !parts.may_leave_whole(self, s, i, (click.x0 as usize, click.x1 as usize))
            {
                pruned = pruned.min(h + 1);
            } else {
                let child = self.remove(s, group, click.colour);
                if h == max_bound && !self.has_whole_colour(&child) {
                    pruned = pruned.min(h + 1);
                    continue;
                }
                out.push((click, child, h));
            }
        }
        Some(pruned)
    }

    /// Is some colour of `b` one clickable group (when columns move, the clicks that
    /// lower the bound)? The same answer as [`crate::puzzle::Puzzle::can_lower_bound`] there, sooner
    /// where a colour has a tile with no neighbour of its colour.
    #[inline]
    fn has_whole_colour(&self, b: &ClickBoard<B>) -> bool {
        b.planes[..self.colours].iter().any(|&p| {
            let Some(seed) = p.first() else {
                return false;
            };
            (p.count() == 1 || p.without(self.geom.neighbours(p)).is_empty())
                && self.geom.flood(B::single(seed), p) == p
                && self.clickable(p)
        })
    }
}
