//! `tumble merge`: the JSON-lines files of `bench --jsonl` runs merged
//! ([`tumble::bench::merge`]) and printed as `bench` prints a set: a row per board and the
//! totals, or the object of `bench --json`. Boards recorded twice or nowhere are named, and
//! make the exit code 1 (the totals are printed all the same).

use std::process::ExitCode;

use anyhow::Result;

use super::args::MergeArgs;
use super::bench::{header, line, totals_lines, verdict};
use tumble::bench::jsonl::read_file;
use tumble::bench::merge::merge;

/// Runs `tumble merge`.
pub fn run(args: MergeArgs) -> Result<ExitCode> {
    let mut files = Vec::with_capacity(args.files.len());
    for path in &args.files {
        let text = read_file(path, false)?.expect("a file that must exist was read");
        files.push((path.clone(), text));
    }
    let m = merge(&files)?;
    for note in &m.notes {
        eprintln!("note: {note}");
    }
    let problems: Vec<String> = (m.duplicates.iter().map(ToString::to_string))
        .chain(m.missing.iter().map(ToString::to_string))
        .collect();
    if args.json {
        let mut out = serde_json::json!({ "boards": m.rows, "totals": m.totals });
        if !m.missing.is_empty() {
            out["missing"] = serde_json::to_value(&m.missing)?;
        }
        if !m.duplicates.is_empty() {
            out["duplicates"] = serde_json::to_value(&m.duplicates)?;
        }
        println!("{out}");
        for p in &problems {
            eprintln!("{p}");
        }
    } else {
        println!("{}", header());
        for r in &m.rows {
            println!("{}", line(r));
        }
        for l in totals_lines(&m.totals) {
            println!("{l}");
        }
        println!(
            "merged: {} of {} boards from {}",
            m.rows.len(),
            m.set,
            super::count(files.len() as u64, "file")
        );
        for p in &problems {
            println!("{p}");
        }
    }
    Ok(if m.complete() {
        verdict(&m.totals)
    } else {
        ExitCode::from(1)
    })
}
