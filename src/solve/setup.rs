//! What to solve and how: [`Setup`].

use crate::grid::Grid;
use crate::rules::{Clickable, Game, Objective, Rules, Sideways};
use crate::search::anytime::Method;
use crate::search::SearchOptions;

/// What to solve and how.
#[derive(Clone, Debug)]
pub struct Setup {
    pub game: Game,
    pub rules: Rules,
    pub search: SearchOptions,
    /// Skip the proof: anytime search only.
    pub no_proof: bool,
    /// The anytime algorithm.
    pub anytime: Method,
    /// Prove the final lower bound again with every bound keyed on its whole position
    /// ([`crate::search::certify`]), and say so in the report.
    pub certify: bool,
    /// Flood-It: the start cell `(x, y)`, `y = 0` at the bottom; `y = usize::MAX` stands
    /// for the top row ([`Setup::floodit_start_on`]).
    pub floodit_start: (usize, usize),
}

impl Setup {
    /// The game's own rules and default search options.
    pub fn new(game: Game) -> Setup {
        Setup {
            game,
            rules: game.rules().unwrap_or(Rules {
                clickable: Clickable::Any,
                min_group: 1,
                sideways: Sideways::None,
                objective: Objective::Moves,
            }),
            search: SearchOptions::default(),
            no_proof: false,
            anytime: Method::default(),
            certify: false,
            floodit_start: (0, usize::MAX),
        }
    }

    /// The Flood-It start cell on `grid`, resolving the "top row" default.
    pub fn floodit_start_on(&self, grid: &Grid) -> (usize, usize) {
        let (x, y) = self.floodit_start;
        (
            x,
            if y == usize::MAX {
                grid.height() - 1
            } else {
                y
            },
        )
    }

    /// The Flood-It start cell on `grid` for a Flood-It setup, `None` for a click game.
    pub fn floodit_start(&self, grid: &Grid) -> Option<(usize, usize)> {
        (self.game == Game::Floodit).then(|| self.floodit_start_on(grid))
    }
}
