//! A board's text set up for its game: the game named, from a `game|board` line or from
//! the board's size, the rules chosen, and Flood-It's start cell.

use super::argument::read_board_text;
use super::boards::dated_board;
use super::InputError;
use crate::answer_json::Answer;
use crate::grid::Grid;
use crate::rules::{Game, RuleChoices};
use crate::solve::Setup;

/// The game a board of this size most likely is.
pub fn game_from_size(w: usize, h: usize) -> Option<Game> {
    [Game::Former, Game::Figure, Game::Dust, Game::Samegame]
        .into_iter()
        .find(|g| {
            let (gw, gh, _) = g.default_size();
            (gw, gh) == (w, h)
        })
}

/// A board read and set up to solve.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub grid: Grid,
    pub setup: Setup,
    /// Set when the game was inferred from the board's size, or rules were taken from an
    /// answer (the front ends say so).
    pub note: Option<String>,
}

/// The game chosen (`--game`), else the one a board's line names; a line that names
/// another game than the one chosen is refused, since its optimum is that game's.
pub fn game_of(chosen: Option<Game>, named: Option<Game>) -> Result<Option<Game>, InputError> {
    match (chosen, named) {
        (Some(c), Some(n)) if c != n => Err(InputError::GameConflict {
            named: n,
            chosen: c,
        }),
        _ => Ok(chosen.or(named)),
    }
}

/// Parses the board text and works out the game and rules. The text may also be
/// `solve --json`'s answer: its board, under the game and rules it records wherever `rules`
/// leaves them open (the note names the rules so taken that are not the game's own).
pub fn setup_from(text: &str, rules: &RuleChoices) -> Result<Prepared, InputError> {
    if !text.trim_start().starts_with('{') {
        return setup_board(text, rules);
    }
    let bad = |why: String| InputError::BoardJson(why);
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
    let o = v.as_object().ok_or_else(|| bad("not an object".into()))?;
    let a = Answer::read(o).map_err(|e| bad(format!("the answer's {e}")))?;
    let board = a.board.ok_or_else(|| bad("it has no \"board\"".into()))?;
    let mut p = setup_board(&board, &rules.clone().or(&a.rules))?;
    note_rules_taken(&mut p, rules);
    Ok(p)
}

/// [`setup_from`] for a board written as text.
fn setup_board(text: &str, rules: &RuleChoices) -> Result<Prepared, InputError> {
    // a line copied from a set: `game|board|optimum` names its game, `name|board|record` not
    let (line_game, board_text) = match crate::boardset::single_line(text) {
        Some(entry) => (entry.game, entry.board),
        None => (None, text.to_string()),
    };
    let chosen = game_of(rules.game, line_game)?;
    let mut grid = Grid::parse(&board_text)?;
    if chosen == Some(Game::Floodit) {
        // Flood-It sets write an N×N board as one line of N² colours.
        grid = crate::floodit::square_up(grid);
    }
    let mut note = None;
    let game = match chosen {
        Some(g) => g,
        None => {
            let g = game_from_size(grid.width(), grid.height()).ok_or(InputError::UnknownSize {
                width: grid.width(),
                height: grid.height(),
            })?;
            note = Some(format!(
                "game: {g} (from the board's size; --game to choose)"
            ));
            g
        }
    };
    let mut setup = Setup::new(game);
    if game == Game::Floodit {
        grid.check_full("floodit")?;
        setup.floodit_start = parse_start(rules.start.as_deref(), &grid)?;
    } else {
        grid.check_gravity()?;
        if rules.start.is_some() {
            return Err(InputError::StartNotFloodit);
        }
    }
    if let Some(c) = rules.clickable {
        setup.rules.clickable = c;
    }
    if let Some(m) = rules.min_group {
        if m == 0 {
            return Err(InputError::MinGroupZero);
        }
        setup.rules.min_group = m;
    }
    if let Some(s) = rules.sideways {
        setup.rules.sideways = s;
    }
    if let Some(o) = rules.objective {
        setup.rules.objective = o;
    }
    Ok(Prepared { grid, setup, note })
}

/// Parses Flood-It's start cell (`topleft` when `None`): `(x, y)`, `y = 0` at the bottom.
pub fn parse_start(arg: Option<&str>, grid: &Grid) -> Result<(usize, usize), InputError> {
    let (w, h) = (grid.width(), grid.height());
    match arg.map(str::trim) {
        None | Some("topleft") => Ok((0, h - 1)),
        Some("centre") | Some("center") => Ok((w / 2, h - 1 - h / 2)),
        Some(xy) => {
            let (x, y) = xy
                .split_once(',')
                .ok_or_else(|| InputError::BadStart(xy.to_string()))?;
            let number = |axis, text: &str| {
                text.trim()
                    .parse::<usize>()
                    .map_err(|err| InputError::BadStartNumber {
                        axis,
                        text: text.to_string(),
                        err,
                    })
            };
            let (x, y) = (number('x', x)?, number('y', y)?);
            if x >= w || y >= h {
                return Err(InputError::StartOutside {
                    x,
                    y,
                    width: w,
                    height: h,
                });
            }
            Ok((x, y))
        }
    }
}

/// Where `tumble check` and `tumble render --moves` take the board they replay moves on.
#[derive(Clone, Copy, Debug)]
pub enum BoardFrom<'a> {
    /// A board argument: a file, `-` for standard input, or the board itself.
    Arg(&'a str),
    /// NRK Former's board of this day (`YYYY-MM-DD` or `today`).
    Date(&'a str),
    /// The moves' own: `solve --json`'s answer holds its board.
    Answer,
}

impl BoardFrom<'_> {
    /// The board's text, read from the argument or made for the date (which makes the game
    /// Former in `rules`, see [`dated_board`]); `None` for the moves' own board.
    pub fn text(self, rules: &mut RuleChoices) -> Result<Option<String>, InputError> {
        Ok(match self {
            BoardFrom::Arg(b) => Some(read_board_text(b)?),
            BoardFrom::Date(d) => Some(dated_board(d, rules)?),
            BoardFrom::Answer => None,
        })
    }
}

/// Adds to `p`'s note the rules an answer chose where `given` left them open
/// ([`rules_taken`]), unless it says so already (a board given as an answer, replaying an
/// answer that must agree with it).
pub(super) fn note_rules_taken(p: &mut Prepared, given: &RuleChoices) {
    let Some(taken) = rules_taken(given, p) else {
        return;
    };
    p.note = Some(match p.note.take() {
        Some(n) if n.lines().any(|l| l == taken) => n,
        Some(n) => format!("{n}\n{taken}"),
        None => taken,
    });
}

/// The rules of `p` that are not its game's own and that `given` left open (so an answer
/// chose them), as the options that choose them: `rules: --sideways left (the answer's)`.
fn rules_taken(given: &RuleChoices, p: &Prepared) -> Option<String> {
    let own = Setup::new(p.setup.game);
    let (ours, theirs) = (&p.setup.rules, &own.rules);
    let mut taken = Vec::new();
    if p.setup.game == Game::Floodit {
        let start = p.setup.floodit_start_on(&p.grid);
        if given.start.is_none() && start != own.floodit_start_on(&p.grid) {
            taken.push(format!("--start {},{}", start.0, start.1));
        }
    } else {
        if given.clickable.is_none() && ours.clickable != theirs.clickable {
            taken.push(format!("--clickable {}", ours.clickable.name()));
        }
        if given.min_group.is_none() && ours.min_group != theirs.min_group {
            taken.push(format!("--min-group {}", ours.min_group));
        }
        if given.sideways.is_none() && ours.sideways != theirs.sideways {
            taken.push(format!("--sideways {}", ours.sideways.name()));
        }
    }
    (!taken.is_empty()).then(|| format!("rules: {} (the answer's)", taken.join(" ")))
}
