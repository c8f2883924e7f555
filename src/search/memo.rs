//! Where a search keeps the lower bounds it proves.

use crate::puzzle::Key;

/// Where a search keeps the lower bounds it proves: the hashed [`Table`](super::Table), or
/// [`Exact`](super::Exact) keyed by whole positions. Every value stored must be a proven
/// lower bound on the moves the position needs; a look-up of a position never stored
/// gives 0.
pub trait Memo<S>: Sync {
    /// The stored lower bound for `s` (whose [`Key::hash`] is `hash`; `check` computes its
    /// [`Key::check`], only when needed), or 0.
    fn get(&self, s: &S, hash: u64, check: impl FnOnce() -> u32) -> u32;
    /// Records that `s` needs at least `bound` more moves; `work` ranks how costly it was
    /// to learn. Keeps the larger bound.
    fn store(&self, s: &S, key: Key, bound: u32, work: u32);
    /// Asks the memory to start loading what [`Memo::get`] will read for `hash`.
    fn prefetch(&self, _hash: u64) {}
    /// Called between iterations, with the memo to itself: room to grow. `stop` says
    /// when the search is to stop: growing may then be cut short.
    fn grow(&mut self, _stop: &dyn Fn() -> bool) {}
}
