//! A deterministic budget for comparing SameGame search changes: one beam of a fixed width
//! ([`tumble::samegame::beam`]) on chosen positions of a `problem NN` set, no deadline, so
//! the scores do not depend on the machine's load (the time taken still does).
//!
//! `cargo run --release --example samegame_width -- FILE WIDTH est|play POSITIONS [BUILD]`,
//! e.g. `... ../shared/benchmarks/samegame/standard20.txt 128 play 1,2,3`: `est` ranks by
//! the estimate alone, `play` by a playout from each child ([`tumble::samegame::default_sets`]);
//! `BUILD` overrides [`tumble::samegame::Weights::build`]. Prints each position's score,
//! then the total and the time.

mod common;

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::Instant;

use tumble::samegame::{self, Goal};

fn main() {
    let (args, boards) =
        common::args_and_set(5, "samegame_width FILE WIDTH est|play POSITIONS [BUILD]");
    let width: usize = args[2].parse().expect("a width");
    let sets = samegame::default_sets(Goal::Score);
    let mut w = if args[3] == "est" { sets[0] } else { sets[1] };
    if let Some(b) = args.get(5) {
        w.build = b.parse().expect("a build count");
    }
    let (mut total, t0) = (0, Instant::now());
    for p in args[4].split(',') {
        let p: usize = p.parse().expect("a position number");
        let board = boards[p - 1];
        let floor = AtomicI64::new(i64::MIN);
        samegame::beam(
            &board,
            2,
            width,
            &w,
            &floor,
            &|_, _| {},
            &AtomicBool::new(false),
            None,
        );
        let v = floor.load(Ordering::Relaxed);
        println!("{p:02} {v}");
        total += v;
    }
    println!("total {total} in {:.2}s", t0.elapsed().as_secs_f64());
}
