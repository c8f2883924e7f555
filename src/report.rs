//! What a solver hands back, for every game: the answer ([`Report`]) with its moves
//! ([`Step`]), why its search ended early if it did ([`Stopped`]), and the progress
//! reported while it searches ([`Progress`]).
//!
//! Both the click-game solver ([`crate::solve`]) and Flood-It's ([`crate::floodit`]) fill
//! these, so they sit below both.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::grid::Grid;
use crate::rules::{Clickable, Objective, Sideways};

/// One move of a solution, as printed and in JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// Column of a cell of the clicked group (click games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<usize>,
    /// Row (0 = bottom) of a cell of the clicked group (click games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<usize>,
    /// The colour, as the input wrote it.
    pub colour: String,
    /// Tiles removed (click games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u32>,
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.x, self.y, self.size) {
            (Some(x), Some(y), Some(n)) => write!(f, "({x},{y}) {}×{n}", self.colour),
            _ => write!(f, "{}", self.colour),
        }
    }
}

/// One replayed move: the step, and the board after it.
pub type Replayed = (Step, Grid);

/// The answer for one board.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub game: String,
    pub width: usize,
    pub height: usize,
    /// The board as given, one line (rows top to bottom, commas between).
    pub board: String,
    pub objective: Objective,
    /// The rules the moves were found under, so that the answer replays on its own.
    #[serde(flatten)]
    pub played: Played,
    pub moves: Vec<Step>,
    /// Number of moves of the solution.
    pub length: usize,
    /// True only when the search proved that no better solution exists.
    pub optimal: bool,
    /// A proven lower bound on the number of moves (for the moves objective).
    pub lower_bound: u32,
    /// Tiles left after the solution (0 when cleared).
    pub tiles_left: usize,
    /// SameGame score of the solution ((n−2)² per group, +1000 for clearing).
    pub score: i64,
    pub nodes: u64,
    pub elapsed_ms: u64,
    /// Milliseconds from the start to the first solution the search reported (`None`
    /// when it reported none, as when the answer needs no search).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_ms: Option<u64>,
    /// The board after each move (not in JSON).
    #[serde(skip)]
    pub boards: Vec<Grid>,
    /// Set when the objective could not be met as asked (e.g. the board cannot be cleared).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// With `--certify`: was the proven lower bound (the optimum, when `optimal`) proven
    /// again by a search that keys every stored bound on its whole position? Absent
    /// without `--certify`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certified: Option<bool>,
    /// Why the search ended before it had finished (`None` when it finished): in JSON the
    /// fields `"stopped"` and, when interrupted, `"interrupted": true` (see [`Stopped`]).
    #[serde(flatten)]
    pub stopped: Option<Stopped>,
}

/// The rules of a [`Report`]'s game beside its objective, in JSON as the fields the
/// command line's options and the API's requests take: `"clickable"`, `"min_group"` and
/// `"sideways"` for a click game, `"start"` (`"X,Y"`, `y = 0` at the bottom) for Flood-It.
/// `tumble check` replays an answer under them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Played {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clickable: Option<Clickable>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_group: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sideways: Option<Sideways>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
}

/// Progress while solving.
#[derive(Clone, Debug, PartialEq)]
pub enum Progress {
    /// A better solution: its length (moves), tiles left and score.
    Solution {
        moves: usize,
        tiles_left: usize,
        score: i64,
        elapsed: Duration,
    },
    /// A higher proven lower bound on the moves.
    LowerBound { bound: u32, elapsed: Duration },
}

/// Why a search ended before it had finished (in a report, absent when it finished).
///
/// In JSON it is the field `"stopped": "time" | "memory" | "interrupted"`, and an
/// interrupted search also carries `"interrupted": true`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// The time limit ran out.
    Time,
    /// The search's tables reached the memory budget
    /// ([`SearchOptions::memory`](crate::search::SearchOptions::memory)) and it could not go
    /// on within it. No search here ends so: each goes on within its budget (IDA* by
    /// replacing entries, the anytime search with NRPA once its beams fill it, Flood-It's by
    /// deepening) and says so in its report's note where that changes how it searches.
    Memory,
    /// The user interrupted it (the stop flag,
    /// [`SearchOptions::stop`](crate::search::SearchOptions::stop)).
    Interrupted,
}

impl Stopped {
    /// Why a search with stop flag `stop` and `deadline` has to stop now: the flag first
    /// (only the user sets it), then the deadline.
    pub fn by(stop: &AtomicBool, deadline: Option<Instant>) -> Option<Stopped> {
        if stop.load(Ordering::Relaxed) {
            Some(Stopped::Interrupted)
        } else if deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Stopped::Time)
        } else {
            None
        }
    }

    /// Its name in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Stopped::Time => "time",
            Stopped::Memory => "memory",
            Stopped::Interrupted => "interrupted",
        }
    }
}

/// The fields a report carries for a search that stopped early: `"stopped"`, and
/// `"interrupted": true` when the user interrupted it. Serialised flattened into the
/// report, so that a search that finished adds no field at all.
impl serde::Serialize for Stopped {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let interrupted = *self == Stopped::Interrupted;
        let mut m = s.serialize_map(Some(1 + interrupted as usize))?;
        m.serialize_entry("stopped", self.name())?;
        if interrupted {
            m.serialize_entry("interrupted", &true)?;
        }
        m.end()
    }
}
