//! Compares SameGame score searches on chosen positions of a `problem NN` set: NRPA and
//! nested Monte-Carlo search ([`tumble::samegame::nrpa`], [`nmcs`](nmcs::nmcs), kept here as
//! a search to compare with), the default beam portfolio, and a beam whose best line seeds
//! an NRPA.
//!
//! `cargo run --release --example samegame_nested -- FILE POSITIONS [OPTIONS]`, e.g.
//! `... ../shared/benchmarks/samegame/standard20.txt 1,2,3 --method nrpa --level 2 --time 10`
//! (`--help` lists the options). Without `--runs`, `--share` and `--penalty` NRPA runs one
//! search per thread with the most plentiful colour only, not what `tumble` runs
//! (`--runs 6 --share 0.9 --penalty 1`). Prints each position's score, the playouts and the
//! time taken, then the total.

#[path = "../common/mod.rs"]
mod common;
mod nmcs;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicI64};
use std::time::{Duration, Instant};

use clap::{Parser, ValueEnum};
use tumble::rules::{points, Objective};
use tumble::samegame::{self, Board, Code, Nrpa, Start};

/// The search to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Method {
    /// NRPA on every thread.
    Nrpa,
    /// Nested Monte-Carlo search of `--level`, its top level in parallel.
    Nmcs,
    /// The default beam portfolio.
    Portfolio,
    /// The portfolio for `--frac` of the time, then NRPA from its best line (what `tumble`
    /// runs for the score with a deadline).
    Seeded,
    /// The playout beam on one thread, NRPA on the others.
    Hybrid,
}

/// What NRPA's policy codes tell apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum CodeArg {
    /// Colour and lowest cell.
    Cell,
    /// Colour, lowest cell and a size bucket.
    Size,
}

/// SameGame score searches on chosen positions of a `problem NN` set.
#[derive(Parser, Debug)]
struct Args {
    /// A `problem NN` set, e.g. ../shared/benchmarks/samegame/standard20.txt.
    file: PathBuf,
    /// The positions to search, numbered from 1, e.g. 1,2,3.
    positions: common::Positions,
    /// The search.
    #[arg(long, value_enum, default_value = "nrpa")]
    method: Method,
    /// Seconds per position; without it NRPA runs its top level once per thread and NMCS
    /// to its end.
    #[arg(long)]
    time: Option<f64>,
    /// Threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// NRPA's (and NMCS's) top level.
    #[arg(long, default_value_t = 2)]
    level: usize,
    /// NRPA's iterations per level.
    #[arg(long, default_value_t = 100)]
    iter: usize,
    /// NRPA's learning rate.
    #[arg(long, default_value_t = 1.0)]
    alpha: f64,
    /// NRPA's prior cost of a move of the tabu colour.
    #[arg(long, default_value_t = 4.0)]
    tabu: f64,
    /// NRPA's prior cost per tile of the group.
    #[arg(long, default_value_t = 0.0)]
    size: f64,
    /// NRPA's policy codes.
    #[arg(long, value_enum, default_value = "cell")]
    code: CodeArg,
    /// NRPA's top-level searches per thread, with a deadline (`samegame::Nrpa::runs`).
    #[arg(long, default_value_t = 1)]
    runs: usize,
    /// NRPA's share of the most plentiful colour's tiles for a tabu colour to try
    /// (`samegame::Nrpa::share`).
    #[arg(long, default_value_t = 1.0)]
    share: f64,
    /// NRPA's penalty on the tiles a line leaves (`samegame::Nrpa::penalty`).
    #[arg(long, default_value_t = 0.0)]
    penalty: f64,
    /// With `--method seeded`: the share of the time for the portfolio.
    #[arg(long, default_value_t = 0.5)]
    frac: f64,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let method = args.method;
    let time = args.time;
    let threads = args.threads;
    let set = Nrpa {
        level: args.level,
        iterations: args.iter,
        alpha: args.alpha,
        tabu: args.tabu,
        size: args.size,
        runs: args.runs,
        share: args.share,
        penalty: args.penalty,
        code: match args.code {
            CodeArg::Size => Code::CellSize,
            CodeArg::Cell => Code::Cell,
        },
    };
    let frac = args.frac;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a pool");
    let (mut total, t0) = (0, Instant::now());
    for (p, board) in common::chosen(&args.file, &args.positions)? {
        let t = Instant::now();
        let deadline = time.map(|s| t + Duration::from_secs_f64(s));
        let floor = AtomicI64::new(i64::MIN);
        let stop = AtomicBool::new(false);
        // The best line reported (searches on several threads may report out of order).
        let best = std::sync::Mutex::new((i64::MIN, Vec::new()));
        let found = |v: i64, moves: &[u8]| {
            let mut b = best.lock().unwrap();
            if v > b.0 {
                *b = (v, moves.to_vec());
            }
        };
        let mut playouts = 0;
        match method {
            Method::Nrpa => {
                playouts = samegame::nrpa(
                    Start::at(&board),
                    2,
                    Objective::Score,
                    &set,
                    threads,
                    None,
                    &floor,
                    &found,
                    &stop,
                    deadline,
                );
            }
            Method::Nmcs => {
                pool.install(|| {
                    nmcs::nmcs(
                        Start::at(&board),
                        2,
                        Objective::Score,
                        set.level,
                        &floor,
                        &found,
                        &stop,
                        deadline,
                    )
                });
            }
            Method::Portfolio => {
                samegame::portfolio(
                    &board,
                    2,
                    &samegame::default_sets(Objective::Score),
                    threads,
                    usize::MAX,
                    &found,
                    &stop,
                    deadline,
                );
            }
            Method::Seeded => {
                // the search `tumble` runs for the score with a deadline
                let part = time.map(|s| t + Duration::from_secs_f64(s * frac));
                playouts = samegame::then_polish(
                    &board,
                    2,
                    Objective::Score,
                    samegame::positions_within(usize::MAX),
                    &found,
                    &stop,
                    deadline,
                    |found, deadline| {
                        samegame::seeded(
                            &board,
                            2,
                            Objective::Score,
                            &samegame::default_sets(Objective::Score),
                            &set,
                            threads,
                            usize::MAX,
                            found,
                            &stop,
                            part,
                            deadline,
                        )
                    },
                );
            }
            Method::Hybrid => {
                // The playout beam on one thread, NRPA on the others.
                std::thread::scope(|sc| {
                    sc.spawn(|| {
                        samegame::portfolio(
                            &board,
                            2,
                            &samegame::default_sets(Objective::Score)[1..],
                            1,
                            usize::MAX,
                            &found,
                            &stop,
                            deadline,
                        )
                    });
                    playouts = samegame::nrpa(
                        Start::at(&board),
                        2,
                        Objective::Score,
                        &set,
                        threads - 1,
                        None,
                        &floor,
                        &found,
                        &stop,
                        deadline,
                    );
                });
            }
        }
        let (v, line) = best.into_inner().unwrap();
        assert_eq!(replay(&board, &line), v, "the line is worth it");
        println!(
            "{p:02} {v} playouts {playouts} in {:.2}s",
            t.elapsed().as_secs_f64()
        );
        total += v;
    }
    println!("total {total} in {:.2}s", t0.elapsed().as_secs_f64());
    Ok(())
}

/// The score of `line` from `board`, played to the end by the numbered groups.
fn replay(board: &Board, line: &[u8]) -> i64 {
    let mut b = *board;
    let mut groups = samegame::Groups::default();
    let mut v = 0;
    for &m in line {
        b.groups(&mut groups);
        let id = groups.list.iter().position(|g| g.seed == m).expect("legal");
        v += points(groups.list[id].size as u32);
        b.remove(&groups, id);
    }
    v + Objective::Score.terminal(b.tiles())
}
