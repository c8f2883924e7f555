//! Runs that outgrow one process: a set split into shards ([`Shard`]), rows written as JSON
//! lines as their boards end ([`write_row`]), read back ([`read_records`]), and a run
//! resumed from them ([`resume`]).
//!
//! A JSON-lines file holds one [`Row`] per line, each written whole with its newline and
//! flushed, so that a run killed at any moment leaves complete lines and at worst one
//! truncated last line. Reading tolerates exactly that: a last line without its newline that
//! does not parse is left out (and said so); any other line that does not parse is an error.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::str::FromStr;

use thiserror::Error;

use super::Row;
use crate::boardset::Entry;

/// What goes wrong with shards and JSON-lines files.
#[derive(Debug, Error)]
pub enum BatchError {
    #[error("--shard must be I/N with 1 ≤ I ≤ N (as 2/5), not {0:?}")]
    BadShard(String),
    #[error("{path}: {err}")]
    Io { path: String, err: io::Error },
    #[error("{path} line {line}: not a board record: {err}")]
    BadLine {
        path: String,
        line: usize,
        err: String,
    },
    #[error("{path} line {line}: board index {index} is outside its set of {set}")]
    Outside {
        path: String,
        line: usize,
        index: usize,
        set: usize,
    },
    #[error("{path} line {line}: a record of a set of {found} boards, not {set}")]
    OtherSet {
        path: String,
        line: usize,
        found: usize,
        set: usize,
    },
    #[error("{path} line {line}: board {index} is {found:?} there but {name:?} in this set")]
    OtherBoard {
        path: String,
        line: usize,
        index: usize,
        found: String,
        name: String,
    },
    #[error(
        "{path} line {line}: board {index} is {found:?} there but {name:?} at {other}: \
         the files are not of one set"
    )]
    NotOneSet {
        path: String,
        line: usize,
        index: usize,
        found: String,
        name: String,
        /// Where the first record of that index is: `file line N`.
        other: String,
    },
    #[error("no board records in {0}")]
    NoRecords(String),
}

/// Part `index` (from 1) of a set split into `count` parts: board `k` (from 0, in the whole
/// set) belongs to part `k mod count + 1`. Round robin rather than blocks, so that the
/// boards of a stretch that is hard (the days of a hard month) are spread over all parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Is board `k` of the whole set in this part?
    pub fn holds(self, k: usize) -> bool {
        k % self.count == self.index - 1
    }

    /// The positions in a set of `set` boards that belong to this part, in order.
    pub fn positions(self, set: usize) -> Vec<usize> {
        (self.index - 1..set).step_by(self.count).collect()
    }
}

impl FromStr for Shard {
    type Err = BatchError;
    fn from_str(s: &str) -> Result<Shard, BatchError> {
        let bad = || BatchError::BadShard(s.to_string());
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The records of one JSON-lines file.
#[derive(Debug, Default)]
pub struct Records {
    /// Each record with its line number (from 1).
    pub rows: Vec<(usize, Row)>,
    /// The truncated last line left out (its line number), when there was one.
    pub truncated: Option<usize>,
    /// What a truncated last line still names: the board's index and name, when they were
    /// written before the line was cut.
    pub truncated_board: (Option<usize>, Option<String>),
    /// The length in bytes of the whole lines (all of the text but a truncated last line).
    pub whole_len: usize,
}

/// Reads the records of a JSON-lines file's text (`path` names it in errors). Blank lines
/// are skipped; a truncated last line is left out (see the module's documentation).
pub fn read_records(text: &str, path: &str) -> Result<Records, BatchError> {
    let mut records = Records {
        whole_len: text.len(),
        ..Records::default()
    };
    let mut at = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let whole = line.ends_with('\n');
        let body = line.trim_end_matches(['\n', '\r']);
        let start = at;
        at += line.len();
        if body.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Row>(body) {
            Ok(row) => records.rows.push((i + 1, row)),
            Err(_) if !whole => {
                records.truncated = Some(i + 1);
                records.truncated_board = named_in(body);
                records.whole_len = start;
            }
            Err(err) => {
                return Err(BatchError::BadLine {
                    path: path.to_string(),
                    line: i + 1,
                    err: err.to_string(),
                })
            }
        }
    }
    Ok(records)
}

/// The note that the last line of `path`, line `line`, was cut and is left out.
pub(crate) fn truncated_note(path: &str, line: usize) -> String {
    format!("{path} line {line}: a truncated last line (a run killed while writing it) is left out")
}

/// The index and name a cut record begins with (rows write `"name"` and `"index"` first).
fn named_in(cut: &str) -> (Option<usize>, Option<String>) {
    let after = |key: &str| cut.find(key).map(|at| &cut[at + key.len()..]);
    let index = after("\"index\":").and_then(|rest| {
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        // a number cut short is no index
        (rest.len() > digits.len())
            .then(|| digits.parse().ok())
            .flatten()
    });
    let name = after("\"name\":").and_then(|rest| {
        serde_json::Deserializer::from_str(rest)
            .into_iter::<String>()
            .next()?
            .ok()
    });
    (index, name)
}

/// Reads a whole file (of at most [`crate::input::MAX_INPUT_BYTES`]); a file that does
/// not exist reads as empty when `may_be_missing`.
pub fn read_file(path: &str, may_be_missing: bool) -> Result<Option<String>, BatchError> {
    let text =
        |bytes| String::from_utf8(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e));
    match File::open(path) {
        Ok(f) => crate::input::read_capped(f).and_then(text).map(Some),
        Err(e) if may_be_missing && e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
    .map_err(|err| BatchError::Io {
        path: path.to_string(),
        err,
    })
}

/// Opens a JSON-lines file to append rows to, first cutting it to `keep` bytes when given
/// (to drop a truncated last line), and ending its last line if it lacks a newline.
pub fn open_append(path: &Path, keep: Option<usize>) -> io::Result<File> {
    let mut f = OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(path)?;
    if let Some(keep) = keep {
        f.set_len(keep as u64)?;
    }
    let len = f.metadata()?.len();
    if len > 0 {
        let mut last = [0u8];
        f.seek(SeekFrom::Start(len - 1))?;
        f.read_exact(&mut last)?;
        if last[0] != b'\n' {
            f.write_all(b"\n")?;
        }
    }
    Ok(f)
}

/// Writes `row` as one JSON line and flushes it, with one write for the whole line, so a
/// reader or a kill sees whole lines.
pub fn write_row(out: &mut impl Write, row: &Row) -> io::Result<()> {
    let mut line = serde_json::to_string(row).map_err(io::Error::other)?;
    line.push('\n');
    out.write_all(line.as_bytes())?;
    out.flush()
}

/// A run resumed from the records of an earlier one.
#[derive(Debug, Default)]
pub struct Resumed {
    /// The recorded rows that count, in the order of the set.
    pub rows: Vec<Row>,
    /// What the reader left out, one line each (a truncated last line, records of boards
    /// outside the run's part, repeated or interrupted records).
    pub notes: Vec<String>,
    /// The length of the file's whole lines, when a truncated last line follows them.
    pub keep: Option<usize>,
}

/// Reads the records of `text` (the file `path`) for a run over `entries` (the whole set),
/// of the part `shard` when given: each record must name the board at its index in this
/// set. Records of an interrupted board are left out (that board is solved again), and so
/// are records of boards outside `shard` and a second record of a board.
pub fn resume(
    entries: &[Entry],
    shard: Option<Shard>,
    text: &str,
    path: &str,
) -> Result<Resumed, BatchError> {
    let records = read_records(text, path)?;
    let mut resumed = Resumed::default();
    if let Some(line) = records.truncated {
        resumed.keep = Some(records.whole_len);
        resumed.notes.push(truncated_note(path, line));
    }
    let mut seen = vec![false; entries.len()];
    let (mut outside, mut repeated, mut interrupted) = (0, 0, 0);
    for (line, row) in records.rows {
        check_record(&row, line, path, entries)?;
        if shard.is_some_and(|s| !s.holds(row.index)) {
            outside += 1;
        } else if row.stopped == Some(crate::report::Stopped::Interrupted) {
            interrupted += 1;
        } else if std::mem::replace(&mut seen[row.index], true) {
            repeated += 1;
        } else {
            resumed.rows.push(row);
        }
    }
    let mut note = |n: usize, what: &str| {
        if n > 0 {
            resumed.notes.push(format!("{path}: {n} {what}"));
        }
    };
    note(outside, "records of boards outside this shard are left out");
    note(repeated, "records of boards already recorded are left out");
    note(
        interrupted,
        "records of interrupted boards are left out (solved again)",
    );
    resumed.rows.sort_by_key(|r| r.index);
    Ok(resumed)
}

/// A record (on line `line` of `path`) must name the board at its index in `entries`.
fn check_record(row: &Row, line: usize, path: &str, entries: &[Entry]) -> Result<(), BatchError> {
    let path = path.to_string();
    if row.set != entries.len() {
        return Err(BatchError::OtherSet {
            path,
            line,
            found: row.set,
            set: entries.len(),
        });
    }
    match entries.get(row.index) {
        None => Err(BatchError::Outside {
            path,
            line,
            index: row.index,
            set: row.set,
        }),
        Some(e) if e.name != row.name => Err(BatchError::OtherBoard {
            path,
            line,
            index: row.index,
            found: row.name.clone(),
            name: e.name.clone(),
        }),
        Some(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::row::tests::row;
    use super::*;

    #[test]
    fn shards_are_read_and_split_round_robin() {
        let s: Shard = "2/3".parse().unwrap();
        assert_eq!((s.index, s.count, s.to_string()), (2, 3, "2/3".to_string()));
        assert_eq!(s.positions(8), [1, 4, 7]);
        assert!(s.holds(4) && !s.holds(5));
        let mut bad = 0;
        for text in [
            "0/3", "4/3", "x", "1/0", "1/", "/3", "-1/3", "1/3/5", "", "1.5/3",
        ] {
            assert!(text.parse::<Shard>().is_err(), "{text}");
            bad += 1;
        }
        assert_eq!(bad, 10);
        // every board in exactly one part, for every split of sets of several sizes
        let mut checked = 0;
        for set in [0, 1, 7, 30] {
            for count in 1..=5 {
                let mut owners = vec![0; set];
                for index in 1..=count {
                    for k in (Shard { index, count }).positions(set) {
                        owners[k] += 1;
                        checked += 1;
                    }
                }
                assert!(owners.iter().all(|&n| n == 1), "{set} in {count}");
            }
        }
        assert_eq!(checked, 5 * 38);
    }

    fn lines(rows: &[Row]) -> String {
        rows.iter()
            .map(|r| serde_json::to_string(r).unwrap() + "\n")
            .collect()
    }

    fn rows(n: usize) -> Vec<Row> {
        (0..n)
            .map(|i| {
                let mut r = row(3 + i, true, None, false, 1.0);
                r.index = i;
                r.set = n;
                r.name = format!("#{}", i + 1);
                r
            })
            .collect()
    }

    #[test]
    fn a_truncated_last_line_is_left_out_and_any_other_bad_line_is_an_error() {
        let text = lines(&rows(3));
        let cut = &text[..text.len() - 20];
        let r = read_records(cut, "f").unwrap();
        assert_eq!(r.rows.len(), 2);
        assert_eq!(r.truncated, Some(3));
        assert_eq!(r.truncated_board, (Some(2), Some("#3".to_string())));
        assert_eq!(
            &cut[..r.whole_len],
            &text[..text.rfind("{\"name\"").unwrap()]
        );
        let whole = read_records(&text, "f").unwrap();
        assert_eq!((whole.rows.len(), whole.truncated), (3, None));
        let bad = format!("{}{{\"name\": 3}}\n{}", &text[..10].replace('{', "x"), text);
        let err = read_records(&bad, "f").unwrap_err().to_string();
        assert!(err.starts_with("f line 1: not a board record"), "{err}");
        assert_eq!(named_in("{\"name\":\"ab"), (None, None));
        assert_eq!(
            named_in("{\"name\":\"ab\",\"index\":12"),
            (None, Some("ab".into()))
        );
    }

    #[test]
    fn a_resumed_run_keeps_the_records_of_its_boards() {
        let set = crate::boardset::parse("AB\nBA\nAA\nBB\n");
        let mut recorded = rows(4);
        recorded[3].stopped = Some(crate::report::Stopped::Interrupted);
        recorded.push(recorded[0].clone());
        let text = lines(&recorded) + "{\"name\":\"#";
        let r = resume(&set, None, &text, "f").unwrap();
        assert_eq!(
            r.rows.iter().map(|r| r.index).collect::<Vec<_>>(),
            [0, 1, 2]
        );
        assert_eq!(r.keep, Some(text.rfind('{').unwrap()));
        assert_eq!(r.notes.len(), 3, "{:?}", r.notes);
        let half = resume(&set, Some("2/2".parse().unwrap()), &text, "f").unwrap();
        assert_eq!(half.rows.iter().map(|r| r.index).collect::<Vec<_>>(), [1]);
        let err = resume(&set[..3], None, &text, "f").unwrap_err().to_string();
        assert!(err.contains("a set of 4 boards, not 3"), "{err}");
        let other = crate::boardset::parse("x|AB\ny|BA\nz|AA\nw|BB\n");
        let err = resume(&other, None, &text, "f").unwrap_err().to_string();
        assert!(err.contains("\"#1\" there but \"x\""), "{err}");
    }

    #[test]
    fn appending_cuts_a_truncated_line_and_ends_an_open_one() {
        let dir = std::env::temp_dir().join(format!("tumble-jsonl-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.jsonl");
        let r = rows(2);
        std::fs::write(&path, lines(&r[..1]) + "{\"na").unwrap();
        let keep = lines(&r[..1]).len();
        let mut f = open_append(&path, Some(keep)).unwrap();
        write_row(&mut f, &r[1]).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), lines(&r));
        std::fs::write(&path, lines(&r).trim_end()).unwrap();
        let mut f = open_append(&path, None).unwrap();
        write_row(&mut f, &r[0]).unwrap();
        let back = read_records(&std::fs::read_to_string(&path).unwrap(), "a").unwrap();
        assert_eq!(back.rows.len(), 3);
        std::fs::remove_dir_all(&dir).ok();
    }
}
