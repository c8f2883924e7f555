//! How a click-game search shares its memory budget ([`SearchOptions::memory`],
//! `--memory`) among its large structures, so that together they hold to it.
//!
//! - The edge bound's memos are built within [`edge_part`], half the budget. What they may
//!   then take, once every page of them is written ([`ClickGame::edge_bytes`]), is set
//!   aside first.
//! - What is left goes to the searches that run at the same time ([`shares`]): IDA*'s
//!   transposition table (which grows in place, never past its share) and the anytime
//!   search's buffers (whose beams stop widening where the next would not fit). Without a
//!   proof the anytime search has it all.
//! - `--certify` runs after both have ended and given their memory back: its exact memo
//!   has all that is left.
//!
//! Beyond the budget the process takes a small constant: the binary, the thread stacks,
//! the exact search over at most [`super::EXACT_POSITIONS`] positions for fewest tiles or
//! the score, the child lists and the allocator's slack (see "Memory" in
//! docs/architecture.md).

#[cfg(doc)]
use crate::click::ClickGame;
#[cfg(doc)]
use crate::search::SearchOptions;

/// The part of `memory` the edge bound's memos are built within.
pub fn edge_part(memory: usize) -> usize {
    memory / 2
}

/// The memory of the searches that run side by side, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shares {
    /// IDA*'s transposition table.
    pub table: usize,
    /// The anytime search's buffers.
    pub anytime: usize,
}

/// How `memory` less `edge_bytes` (what the edge memos may take) is shared: a quarter for
/// the anytime search and the rest for IDA*'s table when there is a `proof` to run, else
/// all of it for the anytime search.
pub fn shares(memory: usize, edge_bytes: usize, proof: bool) -> Shares {
    let left = memory.saturating_sub(edge_bytes);
    let anytime = if proof { left / 4 } else { left };
    Shares {
        table: left - anytime,
        anytime,
    }
}

/// What `memory` leaves for a search that runs alone (the anytime search of fewest tiles
/// or the score, or `--certify`'s exact memo) once `edge_bytes` are set aside.
pub fn alone(memory: usize, edge_bytes: usize) -> usize {
    memory.saturating_sub(edge_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parts_add_up_to_the_budget_at_most() {
        let mut cases = 0;
        for memory in [0, 1, 1 << 20, 3 << 20, 1 << 30, usize::MAX / 2] {
            let edge = edge_part(memory) * 7 / 8;
            assert!(edge_part(memory) <= memory / 2);
            for proof in [false, true] {
                let s = shares(memory, edge, proof);
                assert!(edge + s.table + s.anytime <= memory.max(edge));
                if !proof {
                    assert_eq!(s.table, 0);
                }
                cases += 1;
            }
            assert_eq!(alone(memory, edge), memory - edge);
        }
        assert_eq!(cases, 12);
        assert_eq!(
            shares(100, 200, true),
            Shares {
                table: 0,
                anytime: 0
            }
        );
    }
}
