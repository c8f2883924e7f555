//! The board as text and as a plain grid of colours: parsing, checking and printing.
//!
//! [`Grid`] is the exchange format between the outside world and the engines: a rectangle of
//! cells, each empty (`0`) or a colour `1..=K`, with the characters the input used for the
//! colours (its palette) so that output speaks the input's language. The bitboard engines
//! ([`crate::click`], [`crate::floodit`]) are built from a `Grid` and turn back into one for
//! printing. The format is the one in `RULES.md`:
//!
//! - rows top to bottom, separated by newlines, by commas on one line, or by spaces on one
//!   line when every row has the same length;
//! - `.` is an empty cell, any other printable non-space character a colour;
//! - lines starting with `#` are comments, a trailing `\r` is ignored, and so is a byte-order
//!   mark before the first line (as editors on Windows write).
//!
//! Coordinates: `x` is the column (0 at the left), `y` the row (0 at the **bottom**).
//!
//! ```
//! use tumble::grid::Grid;
//! let g: Grid = "AB.\nABB".parse().unwrap();
//! assert_eq!((g.width(), g.height(), g.colours()), (3, 2, 2));
//! assert_eq!(g.get(2, 1), 0); // top right is empty
//! assert_eq!(g.to_inline(), "AB.,ABB");
//! ```

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The most colours a board may have.
pub const MAX_COLOURS: usize = 16;

/// Why a board text was rejected. Every variant names where the problem is.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardError {
    /// The text holds no rows at all.
    #[error("the board is empty: no rows found")]
    NoRows,
    /// A character that cannot be a cell.
    #[error("line {line}, column {column}: character {ch:?} is not a colour or '.'")]
    BadChar {
        line: usize,
        column: usize,
        ch: char,
    },
    /// A row whose width differs from the first row's.
    #[error("row {row} (line {line}) has {found} cells, but row 1 has {expected}: all rows must have the same width")]
    Ragged {
        row: usize,
        line: usize,
        found: usize,
        expected: usize,
    },
    /// More distinct colours than the engine holds.
    #[error("the board has {found} colours (the {found}th is {ch:?} at line {line}, column {column}); at most {max} are supported")]
    TooManyColours {
        found: usize,
        max: usize,
        ch: char,
        line: usize,
        column: usize,
    },
    /// An empty cell under a tile.
    #[error("cell ({x},{y}) (line {line}, column {column}) is empty but has a tile above it: a board must obey gravity")]
    Floating {
        x: usize,
        y: usize,
        line: usize,
        column: usize,
    },
    /// An empty cell where the game allows none.
    #[error("cell ({x},{y}) (line {line}, column {column}) is empty, but a {game} board has no empty cells")]
    NotFull {
        x: usize,
        y: usize,
        line: usize,
        column: usize,
        game: String,
    },
    /// A board bigger than an engine holds.
    #[error("the board is {width}×{height}; {limit}")]
    TooLarge {
        width: usize,
        height: usize,
        limit: String,
    },
}

/// A rectangle of cells: `0` is empty, `1..=colours` a colour.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    width: usize,
    height: usize,
    /// Cells row by row from the bottom: index `y * width + x`.
    cells: Vec<u8>,
    /// `palette[k - 1]` is the character of colour `k`.
    palette: Vec<char>,
    /// For each row from the bottom, the 1-based line and column where it started in the
    /// input, so that errors found later can name the place.
    origin: Vec<(usize, usize)>,
}

impl Grid {
    /// A grid from cells given bottom row first (`cells[y * width + x]`, `0` empty) and a
    /// palette (`palette[k-1]` prints colour `k`).
    ///
    /// # Panics
    /// If the sizes disagree or a cell names a colour outside the palette.
    pub fn from_cells(width: usize, height: usize, cells: Vec<u8>, palette: Vec<char>) -> Grid {
        assert_eq!(
            cells.len(),
            width * height,
            "cells do not fill the rectangle"
        );
        assert!(cells.iter().all(|&c| (c as usize) <= palette.len()));
        let origin = (0..height).map(|y| (height - y, 1)).collect();
        Grid {
            width,
            height,
            cells,
            palette,
            origin,
        }
    }

    /// Width (columns).
    pub fn width(&self) -> usize {
        self.width
    }
    /// Height (rows).
    pub fn height(&self) -> usize {
        self.height
    }
    /// Number of colours in the palette.
    pub fn colours(&self) -> usize {
        self.palette.len()
    }
    /// The palette: `palette()[k-1]` is the character of colour `k`.
    pub fn palette(&self) -> &[char] {
        &self.palette
    }
    /// The colour at `(x, y)` (`y = 0` is the bottom row); `0` is empty.
    pub fn get(&self, x: usize, y: usize) -> u8 {
        self.cells[y * self.width + x]
    }
    /// Sets the colour at `(x, y)`.
    pub fn set(&mut self, x: usize, y: usize, colour: u8) {
        assert!((colour as usize) <= self.palette.len());
        self.cells[y * self.width + x] = colour;
    }
    /// Number of tiles (non-empty cells).
    pub fn tiles(&self) -> usize {
        self.cells.iter().filter(|&&c| c != 0).count()
    }
    /// Is every cell empty?
    pub fn is_empty(&self) -> bool {
        self.cells.iter().all(|&c| c == 0)
    }
    /// The character that prints colour `c` (`.` for empty).
    pub fn symbol(&self, colour: u8) -> char {
        if colour == 0 {
            '.'
        } else {
            self.palette[colour as usize - 1]
        }
    }
    /// Where row `y` started in the input: (line, column), 1-based.
    pub fn origin(&self, x: usize, y: usize) -> (usize, usize) {
        let (line, col) = self.origin[y];
        (line, col + x)
    }

    /// Rejects a board with an empty cell under a tile, naming the lowest such cell.
    pub fn check_gravity(&self) -> Result<(), BoardError> {
        for x in 0..self.width {
            for y in 0..self.height {
                if self.get(x, y) == 0 && (y + 1..self.height).any(|yy| self.get(x, yy) != 0) {
                    let (line, column) = self.origin(x, y);
                    return Err(BoardError::Floating { x, y, line, column });
                }
            }
        }
        Ok(())
    }

    /// Rejects a board with any empty cell (Flood-It).
    pub fn check_full(&self, game: &str) -> Result<(), BoardError> {
        for y in (0..self.height).rev() {
            for x in 0..self.width {
                if self.get(x, y) == 0 {
                    let (line, column) = self.origin(x, y);
                    return Err(BoardError::NotFull {
                        x,
                        y,
                        line,
                        column,
                        game: game.to_string(),
                    });
                }
            }
        }
        Ok(())
    }

    /// Rows top to bottom, one per line, no trailing newline.
    pub fn to_text(&self) -> String {
        self.rows().join("\n")
    }

    /// Rows top to bottom separated by commas: the one-line form.
    pub fn to_inline(&self) -> String {
        self.rows().join(",")
    }

    /// The rows as strings, top row first.
    pub fn rows(&self) -> Vec<String> {
        (0..self.height)
            .rev()
            .map(|y| {
                (0..self.width)
                    .map(|x| self.symbol(self.get(x, y)))
                    .collect()
            })
            .collect()
    }

    /// Parses a board (see the module docs for the format).
    pub fn parse(text: &str) -> Result<Grid, BoardError> {
        let text = without_bom(text);
        // (line, first column, characters) of each row, top row first.
        let mut rows: Vec<(usize, usize, Vec<char>)> = Vec::new();
        let mut row_lines: Vec<(usize, &str)> = Vec::new();
        for (i, raw) in text.split('\n').enumerate() {
            let line = raw.strip_suffix('\r').unwrap_or(raw);
            if line.trim_start().starts_with('#') || line.trim().is_empty() {
                continue;
            }
            row_lines.push((i + 1, line));
        }
        for &(line_no, line) in &row_lines {
            let trimmed_start = line.len() - line.trim_start().len();
            let body = line.trim();
            let base_col = line[..trimmed_start].chars().count() + 1;
            let pieces: Vec<(usize, &str)> = if body.contains(',') {
                split_positions(body, ',')
            } else if body.contains(char::is_whitespace) {
                let parts = split_positions_ws(body);
                let len0 = parts[0].1.chars().count();
                if parts.iter().all(|(_, p)| p.chars().count() == len0) {
                    parts
                } else {
                    // Rows of different lengths separated by spaces: spaces are not cells.
                    let (off, ch) = body
                        .chars()
                        .enumerate()
                        .find(|(_, c)| c.is_whitespace())
                        .expect("contains whitespace");
                    return Err(BoardError::BadChar {
                        line: line_no,
                        column: base_col + off,
                        ch,
                    });
                }
            } else {
                vec![(0, body)]
            };
            for (off, piece) in pieces {
                rows.push((line_no, base_col + off, piece.chars().collect()));
            }
        }
        if rows.is_empty() {
            return Err(BoardError::NoRows);
        }
        let width = rows[0].2.len();
        let mut palette: Vec<char> = Vec::new();
        let height = rows.len();
        let mut cells = vec![0u8; width * height];
        let mut origin = vec![(0, 0); height];
        for (r, (line, col, chars)) in rows.iter().enumerate() {
            if chars.len() != width {
                return Err(BoardError::Ragged {
                    row: r + 1,
                    line: *line,
                    found: chars.len(),
                    expected: width,
                });
            }
            let y = height - 1 - r;
            origin[y] = (*line, *col);
            for (x, &ch) in chars.iter().enumerate() {
                if ch == '.' {
                    continue;
                }
                if ch.is_whitespace() || ch.is_control() || ch == ',' {
                    return Err(BoardError::BadChar {
                        line: *line,
                        column: col + x,
                        ch,
                    });
                }
                let k = match palette.iter().position(|&p| p == ch) {
                    Some(k) => k,
                    None => {
                        if palette.len() == MAX_COLOURS {
                            return Err(BoardError::TooManyColours {
                                found: MAX_COLOURS + 1,
                                max: MAX_COLOURS,
                                ch,
                                line: *line,
                                column: col + x,
                            });
                        }
                        palette.push(ch);
                        palette.len() - 1
                    }
                };
                cells[y * width + x] = k as u8 + 1;
            }
        }
        if width == 0 {
            return Err(BoardError::NoRows);
        }
        Ok(Grid {
            width,
            height,
            cells,
            palette,
            origin,
        })
    }
}

/// Splits on `sep`, keeping each piece's character offset.
fn split_positions(body: &str, sep: char) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start_byte = 0;
    let mut start_char = 0;
    for (ci, (bi, ch)) in body.char_indices().enumerate() {
        if ch == sep {
            out.push((start_char, body[start_byte..bi].trim_end()));
            start_byte = bi + ch.len_utf8();
            start_char = ci + 1;
        }
    }
    out.push((start_char, &body[start_byte..]));
    // Trim the spaces after a comma, moving the offset accordingly.
    out.into_iter()
        .map(|(off, p)| {
            let lead = p.len() - p.trim_start().len();
            (off + p[..lead].chars().count(), p.trim())
        })
        .collect()
}

/// Splits on runs of whitespace, keeping each piece's character offset.
fn split_positions_ws(body: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for (ci, (bi, ch)) in body.char_indices().enumerate() {
        match (ch.is_whitespace(), start) {
            (true, Some((sb, sc))) => {
                out.push((sc, &body[sb..bi]));
                start = None;
            }
            (false, None) => start = Some((bi, ci)),
            _ => {}
        }
    }
    if let Some((sb, sc)) = start {
        out.push((sc, &body[sb..]));
    }
    out
}

impl FromStr for Grid {
    type Err = BoardError;
    fn from_str(s: &str) -> Result<Grid, BoardError> {
        Grid::parse(s)
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({})", self.to_inline())
    }
}

/// `text` without the byte-order mark (U+FEFF) it may start with: a file saved as "UTF-8 with
/// BOM" is the same text, and the mark is neither a cell nor a space.
pub(crate) fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_row_separators_agree() {
        let a: Grid = "GGB\nRGB\nRRB".parse().unwrap();
        let b: Grid = "GGB,RGB,RRB".parse().unwrap();
        let c: Grid = "GGB RGB RRB".parse().unwrap();
        assert_eq!(a.to_inline(), b.to_inline());
        assert_eq!(a.to_inline(), c.to_inline());
        assert_eq!(a.get(0, 0), a.get(0, 1)); // R at the bottom left, R above it
        assert_eq!(a.symbol(a.get(0, 2)), 'G');
    }

    #[test]
    fn comments_crlf_and_blank_lines_are_ignored() {
        let g: Grid = "# a comment\r\n\r\nAB\r\nBA\r\n".parse().unwrap();
        assert_eq!(g.to_text(), "AB\nBA");
    }

    #[test]
    fn a_leading_byte_order_mark_is_ignored() {
        let mut cases = 0;
        for text in [
            "\u{feff}AB\r\nBA\r\n",
            "\u{feff}AB,BA",
            "\u{feff}# note\nAB\nBA",
        ] {
            let g = Grid::parse(text).unwrap();
            assert_eq!(
                (g.to_inline(), g.colours()),
                ("AB,BA".to_string(), 2),
                "{text:?}"
            );
            cases += 1;
        }
        // only at the very start: elsewhere it is a character like any other
        assert!(Grid::parse("AB\n\u{feff}BA").is_err());
        assert_eq!(cases, 3);
    }

    #[test]
    fn ragged_rows_name_the_row() {
        let e = Grid::parse("ABC\nAB\nABC").unwrap_err();
        assert_eq!(
            e,
            BoardError::Ragged {
                row: 2,
                line: 2,
                found: 2,
                expected: 3
            }
        );
        assert!(e.to_string().contains("row 2"));
    }

    #[test]
    fn floating_tile_names_the_cell() {
        let g = Grid::parse("A.\n.B").unwrap();
        let e = g.check_gravity().unwrap_err();
        assert_eq!(
            e,
            BoardError::Floating {
                x: 0,
                y: 0,
                line: 2,
                column: 1
            }
        );
    }

    #[test]
    fn seventeen_colours_are_too_many() {
        let row: String = "ABCDEFGHIJKLMNOPQ".into();
        let e = Grid::parse(&row).unwrap_err();
        assert!(matches!(
            e,
            BoardError::TooManyColours {
                ch: 'Q',
                column: 17,
                ..
            }
        ));
    }

    #[test]
    fn control_characters_are_rejected_with_position() {
        let e = Grid::parse("AB\nA\u{7}").unwrap_err();
        assert_eq!(
            e,
            BoardError::BadChar {
                line: 2,
                column: 2,
                ch: '\u{7}'
            }
        );
    }

    #[test]
    fn empty_text_is_an_error() {
        assert_eq!(
            Grid::parse("# nothing\n\n").unwrap_err(),
            BoardError::NoRows
        );
    }

    #[test]
    fn hash_is_a_colour_inside_a_row_and_a_comment_at_line_start() {
        let g: Grid = "A#,#A".parse().unwrap();
        assert_eq!(g.colours(), 2);
        assert_eq!(g.symbol(g.get(1, 1)), '#');
        let g: Grid = "# comment\nA#\nBA".parse().unwrap();
        assert_eq!((g.width(), g.height()), (2, 2));
    }

    #[test]
    fn digits_and_symbols_are_colours() {
        let g: Grid = "1@\n2@".parse().unwrap();
        assert_eq!(g.colours(), 3);
        assert_eq!(g.to_inline(), "1@,2@");
    }
}
