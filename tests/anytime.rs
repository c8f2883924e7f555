//! The anytime search: its solutions are legal and worth what it says, it only ever
//! improves, it never beats the exact optimum, and the front ends print the right figures.

use std::sync::atomic::Ordering;
use std::sync::Mutex;
use std::time::Duration;

use assert_cmd::Command;
use predicates::prelude::*;

use tumble::click::{Click, ClickGame};
use tumble::grid::Grid;
use tumble::objective::{value_of, Objectived};
use tumble::puzzle::Puzzle;
use tumble::rules::{Game, Objective, Rules};
use tumble::search::anytime::{anytime, exhaustive, Control, Method};
use tumble::search::{ida_star, replay, SearchOptions};
use tumble::solve::{self, generate, Progress, Setup};

fn rules(game: Game, objective: Objective) -> Rules {
    Rules {
        objective,
        ..game.rules().unwrap()
    }
}

fn opts(limit_ms: u64) -> SearchOptions {
    SearchOptions {
        time_limit: Some(Duration::from_millis(limit_ms)),
        threads: 2,
        ..SearchOptions::default()
    }
}

/// Runs `method` and returns every improvement it reported, in order.
fn improvements(
    game: &ClickGame<u64>,
    board: &tumble::click::ClickBoard<u64>,
    objective: Objective,
    method: Method,
    limit_ms: u64,
) -> Vec<(i64, Vec<Click>)> {
    let seen = Mutex::new(Vec::new());
    let o = opts(limit_ms);
    let ctl = Control::new(&o, |v, m: &[Click], _| {
        seen.lock().unwrap().push((v, m.to_vec()))
    });
    let q = Objectived::new(game, objective);
    let best = anytime(&q, board, method, 2, &ctl);
    drop(ctl);
    let seen = seen.into_inner().unwrap();
    assert_eq!(best.map(|b| b.0), seen.last().map(|s| s.0));
    seen
}

const CASES: [(Game, Objective, usize, usize, usize); 5] = [
    (Game::Former, Objective::Moves, 7, 9, 4),
    (Game::Samegame, Objective::Score, 8, 8, 4),
    (Game::Samegame, Objective::Moves, 8, 8, 3),
    (Game::Clickomania, Objective::Tiles, 8, 8, 4),
    (Game::Dust, Objective::Moves, 8, 6, 5),
];

#[test]
fn anytime_solutions_are_legal_worth_their_value_and_improve() {
    for (game, objective, w, h, k) in CASES {
        for seed in 1..=3 {
            let grid = generate(w, h, k, seed);
            let (g, b) = ClickGame::<u64>::new(&grid, rules(game, objective)).unwrap();
            for method in [Method::Beam, Method::Nrpa] {
                let seen = improvements(&g, &b, objective, method, 150);
                assert!(
                    !seen.is_empty(),
                    "{game} {objective:?} {method:?}: no solution"
                );
                for pair in seen.windows(2) {
                    assert!(pair[1].0 > pair[0].0, "improvements must be strict");
                }
                for (v, moves) in &seen {
                    let end = replay(&g, &b, moves).expect("a legal move list");
                    assert!(g.groups(&end).is_empty(), "a solution plays to the end");
                    assert_eq!(value_of(&g, objective, &b, moves), Some(*v));
                    match objective {
                        Objective::Moves if end.is_empty() => assert_eq!(*v, -(moves.len() as i64)),
                        Objective::Tiles => {
                            assert_eq!(*v, -1000 * end.tiles() as i64 - moves.len() as i64)
                        }
                        Objective::Score => assert_eq!(
                            *v,
                            tumble::rules::score(
                                moves.iter().map(|m| m.size as u32),
                                end.is_empty()
                            )
                        ),
                        _ => {}
                    }
                }
            }
        }
    }
}

#[test]
fn anytime_never_beats_the_exact_optimum_on_tiny_boards() {
    for (game, objective) in [
        (Game::Samegame, Objective::Score),
        (Game::Clickomania, Objective::Tiles),
        (Game::Former, Objective::Moves),
        (Game::Dust, Objective::Moves),
    ] {
        for seed in 1..=4 {
            let grid = generate(4, 4, 3, seed);
            let (g, b) = ClickGame::<u64>::new(&grid, rules(game, objective)).unwrap();
            let q = Objectived::new(&g, objective);
            let o = SearchOptions::default();
            let quiet = Control::new(&o, |_, _: &[Click], _| {});
            let (exact, line) = exhaustive(&q, &b, usize::MAX, &quiet).expect("tiny boards finish");
            assert_eq!(value_of(&g, objective, &b, &line), Some(exact));
            if objective == Objective::Moves {
                let out = ida_star(&g, &b, &o, None, &mut |_| {});
                assert!(out.proven);
                assert_eq!(
                    -exact,
                    out.best.unwrap().len() as i64,
                    "exhaustive agrees with IDA*"
                );
            }
            for method in [Method::Beam, Method::Nrpa] {
                let seen = improvements(&g, &b, objective, method, 60);
                let best = seen.last().expect("a solution").0;
                assert!(
                    best <= exact,
                    "{game} {objective:?} seed {seed}: {best} > {exact}"
                );
            }
        }
    }
}

#[test]
fn solve_reports_score_and_tiles_that_match_a_replay() {
    for (objective, no_proof) in [
        (Objective::Score, true),
        (Objective::Score, false),
        (Objective::Tiles, true),
        (Objective::Moves, true),
        (Objective::Moves, false),
    ] {
        let grid = generate(10, 10, 4, 7);
        let mut setup = Setup::new(Game::Samegame);
        setup.rules.objective = objective;
        setup.no_proof = no_proof;
        setup.search.time_limit = Some(Duration::from_millis(300));
        let mut scores = Vec::new();
        let r = solve::solve(&grid, &setup, &mut |p| {
            if let Progress::Solution {
                score,
                tiles_left,
                moves,
                ..
            } = p
            {
                scores.push((score, tiles_left, moves));
            }
        })
        .unwrap();
        let clicks: Vec<(usize, usize)> = r
            .moves
            .iter()
            .map(|s| (s.x.unwrap(), s.y.unwrap()))
            .collect();
        let played = solve::replay(&grid, setup.rules, &clicks)
            .unwrap()
            .expect("legal");
        let last: &Grid = played.last().map_or(&grid, |p| &p.1);
        assert_eq!(r.tiles_left, last.tiles(), "{objective:?}");
        let sizes = played.iter().map(|p| p.0.size.unwrap());
        assert_eq!(
            r.score,
            tumble::rules::score(sizes, last.is_empty()),
            "{objective:?}"
        );
        assert_eq!(r.length, clicks.len());
        if objective == Objective::Score {
            for pair in scores.windows(2) {
                assert!(pair[1].0 > pair[0].0, "each reported score beats the last");
            }
            assert_eq!(scores.last().map(|s| s.0), Some(r.score));
        }
    }
}

/// The score objective prints every improvement with its time, with the default search
/// and with `--anytime nrpa` (on a SameGame board the byte engine's NRPA: every line it
/// reports is replayed by the solver, where an illegal one would panic).
#[test]
fn cli_score_objective_with_a_time_limit() {
    for (seed, extra) in [(3, &[][..]), (4, &["--no-proof", "--anytime", "nrpa"][..])] {
        let board = generate(12, 12, 5, seed).to_inline();
        Command::cargo_bin("tumble")
            .unwrap()
            .args(["solve", "--game", "samegame", "--objective", "score"])
            .args(["--time-limit", "0.5"])
            .args(extra)
            .arg(board)
            .assert()
            .success()
            .stdout(
                predicate::str::is_match(r"\[\d+\.\d+s\] solution: score \d+, \d+ moves").unwrap(),
            )
            .stdout(predicate::str::is_match(r"best found: score \d+ \(").unwrap());
    }
}

#[test]
fn cli_tiles_objective_prints_tiles_left() {
    let board = generate(10, 10, 4, 5).to_inline();
    Command::cargo_bin("tumble")
        .unwrap()
        .args(["solve", "--game", "clickomania", "--time-limit", "0.3"])
        .arg(board)
        .assert()
        .success()
        .stdout(predicate::str::contains("tiles left"));
}

#[test]
fn bench_reads_problem_blocks_and_totals_score_moves_and_tiles() {
    // boards of the standard SameGame test set's size, colours and layout (a line
    // `problem NN`, then the rows, top row first); the first two of three are read
    let mut text = String::from("# generated 15x15 positions, 5 colours\n");
    for n in 1..=3u64 {
        let grid = generate(15, 15, 5, 40 + n);
        text.push_str(&format!("problem {n:02}\n{}\n", grid.to_text()));
    }
    let file =
        std::env::temp_dir().join(format!("tumble-test-{}-problems.txt", std::process::id()));
    std::fs::write(&file, text).unwrap();
    Command::cargo_bin("tumble")
        .unwrap()
        .args([
            "bench",
            "--game",
            "samegame",
            "--time-limit",
            "0.2",
            "--limit",
            "2",
        ])
        .arg(file)
        .assert()
        .success()
        .stdout(predicate::str::contains("problem 01"))
        .stdout(predicate::str::contains("problem 02"))
        .stdout(
            predicate::str::is_match(
                r"total: 2 boards, \d+ proven optimal, \d+ moves, \d+ tiles left, score \d+",
            )
            .unwrap(),
        );
}

/// Spins on the calling thread until it has used `t` of CPU time.
fn burn_cpu(t: Duration) {
    let mut spins = 0u64;
    while tumble::cpu::thread_time().expect("a thread CPU clock") < t {
        spins = std::hint::black_box(spins + 1);
    }
}

#[test]
fn a_cpu_limit_counts_cpu_time_and_waits_for_a_solution() {
    let limit = Duration::from_millis(30);
    let checks = std::thread::spawn(move || {
        let o = SearchOptions::default();
        let ctl = Control::new(&o, |_, _: &[Click], _| {}).with_cpu_limit(limit);
        let mut checks = 0;
        // Wall time alone does not spend the limit.
        std::thread::sleep(limit * 4);
        ctl.offer(-9, &[]);
        assert!(!ctl.done(), "a sleeping thread has not used its CPU time");
        checks += 1;
        // Past the limit, the search goes on until it has a solution...
        let ctl = Control::new(&o, |_, _: &[Click], _| {}).with_cpu_limit(limit);
        burn_cpu(limit * 2);
        assert!(!ctl.done(), "no solution yet");
        checks += 1;
        // ...and then ends (its threads read their CPU time at least every millisecond of
        // wall time, so a few calls later at most).
        ctl.offer(-9, &[]);
        let start = std::time::Instant::now();
        while !ctl.done() {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "the limit never ends it"
            );
        }
        checks += 1;
        // A thread under the limit goes on.
        let ctl = Control::new(&o, |_, _: &[Click], _| {}).with_cpu_limit(Duration::from_secs(60));
        ctl.offer(-9, &[]);
        burn_cpu(limit * 3);
        assert!(!ctl.done(), "under the limit");
        checks + 1
    })
    .join()
    .unwrap();
    println!("{checks} checks");
    assert_eq!(checks, 4);
}

#[test]
fn a_cpu_limit_ends_an_anytime_search_without_a_deadline() {
    let grid = generate(7, 9, 4, 11);
    let (g, b) = ClickGame::<u64>::new(&grid, rules(Game::Former, Objective::Moves)).unwrap();
    let q = Objectived::new(&g, Objective::Moves);
    let mut runs = 0;
    for method in [Method::Beam, Method::Nrpa] {
        // NRPA runs until it is stopped: only the CPU limit can end it here (or, should
        // the limit not work, a watchdog's stop after a minute, which fails the test).
        let o = SearchOptions::default();
        let ctl =
            Control::new(&o, |_, _: &[Click], _| {}).with_cpu_limit(Duration::from_millis(50));
        let (ended, wait) = std::sync::mpsc::channel::<()>();
        let stop = o.stop.clone();
        let watchdog = std::thread::spawn(move || {
            if wait.recv_timeout(Duration::from_secs(60)).is_err() {
                stop.store(true, Ordering::Relaxed);
            }
        });
        let best = anytime(&q, &b, method, 1, &ctl).expect("a solution");
        let _ = ended.send(());
        watchdog.join().unwrap();
        assert!(
            !o.stop.load(Ordering::Relaxed),
            "{method:?}: the watchdog stopped it"
        );
        let end = replay(&g, &b, &best.1).expect("legal moves");
        assert!(g.is_solved(&end), "{method:?}: the answer clears the board");
        runs += 1;
    }
    println!("{runs} searches ended");
    assert_eq!(runs, 2);
}
