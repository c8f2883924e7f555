//! Searches that end early say why, and keep their best so far: Ctrl-C (SIGINT) during
//! `tumble solve` and `tumble bench` (exit code 130, the best found printed as usual), the
//! time limit, and Flood-It's memory budget (`"stopped"` in the report).

mod common;

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use common::scratch::Scratch;

use tumble::input::gen_board;
use tumble::rules::Game;
use tumble::solve::{solve, Setup, Stopped};

/// The daily Former board whose proof takes longest (tens of seconds), so a search of it
/// is still running a second after it starts.
fn hard_board() -> String {
    common::data::hard_former().board
}

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_tumble"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tumble starts")
}

/// Sends SIGINT to `child`.
fn interrupt(child: &Child) {
    // SAFETY: `kill` on the id of a child we started and have not yet waited for.
    let r = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    assert_eq!(r, 0, "kill failed");
}

/// Waits for `child` to exit, at most `limit`: (exit code, how long it took).
fn wait_for(child: &mut Child, limit: Duration) -> (i32, Duration) {
    let t = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            let code = status.code().expect("an exit code, not death by a signal");
            return (code, t.elapsed());
        }
        if t.elapsed() > limit {
            child.kill().ok();
            panic!("tumble did not exit within {limit:?} of Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Reads the first line of `child`'s stdout (its output has begun: the handler is in
/// place), then lets it run for a second more and interrupts it. Returns the exit code,
/// the time from SIGINT to exit, and the whole stdout.
fn interrupt_after_first_line(mut child: Child) -> (i32, Duration, String) {
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut text = String::new();
    out.read_line(&mut text).expect("a first line");
    assert!(!text.is_empty(), "tumble printed nothing");
    std::thread::sleep(Duration::from_secs(1));
    assert!(
        child.try_wait().expect("try_wait").is_none(),
        "the search ended before it could be interrupted"
    );
    interrupt(&child);
    let (code, took) = wait_for(&mut child, Duration::from_secs(20));
    out.read_to_string(&mut text).expect("stdout");
    (code, took, text)
}

#[test]
fn ctrl_c_prints_the_best_so_far_and_exits_130() {
    let board = hard_board();
    let child = spawn(&["solve", "--game", "former", "--time-limit", "120", &board]);
    let (code, took, out) = interrupt_after_first_line(child);
    assert_eq!(code, 130, "{out}");
    assert!(took < Duration::from_secs(10), "took {took:?} to stop");
    let best = out
        .lines()
        .find(|l| l.starts_with("best found: "))
        .unwrap_or_else(|| panic!("no best found line: {out}"));
    assert!(best.contains("lower bound"), "{best}");
    assert!(best.ends_with("(not proven optimal)"), "{best}");
    assert!(out.lines().any(|l| l == "stopped: interrupted"), "{out}");
    let moves = best
        .trim_start_matches("best found: ")
        .split(' ')
        .next()
        .and_then(|n| n.parse::<usize>().ok())
        .expect("a move count");
    assert!(moves >= common::data::hard_former().optimum);
    // the moves follow, numbered
    assert!(out.contains(&format!("\n{moves:>2}. ")), "{out}");
}

#[test]
fn ctrl_c_with_json_gives_the_report_marked_interrupted() {
    let board = hard_board();
    let mut child = spawn(&[
        "solve",
        "--json",
        "--game",
        "former",
        "--time-limit",
        "120",
        &board,
    ]);
    // With --json nothing is printed before the end: give it a second to start.
    std::thread::sleep(Duration::from_secs(1));
    assert!(child.try_wait().expect("try_wait").is_none(), "ended early");
    interrupt(&child);
    let (code, took) = wait_for(&mut child, Duration::from_secs(20));
    let mut out = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut out)
        .expect("stdout");
    assert_eq!(code, 130, "{out}");
    assert!(took < Duration::from_secs(10), "took {took:?} to stop");
    let v: Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(v["optimal"], false, "{v}");
    assert_eq!(v["interrupted"], true, "{v}");
    assert_eq!(v["stopped"], "interrupted", "{v}");
    let length = v["length"].as_u64().expect("length") as usize;
    assert_eq!(v["moves"].as_array().expect("moves").len(), length);
    assert!(length >= common::data::hard_former().optimum);
}

#[test]
fn ctrl_c_during_bench_prints_the_totals_of_the_boards_done() {
    let board = hard_board();
    let scratch = Scratch::new("ctrl_c_during_bench");
    let path = scratch.file(
        "set.txt",
        &format!("former|{board}|15\nformer|{board}|15\nformer|{board}|15\n"),
    );
    let child = spawn(&[
        "bench",
        "--jobs",
        "1",
        "--time-limit",
        "120",
        path.to_str().expect("a UTF-8 path"),
    ]);
    let (code, took, out) = interrupt_after_first_line(child);
    assert_eq!(code, 130, "{out}");
    assert!(took < Duration::from_secs(10), "took {took:?} to stop");
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("former#")).collect();
    assert_eq!(rows.len(), 1, "only the board in progress has a row: {out}");
    assert!(rows[0].ends_with("  interrupted"), "{}", rows[0]);
    assert!(out.contains("total: 1 boards, 0 proven optimal"), "{out}");
    assert!(
        out.lines()
            .any(|l| l == "stopped: interrupted, 1 of 3 boards done"),
        "{out}"
    );
}

#[test]
fn the_time_limit_is_named_and_a_finished_search_names_nothing() {
    let board = hard_board();
    let out = Command::new(env!("CARGO_BIN_EXE_tumble"))
        .args(["solve", "--game", "former", "--time-limit", "0.2", "--json"])
        .arg(&board)
        .output()
        .expect("tumble runs");
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["optimal"], false, "{v}");
    assert_eq!(v["stopped"], "time", "{v}");
    assert!(v.get("interrupted").is_none(), "{v}");
    let text = Command::new(env!("CARGO_BIN_EXE_tumble"))
        .args(["solve", "--game", "former", "--time-limit", "0.2", &board])
        .output()
        .expect("tumble runs");
    let text = String::from_utf8(text.stdout).expect("UTF-8");
    assert!(text.lines().any(|l| l == "stopped: time limit"), "{text}");
    // A search that finishes says nothing about stopping.
    let out = Command::new(env!("CARGO_BIN_EXE_tumble"))
        .args(["solve", "--game", "former", "--json", "AAB,ABB,BAA"])
        .output()
        .expect("tumble runs");
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["optimal"], true, "{v}");
    assert!(v.get("stopped").is_none(), "{v}");
    assert!(v.get("interrupted").is_none(), "{v}");
}

#[test]
fn a_samegame_score_search_stops_at_its_time_limit() {
    let board = tumble::input::gen_board(Game::Samegame, None, None, None, 3)
        .expect("a board")
        .to_inline();
    let out = Command::new(env!("CARGO_BIN_EXE_tumble"))
        .args([
            "solve",
            "--game",
            "samegame",
            "--time-limit",
            "0.3",
            "--json",
        ])
        .arg(&board)
        .output()
        .expect("tumble runs");
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["objective"], "score", "{v}");
    assert_eq!(v["optimal"], false, "{v}");
    assert_eq!(v["stopped"], "time", "{v}");
}

#[test]
fn floodit_out_of_memory_says_so_and_goes_on() {
    // A 24×24 board with 6 colours: its A* outgrows 1 MiB long before it is proven; the
    // search goes on by deepening until the time limit, and says that the memory filled.
    let grid = gen_board(Game::Floodit, Some(24), Some(24), Some(6), 7).expect("a board");
    let mut setup = Setup::new(Game::Floodit);
    setup.search.memory = 1 << 20;
    setup.search.time_limit = Some(Duration::from_secs(2));
    let r = solve(&grid, &setup, &mut |_| {}).expect("solves");
    let note = r.note.clone().expect("a note that the memory filled");
    assert!(
        note.contains("filled its memory (--memory 1 MiB)"),
        "{note}"
    );
    if !r.optimal {
        assert_eq!(r.stopped, Some(Stopped::Time));
        assert!(r.length as u32 > r.lower_bound);
    }
    let json = serde_json::to_value(&r).expect("JSON");
    assert!(
        json["note"].as_str().unwrap().contains("filled its memory"),
        "{json}"
    );
    assert!(json.get("interrupted").is_none(), "{json}");
    // and on the command line
    let out = Command::new(env!("CARGO_BIN_EXE_tumble"))
        .args([
            "solve",
            "--game",
            "floodit",
            "--memory",
            "1",
            "--time-limit",
            "2",
        ])
        .arg(grid.to_inline())
        .output()
        .expect("tumble runs");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(
        text.lines()
            .any(|l| l.starts_with("note: the A* filled its memory (--memory 1 MiB) at ")),
        "{text}"
    );
    setup.search.time_limit = None;
    // With room enough, a small board is proven and nothing stopped it.
    let small = gen_board(Game::Floodit, Some(6), Some(6), Some(4), 7).expect("a board");
    let r = solve(&small, &setup, &mut |_| {}).expect("solves");
    assert!(r.optimal);
    assert_eq!(r.stopped, None);
}
