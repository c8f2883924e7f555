//! The tabu playout: the default policy that finishes a line from any position.

use super::board::{Board, COLOURS};
use super::estimate::most;
use super::groups::Groups;
use crate::rules::Objective;

/// Plays from `b` to the end by the tabu rule: the colour with the most tiles now is kept
/// for last; each move takes the smallest group of another colour (of the tabu colour only
/// when no other is left), which lets the others grow and join before they go. Appends the
/// moves (cells) to `moves`; returns what they are worth under `goal` (without the end's
/// [`Objective::terminal`] value) and the end position. The groups are kept up to date
/// across clicks ([`Live`](super::Live)), each
/// legal move with its key `(tabu, size, cell)`; each move takes the smallest key.
pub fn playout(
    b: &Board,
    min_group: u16,
    goal: Objective,
    groups: &mut Groups,
    moves: &mut Vec<u8>,
) -> (i64, Board) {
    let mut high = [0u64; COLOURS + 1];
    high[most(&b.counts) + 1] = 1 << 24;
    let key = |root: u8, colour: u8, size: u16| {
        (
            (high[colour as usize] | size as u64) << 8 | root as u64,
            0.0,
        )
    };
    let live = &mut groups.live;
    live.reset(b, min_group, key);
    let mut value = 0;
    loop {
        let Some(k) = (0..live.values().len()).min_by_key(|&k| live.values()[k]) else {
            return (value, *live.board());
        };
        let id = live.ids()[k];
        moves.push(live.group(id).0);
        value += goal.reward(live.play(id, key) as u32);
    }
}
