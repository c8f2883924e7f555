//! One board's result ([`Row`]): a row of `bench --json`, a line of `bench --jsonl` and a
//! record `tumble merge` reads back, all the one type.

use serde::{Deserialize, Serialize};

use crate::boardset::Entry;
use crate::report::{Report, Stopped};

/// One board's result.
///
/// Besides the answer it carries what a merge of runs needs: the board's place in the
/// whole set (`index` of `set`), whether `expected` is an optimum (`expected_exact`), and
/// the run it came from (`jobs`, `run_s`, `peak_memory_mib`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub name: String,
    /// The board's position in the whole set, from 0 (also under `--shard`).
    pub index: usize,
    /// The number of boards in the whole set.
    pub set: usize,
    pub game: String,
    pub length: usize,
    pub optimal: bool,
    pub lower_bound: u32,
    pub tiles_left: usize,
    pub score: i64,
    pub expected: Option<u32>,
    /// Is `expected` a proven optimum (else a record)?
    #[serde(rename = "expected_exact", default)]
    pub exact: bool,
    pub nodes: u64,
    /// Time to solve, in milliseconds (with `--certify`, the certifying search included).
    pub ms: f64,
    /// Time to the first solution, in milliseconds (absent where none was reported).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_ms: Option<f64>,
    /// With `--certify`: was the bound proven again with exact positions?
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certified: Option<bool>,
    /// Boards the run solved at the same time.
    #[serde(default)]
    pub jobs: usize,
    /// Seconds from the start of the run to the end of this board.
    #[serde(default)]
    pub run_s: f64,
    /// The run's peak resident memory when this board ended, in MiB (when known).
    #[serde(default)]
    pub peak_memory_mib: Option<f64>,
    /// Why the board's search ended before it had finished (fields as in [`Report`]).
    #[serde(flatten, with = "stopped_fields")]
    pub stopped: Option<Stopped>,
}

impl Row {
    /// The row of `entry` (board `index` of a set of `set`), solved as `game` into `r` in
    /// `ms` milliseconds. The run's fields (`jobs`, `run_s`, `peak_memory_mib`) are left
    /// empty for the caller.
    pub fn new(entry: &Entry, index: usize, set: usize, game: String, r: &Report, ms: f64) -> Row {
        Row {
            name: entry.name.clone(),
            index,
            set,
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
            first_ms: r.first_ms.map(|m| m as f64),
            certified: r.certified,
            jobs: 0,
            run_s: 0.0,
            peak_memory_mib: None,
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

    /// Do two rows of one board give the same answer (length, tiles left, score)?
    pub fn same_answer(&self, other: &Row) -> bool {
        (self.length, self.tiles_left, self.score) == (other.length, other.tiles_left, other.score)
    }
}

/// [`Stopped`] as the fields `"stopped"` (and `"interrupted": true`) flattened into a row,
/// both ways: nothing at all for a board whose search finished.
mod stopped_fields {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::report::Stopped;

    pub fn serialize<S: Serializer>(s: &Option<Stopped>, ser: S) -> Result<S::Ok, S::Error> {
        match s {
            Some(s) => s.serialize(ser),
            None => std::collections::BTreeMap::<&str, bool>::new().serialize(ser),
        }
    }

    #[derive(Deserialize)]
    struct Fields {
        stopped: Option<String>,
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Stopped>, D::Error> {
        let f = Fields::deserialize(d)?;
        f.stopped
            .map(|name| {
                [Stopped::Time, Stopped::Memory, Stopped::Interrupted]
                    .into_iter()
                    .find(|s| s.name() == name)
                    .ok_or_else(|| D::Error::custom(format!("unknown \"stopped\": {name:?}")))
            })
            .transpose()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn row(
        length: usize,
        optimal: bool,
        expected: Option<u32>,
        exact: bool,
        ms: f64,
    ) -> Row {
        Row {
            name: "b".into(),
            index: 0,
            set: 1,
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
            first_ms: None,
            certified: None,
            jobs: 1,
            run_s: 0.0,
            peak_memory_mib: None,
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
    fn a_row_reads_back_as_written() {
        let mut rows = vec![row(5, true, Some(4), true, 12.5)];
        for (i, stopped) in [Stopped::Time, Stopped::Memory, Stopped::Interrupted]
            .into_iter()
            .enumerate()
        {
            let mut r = row(6, false, None, false, 1.0);
            r.index = i + 1;
            r.certified = Some(i % 2 == 0);
            r.peak_memory_mib = Some(3.5);
            r.stopped = Some(stopped);
            rows.push(r);
        }
        for r in &rows {
            let text = serde_json::to_string(r).unwrap();
            assert_eq!(text.contains("\"stopped\""), r.stopped.is_some(), "{text}");
            assert_eq!(
                text.contains("\"interrupted\":true"),
                r.stopped == Some(Stopped::Interrupted)
            );
            let back: Row = serde_json::from_str(&text).unwrap();
            assert_eq!(&back, r, "{text}");
        }
        assert_eq!(rows.len(), 4);
        let bad = serde_json::to_string(&rows[0])
            .unwrap()
            .replace('}', ",\"stopped\":\"bored\"}");
        assert!(serde_json::from_str::<Row>(&bad).is_err());
    }
}
