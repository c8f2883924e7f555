//! The requests of a query string: `/api/generate`, `/api/read`'s options, and the date of
//! `/api/former/{date}`.

use super::super::errors::ApiError;
use super::game;
use crate::grid::Grid;
use crate::input::InputError;
use crate::picture::ReadOptions;
use crate::rules::{Game, RuleChoices};

/// Splits a query string into decoded `(key, value)` pairs (`+` is a space, `%XX` a byte;
/// a bad escape stays as written).
pub fn query_pairs(query: &str) -> Vec<(String, String)> {
    fn decode(s: &str) -> String {
        let bytes = s.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            let hex = |b: u8| (b as char).to_digit(16);
            match bytes[i] {
                b'+' => out.push(b' '),
                b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                    (Some(h), Some(l)) => {
                        out.push((h * 16 + l) as u8);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                },
                b => out.push(b),
            }
            i += 1;
        }
        String::from_utf8_lossy(&out).into_owned()
    }
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (decode(k), decode(v))
        })
        .collect()
}

/// The value of `key` in `pairs` (the last one given), if any and not empty.
fn field<'a>(pairs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    pairs
        .iter()
        .rev()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .filter(|v| !v.trim().is_empty())
}

/// The pairs of a query whose every key is one of `keys`, each once, or a 400 naming the
/// first that is not (a misspelt parameter must not pass for an absent one, nor one of two
/// values for the other).
fn query_of(query: &str, path: &str, keys: &[&str]) -> Result<Vec<(String, String)>, ApiError> {
    let pairs = query_pairs(query);
    if let Some((k, _)) = pairs.iter().find(|(k, _)| !keys.contains(&k.as_str())) {
        return Err(ApiError::bad_request(format!(
            "unknown parameter {k:?} in the query of {path} (its parameters: {})",
            keys.join(", ")
        )));
    }
    for (i, (k, _)) in pairs.iter().enumerate() {
        if pairs[..i].iter().any(|(seen, _)| seen == k) {
            return Err(ApiError::bad_request(format!(
                "the query of {path} gives {k:?} twice: give it once"
            )));
        }
    }
    Ok(pairs)
}

/// A whole number field of a query.
fn number<T: std::str::FromStr>(
    pairs: &[(String, String)],
    key: &str,
) -> Result<Option<T>, ApiError>
where
    T::Err: std::fmt::Display,
{
    field(pairs, key)
        .map(|v| {
            v.trim()
                .parse()
                .map_err(|e| ApiError::bad_request(format!("bad {key} {v:?}: {e}")))
        })
        .transpose()
}

/// A checked `/api/generate` query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateRequest {
    pub game: Game,
    pub width: Option<usize>,
    pub height: Option<usize>,
    pub colours: Option<usize>,
    /// `None`: a fresh random seed.
    pub seed: Option<u64>,
}

impl GenerateRequest {
    /// Parses the query of `/api/generate`: `game=G&width=W&height=H&colours=K&seed=S`,
    /// `game` required.
    pub fn parse(query: &str) -> Result<GenerateRequest, ApiError> {
        let keys = ["game", "width", "height", "colours", "colors", "seed"];
        let pairs = query_of(query, "/api/generate", &keys)?;
        let game = game(
            field(&pairs, "game")
                .ok_or_else(|| ApiError::bad_request("the query has no game (…?game=former)"))?,
        )?;
        Ok(GenerateRequest {
            game,
            width: number(&pairs, "width")?,
            height: number(&pairs, "height")?,
            colours: number(&pairs, "colours")?.or(number(&pairs, "colors")?),
            seed: number(&pairs, "seed")?,
        })
    }
}

/// Parses the query of `/api/read`: `game=G&width=W&height=H&colours=K`, all optional, as
/// the options of `tumble read`.
pub fn read_options(query: &str) -> Result<ReadOptions, ApiError> {
    let keys = ["game", "width", "height", "colours", "colors"];
    let pairs = query_of(query, "/api/read", &keys)?;
    Ok(ReadOptions {
        game: field(&pairs, "game").map(game).transpose()?,
        width: number(&pairs, "width")?,
        height: number(&pairs, "height")?,
        colours: number(&pairs, "colours")?.or(number(&pairs, "colors")?),
    })
}

/// The board text of a date for `/api/former/{date}`: `YYYY-MM-DD` or `today`, as
/// `tumble gen --date` takes it; the date and the board.
pub fn former_board(date: &str) -> Result<(String, Grid), ApiError> {
    let day: crate::daily::Date = date.parse()?;
    let mut rules = RuleChoices {
        game: Some(Game::Former),
        ..RuleChoices::default()
    };
    let text = crate::input::dated_board(&day.to_string(), &mut rules)?;
    let grid = Grid::parse(&text).map_err(InputError::from)?;
    Ok((day.to_string(), grid))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_are_decoded_and_checked() {
        assert_eq!(
            query_pairs("a=1&b=x+y&c=%41%2c&d&e=%zz"),
            vec![
                ("a".into(), "1".into()),
                ("b".into(), "x y".into()),
                ("c".into(), "A,".into()),
                ("d".into(), "".into()),
                ("e".into(), "%zz".into()),
            ]
        );
        let g = GenerateRequest::parse("game=samegame&width=5&seed=7").unwrap();
        assert_eq!(
            (g.game, g.width, g.height, g.seed),
            (Game::Samegame, Some(5), None, Some(7))
        );
        assert!(GenerateRequest::parse("width=5").is_err());
        assert!(GenerateRequest::parse("game=former&width=-1")
            .unwrap_err()
            .message
            .contains("width"));
        assert_eq!(
            read_options("game=dust").unwrap(),
            ReadOptions::game(Game::Dust)
        );
        assert!(read_options("").is_ok());
        assert!(read_options("game=former&colors=4").is_ok());
        // a misspelt or unknown parameter is refused, not taken for an absent one
        for (query, words) in [
            (
                "game=former&sede=3",
                "unknown parameter \"sede\" in the query of /api/generate",
            ),
            ("game=former&seed=3&%", "unknown parameter \"%\""),
            // nor one of two values taken for the other
            (
                "game=former&seed=3&seed=4",
                "the query of /api/generate gives \"seed\" twice",
            ),
        ] {
            let e = GenerateRequest::parse(query).unwrap_err();
            assert!(e.message.contains(words), "{e}");
        }
        let e = read_options("game=dust&colour=3").unwrap_err();
        assert!(e.message.contains("unknown parameter \"colour\" in the query of /api/read (its parameters: game, width, height, colours, colors)"), "{e}");
    }

    #[test]
    fn former_dates_come_from_the_generator() {
        let (date, grid) = former_board("2024-12-07").unwrap();
        assert_eq!(date, "2024-12-07");
        assert_eq!((grid.width(), grid.height()), (7, 9));
        assert_eq!(former_board("2024-13-01").unwrap_err().status, 400);
        assert_eq!(former_board("1999-01-01").unwrap_err().status, 400);
    }
}
