//! `tumble bench`: solves a set of boards ([`tumble::bench`]), or a shard of it, and prints
//! a row per board and the totals, or one JSON object, and with `--jsonl` one JSON line
//! per board as it ends; `--resume` skips the boards a JSON-lines file records. A proven
//! answer that contradicts the expected value (`MISMATCH`) makes the exit code 1. Ctrl-C
//! ends the boards in progress (their rows marked `interrupted`, and not written as JSON
//! lines, so that a resumed run solves them again), prints the totals of the boards done
//! and exits with code 130.

use std::io::Write;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};

use super::args::BenchArgs;
use tumble::bench::jsonl::{open_append, read_file, resume, write_row, Resumed};
use tumble::bench::{default_threads, memory_per_board, solve_set, Row, Shard, Totals};
use tumble::input::{check_jobs, dated_entries, read_board_text, InputError, SearchChoices};
use tumble::report::Stopped;
use tumble::rules::{Game, RuleChoices};
use tumble::solve::Setup;

/// The table's header.
pub fn header() -> String {
    format!(
        "{:<14} {:>6} {:>6} {:>7} {:>7} {:>5} {:>8} {:>12} {:>10}",
        "board", "moves", "tiles", "score", "proven", "lb", "expected", "nodes", "time"
    )
}

/// A row of the table.
pub fn line(row: &Row) -> String {
    format!(
        "{:<14} {:>6} {:>6} {:>7} {:>7} {:>5} {:>8} {:>12} {:>9.3}s{}{}",
        row.name,
        row.length,
        row.tiles_left,
        row.score,
        if row.optimal { "yes" } else { "no" },
        row.lower_bound,
        row.expected.map_or("-".into(), |x| x.to_string()),
        row.nodes,
        row.ms / 1000.0,
        if row.certified == Some(false) {
            "  NOT CERTIFIED"
        } else if row.contradicts() {
            "  MISMATCH"
        } else if row.below() {
            "  below"
        } else {
            ""
        },
        if row.stopped == Some(Stopped::Interrupted) {
            "  interrupted"
        } else {
            ""
        }
    )
}

/// The totals under the table, one line each.
pub fn totals_lines(totals: &Totals) -> Vec<String> {
    let mut out = vec![
        format!(
            "total: {} boards, {} proven optimal, {} moves, {} tiles left, score {}, {} nodes",
            totals.boards,
            totals.proven,
            totals.moves,
            totals.tiles_left,
            totals.score,
            totals.nodes
        ),
        format!(
            "time: total {:.3}s, median {:.3}s, p90 {:.3}s, p99 {:.3}s, max {:.3}s{}, wall {:.3}s ({} at a time); peak memory {}",
            totals.total_s,
            totals.median_s,
            totals.p90_s,
            totals.p99_s,
            totals.max_s,
            totals
                .first_max_ms
                .map_or(String::new(), |m| format!(" (first solution within {:.0} ms)", m)),
            totals.wall_s,
            super::count(totals.jobs as u64, "board"),
            totals
                .peak_memory_mib
                .map_or("unknown".into(), |m| format!("{m:.0} MiB"))
        ),
    ];
    if let (Some(yes), Some(no)) = (totals.certified, totals.not_certified) {
        out.push(format!("certified: {yes} boards, not certified: {no}"));
    }
    if totals.mismatches > 0 {
        out.push(format!(
            "{} {} from the expected optimum",
            super::count(totals.mismatches as u64, "proven answer"),
            if totals.mismatches == 1 {
                "differs"
            } else {
                "differ"
            }
        ));
    }
    out
}

/// The exit code of rows with these totals: 1 when a proven answer contradicts the
/// expected value or a bound was not certified.
pub fn verdict(totals: &Totals) -> ExitCode {
    if totals.mismatches > 0 || totals.not_certified.is_some_and(|n| n > 0) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Prints the human-readable lines: on stdout, or on stderr when stdout carries JSON lines.
fn say(to_stderr: bool, text: &str) {
    if to_stderr {
        eprintln!("{text}");
    } else {
        println!("{text}");
    }
}

/// Runs `tumble bench`; `terminal`: stderr is a terminal (for the progress bar).
pub fn run(args: BenchArgs, terminal: bool) -> Result<ExitCode> {
    if args.jobs == Some(0) {
        return Err(InputError::NoJobs.into());
    }
    if args.limit == Some(0) {
        anyhow::bail!("--limit must be at least 1");
    }
    let mut rules: RuleChoices = args.rules.into();
    let (mut entries, source) = match (&args.file, &args.dates) {
        (_, Some(range)) => (dated_entries(range, &mut rules)?, range.clone()),
        (Some(file), None) => (
            tumble::boardset::parse(&read_board_text(file)?),
            file.clone(),
        ),
        (None, None) => anyhow::bail!("bench needs a board set file or --dates"),
    };
    if let Some(n) = args.limit {
        entries.truncate(n);
    }
    if entries.is_empty() {
        return Err(InputError::NoBoards(source).into());
    }
    let shard: Option<Shard> = args.shard.as_deref().map(str::parse).transpose()?;
    let part = match shard {
        Some(s) => s.positions(entries.len()),
        None => (0..entries.len()).collect(),
    };
    // where the JSON lines go: --jsonl, else the file resumed
    let jsonl = args.jsonl.clone().or_else(|| args.resume.clone());
    let lines_on_stdout = jsonl.as_deref() == Some("-");
    if lines_on_stdout && args.json {
        anyhow::bail!("--json and --jsonl to stdout both print on stdout: give --jsonl a FILE");
    }
    // (a file to resume that does not exist yet is said once the output is open: a place
    // where it cannot be written is the one error)
    let mut fresh = None;
    let resumed = match &args.resume {
        None => Resumed::default(),
        Some(path) => match read_file(path, true)? {
            Some(text) => resume(&entries, shard, &text, path)?,
            None => {
                fresh = Some(path);
                Resumed::default()
            }
        },
    };
    for note in &resumed.notes {
        eprintln!("note: {note}");
    }
    let mut recorded = vec![false; entries.len()];
    for r in &resumed.rows {
        recorded[r.index] = true;
    }
    let todo: Vec<usize> = part.iter().copied().filter(|&k| !recorded[k]).collect();
    // no more boards at a time than there are to solve: the cores and the memory are
    // shared out among those that run
    let cores = tumble::machine::cores();
    let jobs = args.jobs.unwrap_or(cores).min(todo.len()).max(1);
    check_jobs(jobs)?;
    let mut search: SearchChoices = args.search.into();
    search.threads = search.threads.or(Some(default_threads(cores, jobs)));
    // `--memory` is the whole run's: the boards solved at the same time share it
    search.memory_mib = memory_per_board(search.memory_mib, jobs);
    // (checked here, once, rather than on the first board, after the table's header)
    search.apply(&mut Setup::new(Game::Former))?;
    let out: Option<Box<dyn Write + Send>> = match jsonl.as_deref() {
        None => None,
        Some("-") => Some(Box::new(std::io::stdout())),
        Some(path) => {
            // a truncated last line is cut off the file resumed before appending to it
            let keep = resumed
                .keep
                .filter(|_| args.resume.as_deref() == Some(path));
            let f = open_append(std::path::Path::new(path), keep)
                .with_context(|| format!("cannot write {path}"))?;
            Some(Box::new(f))
        }
    };
    if let Some(path) = fresh {
        eprintln!("note: {path} does not exist yet: no boards recorded");
    }
    let out = Mutex::new(out);
    let bar = (terminal && !args.json && !lines_on_stdout).then(|| {
        let b = ProgressBar::new(part.len() as u64);
        b.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} boards, {elapsed} {msg}")
                .expect("a valid template"),
        );
        b.set_position(resumed.rows.len() as u64);
        b
    });
    let text = !args.json;
    if text {
        say(lines_on_stdout, &header());
        for r in &resumed.rows {
            say(lines_on_stdout, &format!("{}  recorded", line(r)));
        }
    }
    let wall = Instant::now();
    let stop = super::stop::install();
    let write_error = Mutex::new(None);
    let new_rows = solve_set(&entries, &todo, &rules, &search, jobs, &stop, |row| {
        if row.stopped != Some(Stopped::Interrupted) {
            if let Some(o) = out.lock().expect("no panic while writing").as_mut() {
                if let Err(e) = write_row(o, row) {
                    write_error
                        .lock()
                        .expect("no panic while writing")
                        .get_or_insert(e);
                }
            }
        }
        match (&bar, text) {
            (Some(b), _) => {
                b.println(line(row));
                b.inc(1);
            }
            (None, true) => say(lines_on_stdout, &line(row)),
            _ => {}
        }
    })?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Some(e) = write_error.into_inner().expect("no panic while writing") {
        let to = jsonl.as_deref().unwrap_or("-");
        return Err(anyhow::Error::new(e).context(format!("cannot write {to}")));
    }
    let mut rows = resumed.rows;
    rows.extend(new_rows);
    rows.sort_by_key(|r| r.index);
    let totals = Totals::of(&rows, wall.elapsed(), jobs);
    let interrupted = super::stop::interrupted(&stop);
    if args.json {
        let mut out = serde_json::json!({ "boards": rows, "totals": totals });
        if interrupted {
            out["interrupted"] = true.into();
        }
        println!("{out}");
    } else {
        for l in totals_lines(&totals) {
            say(lines_on_stdout, &l);
        }
        if interrupted {
            say(
                lines_on_stdout,
                &format!(
                    "stopped: interrupted, {} of {} boards done",
                    rows.len(),
                    part.len()
                ),
            );
        }
    }
    Ok(if interrupted {
        ExitCode::from(super::stop::INTERRUPTED)
    } else {
        verdict(&totals)
    })
}
