//! Flood-It end to end: the `solve`, `check`, `gen` and `bench` commands, proofs on
//! generated boards of the pc19 benchmark's size, and optima against a breadth-first search
//! on tiny boards, and the search that fills its memory going on within it.

mod common;

use common::cli::tumble;
use predicates::str::contains;

use common::floodit::check_proven_answer;
use common::scratch::Scratch;
use common::{floodit_bfs_optimum, random_board, RefBoard, Rng};
use tumble::floodit;
use tumble::grid::Grid;
use tumble::rules::Game;
use tumble::solve::{generate, solve, Setup};

const BOARD: &str = "ABCA,BBCA,CAAB,ABCC";

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
        .stdout(contains("solved in 1 move\n"));
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

/// A generated board written with the characters `symbols` for its colours (in the order of
/// the board's palette).
fn written_with(grid: &Grid, symbols: &str) -> Vec<String> {
    let symbols: Vec<char> = symbols.chars().collect();
    grid.rows()
        .iter()
        .map(|row| {
            row.chars()
                .map(|c| {
                    let i = grid.palette().iter().position(|&p| p == c).unwrap();
                    symbols[i]
                })
                .collect()
        })
        .collect()
}

#[test]
fn generated_14x14_boards_are_proven_and_replay_to_one_colour() {
    // twenty boards of the pc19 benchmark's size and colours, from the top left
    let mut proven = 0;
    for seed in 1..=20 {
        let grid = generate(14, 14, 6, seed);
        assert_eq!((grid.width(), grid.height()), (14, 14), "seed {seed}");
        let r = solve(&grid, &Setup::new(Game::Floodit), &mut |_| {}).unwrap();
        check_proven_answer(&grid, &r, &format!("seed {seed}"));
        // six colours need at least five moves
        assert!(r.length >= 5, "seed {seed}: {} moves", r.length);
        proven += 1;
    }
    assert_eq!(proven, 20);
}

/// A random board of `least` to `least + 3` columns, `least` to `least + 2` rows and
/// `least` to `least + 2` colours, as the reference and as a grid, with its optimum from
/// the top-left start (the game's default) by breadth-first search.
fn tiny_case(rng: &mut Rng, least: usize) -> (RefBoard, Grid, usize) {
    let (w, h) = (least + rng.usize(..4), least + rng.usize(..3));
    let colours = least + rng.usize(..3);
    let r: RefBoard = random_board(rng, w, h, colours, false);
    let grid: Grid = r.inline().parse().unwrap();
    let want = floodit_bfs_optimum(&r, (0, h - 1));
    (r, grid, want)
}

#[test]
fn solve_matches_breadth_first_search_on_tiny_boards() {
    let mut rng = Rng::with_seed(19);
    let mut checked = 0;
    for case in 0..60 {
        let (r, grid, want) = tiny_case(&mut rng, 2);
        let got = solve(&grid, &Setup::new(Game::Floodit), &mut |_| {}).unwrap();
        assert!(got.optimal, "case {case}: {}", r.inline());
        assert_eq!(got.length, want, "case {case}: {}", r.inline());
        checked += 1;
    }
    assert_eq!(checked, 60);
}

#[test]
fn bench_reads_the_floodtest_blocks() {
    let scratch = Scratch::new("bench_reads_the_floodtest_blocks");
    // two boards of digit rows separated by a blank line, as the code-golf set writes them
    let blocks: Vec<String> = [1, 2]
        .iter()
        .map(|&seed| written_with(&generate(13, 13, 6, seed), "123456").join("\n"))
        .collect();
    let file = scratch.file("floodtest.txt", &(blocks.join("\n\n") + "\n"));
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
    let scratch = Scratch::new("bench_reads_one_board_per_line");
    // four boards of twelve colours, one per line as the b12c12 set writes them; the first
    // three are read
    let lines: Vec<String> = (1..=4)
        .map(|seed| written_with(&generate(12, 12, 12, seed), "123456789abc").concat())
        .collect();
    let file = scratch.file("b12c12.txt", &(lines.join("\n") + "\n"));
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

/// Budgets far below what the A* needs force the deepening at every stage of the A* (from
/// its first expansion on); its optimum is the breadth-first search's, proven, and the
/// report says that the memory filled.
#[test]
fn the_deepening_after_a_full_memory_finds_the_bfs_optimum() {
    let mut rng = Rng::with_seed(2325);
    let (mut checked, mut fell_back) = (0, 0);
    for case in 0..400 {
        let (r, grid, want) = tiny_case(&mut rng, 4);
        let mut setup = Setup::new(Game::Floodit);
        setup.search.memory = rng.usize(..48 << 10);
        let got = solve(&grid, &setup, &mut |_| {}).unwrap();
        let what = format!(
            "case {case}: {} at {} bytes",
            r.inline(),
            setup.search.memory
        );
        assert!(got.optimal, "{what}");
        assert_eq!(got.length, want, "{what}");
        assert_eq!(got.lower_bound as usize, want, "{what}");
        assert_eq!(got.stopped, None, "{what}");
        if let Some(note) = &got.note {
            assert!(note.contains("filled its memory"), "{what}: {note}");
            fell_back += 1;
        }
        checked += 1;
    }
    assert_eq!(checked, 400);
    // most boards are proven by the first solutions and the bound, before any A*
    assert!(fell_back >= 50, "only {fell_back} of 400 boards fell back");
    eprintln!("{checked} boards, {fell_back} fell back");
}
