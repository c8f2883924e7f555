//! A deterministic budget for comparing SameGame search changes: one beam of a fixed width
//! ([`tumble::samegame::beam`]) on chosen positions of a `problem NN` set, no deadline, so
//! the scores do not depend on the machine's load (the time taken still does).
//!
//! `cargo run --release --example samegame_width -- FILE WIDTH est|play POSITIONS [BUILD]`,
//! e.g. `... ../shared/benchmarks/samegame/standard20.txt 128 play 1,2,3`. Prints each
//! position's score, then the total and the time.

mod common;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::Instant;

use clap::{Parser, ValueEnum};
use tumble::rules::Objective;
use tumble::samegame;

/// How the beam ranks the children.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum Rank {
    /// By the estimate alone (the first of `samegame::default_sets`).
    Est,
    /// By a playout from each child (the second of `samegame::default_sets`).
    Play,
}

/// One SameGame beam of a fixed width on chosen positions, for the score.
#[derive(Parser, Debug)]
struct Args {
    /// A `problem NN` set, e.g. ../shared/benchmarks/samegame/standard20.txt.
    file: PathBuf,
    /// The beam's width.
    width: usize,
    /// How the children are ranked.
    rank: Rank,
    /// The positions to search, numbered from 1, e.g. 1,2,3.
    positions: common::Positions,
    /// Children rebuilt per kept node, in quarters (`samegame::Weights::build`).
    build: Option<usize>,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let sets = samegame::default_sets(Objective::Score);
    let mut w = match args.rank {
        Rank::Est => sets[0],
        Rank::Play => sets[1],
    };
    if let Some(b) = args.build {
        w.build = b;
    }
    let (mut total, t0) = (0, Instant::now());
    for (p, board) in common::chosen(&args.file, &args.positions)? {
        let floor = AtomicI64::new(i64::MIN);
        samegame::beam(
            &board,
            2,
            args.width,
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
    Ok(())
}
