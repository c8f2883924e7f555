//! `tumble merge`: the JSON-lines files of many runs (the shards of a set, a run and its
//! resumptions) read back into one set of rows with its totals, and what does not add up:
//! boards recorded twice and boards of the set recorded nowhere.

use serde::Serialize;

use super::jsonl::{read_records, truncated_note, BatchError};
use super::totals::recorded_peak;
use super::{Row, Totals};

/// A board recorded more than once: by its index, or by its name at another index.
#[derive(Clone, Debug, Serialize)]
pub struct Duplicate {
    pub name: String,
    pub index: usize,
    /// Where each record of it is: `file:line`.
    pub places: Vec<String>,
    /// The indices of the records, when one name appears at several (else empty).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub indices: Vec<usize>,
    /// Do the records give different answers (length, tiles left or score)?
    pub disagree: bool,
    /// ... while more than one of them is proven optimal: a contradiction.
    pub conflict: bool,
}

impl std::fmt::Display for Duplicate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "duplicate: board {} ", self.name)?;
        if self.indices.is_empty() {
            write!(f, "(index {})", self.index)?;
        } else {
            let i: Vec<String> = self.indices.iter().map(usize::to_string).collect();
            write!(f, "(at indices {})", i.join(", "))?;
        }
        write!(
            f,
            " recorded {} times: {}",
            self.places.len(),
            self.places.join(", ")
        )?;
        if self.conflict {
            write!(f, "; CONFLICT: proven answers that differ")?;
        } else if self.disagree {
            write!(f, "; the answers DIFFER (not all proven)")?;
        }
        Ok(())
    }
}

/// A board of the set that no file records.
#[derive(Clone, Debug, Serialize)]
pub struct Missing {
    pub index: usize,
    /// Its name, when a cut record still names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl std::fmt::Display for Missing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.name {
            Some(n) => write!(f, "missing: board {n} (index {})", self.index),
            None => write!(f, "missing: board index {}", self.index),
        }
    }
}

/// The files of a set merged.
#[derive(Debug)]
pub struct Merged {
    /// One row per board recorded, in the order of the set (of a board recorded twice, a
    /// proven record before others, then the first read).
    pub rows: Vec<Row>,
    /// The number of boards in the whole set.
    pub set: usize,
    pub totals: Totals,
    pub duplicates: Vec<Duplicate>,
    pub missing: Vec<Missing>,
    /// What the reader left out (truncated last lines), one line each.
    pub notes: Vec<String>,
}

impl Merged {
    /// Is every board of the set recorded exactly once?
    pub fn complete(&self) -> bool {
        self.duplicates.is_empty() && self.missing.is_empty()
    }
}

/// Merges JSON-lines files, given as `(path, text)`. Every record must be of the same set
/// (the same `set`, with its `index` inside it, and the same board name at each index as
/// the first record of that index: records of two sets whose boards differ are an error,
/// not duplicates of one board); the totals are those of one row per board,
/// with the longest run's wall time, the files' jobs added up (the runs side by side) and
/// the largest peak memory recorded.
pub fn merge(files: &[(String, String)]) -> Result<Merged, BatchError> {
    let mut all: Vec<(String, Row)> = Vec::new();
    let mut notes = Vec::new();
    let mut cut_names = Vec::new();
    let mut jobs = 0;
    for (path, text) in files {
        let records = read_records(text, path)?;
        if let Some(line) = records.truncated {
            notes.push(truncated_note(path, line));
            if let (Some(i), name) = records.truncated_board {
                cut_names.push((i, name));
            }
        }
        jobs += records.rows.iter().map(|(_, r)| r.jobs).max().unwrap_or(0);
        all.extend(
            records
                .rows
                .into_iter()
                .map(|(line, r)| (format!("{path}:{line}"), r)),
        );
    }
    let names: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
    let Some((_, first)) = all.first() else {
        return Err(BatchError::NoRecords(names.join(", ")));
    };
    let set = first.set;
    for (place, r) in &all {
        let (path, line) = split_place(place);
        if r.set != set {
            return Err(BatchError::OtherSet {
                path: path.into(),
                line,
                found: r.set,
                set,
            });
        }
        if r.index >= set {
            return Err(BatchError::Outside {
                path: path.into(),
                line,
                index: r.index,
                set,
            });
        }
    }
    let mut by_index: Vec<Vec<usize>> = vec![Vec::new(); set];
    for (i, (place, r)) in all.iter().enumerate() {
        if let Some(&first) = by_index[r.index].first() {
            let (other, theirs) = (&all[first].0, &all[first].1.name);
            if *theirs != r.name {
                let (path, line) = split_place(place);
                return Err(BatchError::NotOneSet {
                    path: path.into(),
                    line,
                    index: r.index,
                    found: r.name.clone(),
                    name: theirs.clone(),
                    other: {
                        let (p, l) = split_place(other);
                        format!("{p} line {l}")
                    },
                });
            }
        }
        by_index[r.index].push(i);
    }
    let mut duplicates = Vec::new();
    let mut rows = Vec::new();
    let mut missing = Vec::new();
    for (index, records) in by_index.iter().enumerate() {
        let Some(&first) = records.first() else {
            let name = cut_names
                .iter()
                .find(|(i, _)| *i == index)
                .and_then(|(_, n)| n.clone());
            missing.push(Missing { index, name });
            continue;
        };
        if records.len() > 1 {
            duplicates.push(duplicate(&all, records, false));
        }
        let keep = records
            .iter()
            .copied()
            .find(|&i| all[i].1.optimal)
            .unwrap_or(first);
        rows.push(all[keep].1.clone());
    }
    // one name at several indices
    let mut by_name: Vec<(&str, usize)> = rows.iter().map(|r| r.name.as_str()).zip(0..).collect();
    by_name.sort();
    for group in by_name.chunk_by(|a, b| a.0 == b.0).filter(|g| g.len() > 1) {
        let records: Vec<usize> = group
            .iter()
            .flat_map(|&(_, row)| by_index[rows[row].index].iter().copied())
            .collect();
        duplicates.push(duplicate(&all, &records, true));
    }
    let wall = all.iter().map(|(_, r)| r.run_s).fold(0.0, f64::max);
    let totals = Totals::new(&rows, wall, jobs, recorded_peak(&rows));
    Ok(Merged {
        rows,
        set,
        totals,
        duplicates,
        missing,
        notes,
    })
}

/// The file and the line of a record's place, `file:line`.
fn split_place(place: &str) -> (&str, usize) {
    let (path, line) = place.rsplit_once(':').expect("file:line");
    (path, line.parse().expect("a line number"))
}

/// The report of the records `records` (positions in `all`) of one board.
fn duplicate(all: &[(String, Row)], records: &[usize], by_name: bool) -> Duplicate {
    let rows: Vec<&Row> = records.iter().map(|&i| &all[i].1).collect();
    let first = rows[0];
    let proven: Vec<&&Row> = rows.iter().filter(|r| r.optimal).collect();
    let mut indices: Vec<usize> = rows.iter().map(|r| r.index).collect();
    indices.dedup();
    Duplicate {
        name: first.name.clone(),
        index: first.index,
        places: records.iter().map(|&i| all[i].0.clone()).collect(),
        indices: if by_name { indices } else { Vec::new() },
        disagree: rows.iter().any(|r| !r.same_answer(first)),
        conflict: proven.iter().any(|r| !r.same_answer(proven[0])),
    }
}

#[cfg(test)]
mod tests {
    use super::super::row::tests::row;
    use super::*;

    fn file(path: &str, rows: &[Row]) -> (String, String) {
        let text = rows
            .iter()
            .map(|r| serde_json::to_string(r).unwrap() + "\n")
            .collect();
        (path.to_string(), text)
    }

    fn set(n: usize) -> Vec<Row> {
        (0..n)
            .map(|i| {
                let mut r = row(10 + i, i != 2, None, false, 100.0 * i as f64);
                (r.index, r.set, r.name) = (i, n, format!("b{i}"));
                (r.jobs, r.run_s, r.peak_memory_mib) = (2, i as f64, Some(i as f64));
                r
            })
            .collect()
    }

    #[test]
    fn shards_merge_into_the_totals_of_the_whole_set() {
        let rows = set(7);
        let odd: Vec<Row> = rows.iter().filter(|r| r.index % 2 == 1).cloned().collect();
        let even: Vec<Row> = rows.iter().filter(|r| r.index % 2 == 0).cloned().collect();
        let m = merge(&[file("a", &odd), file("b", &even)]).unwrap();
        assert!(m.complete());
        assert_eq!(m.rows, rows);
        let whole = Totals::new(&rows, 6.0, 4, Some(6.0));
        assert_eq!(
            serde_json::to_value(&m.totals).unwrap(),
            serde_json::to_value(&whole).unwrap()
        );
        assert_eq!((m.totals.boards, m.totals.proven, m.set), (7, 6, 7));
    }

    #[test]
    fn boards_twice_and_boards_nowhere_are_named() {
        let rows = set(6);
        let mut again = rows[1].clone();
        again.length += 1;
        let mut unproven = rows[2].clone();
        unproven.length += 1;
        let mut renamed = rows[4].clone();
        renamed.index = 5;
        let mut cut = file("b", &[again, unproven, rows[3].clone(), renamed]);
        cut.1
            .push_str(&serde_json::to_string(&rows[0]).unwrap()[..25]);
        let m = merge(&[file("a", &rows[1..5]), cut]).unwrap();
        assert!(!m.complete());
        let missing: Vec<String> = m.missing.iter().map(|x| x.to_string()).collect();
        assert_eq!(missing, ["missing: board b0 (index 0)"]);
        let d: Vec<String> = m.duplicates.iter().map(|x| x.to_string()).collect();
        assert_eq!(d.len(), 4, "{d:#?}");
        assert!(d[0].starts_with("duplicate: board b1 (index 1) recorded 2 times: a:1, b:1"));
        assert!(
            d[0].ends_with("CONFLICT: proven answers that differ"),
            "{}",
            d[0]
        );
        assert!(
            d[1].ends_with("the answers DIFFER (not all proven)"),
            "{}",
            d[1]
        );
        assert!(
            !d[2].contains("DIFFER") && !d[2].contains("CONFLICT"),
            "{}",
            d[2]
        );
        assert!(
            d[3].starts_with("duplicate: board b4 (at indices 4, 5)"),
            "{}",
            d[3]
        );
        assert_eq!(m.notes.len(), 1);
        assert_eq!(m.totals.boards, 5, "one row per index recorded");
        assert_eq!(
            m.rows[0].length, rows[1].length,
            "the first proven record is kept"
        );
    }

    #[test]
    fn files_of_other_sets_or_no_records_are_errors() {
        let err = merge(&[file("a", &set(3)), file("b", &set(4))]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "b line 1: a record of a set of 4 boards, not 3"
        );
        // two runs of one board each: the same index and set, but other boards
        let (mut x, mut y) = (set(1), set(1));
        (x[0].name, y[0].name) = ("2024-11-23".into(), "2024-11-24".into());
        let err = merge(&[file("a", &x), file("a", &x), file("b", &y)]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "b line 1: board 0 is \"2024-11-24\" there but \"2024-11-23\" at a line 1: \
             the files are not of one set"
        );
        let err = merge(&[("a".into(), "\n".into())]).unwrap_err();
        assert_eq!(err.to_string(), "no board records in a");
        let err = merge(&[("a".into(), "{}\n".into())]).unwrap_err();
        assert!(
            err.to_string().starts_with("a line 1: not a board record"),
            "{err}"
        );
    }
}
