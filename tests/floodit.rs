//! Flood-It end to end: the `solve`, `check`, `gen` and `bench` commands, and the first
//! boards of the pc19 benchmark set (read from `../shared`, never copied into the repo).

use std::path::PathBuf;

use assert_cmd::Command;
use predicates::str::contains;

use tumble::floodit::{self, bounds, Engine};
use tumble::grid::Grid;
use tumble::rules::Game;
use tumble::solve::{solve, Setup};

const BOARD: &str = "ABCA,BBCA,CAAB,ABCC";

fn tumble() -> Command {
    Command::cargo_bin("tumble").expect("the tumble binary is built")
}

/// A benchmark file from the shared data directory; fails the test (with the path) if the
/// data is missing.
fn shared(file: &str) -> PathBuf {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/benchmarks/floodit")
        .join(file);
    assert!(
        p.is_file(),
        "benchmark data is missing: {} (this test needs the shared benchmark sets next to the repository)",
        p.display()
    );
    p
}

#[test]
fn solve_prints_solutions_then_the_proven_optimum_and_the_boards() {
    tumble()
        .args(["solve", "--game", "floodit", BOARD])
        .assert()
        .success()
        .stdout(contains("solution:"))
        .stdout(contains("optimal: 5 moves (proven)"))
        .stdout(contains(" 5. C\nCCCC\nCCCC\nCCCC\nCCCC"));
}

#[test]
fn json_moves_are_colours() {
    let out = tumble()
        .args(["solve", "--game", "floodit", "--json", BOARD])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["optimal"], true);
    assert_eq!(v["length"], 5);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 5);
    for m in moves {
        let m = m.as_object().unwrap();
        assert_eq!(m.len(), 1, "a Flood-It move is only a colour: {m:?}");
        assert!(m["colour"].is_string());
    }
    // the answer replays to one colour
    let seq: String = moves
        .iter()
        .map(|m| m["colour"].as_str().unwrap())
        .collect();
    tumble()
        .args(["check", "--game", "floodit", BOARD, &seq])
        .assert()
        .success()
        .stdout(contains("solved in 5 moves"));
}

#[test]
fn centre_start_is_the_middle_cell() {
    // From the centre (the B in the middle), one move floods everything; from the top
    // left, two.
    let board = "AAA,ABA,AAA";
    let json = |start: &str| -> serde_json::Value {
        let out = tumble()
            .args([
                "solve", "--game", "floodit", "--json", "--start", start, board,
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        serde_json::from_slice(&out.stdout).unwrap()
    };
    assert_eq!(json("centre")["length"], 1);
    assert_eq!(json("centre")["moves"][0]["colour"], "A");
    assert_eq!(json("topleft")["length"], 1);
    assert_eq!(json("topleft")["moves"][0]["colour"], "B");
    assert_eq!(json("1,1")["moves"][0]["colour"], "A");
    tumble()
        .args([
            "check", "--game", "floodit", "--start", "centre", board, "A",
        ])
        .assert()
        .success()
        .stdout(contains("solved in 1 moves"));
}

#[test]
fn check_reports_illegal_colours_with_their_number() {
    // the flood's own colour
    tumble()
        .args(["check", "--game", "floodit", BOARD, "B B"])
        .assert()
        .code(1)
        .stdout(contains("illegal move 2: B is the flood's own colour"));
    // a colour that does not touch the flood (C is two steps away from the A in the corner
    // of "ABB,BBB,BBC")
    tumble()
        .args(["check", "--game", "floodit", "ABB,BBB,BBC", "C"])
        .assert()
        .code(1)
        .stdout(contains(
            "illegal move 1: colour C does not touch the flood",
        ));
    // not a colour of the board
    tumble()
        .args(["check", "--game", "floodit", BOARD, "Z"])
        .assert()
        .code(1)
        .stdout(contains("illegal move 1: 'Z' is not a colour"));
    // a legal but unfinished sequence
    tumble()
        .args(["check", "--game", "floodit", BOARD, "B"])
        .assert()
        .success()
        .stdout(contains("not solved"));
}

#[test]
fn boards_too_large_name_the_limit() {
    let row = "AB".repeat(17);
    let board = vec![row; 34].join(",");
    tumble()
        .args(["solve", "--game", "floodit", &board])
        .assert()
        .code(2)
        .stderr(contains("at most 1024 cells"));
}

#[test]
fn generated_boards_are_full_and_solve() {
    let out = tumble()
        .args([
            "gen", "--game", "floodit", "--width", "8", "--height", "8", "--seed", "7",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let grid: Grid = text.parse().unwrap();
    assert_eq!((grid.width(), grid.height()), (8, 8));
    grid.check_full("floodit").unwrap();
    let r = solve(&grid, &Setup::new(Game::Floodit), &mut |_| {}).unwrap();
    assert!(r.optimal);
    assert!(floodit::is_one_colour(r.boards.last().unwrap()));
}

#[test]
fn first_pc19_boards_are_proven_and_replay_to_one_colour() {
    let text = std::fs::read_to_string(shared("pc19.txt")).unwrap();
    let mut total = 0;
    for (i, line) in text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(20)
        .enumerate()
    {
        let grid = floodit::square_up(line.trim().parse().unwrap());
        assert_eq!((grid.width(), grid.height()), (14, 14), "board {}", i + 1);
        let setup = Setup::new(Game::Floodit);
        let r = solve(&grid, &setup, &mut |_| {}).unwrap();
        assert!(r.optimal, "board {} not proven", i + 1);
        assert_eq!(r.lower_bound as usize, r.length);
        // replay the colours from the top left
        let colours: Vec<char> = r
            .moves
            .iter()
            .map(|s| s.colour.chars().next().unwrap())
            .collect();
        let played = floodit::replay(&grid, (0, 13), &colours)
            .unwrap()
            .expect("the answer is legal");
        assert!(floodit::is_one_colour(&played.last().unwrap().1));
        // the answer is at least every bound of the start position
        let (e, p) = Engine::<4>::new(&grid, (0, 13)).unwrap();
        for b in [
            bounds::colours(&e, &p.flood),
            bounds::distance(&e, &p.flood),
            bounds::seed(&e, &p.flood),
            bounds::puchert(&e, &p.flood),
        ] {
            assert!(
                r.length >= b as usize,
                "board {}: {} < bound {b}",
                i + 1,
                r.length
            );
        }
        total += r.length;
    }
    assert!(total > 0);
}

#[test]
fn bench_reads_the_floodtest_blocks() {
    let file = shared("floodtest1000.txt");
    tumble()
        .args([
            "bench", "--game", "floodit", "--start", "centre", "--limit", "2", "--json",
        ])
        .arg(&file)
        .assert()
        .success()
        .stdout(contains("\"boards\":2"))
        .stdout(contains("\"proven\":2"));
}

#[test]
fn bench_reads_one_board_per_line() {
    let file = shared("b12c12n1000.txt");
    let out = tumble()
        .args(["bench", "--game", "floodit", "--limit", "3", "--json"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["totals"]["boards"], 3);
    assert_eq!(v["totals"]["proven"], 3);
}
