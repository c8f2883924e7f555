//! Checks over the shared data set beside the repository (`../shared`): the proven optima
//! of `boards/proven.txt`, NRK's Former boards of `boards/former_nrk.txt` against the
//! generator of `tumble::daily`, and the benchmark sets read by `tumble bench`. Run with
//! `cargo test --release --features shared-data --test shared_data`; without `../shared`
//! every test fails, naming the path it looked for.
#![cfg(feature = "shared-data")]

mod common;

use std::path::PathBuf;

use common::cli::tumble;
use predicates::prelude::*;

use common::data::{article_boards, FORMER_OPTIMA};
use common::floodit::check_proven_answer;
use common::proofs::prove;
use tumble::daily::{first_generated_day, former_board, Date};
use tumble::floodit;
use tumble::grid::Grid;
use tumble::rules::Game;
use tumble::solve::{solve, Setup};

/// A file of the shared data set; fails the test, naming the path, when it is missing.
fn shared(path: &str) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared");
    assert!(
        root.is_dir(),
        "the shared data set is missing: {} does not exist (these checks need it beside the repository)",
        root.display()
    );
    let p = root.join(path);
    assert!(p.is_file(), "the shared data set has no {}", p.display());
    p
}

fn read(path: &str) -> String {
    std::fs::read_to_string(shared(path)).unwrap()
}

/// One board of `boards/proven.txt`: the date comment just above it (Former boards), the
/// game, the board and its proven optimum.
#[derive(Clone, Debug)]
struct ProvenBoard {
    date: Option<String>,
    game: String,
    board: String,
    optimum: usize,
}

/// Is `word` shaped as a date `YYYY-MM-DD`?
fn is_date(word: &str) -> bool {
    word.len() == 10 && word.as_bytes()[4] == b'-' && word.as_bytes()[7] == b'-'
}

fn proven_boards() -> Vec<ProvenBoard> {
    let mut out = Vec::new();
    let mut date = None;
    for line in read("boards/proven.txt").lines().map(str::trim) {
        if let Some(c) = line.strip_prefix('#') {
            // "# 2024-11-22 proof 2.92988 s"
            let word = c.split_whitespace().next().unwrap_or("");
            if is_date(word) {
                date = Some(word.to_string());
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('|').collect();
        assert_eq!(f.len(), 3, "malformed line in proven.txt: {line}");
        out.push(ProvenBoard {
            date: date.take(),
            game: f[0].to_string(),
            board: f[1].to_string(),
            optimum: f[2]
                .parse()
                .unwrap_or_else(|_| panic!("malformed optimum in proven.txt: {line}")),
        });
    }
    assert!(!out.is_empty(), "no boards in proven.txt");
    out
}

/// The days whose boards in `former_nrk.txt` are third-party transcriptions, left out of
/// the comparison (the file's header names them).
const TRANSCRIPTIONS: [&str; 4] = ["2025-01-07", "2025-01-12", "2025-01-14", "2025-08-21"];

#[test]
fn the_generator_gives_nrks_former_boards_from_2024_11_23_on() {
    let text = read("boards/former_nrk.txt");
    let header: String = text
        .lines()
        .filter(|l| l.starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n");
    for day in TRANSCRIPTIONS {
        assert!(header.contains(day), "the header does not name {day}");
    }
    let (mut same, mut left_out) = (0, 0);
    for entry in tumble::boardset::parse(&text) {
        let day: Date = entry.name.parse().unwrap();
        if day < first_generated_day() {
            assert!(former_board(day).is_err());
            continue;
        }
        let generated = former_board(day).unwrap().to_inline();
        if TRANSCRIPTIONS.contains(&entry.name.as_str()) {
            left_out += 1;
        } else {
            assert_eq!(
                generated, entry.board,
                "{day}: the generator's board differs"
            );
            same += 1;
        }
    }
    assert_eq!((same, left_out), (27, 4));
}

#[test]
fn the_known_boards_of_the_tests_are_the_proven_boards() {
    let proven = proven_boards();
    // the article boards
    for b in article_boards() {
        assert!(
            proven
                .iter()
                .any(|p| p.game == b.game && p.board == b.board && p.optimum == b.optimum),
            "{} {} = {} is not in proven.txt",
            b.game,
            b.board,
            b.optimum
        );
    }
    // every Former board from the generator's first day on is the generator's board, and its
    // optimum is the figure the tests use
    let mut dated = 0;
    for p in proven.iter().filter(|p| p.game == "former") {
        let date = p
            .date
            .as_deref()
            .expect("a Former board of proven.txt has a date");
        let day: Date = date.parse().unwrap();
        if day < first_generated_day() {
            continue;
        }
        assert_eq!(former_board(day).unwrap().to_inline(), p.board, "{date}");
        let figure = FORMER_OPTIMA.iter().find(|(d, _)| *d == date);
        assert_eq!(figure, Some(&(date, p.optimum)), "{date}");
        dated += 1;
    }
    assert_eq!(dated, FORMER_OPTIMA.len());
}

#[test]
fn proven_optima_of_the_file_are_proven_again() {
    // The boards of the file whose proofs are quick: the article boards, and the Former
    // boards of 2024-11-22 (before the generator), 2024-11-24 and 2024-11-26.
    let quick = ["2024-11-22", "2024-11-24", "2024-11-26"];
    let mut proven = 0;
    for p in proven_boards() {
        let take = p.game != "former" || quick.contains(&p.date.as_deref().unwrap_or(""));
        if take {
            prove(
                &p.game,
                &p.board,
                p.optimum,
                p.date.as_deref().unwrap_or("-"),
            );
            proven += 1;
        }
    }
    assert_eq!(proven, 3 + quick.len());
}

#[test]
fn first_pc19_boards_are_proven_and_replay_to_one_colour() {
    let text = read("benchmarks/floodit/pc19.txt");
    let mut proven = 0;
    for (i, line) in text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(20)
        .enumerate()
    {
        let grid: Grid = floodit::square_up(line.trim().parse().unwrap());
        assert_eq!((grid.width(), grid.height()), (14, 14), "board {}", i + 1);
        let r = solve(&grid, &Setup::new(Game::Floodit), &mut |_| {}).unwrap();
        check_proven_answer(&grid, &r, &format!("board {}", i + 1));
        proven += 1;
    }
    assert_eq!(proven, 20);
}

#[test]
fn bench_reads_the_floodtest_blocks() {
    tumble()
        .args([
            "bench", "--game", "floodit", "--start", "centre", "--limit", "2", "--json",
        ])
        .arg(shared("benchmarks/floodit/floodtest1000.txt"))
        .assert()
        .success()
        .stdout(predicate::str::contains("\"boards\":2"))
        .stdout(predicate::str::contains("\"proven\":2"));
}

#[test]
fn bench_reads_one_board_per_line() {
    let out = tumble()
        .args(["bench", "--game", "floodit", "--limit", "3", "--json"])
        .arg(shared("benchmarks/floodit/b12c12n1000.txt"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["totals"]["boards"], 3);
    assert_eq!(v["totals"]["proven"], 3);
}

#[test]
fn bench_reads_standard20_and_totals_score_moves_and_tiles() {
    tumble()
        .args([
            "bench",
            "--game",
            "samegame",
            "--time-limit",
            "0.2",
            "--limit",
            "2",
        ])
        .arg(shared("benchmarks/samegame/standard20.txt"))
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
