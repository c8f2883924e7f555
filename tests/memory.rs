//! Memory: the Flood-It search that fills its budget goes on within it (deepening from the
//! A*'s frontier) and still proves the optimum, and every search holds to `--memory` (the
//! peak resident memory of the real binary).

mod common;

use common::{floodit_bfs_optimum, random_board, RefBoard, Rng};
use tumble::grid::Grid;
use tumble::rules::Game;
use tumble::solve::{solve, Setup};

/// Budgets far below what the A* needs force the deepening at every stage of the A* (from
/// its first expansion on); its optimum is the breadth-first search's, proven, and the
/// report says that the memory filled.
#[test]
fn the_deepening_after_a_full_memory_finds_the_bfs_optimum() {
    let mut rng = Rng::with_seed(2325);
    let (mut checked, mut fell_back) = (0, 0);
    for case in 0..400 {
        let (w, h) = (4 + rng.usize(..4), 4 + rng.usize(..3));
        let colours = 4 + rng.usize(..3);
        let r: RefBoard = random_board(&mut rng, w, h, colours, false);
        let grid: Grid = r.inline().parse().unwrap();
        let want = floodit_bfs_optimum(&r, (0, h - 1));
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

/// What the process may take beyond `--memory`: the binary's pages, the stacks, the
/// beams' buffers and the allocator's slack (see "Memory" in docs/architecture.md).
const BEYOND_BUDGET_MIB: u64 = 24;

/// Runs `tumble args` to its end and gives its stdout and its peak resident memory in MiB
/// (`ru_maxrss` of `wait4`, which reaps the child: `Child::wait` would not give the usage).
#[allow(clippy::zombie_processes)]
fn run_measured(args: &[&str]) -> (String, u64) {
    use std::io::Read;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tumble"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("tumble starts");
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let mut status = 0;
    // SAFETY: an all-zero `rusage` is a valid value, and `wait4` writes only to the
    // status and the `rusage` it is given, for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32, "wait4");
    assert!(
        libc::WIFEXITED(status),
        "tumble {args:?} did not exit: {status}"
    );
    (out, usage.ru_maxrss as u64 / 1024)
}

/// Flood-It boards that fill small budgets fast: the process stays within the budget plus
/// the constant, and says that the memory filled.
#[test]
fn a_floodit_search_holds_to_its_memory() {
    let board = tumble::input::gen_board(Game::Floodit, Some(24), Some(24), Some(6), 7)
        .expect("a board")
        .to_inline();
    let mut checked = 0;
    for mib in [4u64, 16] {
        let m = mib.to_string();
        let args = [
            "solve",
            "--game",
            "floodit",
            "--memory",
            &m,
            "--time-limit",
            "8",
            &board,
        ];
        let (out, peak) = run_measured(&args);
        assert!(
            out.contains(&format!(
                "note: the A* filled its memory (--memory {mib} MiB)"
            )),
            "--memory {mib}: {out}"
        );
        assert!(
            peak <= mib + BEYOND_BUDGET_MIB,
            "--memory {mib}: peak {peak} MiB"
        );
        eprintln!("--memory {mib}: peak {peak} MiB");
        checked += 1;
    }
    assert_eq!(checked, 2);
}

/// Click-game searches hold to `--memory` with all their large structures together: a
/// proof that runs to its time limit (the transposition table beside the edge memos and
/// the anytime beams), the anytime search alone (its beams stop widening and NRPA goes
/// on, as its note says), `--certify`'s exact memo, and the SameGame engine's beams for
/// Clickomania (the same).
#[test]
fn click_searches_hold_to_their_memory() {
    let board = tumble::input::gen_board(Game::Samegame, Some(15), Some(15), Some(5), 3)
        .expect("a board")
        .to_inline();
    let runs: [(&[&str], u64, &str); 6] = [
        // a budget too small for the edge memos a byte per position: the slices that must
        // remember every position are left out, and the time limit still holds
        (
            &["solve", "--date", "2026-02-03", "--time-limit", "2"],
            1,
            "lower bound",
        ),
        (
            &["solve", "--date", "2025-08-05", "--time-limit", "4"],
            32,
            "stopped: time limit",
        ),
        (
            &["solve", "--date", "2025-08-05", "--time-limit", "4"],
            96,
            "stopped: time limit",
        ),
        (
            &[
                "solve",
                "--date",
                "2025-06-29",
                "--no-proof",
                "--time-limit",
                "5",
            ],
            48,
            "beams filled their memory (--memory 48 MiB): NRPA went on",
        ),
        (
            &["solve", "--date", "2026-02-03", "--certify"],
            24,
            "certified: the bound",
        ),
        (
            &[
                "solve",
                "--game",
                "clickomania",
                &board,
                "--time-limit",
                "5",
            ],
            16,
            "beams filled their memory (--memory 16 MiB): NRPA went on",
        ),
    ];
    let mut checked = 0;
    for (args, mib, says) in runs {
        let m = mib.to_string();
        let mut all = args.to_vec();
        all.extend(["--memory", &m]);
        let (out, peak) = run_measured(&all);
        assert!(out.contains(says), "{all:?}: {out}");
        assert!(peak <= mib + BEYOND_BUDGET_MIB, "{all:?}: peak {peak} MiB");
        eprintln!("{all:?}: peak {peak} MiB");
        checked += 1;
    }
    assert_eq!(checked, 6);
}
