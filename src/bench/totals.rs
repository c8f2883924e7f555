//! The totals of a set of rows ([`Totals`]): what `bench` and `merge` print under the table.

use std::time::Duration;

use serde::Serialize;

use super::Row;

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
    /// The time within which 90% of the boards were solved (nearest rank).
    pub p90_s: f64,
    /// The time within which 99% of the boards were solved (nearest rank).
    pub p99_s: f64,
    pub max_s: f64,
    /// The longest time to a board's first solution, in milliseconds (where reported).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_max_ms: Option<f64>,
    /// Wall-clock time of the whole set (of a merge: the longest run).
    pub wall_s: f64,
    /// Boards solved at the same time (of a merge: summed over the files).
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
    /// The totals of `rows`, solved `jobs` at a time in `wall` by this process: the peak
    /// memory is the larger of this process's and the one the rows recorded (rows read
    /// back from an earlier run).
    pub fn of(rows: &[Row], wall: Duration, jobs: usize) -> Totals {
        let peak = max_option(crate::machine::peak_resident_mib(), recorded_peak(rows));
        Totals::new(rows, wall.as_secs_f64(), jobs, peak)
    }

    /// The totals of `rows` with the run's figures given.
    pub fn new(rows: &[Row], wall_s: f64, jobs: usize, peak_memory_mib: Option<f64>) -> Totals {
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
            p90_s: nearest_rank(&times, 0.90),
            p99_s: nearest_rank(&times, 0.99),
            max_s: times.last().copied().unwrap_or(0.0),
            first_max_ms: rows.iter().filter_map(|r| r.first_ms).reduce(f64::max),
            wall_s,
            jobs,
            peak_memory_mib,
            mismatches: rows.iter().filter(|r| r.contradicts()).count(),
            certified: certify.then(|| rows.iter().filter(|r| r.certified == Some(true)).count()),
            not_certified: certify
                .then(|| rows.iter().filter(|r| r.certified == Some(false)).count()),
        }
    }
}

/// The value at or below which the share `q` of the sorted `values` lie: the nearest-rank
/// percentile (the `⌈q·n⌉`-th smallest), 0 for none.
fn nearest_rank(values: &[f64], q: f64) -> f64 {
    match values.len() {
        0 => 0.0,
        n => values[((q * n as f64).ceil() as usize).clamp(1, n) - 1],
    }
}

/// The largest peak memory the rows recorded.
pub(crate) fn recorded_peak(rows: &[Row]) -> Option<f64> {
    rows.iter()
        .filter_map(|r| r.peak_memory_mib)
        .reduce(f64::max)
}

/// The larger of two optional figures.
fn max_option(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::super::row::tests::row;
    use super::*;

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
        assert_eq!((t.p90_s, t.p99_s, t.first_max_ms), (4.0, 4.0, None));
    }

    #[test]
    fn percentiles_take_the_nearest_rank() {
        let mut rows: Vec<Row> = (1..=200)
            .map(|i| row(3, true, None, false, i as f64 * 1000.0))
            .collect();
        rows[7].first_ms = Some(12.0);
        rows[9].first_ms = Some(40.0);
        let t = Totals::of(&rows, Duration::ZERO, 1);
        assert_eq!((t.p90_s, t.p99_s, t.max_s), (180.0, 198.0, 200.0));
        assert_eq!(t.first_max_ms, Some(40.0));
        assert_eq!(nearest_rank(&[], 0.5), 0.0);
        assert_eq!(nearest_rank(&[1.0], 0.99), 1.0);
    }

    #[test]
    fn the_peak_memory_is_the_largest_known() {
        let mut rows = [
            row(3, true, None, false, 1.0),
            row(3, true, None, false, 1.0),
        ];
        assert_eq!(recorded_peak(&rows), None);
        rows[0].peak_memory_mib = Some(7.0);
        rows[1].peak_memory_mib = Some(1e9);
        assert_eq!(
            Totals::new(&rows, 0.0, 1, recorded_peak(&rows)).peak_memory_mib,
            Some(1e9)
        );
        assert_eq!(
            Totals::of(&rows, Duration::ZERO, 1).peak_memory_mib,
            Some(1e9)
        );
        assert_eq!(max_option(None, Some(2.0)), Some(2.0));
        assert_eq!(max_option(Some(3.0), None), Some(3.0));
    }
}
