//! THE reader of board sets (benchmarks, proven boards, record tables), in every format the
//! sets use:
//!
//! - lines `game|board|expected` (`boards/proven.txt`): the game, the board on one line,
//!   and the proven optimum;
//! - lines `name|board|record` (`boards/former_nrk.txt`): a name, the board and a
//!   best-known record;
//! - blocks of rows separated by blank lines, or each after a `problem NN` line (SameGame's
//!   sets);
//! - one board per line.
//!
//! `#` lines are comments; a byte-order mark before the first line is ignored. [`parse`]
//! gives the [`Entry`]s in order.

use crate::rules::Game;

/// One board of a set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// `game#line` for `game|…` lines, the name of `name|…` lines, `problem NN` for
    /// SameGame blocks, else `#N`.
    pub name: String,
    /// The game a `game|board` line names.
    pub game: Option<Game>,
    /// The board text (rows separated by commas or new lines).
    pub board: String,
    /// The third field of a `|` line, when it is a number.
    pub expected: Option<u32>,
    /// Is `expected` a proven optimum (`game|…` lines), else a best-known record?
    pub exact: bool,
}

impl Entry {
    /// The entry as one line of a set, which [`parse`] reads back: `game|board|optimum` for a
    /// proven optimum of a named game, else `name|board`, with `|record` when there is one.
    /// The board's rows are joined by commas.
    pub fn to_line(&self) -> String {
        let head = match (self.game, self.exact) {
            (Some(game), true) => game.to_string(),
            // `#N` is the name of an unnamed entry, and such a line would read as a comment;
            // so would a name that comes to `#` once a byte-order mark (which the first
            // line loses) and white space are taken off its start
            _ if self
                .name
                .trim_start_matches(|c: char| c == '\u{feff}' || c.is_whitespace())
                .starts_with('#') =>
            {
                String::new()
            }
            _ => self.name.clone(),
        };
        let rows: Vec<&str> = self
            .board
            .split(['\n', ','])
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .collect();
        match self.expected {
            Some(e) => format!("{head}|{}|{e}", rows.join(",")),
            None => format!("{head}|{}", rows.join(",")),
        }
    }
}

/// The boards of a set, in order.
pub fn parse(text: &str) -> Vec<Entry> {
    let lines = content_lines(text);
    if lines.iter().any(|l| l.contains('|')) {
        return fielded(&lines);
    }
    if lines
        .iter()
        .any(|l| l.trim().is_empty() || l.trim_start().starts_with("problem"))
    {
        return blocks(&lines);
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

/// The one entry of a text that is a single `game|board|…` or `name|board|…` line (comments
/// and blank lines aside), as a board file copied from a set may be; `None` for any other
/// text.
pub fn single_line(text: &str) -> Option<Entry> {
    let lines: Vec<&str> = content_lines(text)
        .into_iter()
        .filter(|l| !l.trim().is_empty())
        .collect();
    match lines.as_slice() {
        [line] if line.contains('|') => fielded(&lines).pop(),
        _ => None,
    }
}

/// The lines of a set's text that are not comments, without a byte-order mark or `\r`.
fn content_lines(text: &str) -> Vec<&str> {
    crate::grid::without_bom(text)
        .lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect()
}

/// `game|board|expected` or `name|board|record` lines (other lines are skipped).
fn fielded(lines: &[&str]) -> Vec<Entry> {
    lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.contains('|'))
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            let game = f[0].parse::<Game>().ok();
            Entry {
                name: if game.is_some() {
                    format!("{}#{}", f[0], i + 1)
                } else if f[0].is_empty() {
                    format!("#{}", i + 1)
                } else {
                    f[0].to_string()
                },
                game,
                board: f.get(1).unwrap_or(&"").to_string(),
                expected: f.get(2).and_then(|e| e.parse().ok()),
                exact: game.is_some(),
            }
        })
        .collect()
}

/// Blocks of rows, separated by blank lines or each after a `problem NN` line.
fn blocks(lines: &[&str]) -> Vec<Entry> {
    let mut out = Vec::new();
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
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leading_byte_order_mark_is_not_part_of_the_first_entry() {
        let mut cases = 0;
        for (text, name) in [
            ("\u{feff}former|AB,BA|3\r\n", "former#1"),
            ("\u{feff}nrk01|AB,BA|12\n", "nrk01"),
            ("\u{feff}AB,BA\n", "#1"),
        ] {
            let set = parse(text);
            assert_eq!(set.len(), 1, "{text:?}");
            assert_eq!(
                (set[0].name.as_str(), set[0].board.as_str()),
                (name, "AB,BA")
            );
            cases += 1;
        }
        assert_eq!(parse("\u{feff}former|AB,BA|3")[0].game, Some(Game::Former));
        assert_eq!(cases, 3);
    }

    #[test]
    fn game_lines_carry_a_proven_optimum_and_named_lines_a_record() {
        let set = parse("# proven\nformer|AB,BA|3\n\nfigure|ABAB|x\nnrk01|AAB,ABB|12\r\n");
        assert_eq!(set.len(), 3);
        assert_eq!(
            set[0].name, "former#1",
            "numbered by line, comments left out"
        );
        assert_eq!(set[0].game, Some(Game::Former));
        assert_eq!(set[0].board, "AB,BA");
        assert_eq!((set[0].expected, set[0].exact), (Some(3), true));
        assert_eq!(set[1].name, "figure#3");
        assert_eq!(set[1].expected, None);
        assert_eq!(set[2].name, "nrk01");
        assert_eq!(set[2].game, None);
        assert_eq!((set[2].expected, set[2].exact), (Some(12), false));
    }

    #[test]
    fn a_board_file_of_one_set_line_is_that_entry() {
        let mut cases = 0;
        for (text, game, board) in [
            (
                "# a comment\nfigure|ABAB,BABA|7\n",
                Some(Game::Figure),
                "ABAB,BABA",
            ),
            (
                "\u{feff}figure|ABAB,BABA|7\r\n\n",
                Some(Game::Figure),
                "ABAB,BABA",
            ),
            ("2024-11-23|AB,BA|13", None, "AB,BA"),
        ] {
            let entry = single_line(text).expect(text);
            assert_eq!(
                (entry.game, entry.board.as_str()),
                (game, board),
                "{text:?}"
            );
            cases += 1;
        }
        // a board of its own, or more than one line, is no set line
        for text in [
            "AB,BA",
            "AB\nBA\n",
            "figure|AB|3\nfigure|BA|3",
            "AB\nfigure|AB|3",
        ] {
            assert_eq!(single_line(text), None, "{text:?}");
            cases += 1;
        }
        assert_eq!(cases, 7);
    }

    #[test]
    fn an_entry_written_as_a_line_reads_back_as_itself() {
        let entry = |name: &str, game, board: &str, expected, exact| Entry {
            name: name.to_string(),
            game,
            board: board.to_string(),
            expected,
            exact,
        };
        let mut cases = 0;
        for (e, line) in [
            (
                entry("former#1", Some(Game::Former), "AB\nBA\n", Some(3), true),
                "former|AB,BA|3",
            ),
            (
                entry("2024-11-23", Some(Game::Former), "AB\nBA", None, false),
                "2024-11-23|AB,BA",
            ),
            (
                entry("nrk01", None, "AAB,ABB", Some(12), false),
                "nrk01|AAB,ABB|12",
            ),
            (
                entry("figure-7", None, ".A\nBA\n", None, false),
                "figure-7|.A,BA",
            ),
            (entry("#3", None, "AB", Some(4), false), "|AB|4"),
            (entry("\u{feff}\r#a", None, "AB", None, false), "|AB"),
            (entry(" \u{feff} #b", None, "AB", None, false), "|AB"),
        ] {
            assert_eq!(e.to_line(), line);
            let back = single_line(line).expect(line);
            let rows = |b: &str| b.replace(',', "\n").trim_end().to_string();
            assert_eq!(rows(&back.board), rows(&e.board), "{line}");
            assert_eq!((back.expected, back.exact), (e.expected, e.exact), "{line}");
            assert_eq!(back.game, e.game.filter(|_| e.exact), "{line}");
            cases += 1;
        }
        assert_eq!(cases, 7);
    }

    #[test]
    fn blocks_split_on_blank_lines_and_problem_headers() {
        let set = parse("AB\nBA\n\n\nCC\nDD\n");
        let boards: Vec<&str> = set.iter().map(|e| e.board.as_str()).collect();
        assert_eq!(boards, ["AB\nBA", "CC\nDD"]);
        assert_eq!(set[1].name, "#2");
        let set = parse("problem 01\nAB\nBA\nproblem 02\n CC\nDD\n");
        assert_eq!(set.len(), 2);
        assert_eq!(set[0].name, "problem 01");
        assert_eq!(set[1].name, "problem 02");
        assert_eq!(set[1].board, "CC\nDD");
    }

    #[test]
    fn otherwise_one_board_per_line() {
        let set = parse("ABCD\n# skip\nBCDA\n");
        assert_eq!(set.len(), 2);
        assert_eq!(
            (set[0].name.as_str(), set[0].board.as_str()),
            ("#1", "ABCD")
        );
        assert_eq!(set[1].name, "#2");
        assert!(parse("").is_empty());
        assert!(parse("# only a comment\n").is_empty());
    }
}
