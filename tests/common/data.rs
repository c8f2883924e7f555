//! The few boards the tests know the optimum of without solving them: the boards printed in
//! the articles, and the proven optima of NRK Former boards of days the generator of
//! `tumble::daily` makes (the board itself comes from the generator; the shared-data tests
//! check that each one equals the board the optimum was proven on).

use tumble::daily::{former_board, Date};

/// A board with its proven optimum (fewest moves to clear it).
#[derive(Clone, Debug)]
pub struct Known {
    /// The game, as `--game` names it.
    pub game: &'static str,
    /// The board in one line, rows top to bottom.
    pub board: String,
    /// The fewest moves that clear it.
    pub optimum: usize,
    /// Where it comes from.
    pub source: String,
}

/// The dust board of the Nodiatis article (the `tumble solve` default board).
pub const DUST: &str = "GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG";

/// The boards printed in the articles, with their proven optima: `(game, board, optimum,
/// source)`.
pub const ARTICLE_BOARDS: [(&str, &str, usize, &str); 3] = [
    ("dust", DUST, 11, "the Nodiatis dust article"),
    (
        "figure",
        "YPTTT,PWPWW,PYPTW,TTWPP,PWYWW",
        8,
        "figure.game, 2022-11-16/17",
    ),
    (
        "figure",
        "TPYWY,WYWPP,YTPWY,TPYYT,PWWPT",
        13,
        "figure.game's third article",
    ),
];

/// Proven optima of NRK Former boards by date, for days the generator makes.
pub const FORMER_OPTIMA: [(&str, usize); 8] = [
    ("2024-11-23", 13),
    ("2024-11-24", 13),
    ("2024-11-25", 13),
    ("2024-11-26", 12),
    ("2024-11-27", 13),
    ("2024-11-28", 13),
    ("2024-11-30", 13),
    ("2024-12-07", 15),
];

/// The article boards as [`Known`] boards.
pub fn article_boards() -> Vec<Known> {
    ARTICLE_BOARDS
        .iter()
        .map(|&(game, board, optimum, source)| Known {
            game,
            board: board.to_string(),
            optimum,
            source: source.to_string(),
        })
        .collect()
}

/// The Former board of `date` (from the generator) with its proven optimum. Panics when the
/// date is not in [`FORMER_OPTIMA`].
pub fn former(date: &str) -> Known {
    let optimum = FORMER_OPTIMA
        .iter()
        .find(|(d, _)| *d == date)
        .unwrap_or_else(|| panic!("no proven optimum for the Former board of {date}"))
        .1;
    former_with(date, optimum)
}

/// The daily Former board whose proof takes longest (2025-06-29: about 20 s on two cores,
/// where most boards take a fraction of a second) with its optimum, proven by this
/// project's search: for tests that must interrupt a search still running.
pub const HARD_FORMER: (&str, usize) = ("2025-06-29", 17);

/// [`HARD_FORMER`] as a [`Known`] board.
pub fn hard_former() -> Known {
    former_with(HARD_FORMER.0, HARD_FORMER.1)
}

/// The Former board of `date` (from the generator) with `optimum`.
fn former_with(date: &str, optimum: usize) -> Known {
    let day: Date = date.parse().expect("a date");
    Known {
        game: "former",
        board: former_board(day).expect("a generated day").to_inline(),
        optimum,
        source: format!("NRK Former {date}"),
    }
}
