//! Memory: every search holds to `--memory`, measured as the peak resident memory of the
//! real binary. This file runs no search in its own process, so that its own peak stays far
//! below any child's (see `run_measured`). The Flood-It search that fills its budget and goes
//! on within it is checked in `floodit.rs`.

use tumble::rules::Game;

/// What the process may take beyond `--memory`: the binary's pages, the stacks, the
/// beams' buffers and the allocator's slack (see "Memory" in docs/architecture.md).
const BEYOND_BUDGET_MIB: u64 = 24;

/// Runs `tumble args` to its end and gives its stdout and its peak resident memory in MiB
/// (`ru_maxrss` of `wait4`, which reaps the child: `Child::wait` would not give the usage).
///
/// Linux's `ru_maxrss` of a child is the larger of its own peak and the peak of the memory
/// its `exec` replaced, which for a child spawned by `vfork` (as `Command` does) is this
/// process's peak at the spawn. This process's peak only grows, so when the figure is above
/// this process's peak read after the child's end, it is the child's own.
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
    let child_peak = usage.ru_maxrss as u64 / 1024;
    let own_peak = tumble::machine::peak_resident_mib().expect("VmHWM in /proc/self/status");
    assert!(
        own_peak < child_peak as f64,
        "tumble {args:?}: this test process's own peak ({own_peak:.1} MiB) is not below the \
         child's figure ({child_peak} MiB), which then may be this process's"
    );
    (out, child_peak)
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
/// on, as its note says), `--certify`'s exact memo, the SameGame engine's beams for
/// Clickomania (the same), and SameGame's search for the highest score, whose last part
/// searches the end of its best line through in a table of positions. The two anytime
/// runs get the smallest budget (1 MiB, beams 256 wide) on boards whose beams of that
/// width take a small part of their time limit even on a slow, loaded machine, so that
/// whether they fill it does not hang on the machine's speed; a budget the beams ignored
/// would still show in the peak.
#[test]
fn click_searches_hold_to_their_memory() {
    let board = tumble::input::gen_board(Game::Samegame, Some(15), Some(15), Some(5), 3)
        .expect("a board")
        .to_inline();
    let small = tumble::input::gen_board(Game::Samegame, Some(10), Some(10), Some(4), 3)
        .expect("a board")
        .to_inline();
    let runs: [(&[&str], u64, &str); 7] = [
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
            1,
            "beams filled their memory (--memory 1 MiB): NRPA went on",
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
                &small,
                "--time-limit",
                "5",
            ],
            1,
            "beams filled their memory (--memory 1 MiB): NRPA went on",
        ),
        // the highest score: beams, NRPA, then the end of the best line searched through
        // in a table of positions held to the budget
        (
            &["solve", "--game", "samegame", &board, "--time-limit", "4"],
            8,
            "best found: score",
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
    assert_eq!(checked, 7);
}
