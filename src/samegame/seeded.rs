//! The score's search when there is a deadline: the beam portfolio for part of the time,
//! then NRPA from its best line.

use std::sync::atomic::{AtomicBool, AtomicI64};
use std::sync::Mutex;
use std::time::Instant;

use super::beam::Found;
use super::board::Board;
use super::estimate::Weights;
use super::nested::{nrpa, Nrpa, Start};
use super::portfolio::portfolio;
use crate::rules::Objective;

/// The beam [`portfolio`] of `sets` (beams up to `max_width` wide) until `part`, then
/// [`nrpa`] with `set` from its best line (as `seed`, its value as the floor) until
/// `deadline`; every line better than the best so far goes to `found`. The beam's line
/// keeps a clearing bonus NRPA alone may miss, and NRPA improves on it where the beam
/// stalls. Returns NRPA's playouts.
#[allow(clippy::too_many_arguments)]
pub fn seeded(
    start: &Board,
    min_group: u16,
    goal: Objective,
    sets: &[Weights],
    set: &Nrpa,
    threads: usize,
    max_width: usize,
    found: &Found,
    stop: &AtomicBool,
    part: Option<Instant>,
    deadline: Option<Instant>,
) -> u64 {
    let best = Mutex::new((i64::MIN, Vec::new()));
    let keep = |value: i64, cells: &[u8]| {
        {
            let mut b = best.lock().expect("no panics");
            if value > b.0 {
                *b = (value, cells.to_vec());
            }
        }
        found(value, cells);
    };
    portfolio(
        start, min_group, sets, threads, max_width, &keep, stop, part,
    );
    let (value, line) = best.into_inner().expect("no panics");
    nrpa(
        Start::at(start),
        min_group,
        goal,
        set,
        threads,
        (value > i64::MIN).then_some(&line[..]),
        &AtomicI64::new(value),
        found,
        stop,
        deadline,
    )
}
