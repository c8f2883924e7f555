//! Lower bounds on the clicks a position still needs (admissible: never more than the
//! clicks still needed).
//!
//! - **colours**: every colour left needs at least one click (one click removes one colour).
//! - **column runs** (only when columns never move, `former` and `figure`): a colour that
//!   occupies `k` maximal runs of adjacent columns needs at least `k` clicks. A group is
//!   4-connected, so its columns form one run of adjacent columns, all holding its colour;
//!   tiles never change column, so a column without colour `c` never gains one, and two runs
//!   of `c` stay separated for ever: no click can take tiles of two runs.
//! - **edge** (only when columns never move): the three outermost columns on each side
//!   (two on boards under seven columns), and on boards of seven or more the four
//!   outermost as well, solved exactly in a relaxed game, plus the column runs lying
//!   wholly beyond them ([`crate::edge`], with its proof), and a left and a right slice at
//!   once (their optima added, minus the clicks that can touch both). The bound is the
//!   largest of these. Where a narrow slice meets the other edge's wide one, the wide
//!   one's optimum plus the narrow one's crossing game is one more, used only to drop
//!   children (`edge_terms.rs` says why). Children get it from their parent's: a slice
//!   the click does not touch keeps its optimum, and one it touches loses the clicked
//!   tiles from its mask of starting tiles (`edge_terms.rs`).
//! - with a smallest group of 2, a colour with a single tile can never be cleared: the board
//!   is unsolvable (bound [`INFINITE`]).

use super::{ClickBoard, ClickGame};
use crate::bits::Bits;
use crate::puzzle::INFINITE;

impl<B: Bits> ClickGame<B> {
    /// The best admissible bound on the clicks needed to clear `b` ([`INFINITE`] when it
    /// cannot be cleared).
    #[inline]
    pub fn clicks_bound(&self, b: &ClickBoard<B>) -> u32 {
        let runs = self.runs_bound(b);
        if runs >= INFINITE {
            return runs;
        }
        runs.max(self.edge_bound(b))
    }

    /// [`ClickGame::clicks_bound`] without the edge bound: colours, or column runs when
    /// columns never move ([`INFINITE`] when the board cannot be cleared).
    #[inline]
    pub fn runs_bound(&self, b: &ClickBoard<B>) -> u32 {
        if self.rules.min_group >= 2 {
            for p in &b.planes[..self.colours] {
                let n = p.count();
                if n != 0 && n < self.rules.min_group {
                    return INFINITE;
                }
            }
        }
        b.planes[..self.colours]
            .iter()
            .map(|&p| self.bound_term(p))
            .sum()
    }

    /// One colour's share of [`ClickGame::clicks_bound`] (without the unclearable check):
    /// its column runs when columns never move, else 1 if it has tiles.
    #[inline(always)]
    pub(super) fn bound_term(&self, plane: B) -> u32 {
        if plane.is_empty() {
            0
        } else if self.rules.columns_fixed() {
            let cols = self.geom.column_set(plane);
            (cols & !(cols << 1)).count_ones()
        } else {
            1
        }
    }

    /// Colours with at least one tile.
    #[inline]
    pub fn colours_left(&self, b: &ClickBoard<B>) -> u32 {
        b.planes[..self.colours]
            .iter()
            .filter(|p| !p.is_empty())
            .count() as u32
    }

    /// The column-run bound (its proof is in `src/click/bounds.rs`): sound only when
    /// columns never move.
    #[inline]
    pub fn column_runs(&self, b: &ClickBoard<B>) -> u32 {
        b.planes[..self.colours]
            .iter()
            .map(|&p| {
                let cols = self.geom.column_set(p);
                (cols & !(cols << 1)).count_ones()
            })
            .sum()
    }

    /// The edge bound of `b` ([`crate::edge`]): 0 where the board has none.
    #[inline]
    pub fn edge_bound(&self, b: &ClickBoard<B>) -> u32 {
        self.edge_terms(b).map_or(0, |t| t.bound())
    }

    /// The columns of each edge's narrow slice of the edge bound ([`crate::edge`]): 2 or
    /// 3, or 0 where the board has no edge bound.
    pub fn edge_slice(&self) -> usize {
        self.slice
    }

    /// The three parts of the edge bound of `b` ([`crate::edge`]): the left edge's, the
    /// right edge's and the joint one; and the crossing games' bound (0 where there are
    /// none), which only drops children
    /// ([`crate::puzzle::Puzzle::bounded_successors`]); `None` where the board has no
    /// edge bound.
    pub fn edge_bound_parts(&self, b: &ClickBoard<B>) -> Option<[u32; 4]> {
        self.edge_terms(b).map(|t| {
            let [l, r, joint] = t.parts();
            [l, r, joint, self.crossing_bound(&t)]
        })
    }
}
