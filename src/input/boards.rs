//! The boards tumble makes: `tumble gen`'s (one, or a set of seeds) and NRK Former's of a
//! date or a range of dates.

use super::InputError;
use crate::boardset::Entry;
use crate::daily::{former_board, Date, DateRange};
use crate::grid::{Grid, MAX_COLOURS};
use crate::rules::{Game, RuleChoices};

/// The board `tumble gen` prints: `game`'s usual size and colours unless given, from
/// `seed` ([`crate::generate::generate`]). A size no engine of the game takes is refused
/// with the words a solve of it would get.
pub fn gen_board(
    game: Game,
    width: Option<usize>,
    height: Option<usize>,
    colours: Option<usize>,
    seed: u64,
) -> Result<Grid, InputError> {
    let (dw, dh, dk) = game.default_size();
    let (w, h, k) = (
        width.unwrap_or(dw),
        height.unwrap_or(dh),
        colours.unwrap_or(dk),
    );
    if w == 0 || h == 0 {
        return Err(InputError::GenEmpty);
    }
    if !(1..=MAX_COLOURS).contains(&k) {
        return Err(InputError::GenColours(k));
    }
    // (a board no engine of the game takes is refused here, not by the solve it is for)
    crate::solve::check_size(game, w, h)?;
    Ok(crate::generate::generate(w, h, k, seed))
}

/// The most boards one `tumble gen --seeds` makes.
pub const MAX_GEN_BOARDS: u64 = 1_000_000;

/// The seeds of `--seeds`: `A..B` (B left out, as Rust's `..`), `A..=B` (both included) or
/// one seed `A`; empty ranges and more than [`MAX_GEN_BOARDS`] seeds are refused.
pub fn seed_range(text: &str) -> Result<std::ops::RangeInclusive<u64>, InputError> {
    let bad = || InputError::BadSeeds(text.to_string());
    let num = |s: &str| s.trim().parse::<u64>().map_err(|_| bad());
    let (first, last) = match text.split_once("..") {
        None => (num(text)?, Some(num(text)?)),
        Some((a, b)) => match b.strip_prefix('=') {
            Some(b) => (num(a)?, Some(num(b)?)),
            None => (num(a)?, num(b)?.checked_sub(1)),
        },
    };
    let last = last
        .filter(|&l| l >= first)
        .ok_or_else(|| InputError::NoSeeds(text.to_string()))?;
    let count = u128::from(last - first) + 1;
    if count > u128::from(MAX_GEN_BOARDS) {
        return Err(InputError::TooManySeeds {
            text: text.to_string(),
            count,
        });
    }
    Ok(first..=last)
}

/// The boards `tumble gen --seeds` prints: [`gen_board`]'s board of each seed, named
/// `game-seed`.
pub fn gen_entries(
    game: Game,
    width: Option<usize>,
    height: Option<usize>,
    colours: Option<usize>,
    seeds: std::ops::RangeInclusive<u64>,
) -> Result<Vec<Entry>, InputError> {
    seeds
        .map(|seed| {
            Ok(Entry {
                name: format!("{game}-{seed}"),
                game: Some(game),
                board: gen_board(game, width, height, colours, seed)?.to_text(),
                expected: None,
                exact: false,
            })
        })
        .collect()
}

/// The board text of NRK Former's board of `date` (`YYYY-MM-DD` or `today`), and the game
/// made Former in `rules` (an explicit other game is refused).
pub fn dated_board(date: &str, rules: &mut RuleChoices) -> Result<String, InputError> {
    match rules.game {
        None | Some(Game::Former) => rules.game = Some(Game::Former),
        Some(other) => return Err(InputError::DateNotFormer(other)),
    }
    let date: Date = date.parse()?;
    Ok(former_board(date)?.to_text())
}

/// The Former boards of a range of days (`2024-11-23..2026-11-24`, `..today`; see
/// [`DateRange::parse`]) as a board set, each named by its date.
pub fn dated_entries(range: &str, rules: &mut RuleChoices) -> Result<Vec<Entry>, InputError> {
    match rules.game {
        None | Some(Game::Former) => rules.game = Some(Game::Former),
        Some(other) => return Err(InputError::DateNotFormer(other)),
    }
    let days = DateRange::parse(range)?;
    if days.is_empty() {
        return Err(InputError::NoDays(range.to_string()));
    }
    days.into_iter()
        .map(|date| {
            Ok(Entry {
                name: date.to_string(),
                game: Some(Game::Former),
                board: former_board(date)?.to_text(),
                expected: None,
                exact: false,
            })
        })
        .collect()
}
