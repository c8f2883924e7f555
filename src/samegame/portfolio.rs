//! Beams of growing width until the deadline, and several of them side by side.

use std::sync::atomic::{AtomicBool, AtomicI64};
use std::time::Instant;

use super::beam::{beam, Found};
use super::board::Board;
use super::estimate::Weights;
use crate::rules::Objective;

/// What the searches of a portfolio share: the start, limits, where lines go, and the best
/// value so far (every search prunes with it).
struct Run<'a, 'f> {
    start: &'a Board,
    min_group: u16,
    max_width: usize,
    found: &'a Found<'f>,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    floor: &'a AtomicI64,
    /// Set when a beam stopped widening at `max_width` with more to find.
    capped: AtomicBool,
}

impl Run<'_, '_> {
    /// Beams of growing width with weights `w` on `threads` threads.
    fn search(&self, w: &Weights, threads: usize) {
        let (start, min_group, max_width, found, stop, deadline, floor) = (
            self.start,
            self.min_group,
            self.max_width,
            self.found,
            self.stop,
            self.deadline,
            self.floor,
        );
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build()
            .expect("a thread pool");
        pool.install(|| {
            let mut width = 1usize;
            loop {
                let t = Instant::now();
                let out = beam(start, min_group, width, w, floor, found, stop, deadline);
                if out != Some(false) {
                    break;
                }
                if width >= max_width {
                    self.capped
                        .store(true, std::sync::atomic::Ordering::Relaxed);
                    break;
                }
                let took = t.elapsed().as_secs_f64().max(1e-4);
                // The next width: double, or (when the time left allows more than a doubled
                // beam and then some) a width the time left should just hold.
                let grow = match deadline {
                    Some(d) => {
                        let left = d.saturating_duration_since(Instant::now()).as_secs_f64();
                        let fit = 0.8 * left / took;
                        if fit >= 6.0 {
                            2.0
                        } else {
                            fit.max(1.05)
                        }
                    }
                    None => 2.0,
                };
                width = ((width as f64 * grow) as usize).clamp(width + 1, max_width);
            }
        });
    }
}

/// A portfolio: beams of growing width from `start` until `stop` or the deadline (without
/// a deadline: up to width `max_width`), one per weight set, side by side (beam search results swing
/// widely with small changes of the estimate, so different estimates find different good
/// lines), sharing `threads` threads and the best value so far: a line one finds prunes
/// the others. Every better line of any of them goes to `found`
/// (which must keep the best). Returns the best value found, and whether a beam stopped
/// widening at `max_width` before the deadline with more to find (else every beam ended
/// exhaustive, stopped, or at the deadline).
#[allow(clippy::too_many_arguments)]
pub fn portfolio(
    start: &Board,
    min_group: u16,
    sets: &[Weights],
    threads: usize,
    max_width: usize,
    found: &Found,
    stop: &AtomicBool,
    deadline: Option<Instant>,
) -> (i64, bool) {
    let each = (threads / sets.len().max(1)).max(1);
    let floor = AtomicI64::new(i64::MIN);
    let run = Run {
        start,
        min_group,
        max_width,
        found,
        stop,
        deadline,
        floor: &floor,
        capped: AtomicBool::new(false),
    };
    std::thread::scope(|sc| {
        for w in sets {
            let run = &run;
            sc.spawn(move || run.search(w, each));
        }
    });
    let capped = run.capped.into_inner();
    (floor.into_inner(), capped)
}

/// The weight sets of the default portfolio for `goal`. The score: the estimate alone, and
/// playouts that take the smallest group first. Moves and tiles: [`Weights::clearing`]
/// alone, with every thread.
pub fn default_sets(goal: Objective) -> Vec<Weights> {
    match goal {
        Objective::Score => {
            let base = Weights::default();
            vec![
                base,
                Weights {
                    playouts: true,
                    build: 16,
                    ..base
                },
            ]
        }
        Objective::Moves | Objective::Tiles => vec![Weights::clearing(goal)],
    }
}
