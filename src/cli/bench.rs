//! `tumble bench`: solves a set of boards ([`tumble::bench`]) and prints a row per board
//! and the totals, or one JSON object. A proven answer that contradicts the expected value
//! (`MISMATCH`) makes the exit code 1. Ctrl-C ends the board in progress (its row marked
//! `interrupted`), prints the totals of the boards done and exits with code 130.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};

use super::args::BenchArgs;
use tumble::bench::{solve_set, Row, Totals};
use tumble::input::{dated_entries, read_board_text, InputError, RuleChoices, SearchChoices};
use tumble::report::Stopped;

/// A row of the table.
fn line(row: &Row) -> String {
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

/// Prints the totals under the table.
fn print_totals(totals: &Totals) {
    println!(
        "total: {} boards, {} proven optimal, {} moves, {} tiles left, score {}, {} nodes",
        totals.boards, totals.proven, totals.moves, totals.tiles_left, totals.score, totals.nodes
    );
    println!(
        "time: total {:.3}s, median {:.3}s, max {:.3}s, wall {:.3}s ({} board{} at a time); peak memory {}",
        totals.total_s,
        totals.median_s,
        totals.max_s,
        totals.wall_s,
        totals.jobs,
        if totals.jobs == 1 { "" } else { "s" },
        totals
            .peak_memory_mib
            .map_or("unknown".into(), |m| format!("{m:.0} MiB"))
    );
    if let (Some(yes), Some(no)) = (totals.certified, totals.not_certified) {
        println!("certified: {yes} boards, not certified: {no}");
    }
    if totals.mismatches > 0 {
        println!(
            "{} proven answers differ from the expected optimum",
            totals.mismatches
        );
    }
}

/// Runs `tumble bench`; `terminal`: stderr is a terminal (for the progress bar).
pub fn run(args: BenchArgs, terminal: bool) -> Result<ExitCode> {
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
    let bar = (terminal && !args.json).then(|| {
        let b = ProgressBar::new(entries.len() as u64);
        b.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} boards, {elapsed} {msg}")
                .expect("a valid template"),
        );
        b
    });
    if !args.json {
        println!(
            "{:<14} {:>6} {:>6} {:>7} {:>7} {:>5} {:>8} {:>12} {:>10}",
            "board", "moves", "tiles", "score", "proven", "lb", "expected", "nodes", "time"
        );
    }
    let search: SearchChoices = args.search.into();
    let wall = Instant::now();
    if args.jobs == 0 {
        return Err(InputError::NoJobs.into());
    }
    let jobs = args.jobs;
    let stop = super::stop::install();
    let rows = solve_set(&entries, &rules, &search, jobs, &stop, |row| {
        match (&bar, args.json) {
            (Some(b), _) => {
                b.println(line(row));
                b.inc(1);
            }
            (None, false) => println!("{}", line(row)),
            _ => {}
        }
    })?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let totals = Totals::of(&rows, wall.elapsed(), jobs);
    let interrupted = super::stop::interrupted(&stop);
    if args.json {
        let mut out = serde_json::json!({ "boards": rows, "totals": totals });
        if interrupted {
            out["interrupted"] = true.into();
        }
        println!("{out}");
    } else {
        print_totals(&totals);
        if interrupted {
            println!(
                "stopped: interrupted, {} of {} boards done",
                rows.len(),
                entries.len()
            );
        }
    }
    Ok(if interrupted {
        ExitCode::from(super::stop::INTERRUPTED)
    } else if totals.mismatches > 0 || totals.not_certified.is_some_and(|n| n > 0) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
