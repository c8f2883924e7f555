//! `tumble bench` without the printing: solve every board of a set ([`crate::boardset`]),
//! one [`Row`] per board, and the [`Totals`].
//!
//! A board's expected value is, on `game|board|N` lines, the proven optimum: a proven
//! answer that differs contradicts it; on `name|board|N` lines, a best-known record: a
//! proven answer above it contradicts it, and one below it is a new best.
//!
//! Every board shares one stop flag ([`SearchOptions::stop`]): once it is set, the board in
//! progress ends with its best so far (its row says it was interrupted) and the boards not
//! yet started are skipped, so that the rows and totals are those of the boards done.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::boardset::Entry;
use crate::input::{setup_from, InputError, RuleChoices, SearchChoices};
use crate::report::{Report, Stopped};
#[cfg(doc)]
use crate::search::SearchOptions;
use crate::solve::solve;

/// One board's result.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub name: String,
    pub game: String,
    pub length: usize,
    pub optimal: bool,
    pub lower_bound: u32,
    pub tiles_left: usize,
    pub score: i64,
    pub expected: Option<u32>,
    /// Is `expected` a proven optimum (else a record)?
    #[serde(skip)]
    pub exact: bool,
    pub nodes: u64,
    /// Time to solve, in milliseconds (with `--certify`, the certifying search included).
    pub ms: f64,
    /// With `--certify`: was the bound proven again with exact positions?
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certified: Option<bool>,
    /// Why the board's search ended before it had finished (fields as in [`Report`]).
    #[serde(flatten)]
    pub stopped: Option<Stopped>,
}

impl Row {
    /// The row of `entry`, solved as `game` into `r` in `ms` milliseconds.
    pub fn new(entry: &Entry, game: String, r: &Report, ms: f64) -> Row {
        Row {
            name: entry.name.clone(),
            game,
            length: r.length,
            optimal: r.optimal,
            lower_bound: r.lower_bound,
            tiles_left: r.tiles_left,
            score: r.score,
            expected: entry.expected,
            exact: entry.exact,
            nodes: r.nodes,
            ms,
            certified: r.certified,
            stopped: r.stopped,
        }
    }

    /// A proven answer that contradicts the expected value: different from a proven
    /// optimum, or longer than a record.
    pub fn contradicts(&self) -> bool {
        match self.expected {
            Some(x) if self.optimal => {
                let x = x as usize;
                self.length > x || (self.exact && self.length != x)
            }
            _ => false,
        }
    }

    /// Shorter than the expected value (a new best, when not a contradiction).
    pub fn below(&self) -> bool {
        self.expected.is_some_and(|x| self.length < x as usize)
    }
}

/// The totals of a set.
#[derive(Clone, Debug, Serialize)]
pub struct Totals {
    pub boards: usize,
    pub proven: usize,
    pub moves: usize,
    pub tiles_left: usize,
    pub score: i64,
    pub nodes: u64,
    pub total_s: f64,
    pub median_s: f64,
    pub max_s: f64,
    /// Wall-clock time of the whole set.
    pub wall_s: f64,
    /// Boards solved at the same time.
    pub jobs: usize,
    pub peak_memory_mib: Option<f64>,
    pub mismatches: usize,
    /// With `--certify`: boards whose bound the exact search confirmed, and those it did
    /// not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certified: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_certified: Option<usize>,
}

impl Totals {
    /// The totals of `rows`, solved `jobs` at a time in `wall`.
    pub fn of(rows: &[Row], wall: Duration, jobs: usize) -> Totals {
        let mut times: Vec<f64> = rows.iter().map(|r| r.ms / 1000.0).collect();
        times.sort_by(f64::total_cmp);
        let certify = rows.iter().any(|r| r.certified.is_some());
        let median = match times.len() {
            0 => 0.0,
            n if n % 2 == 1 => times[n / 2],
            n => (times[n / 2 - 1] + times[n / 2]) / 2.0,
        };
        Totals {
            boards: rows.len(),
            proven: rows.iter().filter(|r| r.optimal).count(),
            moves: rows.iter().map(|r| r.length).sum(),
            tiles_left: rows.iter().map(|r| r.tiles_left).sum(),
            score: rows.iter().map(|r| r.score).sum(),
            nodes: rows.iter().map(|r| r.nodes).sum(),
            total_s: times.iter().sum(),
            median_s: median,
            max_s: times.last().copied().unwrap_or(0.0),
            wall_s: wall.as_secs_f64(),
            jobs,
            peak_memory_mib: peak_memory_mib(),
            mismatches: rows.iter().filter(|r| r.contradicts()).count(),
            certified: certify.then(|| rows.iter().filter(|r| r.certified == Some(true)).count()),
            not_certified: certify
                .then(|| rows.iter().filter(|r| r.certified == Some(false)).count()),
        }
    }
}

/// Peak resident memory of this process (Linux), in MiB.
pub fn peak_memory_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// Solves one board of a set under the user's choices (the entry's game when none is
/// chosen), until it is done or `stop` is set.
pub fn solve_entry(
    e: &Entry,
    rules: &RuleChoices,
    search: &SearchChoices,
    stop: &Arc<AtomicBool>,
) -> Result<Row, InputError> {
    let mut rules = rules.clone();
    if rules.game.is_none() {
        rules.game = e.game;
    }
    let mut p = setup_from(&e.board, &rules).map_err(|err| InputError::InBoard {
        name: e.name.clone(),
        err: Box::new(err),
    })?;
    search.apply(&mut p.setup)?;
    p.setup.search.stop = stop.clone();
    let t = Instant::now();
    p.setup.search.start = t;
    let r = solve(&p.grid, &p.setup, &mut |_| {})?;
    let ms = t.elapsed().as_secs_f64() * 1000.0;
    Ok(Row::new(e, p.setup.game.to_string(), &r, ms))
}

/// Solves `entries` in order, `jobs` at a time (all of them first when more than one),
/// handing each row to `on_row` in order; stops at the first board that fails. Once `stop`
/// is set, the boards in progress end early and the boards not started are left out.
pub fn solve_set(
    entries: &[Entry],
    rules: &RuleChoices,
    search: &SearchChoices,
    jobs: usize,
    stop: &Arc<AtomicBool>,
    mut on_row: impl FnMut(&Row),
) -> Result<Vec<Row>, InputError> {
    let stopped = || stop.load(Ordering::Relaxed);
    let mut solved: Vec<Option<Result<Row, InputError>>> = if jobs > 1 {
        use rayon::prelude::*;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .map_err(InputError::Threads)?;
        pool.install(|| {
            entries
                .par_iter()
                .map(|e| (!stopped()).then(|| solve_entry(e, rules, search, stop)))
                .collect()
        })
    } else {
        entries.iter().map(|_| None).collect()
    };
    let mut rows = Vec::with_capacity(entries.len());
    for (e, done) in entries.iter().zip(&mut solved) {
        let row = match done.take() {
            Some(r) => r?,
            // not started (after `jobs > 1`) or not to be started
            None if stopped() => continue,
            None => solve_entry(e, rules, search, stop)?,
        };
        on_row(&row);
        rows.push(row);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(length: usize, optimal: bool, expected: Option<u32>, exact: bool, ms: f64) -> Row {
        Row {
            name: "b".into(),
            game: "former".into(),
            length,
            optimal,
            lower_bound: 0,
            tiles_left: 0,
            score: 0,
            expected,
            exact,
            nodes: 1,
            ms,
            certified: None,
            stopped: None,
        }
    }

    #[test]
    fn only_proven_answers_contradict_and_records_may_be_beaten() {
        assert!(row(5, true, Some(4), true, 0.0).contradicts());
        assert!(
            row(3, true, Some(4), true, 0.0).contradicts(),
            "an optimum is exact"
        );
        assert!(
            !row(3, true, Some(4), false, 0.0).contradicts(),
            "a record is beaten"
        );
        assert!(row(3, true, Some(4), false, 0.0).below());
        assert!(row(5, true, Some(4), false, 0.0).contradicts());
        assert!(
            !row(5, false, Some(4), true, 0.0).contradicts(),
            "not proven"
        );
        assert!(!row(5, true, None, true, 0.0).contradicts());
    }

    #[test]
    fn totals_add_up_and_take_the_median() {
        let rows = [
            row(3, true, Some(3), true, 1000.0),
            row(4, false, None, false, 3000.0),
            row(5, true, Some(4), true, 2000.0),
            row(6, true, None, false, 4000.0),
        ];
        let t = Totals::of(&rows, Duration::from_secs(9), 2);
        assert_eq!((t.boards, t.proven, t.moves, t.nodes), (4, 3, 18, 4));
        assert_eq!((t.total_s, t.median_s, t.max_s), (10.0, 2.5, 4.0));
        assert_eq!((t.wall_s, t.jobs, t.mismatches), (9.0, 2, 1));
        assert_eq!(Totals::of(&rows[..3], Duration::ZERO, 1).median_s, 2.0);
    }

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
    fn a_set_is_solved_in_order_and_a_bad_board_is_named() {
        let set = crate::boardset::parse("former|AAB,ABB,BAA|3\nfigure|AB,BA|2\n");
        let search = one_thread();
        let mut seen = Vec::new();
        let go = Arc::new(AtomicBool::new(false));
        let rows = solve_set(&set[..1], &RuleChoices::default(), &search, 1, &go, |r| {
            seen.push(r.name.clone())
        })
        .unwrap();
        assert_eq!(seen, ["former#1"]);
        assert_eq!((rows[0].length, rows[0].optimal), (3, true));
        assert!(!rows[0].contradicts());
        let bad = crate::boardset::parse("former|AB,B|3\n");
        let err = solve_set(&bad, &RuleChoices::default(), &search, 2, &go, |_| {}).unwrap_err();
        assert!(err.to_string().starts_with("board former#1: "), "{err}");
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
            let rows = solve_set(&set, &RuleChoices::default(), &search, jobs, &stop, |_| {
                seen += 1
            })
            .unwrap();
            assert!(rows.is_empty(), "jobs {jobs}: {} rows", rows.len());
            assert_eq!(seen, 0);
        }
    }
}
