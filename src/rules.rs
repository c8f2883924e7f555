//! Rule sets: the few orthogonal knobs in which the click games differ, and the named games.
//!
//! A click game is fully described by [`Rules`]: which groups may be clicked
//! ([`Clickable`]), the smallest clickable group, what happens sideways after gravity
//! ([`Sideways`]) and what is optimised ([`Objective`]). [`Game`] names the published games
//! of `RULES.md` and gives their rules and usual board sizes; custom variants start from a
//! game and change knobs. Flood-It is a [`Game`] too but has no click rules.
//!
//! ```
//! use tumble::rules::{Game, Sideways};
//! let r = Game::Dust.rules().unwrap();
//! assert_eq!(r.sideways, Sideways::Centre);
//! assert_eq!(r.min_group, 1);
//! ```

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

/// Which groups may be clicked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Clickable {
    /// Any group.
    Any,
    /// Only groups with a cell in the bottom row (Figure).
    Bottom,
}

/// What happens sideways after gravity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Sideways {
    /// Columns stay where they are (Former, Figure).
    None,
    /// Empty columns close up to the left (SameGame, Clickomania).
    Left,
    /// Each row squeezes toward the centre (the dust game).
    Centre,
}

/// What a solution optimises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Objective {
    /// Clear the board in the fewest clicks.
    Moves,
    /// Leave the fewest tiles, then use the fewest clicks (Clickomania).
    Tiles,
    /// The highest SameGame score: (n−2)² per group, +1000 for a cleared board.
    Score,
}

/// SameGame's points for removing a group of `n` tiles: `(n − 2)²`, none for `n ≤ 2`.
#[inline]
pub fn points(n: u32) -> i64 {
    let k = n as i64 - 2;
    if k > 0 {
        k * k
    } else {
        0
    }
}

/// SameGame's bonus for clearing the board.
pub const CLEARED: i64 = 1000;
/// The value of ending uncleared under [`Objective::Moves`], before the tiles left: below
/// any line that clears (no line has a billion moves).
pub const UNCLEARED: i64 = -1_000_000_000;
/// What a tile left costs under [`Objective::Moves`] and [`Objective::Tiles`]: more than
/// every click of a line, so fewer tiles always come first.
pub const TILE: i64 = 1000;

/// The SameGame score of removing groups of these sizes, with the clearing bonus if
/// `cleared`.
pub fn score(sizes: impl IntoIterator<Item = u32>, cleared: bool) -> i64 {
    sizes.into_iter().map(points).sum::<i64>() + if cleared { CLEARED } else { 0 }
}

/// An objective as a value to maximise: a line's value is the sum of its moves'
/// [`Objective::reward`]s plus the [`Objective::terminal`] value of the position it ends in
/// (no move left):
///
/// | objective | value of a line |
/// |---|---|
/// | `moves` | `−moves` if it clears the board, else `UNCLEARED − TILE·tiles left − moves` |
/// | `tiles` | `−TILE·tiles left − moves` (fewest tiles, then fewest clicks) |
/// | `score` | `Σ (n − 2)²` over the groups removed, `+CLEARED` if it clears the board |
impl Objective {
    /// What a move removing `size` tiles adds.
    #[inline]
    pub fn reward(self, size: u32) -> i64 {
        match self {
            Objective::Score => points(size),
            Objective::Moves | Objective::Tiles => -1,
        }
    }

    /// What ending with `tiles` tiles left (no move left) adds.
    #[inline]
    pub fn terminal(self, tiles: u32) -> i64 {
        let tiles = tiles as i64;
        match self {
            Objective::Score if tiles == 0 => CLEARED,
            Objective::Score => 0,
            Objective::Moves if tiles == 0 => 0,
            Objective::Moves => UNCLEARED - TILE * tiles,
            Objective::Tiles => -TILE * tiles,
        }
    }
}

/// The knobs of a click game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Rules {
    pub clickable: Clickable,
    /// The smallest group that may be clicked (1 or 2 in the published games).
    pub min_group: u32,
    pub sideways: Sideways,
    pub objective: Objective,
}

impl Rules {
    /// Columns never move and never exchange tiles: true when nothing happens sideways.
    /// Several bounds and prunings rely on it.
    pub fn columns_fixed(&self) -> bool {
        self.sideways == Sideways::None
    }
}

/// The named games of `RULES.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Game {
    /// NRK *Former*: 7×9, 4 colours, any group, no sideways step.
    Former,
    /// *Figure*: 5×5, 4 colours, only groups touching the bottom row.
    Figure,
    /// The Nodiatis dust game: 8×6, 5 colours, rows squeeze toward the centre.
    Dust,
    /// SameGame: 15×15, 5 colours, groups of 2+, columns close left, highest score.
    Samegame,
    /// Clickomania: groups of 2+, columns close left, fewest tiles left.
    Clickomania,
    /// Flood-It: colour moves from a start cell.
    Floodit,
}

impl Game {
    /// Every game, in the order of `RULES.md`.
    pub const ALL: [Game; 6] = [
        Game::Former,
        Game::Figure,
        Game::Dust,
        Game::Samegame,
        Game::Clickomania,
        Game::Floodit,
    ];

    /// The game's name as on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Game::Former => "former",
            Game::Figure => "figure",
            Game::Dust => "dust",
            Game::Samegame => "samegame",
            Game::Clickomania => "clickomania",
            Game::Floodit => "floodit",
        }
    }

    /// The click rules of the game; `None` for Flood-It, which has no clicks.
    pub fn rules(self) -> Option<Rules> {
        use Clickable::*;
        use Sideways::*;
        let r = |clickable, min_group, sideways, objective| Rules {
            clickable,
            min_group,
            sideways,
            objective,
        };
        Some(match self {
            Game::Former => r(Any, 1, None, Objective::Moves),
            Game::Figure => r(Bottom, 1, None, Objective::Moves),
            Game::Dust => r(Any, 1, Centre, Objective::Moves),
            Game::Samegame => r(Any, 2, Left, Objective::Score),
            Game::Clickomania => r(Any, 2, Left, Objective::Tiles),
            Game::Floodit => return Option::None,
        })
    }

    /// The usual board: (width, height, colours).
    pub fn default_size(self) -> (usize, usize, usize) {
        match self {
            Game::Former => (7, 9, 4),
            Game::Figure => (5, 5, 4),
            Game::Dust => (8, 6, 5),
            Game::Samegame => (15, 15, 5),
            Game::Clickomania => (10, 10, 4),
            Game::Floodit => (14, 14, 6),
        }
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Game {
    type Err = String;
    fn from_str(s: &str) -> Result<Game, String> {
        Game::ALL
            .into_iter()
            .find(|g| g.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                let names: Vec<_> = Game::ALL.iter().map(|g| g.name()).collect();
                format!("unknown game {s:?}: expected one of {}", names.join(", "))
            })
    }
}
