//! The anytime search: its solutions are legal and worth what it says, it only ever
//! improves, it never beats the exact optimum, and the front ends print the right figures.

mod common;

use std::sync::atomic::Ordering;
use std::sync::Mutex;
use std::time::Duration;

use assert_cmd::Command;
use predicates::prelude::*;

use common::scratch::Scratch;
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

/// The exact optimum of a tiny board under `objective`, found by searching every line, and
/// a line worth it (checked by replaying it).
fn exact_optimum(
    game: &ClickGame<u64>,
    board: &tumble::click::ClickBoard<u64>,
    objective: Objective,
) -> (i64, Vec<Click>) {
    let q = Objectived::new(game, objective);
    let o = SearchOptions::default();
    let quiet = Control::new(&o, |_, _: &[Click], _| {});
    let (value, line) = exhaustive(&q, board, usize::MAX, &quiet).expect("tiny boards finish");
    assert_eq!(value_of(game, objective, board, &line), Some(value));
    (value, line)
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
    let mut cases = 0;
    for (game, objective) in [
        (Game::Samegame, Objective::Score),
        (Game::Clickomania, Objective::Tiles),
        (Game::Former, Objective::Moves),
        (Game::Dust, Objective::Moves),
    ] {
        for seed in 1..=4 {
            let grid = generate(4, 4, 3, seed);
            let (g, b) = ClickGame::<u64>::new(&grid, rules(game, objective)).unwrap();
            let (exact, _) = exact_optimum(&g, &b, objective);
            if objective == Objective::Moves {
                let out = ida_star(&g, &b, &SearchOptions::default(), None, &mut |_| {});
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
                cases += 1;
            }
        }
    }
    assert_eq!(cases, 32);
}

/// `--no-proof` without a time limit on a board whose every line is searched in moments:
/// the optimum at once, proven, and no search left running until the default time limit.
#[test]
fn no_proof_on_a_tiny_board_ends_with_its_optimum() {
    let mut cases = 0;
    for (game, objective) in [
        (Game::Samegame, Objective::Score),
        (Game::Clickomania, Objective::Tiles),
    ] {
        for seed in 1..=4 {
            let grid = generate(4, 3, 3, seed);
            let (g, b) = ClickGame::<u64>::new(&grid, rules(game, objective)).unwrap();
            let (exact, line) = exact_optimum(&g, &b, objective);
            let end = replay(&g, &b, &line).expect("a legal line");
            let mut setup = Setup::new(game);
            setup.rules.objective = objective;
            setup.no_proof = true;
            let r = solve::solve(&grid, &setup, &mut |_| {}).unwrap();
            assert!(r.optimal, "{game} seed {seed}: not proven");
            assert_eq!(r.stopped, None, "{game} seed {seed}");
            match objective {
                Objective::Score => assert_eq!(r.score as i64, exact, "{game} seed {seed}"),
                _ => assert_eq!(r.tiles_left, end.tiles() as usize, "{game} seed {seed}"),
            }
            cases += 1;
        }
    }
    assert_eq!(cases, 8);
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
    let scratch = Scratch::new("bench_reads_problem_blocks");
    let file = scratch.file("problems.txt", &text);
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

#[test]
fn a_work_limit_waits_for_a_solution_and_then_ends_the_search() {
    let o = SearchOptions::default();
    let grid = generate(7, 9, 4, 5);
    let (g, b) = ClickGame::<u64>::new(&grid, rules(Game::Former, Objective::Moves)).unwrap();
    let q = Objectived::new(&g, Objective::Moves);
    let mut checks = 0;
    // No work yet: not done, with or without a solution.
    let ctl = Control::new(&o, |_, _: &[Click], _| {}).with_work_limit(1);
    assert!(!ctl.done(), "no work and no solution");
    ctl.offer(-99, &[]);
    assert!(!ctl.done(), "a solution, but no work yet");
    assert_eq!(ctl.work(), 0);
    checks += 1;
    // Wall time alone does not spend the limit.
    let ctl = Control::new(&o, |_, _: &[Click], _| {}).with_work_limit(1_000_000);
    ctl.offer(-99, &[]);
    std::thread::sleep(Duration::from_millis(50));
    assert!(!ctl.done(), "time passing is not work");
    checks += 1;
    // A beam of width 1 (the greedy descent) expands one position a level: past a limit of
    // 3 its search ends with a solution, having done the work it counts.
    let ctl = Control::new(&o, |_, _: &[Click], _| {}).with_work_limit(3);
    let best = anytime(&q, &b, Method::Beam, 1, &ctl).expect("a solution");
    assert!(ctl.work() >= 3, "done after {} positions", ctl.work());
    assert!(ctl.done(), "the limit is spent and a solution is known");
    let end = replay(&g, &b, &best.1).expect("legal moves");
    assert!(g.is_solved(&end), "the answer clears the board");
    checks += 1;
    println!("{checks} checks");
    assert_eq!(checks, 3);
}

#[test]
fn a_work_limit_ends_an_anytime_search_without_a_deadline() {
    // NRK's board of 2025-06-29, where the beams stay far from exhaustive for longer
    // than this limit: it is the limit that ends both searches.
    let day = tumble::daily::Date::new(2025, 6, 29).unwrap();
    let grid = tumble::daily::former_board(day).unwrap();
    let (g, b) = ClickGame::<u64>::new(&grid, rules(Game::Former, Objective::Moves)).unwrap();
    let q = Objectived::new(&g, Objective::Moves);
    let mut runs = 0;
    for method in [Method::Beam, Method::Nrpa] {
        // NRPA runs until it is stopped: only the work limit can end it here (or, should
        // the limit not work, a watchdog's stop after a minute, which fails the test).
        let limit = 5_000;
        let o = SearchOptions::default();
        let ctl = Control::new(&o, |_, _: &[Click], _| {}).with_work_limit(limit);
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
        assert!(
            ctl.work() >= limit,
            "{method:?}: ended early, at {}",
            ctl.work()
        );
        let end = replay(&g, &b, &best.1).expect("legal moves");
        assert!(g.is_solved(&end), "{method:?}: the answer clears the board");
        runs += 1;
    }
    println!("{runs} searches ended");
    assert_eq!(runs, 2);
}

#[test]
fn a_work_limited_beam_search_is_the_same_on_every_run() {
    // The limit is counted in positions and checked between levels, so on one thread the
    // same search ends at the same level whatever the clock: the same answer after the
    // same work.
    let mut boards = 0;
    for seed in [3, 17, 29] {
        let grid = generate(7, 9, 4, seed);
        // A game of its own for each run: the edge bound's memos, which the runs would
        // otherwise share, make a later run's bounds stronger.
        let run = || {
            let (g, b) =
                ClickGame::<u64>::new(&grid, rules(Game::Former, Objective::Moves)).unwrap();
            let q = Objectived::new(&g, Objective::Moves);
            let o = SearchOptions::default();
            let ctl = Control::new(&o, |_, _: &[Click], _| {}).with_work_limit(5_000);
            let best = anytime(&q, &b, Method::Beam, 1, &ctl).expect("a solution");
            (best.0, ctl.work())
        };
        let first = run();
        // It ends at the end of the level that reaches the limit; by then the beams are a
        // few hundred positions wide, so a level is far less than the limit.
        assert!(
            (5_000..6_000).contains(&first.1),
            "seed {seed}: ended at {}",
            first.1
        );
        assert_eq!(run(), first, "seed {seed}: again");
        boards += 1;
    }
    println!("{boards} boards");
    assert_eq!(boards, 3);
}
