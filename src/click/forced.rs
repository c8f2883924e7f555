//! Forced moves (only when columns never move).
//!
//! If a clickable group `G` is a whole run of its colour `c` (all the `c` tiles of a
//! maximal run of columns holding `c`) and nothing rests on `G` (every cell above a cell of
//! `G` is empty or in `G`), some optimal solution clicks `G` first, so no other move need
//! be tried. Proof: tiles never change column and nothing is above `G`, so the tiles of
//! `G` stay the top of their columns for ever: they never support another tile, never
//! connect tiles of another colour, and never connect to other `c` tiles (those are in
//! other runs, which never meet). So every other tile falls, groups and may be clicked
//! exactly as if `G` were not there, and the clicks that take `G`'s tiles (at least one)
//! change nothing else. In any solution, deleting those clicks and clicking `G` first
//! instead gives a solution no longer. (Clicking `G` must leave no run too small to click
//! under the smallest-group rule: checked.)

use super::{Click, ClickBoard, ClickGame};
use crate::bits::Bits;

impl<B: Bits> ClickGame<B> {
    /// A group that some optimal solution clicks first (its proof is in `src/click/forced.rs`), if there is
    /// one: a whole run of a colour with nothing resting on it, when columns never move.
    pub fn forced_group(&self, b: &ClickBoard<B>) -> Option<(Click, B)> {
        let mut found = None;
        self.whole_run_groups(b, |c, plane, group| {
            let forced = self.is_forced(b, plane, group);
            if forced {
                found = Some((self.click_of(group, c, group.count()), group));
            }
            forced
        });
        found
    }

    /// Is the clickable `group` of `plane` forced (this file's docs)? Only when columns never
    /// move: it is a whole run of its colour, nothing rests on it, and what it leaves of
    /// its colour is nothing or enough to click.
    #[inline]
    pub(super) fn is_forced(&self, b: &ClickBoard<B>, plane: B, group: B) -> bool {
        let g = &self.geom;
        if !self.rules.columns_fixed() {
            return false;
        }
        let rests_on = (group.shl(1).without(g.bottom) & b.occupied).without(group);
        if !rests_on.is_empty() {
            return false;
        }
        let (x0, x1) = g.columns_of(group);
        // All the colour's tiles in the group's columns and the ones beside them: then
        // the columns beside hold none, and the group is its whole run.
        let around = g.column_span(x0.saturating_sub(1), (x1 + 1).min(g.width - 1));
        if plane & around != group {
            return false;
        }
        let left = plane.count() - group.count();
        left == 0 || left >= self.rules.min_group
    }
}
