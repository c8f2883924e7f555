//! `tumble bench` and `tumble merge` without the printing: solve the boards of a set
//! ([`crate::boardset`]) several at a time, one [`Row`] per board, and the [`Totals`]; split
//! a set into shards ([`Shard`]), write and read rows as JSON lines and resume a run from
//! them ([`jsonl`]), and merge the lines of many runs back into one set ([`merge`]).
//!
//! A board's expected value is, on `game|board|N` lines, the proven optimum: a proven
//! answer that differs contradicts it; on `name|board|N` lines, a best-known record: a
//! proven answer above it contradicts it, and one below it is a new best.
//!
//! Every board shares one stop flag ([`SearchOptions::stop`]): once it is set, the boards in
//! progress end with their best so far (their rows say they were interrupted) and the boards
//! not yet started are skipped, so that the rows and totals are those of the boards done.

pub mod jsonl;
pub mod merge;
mod row;
mod totals;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

pub use jsonl::{BatchError, Shard};
pub use row::Row;
pub use totals::Totals;

use crate::boardset::Entry;
use crate::input::{setup_from, InputError, SearchChoices};
use crate::rules::RuleChoices;
#[cfg(doc)]
use crate::search::SearchOptions;
use crate::solve::solve;

/// The memory budget of each board, in MiB, when `jobs` boards are solved at the same time
/// within `memory` MiB in all: an equal share, at least 1 MiB (0 stays 0, for the check of
/// the options to refuse).
pub fn memory_per_board(memory: usize, jobs: usize) -> usize {
    (memory / jobs.max(1)).clamp(memory.min(1), memory)
}

/// The search threads per board when the user chose none: the cores shared out among the
/// `jobs` boards solved at the same time, at least one each, so that `jobs` boards of
/// `cores / jobs` threads keep every core busy without running more threads than cores
/// (one board at a time keeps all the cores, as `solve` does).
pub fn default_threads(cores: usize, jobs: usize) -> usize {
    (cores / jobs.max(1)).max(1)
}

/// The board's game and rules under the user's choices (the entry's game when none is
/// chosen), ready to search.
fn prepare(
    e: &Entry,
    rules: &RuleChoices,
    search: &SearchChoices,
) -> Result<crate::input::Prepared, InputError> {
    let in_board = |err| InputError::InBoard {
        name: e.name.clone(),
        err: Box::new(err),
    };
    let mut rules = rules.clone();
    rules.game = crate::input::game_of(rules.game, e.game).map_err(in_board)?;
    let mut p = setup_from(&e.board, &rules).map_err(in_board)?;
    search.apply(&mut p.setup)?;
    Ok(p)
}

/// Solves board `index` of `set` (`e`) under the user's choices (the entry's game when none
/// is chosen), until it is done or `stop` is set.
pub fn solve_entry(
    e: &Entry,
    index: usize,
    set: usize,
    rules: &RuleChoices,
    search: &SearchChoices,
    stop: &Arc<AtomicBool>,
) -> Result<Row, InputError> {
    let mut p = prepare(e, rules, search)?;
    p.setup.search.stop = stop.clone();
    let t = Instant::now();
    p.setup.search.start = t;
    let r = solve(&p.grid, &p.setup, &mut |_| {})?;
    let ms = t.elapsed().as_secs_f64() * 1000.0;
    Ok(Row::new(e, index, set, p.setup.game.to_string(), &r, ms))
}

/// Solves the boards of `entries` at the positions `todo`, `jobs` at a time, taking them in
/// the order of `todo`, and hands each row to `on_row` as its board ends (so in the order
/// they end when `jobs > 1`). Returns the rows in the order of the set.
///
/// Every board of `todo` is read and checked first, so that a bad board is an error before
/// any search starts. Once `stop` is set, the boards in progress end early and the boards
/// not started are left out. A row's `index` and `set` are its place in `entries`; its run
/// fields are `jobs`, the seconds since this call began and this process's peak memory.
pub fn solve_set(
    entries: &[Entry],
    todo: &[usize],
    rules: &RuleChoices,
    search: &SearchChoices,
    jobs: usize,
    stop: &Arc<AtomicBool>,
    on_row: impl FnMut(&Row) + Send,
) -> Result<Vec<Row>, InputError> {
    let start = Instant::now();
    for &k in todo {
        prepare(&entries[k], rules, search)?;
    }
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let on_row = Mutex::new(on_row);
    let rows = Mutex::new(Vec::with_capacity(todo.len()));
    let error = Mutex::new(None);
    let work = || loop {
        if stop.load(Ordering::Relaxed) || failed.load(Ordering::Relaxed) {
            return;
        }
        let Some(&k) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
            return;
        };
        match solve_entry(&entries[k], k, entries.len(), rules, search, stop) {
            Ok(mut row) => {
                row.jobs = jobs;
                row.run_s = start.elapsed().as_secs_f64();
                row.peak_memory_mib = crate::machine::peak_resident_mib();
                (on_row.lock().expect("no panic while writing a row"))(&row);
                rows.lock().expect("no panic while keeping a row").push(row);
            }
            Err(e) => {
                failed.store(true, Ordering::Relaxed);
                error
                    .lock()
                    .expect("no panic while failing")
                    .get_or_insert(e);
            }
        }
    };
    let workers = jobs.clamp(1, todo.len().max(1));
    if workers == 1 {
        work();
    } else {
        std::thread::scope(|s| {
            for _ in 0..workers {
                s.spawn(work);
            }
        });
    }
    if let Some(e) = error.into_inner().expect("no panic while failing") {
        return Err(e);
    }
    let mut rows = rows.into_inner().expect("no panic while keeping a row");
    rows.sort_by_key(|r| r.index);
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No time limit, 16 MiB, one thread.
    fn one_thread() -> SearchChoices {
        SearchChoices {
            time_limit: None,
            memory_mib: 16,
            threads: Some(1),
            no_proof: false,
            anytime: Default::default(),
            certify: false,
        }
    }

    #[test]
    fn the_cores_are_shared_out_among_the_boards() {
        assert_eq!(default_threads(2, 1), 2);
        assert_eq!(default_threads(2, 2), 1);
        assert_eq!(default_threads(2, 5), 1);
        assert_eq!(default_threads(16, 3), 5);
        assert_eq!(default_threads(8, 0), 8);
        assert_eq!(memory_per_board(1024, 2), 512);
        assert_eq!(memory_per_board(1024, 0), 1024);
        assert_eq!(memory_per_board(3, 5), 1);
        assert_eq!(memory_per_board(0, 2), 0);
        assert!(crate::machine::cores() >= 1);
    }

    #[test]
    fn a_set_is_solved_and_a_bad_board_is_named_before_any_search() {
        let set = crate::boardset::parse("former|AAB,ABB,BAA|3\nfigure|AB,BA|2\n");
        let search = one_thread();
        let go = Arc::new(AtomicBool::new(false));
        for jobs in [1, 2] {
            let mut seen = Vec::new();
            let rows = solve_set(
                &set,
                &[1, 0],
                &RuleChoices::default(),
                &search,
                jobs,
                &go,
                |r| seen.push(r.index),
            )
            .unwrap();
            seen.sort();
            assert_eq!(seen, [0, 1], "jobs {jobs}");
            assert_eq!(rows.iter().map(|r| r.index).collect::<Vec<_>>(), [0, 1]);
            assert_eq!((rows[0].length, rows[0].optimal), (3, true));
            assert_eq!((rows[0].set, rows[0].jobs), (2, jobs));
            assert!(!rows[0].contradicts());
        }
        let only = solve_set(&set, &[1], &RuleChoices::default(), &search, 2, &go, |_| {}).unwrap();
        assert_eq!(
            (only.len(), only[0].index, only[0].name.as_str()),
            (1, 1, "figure#2")
        );
        let bad = crate::boardset::parse("former|AAB,ABB,BAA|3\nformer|AB,B|3\n");
        let mut seen = 0;
        let err = solve_set(
            &bad,
            &[0, 1],
            &RuleChoices::default(),
            &search,
            2,
            &go,
            |_| seen += 1,
        )
        .unwrap_err();
        assert!(err.to_string().starts_with("board former#2: "), "{err}");
        assert_eq!(seen, 0, "no board is solved before the bad one is found");
    }

    #[test]
    fn a_stopped_set_solves_no_more_boards() {
        let set = crate::boardset::parse(
            "former|AAB,ABB,BAA|3
figure|AB,BA|2
",
        );
        assert_eq!(set.len(), 2);
        let search = one_thread();
        let stop = Arc::new(AtomicBool::new(true));
        for jobs in [1, 2] {
            let mut seen = 0;
            let rows = solve_set(
                &set,
                &[0, 1],
                &RuleChoices::default(),
                &search,
                jobs,
                &stop,
                |_| seen += 1,
            )
            .unwrap();
            assert!(rows.is_empty(), "jobs {jobs}: {} rows", rows.len());
            assert_eq!(seen, 0);
        }
    }
}
