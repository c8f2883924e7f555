//! Calendar dates (proleptic Gregorian), parsed from `YYYY-MM-DD`, and ranges of them.

use std::fmt;
use std::str::FromStr;

use super::DailyError;

/// A calendar day. Ordered by time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    year: i32,
    month: u32,
    day: u32,
}

/// Is `year` a leap year of the Gregorian calendar?
fn is_leap(year: i32) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

/// The days of `month` (1 to 12) in `year`.
fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if is_leap(year) => 29,
        _ => 28,
    }
}

impl Date {
    /// The date `year-month-day` (month 1 to 12), or why there is no such day.
    pub fn new(year: i32, month: u32, day: u32) -> Result<Date, DailyError> {
        let valid = (1..=12).contains(&month) && day >= 1 && day <= days_in_month(year, month);
        if !valid {
            return Err(DailyError::NoSuchDay { year, month, day });
        }
        Ok(Date { year, month, day })
    }

    /// The year.
    pub fn year(self) -> i32 {
        self.year
    }

    /// The month, 1 (January) to 12.
    pub fn month(self) -> u32 {
        self.month
    }

    /// The day of the month, from 1.
    pub fn day(self) -> u32 {
        self.day
    }

    /// Today in the local time zone (the day NRK's page shows a player here).
    pub fn today() -> Result<Date, DailyError> {
        // SAFETY: `time(NULL)` only reads the clock; `localtime_r` writes the broken-down
        // time into the `tm` we own and returns null on failure, which is checked.
        let tm = unsafe {
            let now = libc::time(std::ptr::null_mut());
            let mut tm: libc::tm = std::mem::zeroed();
            if libc::localtime_r(&now, &mut tm).is_null() {
                return Err(DailyError::Clock);
            }
            tm
        };
        // tm_mon counts from 0, tm_year from 1900.
        Date::new(tm.tm_year + 1900, (tm.tm_mon + 1) as u32, tm.tm_mday as u32)
    }

    /// The day after.
    pub fn next_day(self) -> Date {
        if self.day < days_in_month(self.year, self.month) {
            Date {
                day: self.day + 1,
                ..self
            }
        } else if self.month < 12 {
            Date {
                month: self.month + 1,
                day: 1,
                ..self
            }
        } else {
            Date {
                year: self.year + 1,
                month: 1,
                day: 1,
            }
        }
    }

    /// The day before.
    pub fn previous_day(self) -> Date {
        if self.day > 1 {
            Date {
                day: self.day - 1,
                ..self
            }
        } else if self.month > 1 {
            let month = self.month - 1;
            Date {
                month,
                day: days_in_month(self.year, month),
                ..self
            }
        } else {
            Date {
                year: self.year - 1,
                month: 12,
                day: 31,
            }
        }
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl FromStr for Date {
    type Err = DailyError;

    /// Parses `YYYY-MM-DD` (four-digit year, two-digit month and day), or the word `today`.
    fn from_str(s: &str) -> Result<Date, DailyError> {
        let s = s.trim();
        if s == "today" {
            return Date::today();
        }
        let bad = || DailyError::BadDate(s.to_string());
        let b = s.as_bytes();
        let shape = b.len() == 10
            && b[4] == b'-'
            && b[7] == b'-'
            && b.iter()
                .enumerate()
                .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
        if !shape {
            return Err(bad());
        }
        let year = s[..4].parse().map_err(|_| bad())?;
        let month = s[5..7].parse().map_err(|_| bad())?;
        let day = s[8..].parse().map_err(|_| bad())?;
        Date::new(year, month, day)
    }
}

/// The days from `first` to `last`, both included (empty when `last` is before `first`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DateRange {
    /// The first day.
    pub first: Date,
    /// The last day (included).
    pub last: Date,
}

impl DateRange {
    /// The number of days in the range.
    pub fn len(&self) -> usize {
        self.into_iter().count()
    }

    /// Does the range hold no day?
    pub fn is_empty(&self) -> bool {
        self.last < self.first
    }

    /// Parses a range with `default_first` for an omitted start:
    ///
    /// - `A..B`: from A up to B, B left out (as Rust's `..`);
    /// - `A..=B`: from A to B, both included;
    /// - either end may be omitted: no start is `default_first`, no end is today (included);
    /// - a single date `A` is that one day.
    ///
    /// Dates are `YYYY-MM-DD` or `today`.
    pub fn parse_from(s: &str, default_first: Date) -> Result<DateRange, DailyError> {
        let s = s.trim();
        let Some((a, b)) = s.split_once("..") else {
            let d: Date = s.parse()?;
            return Ok(DateRange { first: d, last: d });
        };
        let first = if a.trim().is_empty() {
            default_first
        } else {
            a.parse()?
        };
        let last = if let Some(b) = b.strip_prefix('=') {
            if b.trim().is_empty() {
                return Err(DailyError::BadRange(s.to_string()));
            }
            b.parse()?
        } else if b.trim().is_empty() {
            Date::today()?
        } else {
            b.parse::<Date>()?.previous_day()
        };
        Ok(DateRange { first, last })
    }
}

impl IntoIterator for DateRange {
    type Item = Date;
    type IntoIter = DateIter;

    fn into_iter(self) -> DateIter {
        DateIter {
            next: self.first,
            last: self.last,
        }
    }
}

/// The days of a [`DateRange`], in order.
#[derive(Clone, Debug)]
pub struct DateIter {
    next: Date,
    last: Date,
}

impl Iterator for DateIter {
    type Item = Date;

    fn next(&mut self) -> Option<Date> {
        if self.next > self.last {
            return None;
        }
        let d = self.next;
        self.next = d.next_day();
        Some(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Date {
        s.parse().unwrap()
    }

    #[test]
    fn parses_and_prints_dates() {
        let x = d("2025-01-05");
        assert_eq!((x.year(), x.month(), x.day()), (2025, 1, 5));
        assert_eq!(x.to_string(), "2025-01-05");
        assert_eq!(d(" 2024-02-29 ").to_string(), "2024-02-29");
        assert_eq!(d("2000-02-29").day(), 29);
    }

    #[test]
    fn refuses_bad_formats_and_impossible_days() {
        for bad in [
            "",
            "2025-1-05",
            "2025/01/05",
            "25-01-05",
            "2025-01-5",
            "2025-01-05x",
            "+025-01-05",
            "2025-0a-05",
            "yesterday",
        ] {
            let e = bad.parse::<Date>().unwrap_err();
            assert!(matches!(e, DailyError::BadDate(_)), "{bad:?}: {e}");
            assert!(e.to_string().contains("YYYY-MM-DD"), "{e}");
        }
        for impossible in [
            "2025-02-29",
            "2025-02-30",
            "1900-02-29",
            "2025-04-31",
            "2025-13-01",
            "2025-00-10",
            "2025-01-00",
            "2025-12-32",
        ] {
            let e = impossible.parse::<Date>().unwrap_err();
            assert!(
                matches!(e, DailyError::NoSuchDay { .. }),
                "{impossible}: {e}"
            );
            assert!(e.to_string().contains(impossible), "{e}");
        }
    }

    #[test]
    fn days_step_over_months_years_and_leap_days() {
        assert_eq!(d("2024-02-28").next_day(), d("2024-02-29"));
        assert_eq!(d("2024-02-29").next_day(), d("2024-03-01"));
        assert_eq!(d("2025-02-28").next_day(), d("2025-03-01"));
        assert_eq!(d("2024-12-31").next_day(), d("2025-01-01"));
        assert_eq!(d("2025-01-01").previous_day(), d("2024-12-31"));
        assert_eq!(d("2024-03-01").previous_day(), d("2024-02-29"));
        // a walk of four years forth and back returns where it started
        let start = d("2023-06-15");
        let mut x = start;
        for _ in 0..1461 {
            let y = x.next_day();
            assert!(y > x);
            assert_eq!(y.previous_day(), x);
            x = y;
        }
        assert_eq!(x, d("2027-06-15"));
    }

    #[test]
    fn ranges_follow_rust_bounds() {
        let first = d("2024-11-23");
        let r = DateRange::parse_from("2024-11-23..2024-11-26", first).unwrap();
        let days: Vec<String> = r.into_iter().map(|x| x.to_string()).collect();
        assert_eq!(days, ["2024-11-23", "2024-11-24", "2024-11-25"]);
        assert_eq!(r.len(), 3);
        let r = DateRange::parse_from("2024-12-30..=2025-01-02", first).unwrap();
        assert_eq!(r.len(), 4);
        assert_eq!(r.into_iter().last(), Some(d("2025-01-02")));
        // a whole leap year and the day after
        assert_eq!(
            DateRange::parse_from("2024-01-01..2025-01-02", first)
                .unwrap()
                .len(),
            367
        );
        let one = DateRange::parse_from("2025-03-04", first).unwrap();
        assert_eq!((one.first, one.last), (d("2025-03-04"), d("2025-03-04")));
        let empty = DateRange::parse_from("2025-03-04..2025-03-04", first).unwrap();
        assert!(empty.is_empty());
        assert_eq!(empty.into_iter().count(), 0);
        let open = DateRange::parse_from("..=2024-11-24", first).unwrap();
        assert_eq!(open.len(), 2);
        // (the clock may pass midnight between two readings)
        let today = Date::today().unwrap();
        let to_today = DateRange::parse_from("2024-11-23..today", first).unwrap();
        assert!([today.previous_day(), today].contains(&to_today.last));
        let open_end = DateRange::parse_from("2024-11-23..", first).unwrap();
        assert!([today, today.next_day()].contains(&open_end.last));
        assert!(matches!(
            DateRange::parse_from("2024-11-23..=", first),
            Err(DailyError::BadRange(_))
        ));
        assert!(matches!(
            DateRange::parse_from("2024-11-23..2025-02-30", first),
            Err(DailyError::NoSuchDay { .. })
        ));
    }

    #[test]
    fn today_is_a_real_recent_day() {
        let t = Date::today().unwrap();
        assert!(t > d("2024-11-23"), "{t}");
        let again: Date = "today".parse().unwrap();
        assert!(again == t || again == t.next_day(), "{t} then {again}");
    }
}
