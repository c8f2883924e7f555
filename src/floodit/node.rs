//! The A*'s nodes: one array of them, each linked to its parent, holds the search's
//! graph, and the moves to a node are replayed from those links (the A*, [`super::solver`],
//! and the deepening from its frontier, [`super::frontier`], both read them).

use super::moves::play_chain;
use super::{Engine, Pos, Set};

/// The parent of the start: it has none.
pub(super) const NONE: u32 = u32::MAX;

/// A node of the A*: its flood, its parent (`NONE` at the start), the move that led here
/// (the first of its chain), its depth and its bound.
#[derive(Clone, Copy)]
pub(super) struct Node<const N: usize> {
    pub(super) flood: Set<N>,
    pub(super) parent: u32,
    pub(super) colour: u8,
    pub(super) g: u8,
    pub(super) h: u8,
}

/// Walks the parent links from node `i` and replays the chains: the moves from the root.
pub(super) fn path<const N: usize>(
    e: &Engine<N>,
    start: &Pos<N>,
    nodes: &[Node<N>],
    i: u32,
) -> Vec<u8> {
    let mut firsts = Vec::new();
    let mut j = i;
    while nodes[j as usize].parent != NONE {
        firsts.push(nodes[j as usize].colour);
        j = nodes[j as usize].parent;
    }
    let mut p = *start;
    let mut moves = Vec::new();
    for &c in firsts.iter().rev() {
        p = play_chain(e, &p, c, &mut moves);
    }
    moves
}
