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

impl Clickable {
    /// Each choice by the name the command line and the API give it.
    pub const NAMES: [(&'static str, Clickable); 2] =
        [("any", Clickable::Any), ("bottom", Clickable::Bottom)];

    /// The choice's name, as the options take it and JSON writes it.
    pub fn name(self) -> &'static str {
        match self {
            Clickable::Any => "any",
            Clickable::Bottom => "bottom",
        }
    }
}

impl Sideways {
    /// Each choice by the name the command line and the API give it (and `center`).
    pub const NAMES: [(&'static str, Sideways); 4] = [
        ("none", Sideways::None),
        ("left", Sideways::Left),
        ("centre", Sideways::Centre),
        ("center", Sideways::Centre),
    ];

    /// The choice's name, as the options take it and JSON writes it.
    pub fn name(self) -> &'static str {
        match self {
            Sideways::None => "none",
            Sideways::Left => "left",
            Sideways::Centre => "centre",
        }
    }
}

impl Objective {
    /// Each choice by the name the command line and the API give it.
    pub const NAMES: [(&'static str, Objective); 3] = [
        ("moves", Objective::Moves),
        ("tiles", Objective::Tiles),
        ("score", Objective::Score),
    ];
}

/// `value` as one of `names` (any case), or clap's words for a bad value of `field`
/// (one line: the value is escaped, as it may hold a line break).
pub fn named<T: Copy>(field: &str, value: &str, names: &[(&str, T)]) -> Result<T, String> {
    names
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(value.trim()))
        .map(|&(_, v)| v)
        .ok_or_else(|| {
            let possible: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
            format!(
                "invalid value '{}' for {field} [possible values: {}]",
                value.escape_debug(),
                possible.join(", ")
            )
        })
}

/// The game and the rule knobs a user chose (each `None` keeps the game's own).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleChoices {
    /// Without it: from a `game|board` line, or from the board's size.
    pub game: Option<Game>,
    pub clickable: Option<Clickable>,
    pub min_group: Option<u32>,
    pub sideways: Option<Sideways>,
    pub objective: Option<Objective>,
    /// Flood-It's start cell: `topleft`, `centre` or `X,Y`.
    pub start: Option<String>,
}

impl RuleChoices {
    /// These choices, with those they leave open taken from `theirs`.
    pub fn or(self, theirs: &RuleChoices) -> RuleChoices {
        RuleChoices {
            game: self.game.or(theirs.game),
            clickable: self.clickable.or(theirs.clickable),
            min_group: self.min_group.or(theirs.min_group),
            sideways: self.sideways.or(theirs.sideways),
            objective: self.objective.or(theirs.objective),
            start: self.start.or_else(|| theirs.start.clone()),
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every choice of each rule by clap's list of them (all the variants): the name it
    /// is written by (`name`, or serde's for the objective), read back by `named` from
    /// `NAMES`, is clap's name for it and the one JSON writes.
    #[cfg(feature = "cli")]
    #[test]
    fn each_choice_has_one_name_everywhere() {
        use clap::ValueEnum;
        fn same<T>(name: &str, v: T, names: &[(&str, T)]) -> usize
        where
            T: ValueEnum + Serialize + Copy + PartialEq + std::fmt::Debug,
        {
            assert_eq!(named("rule", name, names), Ok(v), "{name}");
            let clap = v.to_possible_value().expect("every choice is listed");
            assert_eq!(clap.get_name(), name, "{v:?}");
            assert_eq!(serde_json::to_value(v).unwrap(), name, "{v:?}");
            1
        }
        let mut checked = 0;
        for &c in Clickable::value_variants() {
            checked += same(c.name(), c, &Clickable::NAMES);
        }
        for &s in Sideways::value_variants() {
            checked += same(s.name(), s, &Sideways::NAMES);
        }
        for &o in Objective::value_variants() {
            let name = serde_json::to_value(o).unwrap();
            checked += same(name.as_str().unwrap(), o, &Objective::NAMES);
        }
        assert_eq!(checked, 2 + 3 + 3);
    }
}
