//! NRK Former's board of a day, built as NRK's page builds it.
//!
//! From 2024-11-23 on, the page makes each day's 7×9 board in the browser:
//!
//! 1. the key is the day of the month, the month counted from 0, and the year, as decimal
//!    numbers without padding, one after the other (2025-01-05 gives `"502025"`);
//! 2. the seed is the lowercase hexadecimal MD5 of the key;
//! 3. the seed string seeds Baagøe's Alea generator ([`alea`]);
//! 4. 63 draws of `floor(next() * 4)` give the colours O, P, G, B (0 to 3), filled row by
//!    row from the top left.
//!
//! Earlier boards came from NRK's server and cannot be made here.
//!
//! ```
//! use tumble::daily::{former_board, Date};
//! let board = former_board("2025-01-05".parse::<Date>().unwrap()).unwrap();
//! assert_eq!((board.width(), board.height()), (7, 9));
//! ```

pub mod alea;
mod date;

use md5::{Digest, Md5};
use thiserror::Error;

use crate::grid::Grid;

pub use date::{Date, DateIter, DateRange};

/// The width of a Former board.
pub const WIDTH: usize = 7;
/// The height of a Former board.
pub const HEIGHT: usize = 9;
/// The colours in the order of the generator's draws 0 to 3.
pub const COLOURS: [char; 4] = ['O', 'P', 'G', 'B'];

/// The first day whose board NRK's page generates.
pub fn first_generated_day() -> Date {
    Date::new(2024, 11, 23).expect("a real day")
}

/// Why a date or a range gave no board.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DailyError {
    /// Not of the shape `YYYY-MM-DD`.
    #[error("{0:?} is not a date: write it as YYYY-MM-DD (for example 2025-01-05) or `today`")]
    BadDate(String),
    /// The shape is right but the calendar has no such day.
    #[error("there is no day {year:04}-{month:02}-{day:02}")]
    NoSuchDay { year: i32, month: u32, day: u32 },
    /// A range whose end is missing after `..=`.
    #[error(
        "{0:?} is not a range of dates: write A..B (B left out), A..=B (B included), A.. or ..B"
    )]
    BadRange(String),
    /// The local clock could not be read.
    #[error("cannot read today's date from the local clock")]
    Clock,
    /// A day before the page generated its boards.
    #[error(
        "no board for {0}: boards before 2024-11-23 came from NRK's server and cannot be generated"
    )]
    BeforeGenerator(Date),
}

impl DateRange {
    /// Parses a range as [`DateRange::parse_from`] does, an omitted start being the first
    /// generated day, 2024-11-23.
    pub fn parse(s: &str) -> Result<DateRange, DailyError> {
        DateRange::parse_from(s, first_generated_day())
    }
}

/// The key of a day: the day of the month, the month from 0 and the year, unpadded.
pub fn key(date: Date) -> String {
    format!("{}{}{}", date.day(), date.month() - 1, date.year())
}

/// The seed of a day: the lowercase hexadecimal MD5 of its [`key`].
pub fn seed(date: Date) -> String {
    format!("{:x}", Md5::digest(key(date).as_bytes()))
}

/// The Former board of `date`, rows top to bottom.
pub fn former_board(date: Date) -> Result<Grid, DailyError> {
    if date < first_generated_day() {
        return Err(DailyError::BeforeGenerator(date));
    }
    let seed = seed(date);
    let mut rng = alea::Alea::new(&[&seed]);
    let mut text = String::with_capacity(HEIGHT * (WIDTH + 1));
    for _ in 0..HEIGHT {
        for _ in 0..WIDTH {
            text.push(COLOURS[rng.below(4) as usize]);
        }
        text.push('\n');
    }
    Ok(Grid::parse(&text).expect("a generated board parses"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Date {
        s.parse().unwrap()
    }

    #[test]
    fn keys_are_unpadded_with_months_from_zero() {
        assert_eq!(key(d("2025-01-05")), "502025");
        assert_eq!(key(d("2024-11-23")), "23102024");
        assert_eq!(key(d("2024-12-07")), "7112024");
        assert_eq!(key(d("2025-10-10")), "1092025");
    }

    #[test]
    fn seeds_are_the_lowercase_md5_of_the_key() {
        // MD5 test vector of RFC 1321 checks the digest and its lowercase hex form
        assert_eq!(
            format!("{:x}", Md5::digest(b"abc")),
            "900150983cd24fb0d6963f7d28e17f72"
        );
        let s = seed(d("2025-01-05"));
        assert_eq!(s.len(), 32);
        assert!(s
            .bytes()
            .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c)));
        assert_eq!(s, format!("{:x}", Md5::digest(b"502025")));
    }

    #[test]
    fn boards_are_full_seven_by_nine_in_four_colours() {
        let mut days = 0;
        for day in DateRange::parse("2024-11-23..=2024-12-31").unwrap() {
            let g = former_board(day).unwrap();
            assert_eq!((g.width(), g.height()), (WIDTH, HEIGHT));
            assert_eq!(g.tiles(), WIDTH * HEIGHT);
            assert!(g.palette().iter().all(|c| COLOURS.contains(c)));
            days += 1;
        }
        assert_eq!(days, 39);
        assert_ne!(
            former_board(d("2025-01-05")).unwrap().to_inline(),
            former_board(d("2025-01-06")).unwrap().to_inline()
        );
    }

    #[test]
    fn days_before_the_generator_are_refused() {
        let e = former_board(d("2024-11-22")).unwrap_err();
        assert_eq!(e, DailyError::BeforeGenerator(d("2024-11-22")));
        let text = e.to_string();
        assert!(text.contains("2024-11-22"), "{text}");
        assert!(
            text.contains(
                "boards before 2024-11-23 came from NRK's server and cannot be generated"
            ),
            "{text}"
        );
        assert!(former_board(first_generated_day()).is_ok());
    }
}
