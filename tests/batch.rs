//! Batch runs through the command line: `bench --shard`, `--jsonl`, `--resume` (after a
//! truncated file, SIGKILL and Ctrl-C) and `tumble merge`, on small generated Figure boards
//! (each proven in milliseconds) and on NRK Former's dated boards where only the set's
//! names matter.

mod common;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use common::cli::{assert_error, run};
use common::scratch::Scratch;
use tumble::generate::generate;

/// A set of `n` generated Figure boards (5×5, 4 colours), written to `dir/set-N.txt`.
fn figure_set(dir: &Path, n: u64) -> String {
    let text: String = (1..=n)
        .map(|seed| {
            format!(
                "figure|{}\n",
                generate(5, 5, 4, seed).to_text().replace('\n', ",")
            )
        })
        .collect();
    let path = dir.join(format!("set-{n}.txt"));
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The JSON lines of `text`, each parsed, in the order written.
fn records(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The JSON lines of `text` in the order of the set (boards solved side by side end in
/// any order).
fn by_index(text: &str) -> Vec<Value> {
    let mut r = records(text);
    r.sort_by_key(|r| r["index"].as_u64());
    r
}

/// `tumble args` must succeed: its stdout.
fn ok(args: &[&str]) -> String {
    let (code, out, err) = run(args, None);
    assert_eq!(code, 0, "tumble {args:?}: {err}");
    out
}

/// The fields of a row that say what was found, and not how (the time it took, or the
/// score of the optimal answer found first, which may be one of several).
fn answer(r: &Value) -> Value {
    let keys = [
        "name",
        "index",
        "set",
        "game",
        "length",
        "optimal",
        "lower_bound",
        "tiles_left",
        "expected",
    ];
    keys.iter().map(|k| (k.to_string(), r[k].clone())).collect()
}

/// The totals that do not depend on timing (of proven boards: not the score, see [`answer`]).
fn totals(v: &Value) -> Vec<Value> {
    ["boards", "proven", "moves", "tiles_left", "mismatches"]
        .iter()
        .map(|k| v["totals"][k].clone())
        .collect()
}

#[test]
fn shards_partition_a_set_and_keep_the_whole_set_index() {
    let scratch = Scratch::new("batch-shards");
    let d = scratch.dir();
    let set = figure_set(d, 10);
    let mut runs = 0;
    for n in 1..=4usize {
        let mut seen = BTreeSet::new();
        for i in 1..=n {
            let shard = format!("{i}/{n}");
            let out = ok(&["bench", &set, "--shard", &shard, "--jsonl", "-"]);
            runs += 1;
            let rows = by_index(&out);
            assert_eq!(rows.len(), (10 + n - i) / n, "shard {shard}");
            for r in &rows {
                let k = r["index"].as_u64().unwrap() as usize;
                assert_eq!(k % n, i - 1, "board {k} in shard {shard}");
                assert_eq!(r["set"], 10);
                assert_eq!(r["name"], format!("figure#{}", k + 1));
                assert!(seen.insert(k), "board {k} in two shards of {n}");
            }
            if (i, n) == (2, 3) {
                let again = by_index(&ok(&["bench", &set, "--shard", &shard, "--jsonl"]));
                let a: Vec<Value> = rows.iter().map(answer).collect();
                let b: Vec<Value> = again.iter().map(answer).collect();
                assert_eq!(a, b, "the same shard twice");
            }
        }
        assert_eq!(seen, (0..10).collect(), "the shards of {n} cover the set");
    }
    assert_eq!(runs, 10);
}

#[test]
fn dated_boards_are_sharded_by_their_place_in_the_range() {
    // no proof and no time: only which boards each shard holds matters here
    let out = ok(&[
        "bench",
        "--dates",
        "2024-11-23..2025-01-01",
        "--no-proof",
        "--time-limit",
        "0",
        "--shard",
        "2/5",
        "--jsonl",
        "-",
    ]);
    let rows = by_index(&out);
    let days: Vec<String> = tumble::daily::DateRange::parse("2024-11-23..2025-01-01")
        .unwrap()
        .into_iter()
        .map(|d| d.to_string())
        .collect();
    assert_eq!(days.len(), 39);
    let indices: Vec<u64> = rows.iter().map(|r| r["index"].as_u64().unwrap()).collect();
    assert_eq!(indices, (1..39).step_by(5).collect::<Vec<_>>());
    for r in &rows {
        let k = r["index"].as_u64().unwrap() as usize;
        assert_eq!(r["set"], 39);
        assert_eq!(r["name"], days[k], "{r}");
    }
}

#[test]
fn json_lines_are_the_rows_of_json_and_go_out_as_boards_end() {
    let scratch = Scratch::new("batch-lines");
    let d = scratch.dir();
    let set = figure_set(d, 6);
    let whole: Value = serde_json::from_str(&ok(&["bench", &set, "--json"])).unwrap();
    let rows = whole["boards"].as_array().unwrap();
    assert_eq!(rows.len(), 6);
    // to stdout: JSON lines only, the table and totals on stderr
    let (code, out, err) = run(&["bench", &set, "--jsonl", "-"], None);
    assert_eq!(code, 0, "{err}");
    let lines = by_index(&out);
    assert!(err.contains("total: 6 boards, 6 proven optimal"), "{err}");
    let a: Vec<Value> = rows.iter().map(answer).collect();
    let b: Vec<Value> = lines.iter().map(answer).collect();
    assert_eq!(a, b);
    let mut keys = 0;
    for (r, l) in rows.iter().zip(&lines) {
        let (r, l) = (r.as_object().unwrap(), l.as_object().unwrap());
        assert_eq!(
            r.keys().collect::<Vec<_>>(),
            l.keys().collect::<Vec<_>>(),
            "a line has the fields of a row"
        );
        keys += r.len();
    }
    assert!(keys >= 6 * 16, "{keys} fields");
    // to a file: appended, and the table on stdout
    let file = d.join("out.jsonl");
    for round in 1..=2 {
        let out = ok(&["bench", &set, "--jsonl", s(&file), "--limit", "3"]);
        assert!(out.contains("total: 3 boards"), "{out}");
        let text = std::fs::read_to_string(&file).unwrap();
        assert_eq!(records(&text).len(), 3 * round);
    }
}

#[test]
fn bench_uses_every_core_unless_told_and_json_lines_on_stdout_exclude_json() {
    let scratch = Scratch::new("batch-jobs");
    let d = scratch.dir();
    let set = figure_set(d, 3);
    let cores = tumble::machine::cores();
    let jobs = |args: &[&str]| {
        let mut all = vec!["bench", &set, "--json"];
        all.extend_from_slice(args);
        let v: Value = serde_json::from_str(&ok(&all)).unwrap();
        v["totals"]["jobs"].as_u64().unwrap() as usize
    };
    // (never more boards at a time than the set's three)
    assert_eq!(jobs(&[]), cores.min(3));
    assert_eq!(jobs(&["--jobs", "1"]), 1);
    assert_eq!(jobs(&["--jobs", "3", "--threads", "2"]), 3);
    assert_eq!(jobs(&["--jobs", "50"]), 3);
    assert_eq!(jobs(&["--jobs", "50", "--limit", "2"]), 2);
    assert_error(&["bench", &set, "--json", "--jsonl"], None, &["--jsonl"]);
    let help = ok(&["bench", "--help"]);
    assert!(help.contains("cores / N threads"), "{help}");
    // the per-core limit the help states for --jobs and --threads is the one enforced
    let limit = format!("at most {} per core", tumble::input::THREADS_PER_CORE);
    assert_eq!(help.matches(&limit).count(), 2, "{help}");
}

#[test]
fn a_resumed_run_skips_the_boards_recorded_before_a_truncated_line() {
    let scratch = Scratch::new("batch-resume");
    let d = scratch.dir();
    let set = figure_set(d, 12);
    let full = d.join("full.jsonl");
    ok(&["bench", &set, "--jsonl", s(&full), "--jobs", "1"]);
    let text = std::fs::read_to_string(&full).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 12);
    // the first five boards, and half the sixth as a killed run leaves it
    let part = d.join("part.jsonl");
    let kept: String = lines[..5].iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&part, format!("{kept}{}", &lines[5][..lines[5].len() / 2])).unwrap();
    let (code, out, err) = run(&["bench", &set, "--resume", s(&part), "--json"], None);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("truncated last line"), "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["totals"]["boards"], 12, "the recorded rows count");
    assert_eq!(v["totals"]["proven"], 12);
    // the recorded rows are the ones read (their times), not solved again
    let recorded = records(&kept);
    for (r, b) in recorded.iter().zip(v["boards"].as_array().unwrap()) {
        assert_eq!(r, b, "a recorded row is kept as written");
    }
    let after = std::fs::read_to_string(&part).unwrap();
    assert!(
        after.starts_with(&kept),
        "the whole lines stay as they were"
    );
    let rows = records(&after);
    assert_eq!(
        rows.len(),
        12,
        "the cut line is replaced, seven boards added"
    );
    let indices: BTreeSet<u64> = rows.iter().map(|r| r["index"].as_u64().unwrap()).collect();
    assert_eq!(indices, (0..12).collect());
    // all done: a second resume solves nothing
    let (code, out, err) = run(&["bench", &set, "--resume", s(&part)], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("  recorded").count(), 12, "{out}");
    assert_eq!(records(&std::fs::read_to_string(&part).unwrap()).len(), 12);
    // a file that does not exist yet is a run from scratch
    let fresh = d.join("fresh.jsonl");
    ok(&["bench", &set, "--resume", s(&fresh), "--limit", "2"]);
    assert_eq!(records(&std::fs::read_to_string(&fresh).unwrap()).len(), 2);
}

/// Starts `tumble args` with its output discarded.
fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_tumble"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("tumble starts")
}

/// Waits until `file` holds at least `n` lines (at most 60 s).
fn wait_for_lines(file: &Path, n: usize) {
    let t = Instant::now();
    loop {
        let have = std::fs::read_to_string(file).map_or(0, |t| t.lines().count());
        if have >= n {
            return;
        }
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "{have} lines after 60 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_run_killed_or_interrupted_is_finished_by_resume_without_redoing_boards() {
    let scratch = Scratch::new("batch-killed");
    let d = scratch.dir();
    // Former boards of ten days, each searched for 0.4 s without proof, one at a time
    let args = |file: &Path| -> Vec<String> {
        [
            "bench",
            "--dates",
            "2024-11-23..2024-12-03",
            "--no-proof",
            "--time-limit",
            "0.4",
            "--jobs",
            "1",
            "--resume",
            s(file),
        ]
        .map(String::from)
        .to_vec()
    };
    let mut cases = 0;
    for signal in [libc::SIGKILL, libc::SIGINT] {
        let file = d.join(format!("run-{signal}.jsonl"));
        let a = args(&file);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let mut child = spawn(&a);
        wait_for_lines(&file, 2);
        // SAFETY: `kill` on the id of a child we started and have not yet waited for.
        assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
        let status = child.wait().unwrap();
        assert!(!status.success(), "the run was stopped: {status:?}");
        let before = std::fs::read_to_string(&file).unwrap();
        let done = records(before.trim_end_matches(|c| c != '\n')).len();
        assert!((2..10).contains(&done), "{done} boards before the {signal}");
        if signal == libc::SIGINT {
            assert!(
                !before.contains("interrupted"),
                "an interrupted board is not recorded"
            );
        }
        let mut out = String::new();
        BufReader::new(spawn(&a).stdout.take().unwrap())
            .lines()
            .for_each(|l| out.push_str(&(l.unwrap() + "\n")));
        assert_eq!(out.matches("  recorded").count(), done, "{out}");
        assert!(out.contains("total: 10 boards"), "{out}");
        let after = records(&std::fs::read_to_string(&file).unwrap());
        let indices: Vec<u64> = after.iter().map(|r| r["index"].as_u64().unwrap()).collect();
        assert_eq!(
            indices,
            (0..10).collect::<Vec<_>>(),
            "each board once, in order"
        );
        cases += 1;
    }
    assert_eq!(cases, 2);
}

/// Runs the shards `1/n`..`n/n` of `set` into `dir/shard-I.jsonl`, one board at a time (so
/// each file is in the order of the set); their paths.
fn shards(dir: &Path, set: &str, n: usize) -> Vec<String> {
    (1..=n)
        .map(|i| {
            let f = dir.join(format!("shard-{i}.jsonl"));
            let shard = format!("{i}/{n}");
            ok(&[
                "bench",
                set,
                "--shard",
                &shard,
                "--jsonl",
                s(&f),
                "--jobs",
                "1",
            ]);
            s(&f).to_string()
        })
        .collect()
}

#[test]
fn merged_shards_give_the_totals_of_one_run() {
    let scratch = Scratch::new("batch-merge");
    let d = scratch.dir();
    let set = figure_set(d, 11);
    let whole: Value = serde_json::from_str(&ok(&["bench", &set, "--json"])).unwrap();
    let files = shards(d, &set, 3);
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().map(String::as_str));
    let merged: Value = serde_json::from_str(&ok(&args)).unwrap();
    assert_eq!(totals(&merged), totals(&whole));
    assert_eq!(merged["totals"]["boards"], 11);
    let a: Vec<Value> = whole["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(answer)
        .collect();
    let b: Vec<Value> = merged["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(answer)
        .collect();
    assert_eq!(a, b);
    assert!(merged.get("missing").is_none() && merged.get("duplicates").is_none());
    // the text: the table and the totals of bench
    args.remove(1);
    let text = ok(&args);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("figure#")).count(),
        11
    );
    let total = format!(
        "total: 11 boards, 11 proven optimal, {} moves",
        whole["totals"]["moves"]
    );
    assert!(text.contains(&total), "{text}");
    assert!(
        text.contains("merged: 11 of 11 boards from 3 files"),
        "{text}"
    );
}

#[test]
fn merge_names_boards_twice_and_boards_missing() {
    let scratch = Scratch::new("batch-merge-bad");
    let d = scratch.dir();
    let set = figure_set(d, 9);
    let files = shards(d, &set, 3);
    // shard 1 twice (a copy with one answer changed), shard 3 not at all
    let copy = d.join("copy.jsonl");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    let first = records(&text)[0].clone();
    let changed = text.replacen(
        &format!("\"length\":{}", first["length"]),
        &format!("\"length\":{}", first["length"].as_u64().unwrap() + 1),
        1,
    );
    assert_ne!(changed, text);
    std::fs::write(&copy, changed).unwrap();
    let (code, out, err) = run(&["merge", &files[0], &files[1], s(&copy)], None);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("total: 6 boards"),
        "the totals are printed: {out}"
    );
    let dups: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("duplicate: "))
        .collect();
    assert_eq!(dups.len(), 3, "{out}");
    assert_eq!(
        dups.iter().filter(|l| l.contains("CONFLICT")).count(),
        1,
        "{out}"
    );
    let missing: Vec<&str> = out.lines().filter(|l| l.starts_with("missing: ")).collect();
    assert_eq!(
        missing,
        [
            "missing: board index 2",
            "missing: board index 5",
            "missing: board index 8"
        ]
    );
    // in JSON too, and a cut last line still names its board
    let cut = d.join("cut.jsonl");
    let third = std::fs::read_to_string(&files[2]).unwrap();
    std::fs::write(&cut, &third[..third.find('\n').unwrap() + 30]).unwrap();
    let (code, out, err) = run(&["merge", "--json", &files[0], &files[1], s(&cut)], None);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("truncated last line"), "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["totals"]["boards"], 7);
    let names: Vec<&Value> = v["missing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["name"])
        .collect();
    assert_eq!(names, [&Value::from("figure#6"), &Value::Null]);
}

#[test]
fn bad_shards_and_bad_merge_input_are_one_line_errors() {
    let scratch = Scratch::new("batch-errors");
    let d = scratch.dir();
    let set = figure_set(d, 4);
    let mut cases = 0;
    for bad in ["0/3", "4/3", "x", "1/0", "2"] {
        assert_error(&["bench", &set, "--shard", bad], None, &["--shard", bad]);
        cases += 1;
    }
    let files = shards(d, &set, 2);
    let other = d.join("other.jsonl");
    let five = figure_set(d, 5);
    ok(&["bench", &five, "--jsonl", s(&other), "--limit", "5"]);
    let garbage = d.join("garbage.jsonl");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    std::fs::write(&garbage, format!("{text}not json\n{text}")).unwrap();
    let empty = d.join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let nowhere = d.join("nowhere.jsonl");
    // a set of as many boards, named otherwise: its records are not shards of `set`
    let renamed = d.join("renamed.txt");
    let boards = std::fs::read_to_string(&set).unwrap();
    let named: String = (boards.lines().enumerate())
        .map(|(k, l)| format!("x{k}|{}|?\n", l.trim_start_matches("figure|")))
        .collect();
    std::fs::write(&renamed, named).unwrap();
    let renamed_rows = d.join("renamed.jsonl");
    ok(&[
        "bench",
        s(&renamed),
        "--game",
        "figure",
        // one board at a time, so the rows are in the set's order and board 0 comes first
        "--jobs",
        "1",
        "--jsonl",
        s(&renamed_rows),
    ]);
    let merges: [(Vec<&str>, &str); 6] = [
        (vec![s(&nowhere)], "nowhere.jsonl"),
        // an endless source is cut off, not read until memory runs out
        (vec!["/dev/zero"], "/dev/zero: it is over 256 MiB"),
        (vec![s(&garbage)], "garbage.jsonl line 3"),
        (vec![&files[0], s(&other)], "a set of 5 boards, not 4"),
        (vec![s(&empty)], "no board records"),
        (
            vec![&files[0], s(&renamed_rows)],
            "board 0 is \"x0\" there but \"figure#1\"",
        ),
    ];
    for (files, needle) in merges {
        let mut args = vec!["merge"];
        args.extend(files);
        assert_error(&args, None, &[needle]);
        cases += 1;
    }
    // a file of another set cannot be resumed
    assert_error(
        &["bench", &set, "--resume", s(&other)],
        None,
        &["a set of 5 boards, not 4"],
    );
    cases += 1;
    assert_eq!(cases, 12);
}
