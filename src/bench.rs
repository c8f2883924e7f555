//! `tumble bench`: solve a set of boards, print per-board results and totals.
//!
//! Reads the board-set formats in use: lines `game|board|expected` (or `name|board|record`
//! with `--game`), one board per line, blocks of rows separated by blank lines, and
//! SameGame's `problem NN` headers followed by rows. A third field that is a number is, on
//! `game|board|N` lines (`boards/proven.txt`), the proven optimum: a proven answer that
//! differs is a contradiction (`MISMATCH`, exit 1); on `name|board|N` lines
//! (`boards/former_nrk.txt`), a best-known record: a proven answer above it is a
//! contradiction, one below it a new best (`below`).

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::{read_board_text, setup_from, RuleArgs, SearchArgs};
use tumble::solve;

#[derive(Args)]
pub struct BenchArgs {
    /// The board set.
    file: String,
    #[command(flatten)]
    rules: RuleArgs,
    /// Limits per board.
    #[command(flatten)]
    search: SearchArgs,
    /// Only the first N boards.
    #[arg(long)]
    limit: Option<usize>,
    /// Print one JSON object (per-board results and totals) instead of a table.
    #[arg(long)]
    json: bool,
    /// Boards solved at the same time (default 1). With more than one, per-board times
    /// are measured while other boards run, and the wall-clock time is printed too.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
}

/// One board of a set.
struct Entry {
    name: String,
    game: Option<String>,
    board: String,
    expected: Option<u32>,
    /// Is `expected` a proven optimum (else a best-known record)?
    exact: bool,
}

fn parse_set(text: &str) -> Vec<Entry> {
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect();
    let mut out = Vec::new();
    if lines.iter().any(|l| l.contains('|')) {
        for (i, l) in lines.iter().enumerate().filter(|(_, l)| l.contains('|')) {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            let is_game = f[0].parse::<tumble::rules::Game>().is_ok();
            out.push(Entry {
                name: if is_game {
                    format!("{}#{}", f[0], i + 1)
                } else {
                    f[0].to_string()
                },
                game: is_game.then(|| f[0].to_string()),
                board: f.get(1).unwrap_or(&"").to_string(),
                expected: f.get(2).and_then(|e| e.parse().ok()),
                exact: is_game,
            });
        }
        return out;
    }
    let blocky = lines
        .iter()
        .any(|l| l.trim().is_empty() || l.trim_start().starts_with("problem"));
    if blocky {
        let mut name = None;
        let mut rows: Vec<&str> = Vec::new();
        let flush = |name: &mut Option<String>, rows: &mut Vec<&str>, out: &mut Vec<Entry>| {
            if !rows.is_empty() {
                let n = out.len() + 1;
                out.push(Entry {
                    name: name.take().unwrap_or_else(|| format!("#{n}")),
                    game: None,
                    board: rows.join("\n"),
                    expected: None,
                    exact: false,
                });
                rows.clear();
            }
        };
        for l in lines {
            let t = l.trim();
            if t.is_empty() {
                flush(&mut name, &mut rows, &mut out);
            } else if let Some(rest) = t.strip_prefix("problem") {
                flush(&mut name, &mut rows, &mut out);
                name = Some(format!("problem {}", rest.trim()));
            } else {
                rows.push(t);
            }
        }
        flush(&mut name, &mut rows, &mut out);
        return out;
    }
    lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| Entry {
            name: format!("#{}", i + 1),
            game: None,
            board: l.trim().to_string(),
            expected: None,
            exact: false,
        })
        .collect()
}

#[derive(Serialize)]
struct Row {
    name: String,
    game: String,
    length: usize,
    optimal: bool,
    lower_bound: u32,
    tiles_left: usize,
    score: i64,
    expected: Option<u32>,
    /// Is `expected` a proven optimum (else a record)?
    #[serde(skip)]
    exact: bool,
    nodes: u64,
    ms: f64,
}

impl Row {
    /// A proven answer that contradicts the expected value: different from a proven
    /// optimum, or longer than a record.
    fn contradicts(&self) -> bool {
        match self.expected {
            Some(x) if self.optimal => {
                let x = x as usize;
                self.length > x || (self.exact && self.length != x)
            }
            _ => false,
        }
    }
}

#[derive(Serialize)]
struct Totals {
    boards: usize,
    proven: usize,
    moves: usize,
    tiles_left: usize,
    score: i64,
    nodes: u64,
    total_s: f64,
    median_s: f64,
    max_s: f64,
    /// Wall-clock time of the whole set.
    wall_s: f64,
    /// Boards solved at the same time.
    jobs: usize,
    peak_memory_mib: Option<f64>,
    mismatches: usize,
}

/// Peak resident memory of this process (Linux), in MiB.
pub fn peak_memory_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

pub fn run(args: BenchArgs, terminal: bool) -> Result<ExitCode> {
    let text = read_board_text(&args.file)?;
    let mut entries = parse_set(&text);
    if let Some(n) = args.limit {
        entries.truncate(n);
    }
    if entries.is_empty() {
        bail!("{}: no boards found", args.file);
    }
    let bar = (terminal && !args.json).then(|| {
        let b = ProgressBar::new(entries.len() as u64);
        b.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} boards, {elapsed} {msg}")
                .expect("a valid template"),
        );
        b
    });
    let mut rows = Vec::new();
    if !args.json {
        println!(
            "{:<14} {:>6} {:>6} {:>7} {:>7} {:>5} {:>8} {:>12} {:>10}",
            "board", "moves", "tiles", "score", "proven", "lb", "expected", "nodes", "time"
        );
    }
    let solve_one = |e: &Entry| -> Result<(String, solve::Report, f64)> {
        let mut rules = args.rules.clone();
        if rules.game.is_none() {
            rules.game = e.game.as_ref().and_then(|g| g.parse().ok());
        }
        let (grid, mut setup, _) = setup_from(&e.board, &rules)
            .map_err(|err| anyhow::anyhow!("board {}: {err:#}", e.name))?;
        args.search.apply(&mut setup)?;
        let t = Instant::now();
        setup.search.start = t;
        let r = solve::solve(&grid, &setup, &mut |_| {})?;
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        Ok((setup.game.to_string(), r, ms))
    };
    let wall = Instant::now();
    let jobs = args.jobs.max(1);
    let mut solved: Vec<Option<Result<(String, solve::Report, f64)>>> = if jobs > 1 {
        use rayon::prelude::*;
        let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build()?;
        pool.install(|| entries.par_iter().map(|e| Some(solve_one(e))).collect())
    } else {
        entries.iter().map(|_| None).collect()
    };
    for (k, e) in entries.iter().enumerate() {
        let (game, r, ms) = match solved[k].take() {
            Some(done) => done?,
            None => solve_one(e)?,
        };
        let row = Row {
            name: e.name.clone(),
            game,
            length: r.length,
            optimal: r.optimal,
            lower_bound: r.lower_bound,
            tiles_left: r.tiles_left,
            score: r.score,
            expected: e.expected,
            exact: e.exact,
            nodes: r.nodes,
            ms,
        };
        let line = format!(
            "{:<14} {:>6} {:>6} {:>7} {:>7} {:>5} {:>8} {:>12} {:>9.3}s{}",
            row.name,
            row.length,
            row.tiles_left,
            row.score,
            if row.optimal { "yes" } else { "no" },
            row.lower_bound,
            row.expected.map_or("-".into(), |x| x.to_string()),
            row.nodes,
            ms / 1000.0,
            match row.expected {
                _ if row.contradicts() => "  MISMATCH",
                Some(x) if row.length < x as usize => "  below",
                _ => "",
            }
        );
        match (&bar, args.json) {
            (Some(b), _) => {
                b.println(line);
                b.inc(1);
            }
            (None, false) => println!("{line}"),
            _ => {}
        }
        rows.push(row);
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let mut times: Vec<f64> = rows.iter().map(|r| r.ms / 1000.0).collect();
    times.sort_by(f64::total_cmp);
    let median = if times.len() % 2 == 1 {
        times[times.len() / 2]
    } else {
        (times[times.len() / 2 - 1] + times[times.len() / 2]) / 2.0
    };
    let totals = Totals {
        boards: rows.len(),
        proven: rows.iter().filter(|r| r.optimal).count(),
        moves: rows.iter().map(|r| r.length).sum(),
        tiles_left: rows.iter().map(|r| r.tiles_left).sum(),
        score: rows.iter().map(|r| r.score).sum(),
        nodes: rows.iter().map(|r| r.nodes).sum(),
        total_s: times.iter().sum(),
        median_s: median,
        max_s: times.last().copied().unwrap_or(0.0),
        wall_s: wall.elapsed().as_secs_f64(),
        jobs,
        peak_memory_mib: peak_memory_mib(),
        mismatches: rows.iter().filter(|r| r.contradicts()).count(),
    };
    if args.json {
        println!(
            "{}",
            serde_json::json!({ "boards": rows, "totals": totals })
        );
    } else {
        println!(
            "total: {} boards, {} proven optimal, {} moves, {} tiles left, score {}, {} nodes",
            totals.boards,
            totals.proven,
            totals.moves,
            totals.tiles_left,
            totals.score,
            totals.nodes
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
        if totals.mismatches > 0 {
            println!(
                "{} proven answers differ from the expected optimum",
                totals.mismatches
            );
        }
    }
    Ok(if totals.mismatches > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
