//! [`Puzzle`] for [`ClickGame`]: the fewest clicks that clear the board.

use super::{Click, ClickBoard, ClickGame};
use crate::bits::Bits;
use crate::puzzle::Puzzle;

impl<B: Bits> Puzzle for ClickGame<B> {
    type State = ClickBoard<B>;
    type Move = Click;

    #[inline]
    fn is_solved(&self, s: &Self::State) -> bool {
        s.is_empty()
    }

    #[inline]
    fn successors(&self, s: &Self::State, out: &mut Vec<(Self::Move, Self::State)>) {
        self.for_each_group(s, |click, group| {
            out.push((click, self.remove(s, group, click.colour)));
        });
    }

    /// Each child bounded from its parent before it is built (see
    /// `ClickGame::bounded_children`).
    fn bounded_successors(
        &self,
        s: &Self::State,
        max_bound: u32,
        out: &mut Vec<(Self::Move, Self::State, u32)>,
    ) -> u32 {
        self.bounded_children(s, max_bound, out)
    }

    #[inline]
    fn lower_bound(&self, s: &Self::State) -> u32 {
        self.clicks_bound(s)
    }

    /// Only a click that takes a whole run (or, when columns move, a whole colour) lowers
    /// the bound: one flood per run tells.
    #[inline]
    fn can_lower_bound(&self, s: &Self::State) -> bool {
        // The answer is about the column-run bound; where the edge bound is above it, no
        // claim is made.
        self.whole_run_groups(s, |_, _, _| true)
            || self.edge.is_some() && self.edge_bound(s) > self.column_runs(s)
    }

    #[inline]
    fn key(&self, s: &Self::State) -> u64 {
        ClickGame::key(self, s)
    }

    #[inline]
    fn check(&self, s: &Self::State) -> u32 {
        ClickGame::check(self, s)
    }

    #[inline]
    fn priority(&self, _s: &Self::State, m: &Self::Move, _child: &Self::State) -> i64 {
        m.size as i64
    }
}
