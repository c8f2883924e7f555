//! Compares SameGame score searches on chosen positions of a `problem NN` set: NRPA and
//! nested Monte-Carlo search ([`tumble::samegame::nrpa`], [`tumble::samegame::nmcs`]), the
//! default beam portfolio, and a beam whose best line seeds an NRPA.
//!
//! `cargo run --release --example samegame_nested -- FILE POSITIONS [key=value …]`, e.g.
//! `... ../shared/benchmarks/samegame/standard20.txt 1,2,3 method=nrpa level=2 time=10`.
//! Keys: `method` (`nrpa`, `nmcs`, `portfolio`, `seeded`: the portfolio for `frac` of the
//! time, then NRPA from its best line; `hybrid`: the playout beam on one thread, NRPA on
//! the others), `time` (seconds per position; without it NRPA runs
//! its top level once per thread and NMCS to its end), `threads`, and NRPA's `level`,
//! `iter`, `alpha`, `tabu`, `size`, `code` (`cell` or `size`), `runs`, `share` and `penalty`
//! ([`tumble::samegame::Nrpa`]; without them one search per thread and the most plentiful
//! colour only, not what `tumble` runs: `runs=6 share=0.9 penalty=1`). Prints each position's
//! score, the playouts and the time taken, then the total.

mod common;

use std::sync::atomic::{AtomicBool, AtomicI64};
use std::time::{Duration, Instant};

use tumble::samegame::{self, Board, Code, Goal, Nrpa, Start};

fn main() {
    let (args, boards) = common::args_and_set(3, "samegame_nested FILE POSITIONS [key=value ...]");
    let opt = |k: &str| {
        args[3..]
            .iter()
            .find_map(|a| a.strip_prefix(k).and_then(|r| r.strip_prefix('=')))
    };
    let num = |k: &str, d: f64| opt(k).map_or(d, |v| v.parse().expect("a number"));
    let method = opt("method").unwrap_or("nrpa");
    let time = opt("time").map(|t| t.parse::<f64>().expect("seconds"));
    let threads = num("threads", 2.0) as usize;
    let set = Nrpa {
        level: num("level", 2.0) as usize,
        iterations: num("iter", 100.0) as usize,
        alpha: num("alpha", 1.0),
        tabu: num("tabu", 4.0),
        size: num("size", 0.0),
        runs: num("runs", 1.0) as usize,
        share: num("share", 1.0),
        penalty: num("penalty", 0.0),
        code: if opt("code") == Some("size") {
            Code::CellSize
        } else {
            Code::Cell
        },
    };
    let frac = num("frac", 0.5);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a pool");
    let (mut total, t0) = (0, Instant::now());
    for p in args[2].split(',') {
        let p: usize = p.parse().expect("a position number");
        let board = boards[p - 1];
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
            "nrpa" => {
                playouts = samegame::nrpa(
                    Start::at(&board),
                    2,
                    Goal::Score,
                    &set,
                    threads,
                    None,
                    &floor,
                    &found,
                    &stop,
                    deadline,
                );
            }
            "nmcs" => {
                pool.install(|| {
                    samegame::nmcs(
                        Start::at(&board),
                        2,
                        Goal::Score,
                        set.level,
                        &floor,
                        &found,
                        &stop,
                        deadline,
                    )
                });
            }
            "portfolio" => {
                samegame::portfolio(
                    &board,
                    2,
                    &samegame::default_sets(Goal::Score),
                    threads,
                    usize::MAX,
                    &found,
                    &stop,
                    deadline,
                );
            }
            "seeded" => {
                // the search `tumble` runs for the score with a deadline
                playouts = samegame::seeded(
                    &board,
                    2,
                    Goal::Score,
                    &samegame::default_sets(Goal::Score),
                    &set,
                    threads,
                    &found,
                    &stop,
                    time.map(|s| t + Duration::from_secs_f64(s * frac)),
                    deadline,
                );
            }
            "hybrid" => {
                // The playout beam on one thread, NRPA on the others.
                std::thread::scope(|sc| {
                    sc.spawn(|| {
                        samegame::search(
                            &board,
                            2,
                            &samegame::default_sets(Goal::Score)[1],
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
                        Goal::Score,
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
            _ => panic!("unknown method {method}"),
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
}

/// The score of `line` from `board`, played to the end by the numbered groups.
fn replay(board: &Board, line: &[u8]) -> i64 {
    let mut b = *board;
    let mut groups = samegame::Groups::default();
    let mut v = 0;
    for &m in line {
        b.groups(&mut groups);
        let id = groups.list.iter().position(|g| g.seed == m).expect("legal");
        v += samegame::points(groups.list[id].size);
        b.remove(&groups, id);
    }
    v + Goal::Score.terminal(&b)
}
