//! The small trait every search algorithm is written against.
//!
//! A [`Puzzle`] is a rule book: given a position it says whether it is solved, which moves
//! lead where, and an admissible lower bound on the moves still needed. The click games
//! ([`crate::click::ClickGame`]) implement it; the algorithms in [`crate::search`] take any
//! `Puzzle`, so each one serves every game that does. (Flood-It is solved by its own A*,
//! [`crate::floodit::solver`]; its tests implement `Puzzle` to check the generic searches
//! against it.)
//!
//! ```
//! use tumble::puzzle::{Puzzle, INFINITE};
//! use tumble::search::{ida_star, SearchOptions};
//!
//! /// Reach 0 from n by subtracting 1 or halving an even number.
//! struct Halve;
//! impl Puzzle for Halve {
//!     type State = u32;
//!     type Move = char;
//!     fn is_solved(&self, s: &u32) -> bool { *s == 0 }
//!     fn successors(&self, s: &u32, out: &mut Vec<(char, u32)>) {
//!         if *s > 0 { out.push(('-', s - 1)); }
//!         if *s > 0 && s % 2 == 0 { out.push(('/', s / 2)); }
//!     }
//!     fn lower_bound(&self, s: &u32) -> u32 { if *s == 0 { 0 } else { 1 } }
//!     fn key(&self, s: &u32) -> u64 { *s as u64 }
//!     fn check(&self, s: &u32) -> u32 { s.wrapping_mul(0x9e37_79b9) }
//! }
//! let out = ida_star(&Halve, &12, &SearchOptions::default(), None, &mut |_| {});
//! assert!(out.proven);
//! assert_eq!(out.best.unwrap().len(), 5); // 12 / 6 - 5 / 4 / 2 - 1 - 0 ... five moves
//! ```

/// A position's two hashes: [`Puzzle::key`] and [`Puzzle::check`]. A transposition
/// table takes a hit only when both match, so a bound read for the wrong position needs
/// a collision of 96 independent bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    /// The 64-bit hash: picks the table's bucket and is kept whole in the entry.
    pub hash: u64,
    /// A second hash, independent of `hash`.
    pub check: u32,
}

/// The bound of a position that cannot be solved at all.
pub const INFINITE: u32 = u32::MAX / 4;

/// A single-agent puzzle with unit-cost moves.
pub trait Puzzle: Sync {
    /// A position. Cheap to clone: search keeps one per ply.
    type State: Clone + Send + Sync + Eq + std::hash::Hash;
    /// A move, as reported in solutions.
    type Move: Clone + Send + Sync + std::fmt::Debug;

    /// Is the position solved (the goal)?
    fn is_solved(&self, s: &Self::State) -> bool;

    /// Appends every legal move with the position it leads to.
    fn successors(&self, s: &Self::State, out: &mut Vec<(Self::Move, Self::State)>);

    /// The children whose lower bound is at most `max_bound`, with that bound, as
    /// (move, position, bound); returns the smallest bound among the children left out
    /// ([`INFINITE`] if none). Puzzles that can bound a child before building it override
    /// this to skip building the ones a search would prune.
    fn bounded_successors(
        &self,
        s: &Self::State,
        max_bound: u32,
        out: &mut Vec<(Self::Move, Self::State, u32)>,
    ) -> u32 {
        let mut kids = Vec::new();
        self.successors(s, &mut kids);
        let mut pruned = INFINITE;
        for (m, c) in kids {
            let h = self.lower_bound(&c);
            if h <= max_bound {
                out.push((m, c, h));
            } else {
                pruned = pruned.min(h);
            }
        }
        pruned
    }

    /// A lower bound on the moves needed from `s`: never more than the true number
    /// (admissible), [`INFINITE`] if `s` cannot be solved, 0 when solved. It may be 0 on
    /// a position that is not solved (the searches then count it as 1: such a position
    /// needs a move).
    fn lower_bound(&self, s: &Self::State) -> u32;

    /// A 64-bit key of the position for transposition tables (equal positions, equal keys).
    fn key(&self, s: &Self::State) -> u64;

    /// A second, 32-bit hash of the position, independent of [`Puzzle::key`] (computed
    /// with other constants, so that two positions agreeing on one are no likelier to
    /// agree on the other). The transposition table compares both.
    fn check(&self, s: &Self::State) -> u32;

    /// Both hashes of `s`.
    #[inline]
    fn keys(&self, s: &Self::State) -> Key {
        Key {
            hash: self.key(s),
            check: self.check(s),
        }
    }

    /// Is there a move from `s` to a position with a lower bound? When there is none,
    /// `s` needs at least `lower_bound(s) + 1` moves (every move leaves the bound where it
    /// is or higher). A search with no slack left uses it to drop such positions without
    /// expanding them. The default says yes (no information).
    fn can_lower_bound(&self, _s: &Self::State) -> bool {
        true
    }

    /// Move-ordering hint: among children with the same bound, higher is tried first.
    fn priority(&self, _s: &Self::State, _m: &Self::Move, _child: &Self::State) -> i64 {
        0
    }
}
