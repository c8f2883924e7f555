//! From what a user typed to a [`Setup`]: reading a board argument (a file, `-` for stdin,
//! or the board itself), working out the game (named, from a `game|board` line, or from
//! the board's size), the rule and search choices, Flood-It's start cell, click lists, and
//! the sizes `tumble gen` accepts. Every mistake is an [`InputError`] of one line.

use std::io::Read;
use std::num::ParseIntError;
use std::path::Path;

use thiserror::Error;

use crate::answer_json::Answer;
use crate::boardset::Entry;
use crate::daily::{former_board, DailyError, Date, DateRange};
use crate::grid::{BoardError, Grid, MAX_COLOURS};
use crate::rules::{Game, RuleChoices};
use crate::search::anytime::Method;
use crate::solve::Setup;

/// Why an input was rejected (one line, naming the argument at fault).
#[derive(Debug, Error)]
pub enum InputError {
    #[error(transparent)]
    Board(#[from] BoardError),
    #[error("cannot read the {what} from stdin: {err}")]
    Stdin {
        what: &'static str,
        err: std::io::Error,
    },
    #[error("cannot read {what} file {path}: {err}")]
    File {
        what: &'static str,
        path: String,
        err: std::io::Error,
    },
    #[error("cannot read {what} file {path}: no such file")]
    NoSuchFile { what: &'static str, path: String },
    #[error("cannot read {what} file {path}: it is a directory")]
    Directory { what: &'static str, path: String },
    #[error("cannot read board file {0}: it is a picture (`tumble solve --image` reads one)")]
    PictureAsBoard(String),
    #[error(
        "cannot read the board from stdin: it is a picture (`tumble solve --image -` reads one)"
    )]
    PictureOnStdin,
    #[error("a {width}×{height} board is not the usual size of any game: say which with --game")]
    UnknownSize { width: usize, height: usize },
    #[error("--start is for Flood-It only")]
    StartNotFloodit,
    #[error("--start must be topleft, centre or X,Y, not {0:?}")]
    BadStart(String),
    #[error("bad --start {axis} {text:?}: {err}")]
    BadStartNumber {
        axis: char,
        text: String,
        err: ParseIntError,
    },
    #[error("--start {x},{y} is outside the {width}×{height} board")]
    StartOutside {
        x: usize,
        y: usize,
        width: usize,
        height: usize,
    },
    #[error("--min-group must be at least 1")]
    MinGroupZero,
    #[error("--time-limit must be a number of seconds ≥ 0, not {0}")]
    BadTimeLimit(f64),
    #[error("--memory must be at least 1 MiB")]
    NoMemory,
    #[error(
        "--memory {asked} MiB is more than this machine has ({machine} MiB of memory and swap)"
    )]
    TooMuchMemory { asked: usize, machine: usize },
    #[error("--threads must be at least 1")]
    NoThreads,
    #[error(
        "--threads {asked} is more than this machine can use: it has {cores} cores, and a \
         search runs at most {THREADS_PER_CORE} threads per core ({most} in all)",
        most = THREADS_PER_CORE * cores
    )]
    TooManyThreads { asked: usize, cores: usize },
    #[error("--jobs must be at least 1")]
    NoJobs,
    #[error(
        "--jobs {asked} is more than this machine can use: it has {cores} cores, and at most \
         {THREADS_PER_CORE} solves per core run at once ({most} in all)",
        most = THREADS_PER_CORE * cores
    )]
    TooManyJobs { asked: usize, cores: usize },
    #[error("move {n} {text:?} is not (x,y)")]
    NotAClick { n: usize, text: String },
    #[error("move {n}: bad {axis} {text:?}")]
    BadClick { n: usize, axis: char, text: String },
    #[error("--width and --height must be at least 1")]
    GenEmpty,
    #[error("--colours must be from 1 to 16, not {0}")]
    GenColours(usize),
    #[error("--seeds must be A..B, A..=B or one seed A (whole numbers), not {0:?}")]
    BadSeeds(String),
    #[error("--seeds {0} holds no seed")]
    NoSeeds(String),
    #[error("--seeds {text} holds {count} seeds; at most {max} boards at once", max = MAX_GEN_BOARDS)]
    TooManySeeds { text: String, count: u128 },
    #[error("bad JSON moves: {0}")]
    MovesJson(String),
    #[error(
        "the moves are solve --json's answer for {0}: give that board, or this board's answer"
    )]
    AnswerElsewhere(String),
    #[error(
        "the moves are solve --json's answer under {option} {theirs}, not {ours}: leave \
         {option} out to replay them under the answer's"
    )]
    AnswerRules {
        option: &'static str,
        theirs: String,
        ours: String,
    },
    #[error(
        "the moves do not hold their board: give the board (or --date) too; only solve \
         --json's answer holds its own"
    )]
    MovesWithoutBoard,
    #[error("the board is JSON but not solve --json's answer: {0}")]
    BoardJson(String),
    #[error("give the board and the moves from stdin one at a time: both are -")]
    BothStdin,
    #[error("the board's line names {named}, but --game says {chosen}: leave out one of them")]
    GameConflict { named: Game, chosen: Game },
    #[error("{0}: no boards found")]
    NoBoards(String),
    #[error("--dates {0} holds no day: A..B ends the day before B, so B must come after A (A..=B ends on B)")]
    NoDays(String),
    #[error("board {name}: {err}")]
    InBoard { name: String, err: Box<InputError> },
    #[error("{0}")]
    Threads(rayon::ThreadPoolBuildError),
    #[error(transparent)]
    Daily(#[from] DailyError),
    #[error(
        "--date gives NRK Former boards, not {0} boards: leave out --game or say --game former"
    )]
    DateNotFormer(Game),
    #[error("give a board or --date, not both")]
    BoardAndDate,
    #[error("cannot read image {path}: {err}")]
    Image { path: String, err: std::io::Error },
    #[error("{path}: {err}")]
    Picture {
        path: String,
        err: crate::picture::PictureError,
    },
}

/// The most search threads a user may ask for per core of the machine, and the most solves
/// at once (`--jobs`, each one thread at least). Threads beyond the cores only take turns
/// on them, and past a few per core the turns cost more than they give: the anytime
/// search's thread pool spends its time handing work between idle threads, and a board
/// solved in a tenth of a second with a thread per core takes seconds with hundreds per
/// core.
pub const THREADS_PER_CORE: usize = 8;

/// The machine's cores where `n` threads, or solves at once, would be more than
/// [`THREADS_PER_CORE`] per core; `None` where they are not.
fn too_many_for_the_cores(n: usize) -> Option<usize> {
    let cores = crate::machine::cores();
    (n > THREADS_PER_CORE * cores).then_some(cores)
}

/// Checks a number of solves to run at once (`bench --jobs`, `serve --jobs`, each solve
/// at least one thread): at least one, and at most [`THREADS_PER_CORE`] per core.
pub fn check_jobs(jobs: usize) -> Result<(), InputError> {
    if jobs == 0 {
        return Err(InputError::NoJobs);
    }
    match too_many_for_the_cores(jobs) {
        Some(cores) => Err(InputError::TooManyJobs { asked: jobs, cores }),
        None => Ok(()),
    }
}

/// The search limits a user chose.
#[derive(Clone, Debug)]
pub struct SearchChoices {
    /// Seconds.
    pub time_limit: Option<f64>,
    /// The transposition table's memory, in MiB.
    pub memory_mib: usize,
    /// Threads (`None`: all cores).
    pub threads: Option<usize>,
    pub no_proof: bool,
    pub anytime: Method,
    /// Prove the final bound again with the exact memo.
    pub certify: bool,
}

impl SearchChoices {
    /// Writes the choices into `setup`.
    pub fn apply(&self, setup: &mut Setup) -> Result<(), InputError> {
        if let Some(t) = self.time_limit {
            if !(t.is_finite() && t >= 0.0) {
                return Err(InputError::BadTimeLimit(t));
            }
            setup.search.time_limit = Some(crate::search::time_limit(t));
        }
        if self.memory_mib == 0 {
            return Err(InputError::NoMemory);
        }
        let machine = crate::machine::machine_mib().unwrap_or(usize::MAX >> 20);
        if self.memory_mib > machine {
            return Err(InputError::TooMuchMemory {
                asked: self.memory_mib,
                machine,
            });
        }
        setup.search.memory = self.memory_mib << 20;
        if let Some(n) = self.threads {
            if n == 0 {
                return Err(InputError::NoThreads);
            }
            if let Some(cores) = too_many_for_the_cores(n) {
                return Err(InputError::TooManyThreads { asked: n, cores });
            }
            setup.search.threads = n;
        }
        setup.no_proof = self.no_proof;
        setup.anytime = self.anytime;
        setup.certify = self.certify;
        Ok(())
    }
}

/// The most bytes a board, a board set or a picture read from a file or stdin may take:
/// far past any real one, so that an endless source (`/dev/zero`, a stream that never
/// ends) is an error rather than a machine out of memory.
pub const MAX_INPUT_BYTES: u64 = 256 << 20;

/// All of `source`, or an error once it is over [`MAX_INPUT_BYTES`].
pub fn read_capped(source: impl Read) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    source.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        let over = format!("it is over {} MiB", MAX_INPUT_BYTES >> 20);
        return Err(std::io::Error::other(over));
    }
    Ok(bytes)
}

/// Bytes that are not UTF-8 text, as the read error they are.
fn not_utf8(e: std::string::FromUtf8Error) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error())
}

/// The text of an argument that may name where to read it (a board, moves), `what` it is
/// in the errors: `-` for stdin, a file, or else the argument itself. Whatever is there and
/// is not a directory is read: a file, and also a pipe or a device (`tumble solve <(tumble
/// gen …)` names `/dev/fd/63`). An argument that looks like a path or a file name and
/// names nothing is an error, not text. `not_text` says what bytes that are not UTF-8 are.
fn argument_text(
    arg: &str,
    what: &'static str,
    not_text: impl FnOnce(std::string::FromUtf8Error) -> InputError,
) -> Result<String, InputError> {
    let path = Path::new(arg);
    let found = std::fs::metadata(path);
    let bytes = if arg == "-" {
        read_capped(std::io::stdin().lock())
    } else if found.as_ref().is_ok_and(|m| m.is_dir()) {
        let path = arg.to_string();
        return Err(InputError::Directory { what, path });
    } else if found.is_ok() {
        std::fs::File::open(path).and_then(read_capped)
    } else if arg.contains('/') || arg.contains('\\') || names_a_file(arg) {
        let path = arg.to_string();
        return Err(InputError::NoSuchFile { what, path });
    } else {
        return Ok(arg.to_string());
    };
    let bytes = bytes.map_err(|err| read_error(arg, what, err))?;
    String::from_utf8(bytes).map_err(not_text)
}

/// Reads a board argument: a file, `-` for stdin, or the board itself.
pub fn read_board_text(arg: &str) -> Result<String, InputError> {
    const WHAT: &str = "board";
    argument_text(arg, WHAT, |e| {
        // (only a file that is not text is looked at as a picture: a board whose first
        // letters happen to be some format's signature stays a board)
        if crate::picture::is_picture(e.as_bytes()) {
            return match arg {
                "-" => InputError::PictureOnStdin,
                _ => InputError::PictureAsBoard(arg.to_string()),
            };
        }
        read_error(arg, WHAT, not_utf8(e))
    })
}

/// The error of reading `what` from `arg` (`-`: stdin).
fn read_error(arg: &str, what: &'static str, err: std::io::Error) -> InputError {
    match arg {
        "-" => InputError::Stdin { what, err },
        _ => InputError::File {
            what,
            path: arg.to_string(),
            err,
        },
    }
}

/// Does an argument of one line read as a file name rather than a board or moves: a name, a
/// dot and an extension of one to five lower-case letters and digits, at least one a letter
/// (`set.txt`, `day.png`, `answer.json`)? A board of one row could look like that, but no
/// game has boards one row high, and a mistyped file name is far likelier; moves have no
/// dots (`.` is an empty cell, no colour).
fn names_a_file(arg: &str) -> bool {
    let Some((stem, ext)) = arg.rsplit_once('.') else {
        return false;
    };
    !stem.is_empty()
        && !arg.contains([',', '\n'])
        && (1..=5).contains(&ext.len())
        && ext
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && ext.bytes().any(|b| b.is_ascii_lowercase())
}

/// Reads the board in a screenshot (a file, or `-` for stdin) as [`crate::picture::read`]
/// does; also gives the decoded picture (for an overlay).
pub fn read_image_board(
    path: &str,
    options: &crate::picture::ReadOptions,
) -> Result<(image::RgbImage, crate::picture::Reading), InputError> {
    let bytes = if path == "-" {
        let err = |err| InputError::Stdin {
            what: "picture",
            err,
        };
        read_capped(std::io::stdin().lock()).map_err(err)?
    } else {
        std::fs::File::open(path)
            .and_then(read_capped)
            .map_err(|err| InputError::Image {
                path: path.to_string(),
                err,
            })?
    };
    let picture_error = |err| InputError::Picture {
        path: path.to_string(),
        err,
    };
    let img = crate::picture::decode(&bytes).map_err(picture_error)?;
    let reading = crate::picture::read_image(&img, options).map_err(picture_error)?;
    Ok((img, reading))
}

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

/// The board and the moves `tumble check` and `tumble render --moves` replay: the board
/// set up under `rules`, and the moves argument (the moves themselves, `-` for standard
/// input, or a file that holds them) as move text for its game.
///
/// The moves are either written out (`(7,0) (3,1)`, or Flood-It's colours `BGRY`) or JSON:
/// a list of moves, each as [`move_json`](crate::move_json) reads it for the game
/// (`{"x":7,"y":0}` or `[7,0]`; `"B"` or `{"colour":"B"}`), or `solve --json`'s answer.
/// An answer is replayed under the rules it records ([`Answer`]) wherever `rules` leaves
/// them open, for its game where neither `rules` nor the board's line names one, and
/// (with [`BoardFrom::Answer`]) on its own board; an answer for another board, game or
/// rules is refused, naming the difference.
pub fn replay_input(
    board: BoardFrom,
    moves: &str,
    mut rules: RuleChoices,
) -> Result<(Prepared, String), InputError> {
    const WHAT: &str = "moves";
    let text = argument_text(moves, WHAT, |e| read_error(moves, WHAT, not_utf8(e)))?;
    let json = json_moves(&text)?;
    let answer = match &json {
        Some(serde_json::Value::Object(o)) => Some(answer_of(o)?),
        _ => None,
    };
    let board_text = match board.text(&mut rules)? {
        Some(text) => text,
        None => answer
            .as_ref()
            .and_then(|a| a.board.clone())
            .ok_or(InputError::MovesWithoutBoard)?,
    };
    let given = rules.clone();
    if let Some(a) = &answer {
        // (a game the board's line names is left to refuse an answer for another game in
        // `answer_is_for`'s words, not as a clash with a --game never given)
        let line_names_game = crate::boardset::single_line(&board_text).and_then(|e| e.game);
        let theirs = RuleChoices {
            game: a.rules.game.filter(|_| line_names_game.is_none()),
            ..a.rules.clone()
        };
        rules = rules.or(&theirs);
    }
    // a start cell the answer gave, and the board refuses, is the answer's to name
    let answers_start = given.start.is_none() && rules.start.is_some();
    let mut p = setup_from(&board_text, &rules).map_err(|e| match e {
        InputError::StartNotFloodit
        | InputError::BadStart(_)
        | InputError::BadStartNumber { .. }
        | InputError::StartOutside { .. }
            if answers_start =>
        {
            InputError::MovesJson(format!("the answer's \"start\": {e}"))
        }
        e => e,
    })?;
    let moves = match &json {
        Some(v) => json_move_text(v, &p.grid, &p.setup)?,
        None => text,
    };
    note_rules_taken(&mut p, &given);
    Ok((p, moves))
}

/// Adds to `p`'s note the rules an answer chose where `given` left them open
/// ([`rules_taken`]), unless it says so already (a board given as an answer, replaying an
/// answer that must agree with it).
fn note_rules_taken(p: &mut Prepared, given: &RuleChoices) {
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

/// Moves as written, or as JSON (see [`replay_input`]), as move text for the game of
/// `setup` on `board`.
pub fn moves_text(text: String, board: &Grid, setup: &Setup) -> Result<String, InputError> {
    match json_moves(&text)? {
        Some(v) => json_move_text(&v, board, setup),
        None => Ok(text),
    }
}

/// Moves given as JSON, parsed (see [`replay_input`]), as move text for the game of `setup`
/// on `board`.
fn json_move_text(
    v: &serde_json::Value,
    board: &Grid,
    setup: &Setup,
) -> Result<String, InputError> {
    use serde_json::Value;
    let bad = InputError::MovesJson;
    let list = match v {
        Value::Array(list) => list,
        Value::Object(o) => {
            answer_is_for(&answer_of(o)?, board, setup)?;
            o.get("moves").and_then(Value::as_array).ok_or_else(|| {
                bad("an object must have a \"moves\" list, as solve --json prints".into())
            })?
        }
        _ => return Err(bad("give a list of moves or solve --json's answer".into())),
    };
    crate::move_json::move_text(list, setup.game == Game::Floodit).map_err(bad)
}

/// Moves text that is JSON (it starts with `{` or `[`), parsed; `None` for moves written
/// out.
fn json_moves(text: &str) -> Result<Option<serde_json::Value>, InputError> {
    if !text.trim_start().starts_with(['{', '[']) {
        return Ok(None);
    }
    let v = serde_json::from_str(text).map_err(|e| InputError::MovesJson(e.to_string()))?;
    Ok(Some(v))
}

/// `solve --json`'s answer `o` read back, a field it does not hold as the answer writes it
/// named.
fn answer_of(o: &serde_json::Map<String, serde_json::Value>) -> Result<Answer, InputError> {
    Answer::read(o).map_err(|e| InputError::MovesJson(format!("the answer's {e}")))
}

/// Refuses `solve --json`'s answer `a` where its game, board or rules (those it records)
/// are not `setup`'s and `board`: its moves would be replayed where they were not found,
/// and fail, or pass, for a reason that hides the mix-up.
fn answer_is_for(a: &Answer, board: &Grid, setup: &Setup) -> Result<(), InputError> {
    let game = setup.game;
    let elsewhere = |what: String| Err(InputError::AnswerElsewhere(what));
    if let Some(theirs) = a.rules.game {
        if theirs != game {
            return elsewhere(format!("a {theirs} board, and this is a {game} board"));
        }
    }
    if let Some(theirs) = &a.board {
        let same = theirs
            .parse::<Grid>()
            .is_ok_and(|t| t.to_text() == board.to_text());
        if !same {
            let mut shown: String = theirs.chars().take(40).collect();
            if shown.len() < theirs.len() {
                shown.push('…');
            }
            return elsewhere(format!("another board, {shown}"));
        }
    }
    let differs = |option: &'static str, theirs: String, ours: String| {
        Err(InputError::AnswerRules {
            option,
            theirs,
            ours,
        })
    };
    if game == Game::Floodit {
        if let Some(theirs) = &a.rules.start {
            let ours = setup.floodit_start_on(board);
            if parse_start(Some(theirs), board).ok() != Some(ours) {
                return differs("--start", theirs.clone(), format!("{},{}", ours.0, ours.1));
            }
        }
        return Ok(());
    }
    let r = &setup.rules;
    if let Some(theirs) = a.rules.clickable.filter(|&c| c != r.clickable) {
        return differs(
            "--clickable",
            theirs.name().into(),
            r.clickable.name().into(),
        );
    }
    if let Some(theirs) = a.rules.min_group.filter(|&m| m != r.min_group) {
        return differs("--min-group", theirs.to_string(), r.min_group.to_string());
    }
    if let Some(theirs) = a.rules.sideways.filter(|&s| s != r.sideways) {
        return differs("--sideways", theirs.name().into(), r.sideways.name().into());
    }
    Ok(())
}

/// Parses `(x,y)` pairs: `"(7,0) (3,1)"`, also `7,0 3,1`.
pub fn parse_clicks(moves: &str) -> Result<Vec<(usize, usize)>, InputError> {
    let cleaned: String = moves
        .chars()
        .map(|c| if matches!(c, '(' | ')' | ';') { ' ' } else { c })
        .collect();
    let mut out = Vec::new();
    for tok in cleaned.split_whitespace() {
        let n = out.len() + 1;
        let (x, y) = tok.split_once(',').ok_or_else(|| InputError::NotAClick {
            n,
            text: tok.to_string(),
        })?;
        let number = |axis, text: &str| {
            text.parse().map_err(|_| InputError::BadClick {
                n,
                axis,
                text: text.to_string(),
            })
        };
        out.push((number('x', x)?, number('y', y)?));
    }
    Ok(out)
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Sideways;
    use std::time::Duration;

    #[test]
    fn gen_makes_a_board_exactly_where_an_engine_takes_it() {
        let mut checked = [0; 2];
        for game in [Game::Samegame, Game::Former, Game::Floodit] {
            for (w, h) in [
                (22, 23),
                (23, 23),
                (64, 8),
                (65, 1),
                (8, 64),
                (1, 65),
                (32, 32),
                (33, 31),
                (33, 32),
            ] {
                let (_, _, k) = game.default_size();
                let grid = crate::generate::generate(w, h, k, 1);
                let engine = if game == Game::Floodit {
                    crate::floodit::replay(&grid, (0, 0), &[]).map(|_| ())
                } else {
                    let rules = game.rules().expect("a click game");
                    crate::solve::replay(&grid, rules, &[]).map(|_| ())
                };
                match (gen_board(game, Some(w), Some(h), None, 1), engine) {
                    (Ok(made), Ok(())) => {
                        assert_eq!(made, grid, "{game:?} {w}×{h}");
                        checked[0] += 1;
                    }
                    (Err(made), Err(engine)) => {
                        assert_eq!(made.to_string(), engine.to_string(), "{game:?} {w}×{h}");
                        checked[1] += 1;
                    }
                    (made, engine) => panic!("{game:?} {w}×{h}: gen {made:?}, engine {engine:?}"),
                }
            }
        }
        // made and refused, by each engine's limits
        assert_eq!(checked, [14, 13]);
    }

    #[test]
    fn seed_ranges_are_rusts_ranges_and_bounded() {
        let max = u64::MAX;
        let mut cases = 0;
        for (text, range) in [
            ("3..6", Some(3..=5)),
            ("3..=6", Some(3..=6)),
            (" 7 ", Some(7..=7)),
            ("0..1", Some(0..=0)),
            ("0..0", None),
            ("6..=5", None),
            ("1..", None),
            ("..4", None),
            ("a..b", None),
            ("-1..3", None),
            ("0..=999999", Some(0..=999_999)),
            ("0..=1000000", None),
            ("0..=18446744073709551615", None),
            ("18446744073709551615", Some(max..=max)),
        ] {
            assert_eq!(seed_range(text).ok(), range, "{text:?}");
            cases += 1;
        }
        assert_eq!(cases, 14);
        let err = seed_range("0..=18446744073709551615")
            .unwrap_err()
            .to_string();
        assert!(err.contains("18446744073709551616 seeds"), "{err}");
    }

    #[test]
    fn the_game_follows_from_the_usual_sizes() {
        assert_eq!(game_from_size(7, 9), Some(Game::Former));
        assert_eq!(game_from_size(5, 5), Some(Game::Figure));
        assert_eq!(game_from_size(8, 6), Some(Game::Dust));
        assert_eq!(game_from_size(15, 15), Some(Game::Samegame));
        assert_eq!(game_from_size(4, 4), None);
        let err = setup_from("AB,BA", &RuleChoices::default()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "a 2×2 board is not the usual size of any game: say which with --game"
        );
    }

    #[test]
    fn start_cells_are_named_or_numbered_and_inside_the_board() {
        let g: Grid = "ABC,BCA,CAB,ABC".parse().unwrap();
        assert_eq!(parse_start(None, &g).unwrap(), (0, 3));
        assert_eq!(parse_start(Some("centre"), &g).unwrap(), (1, 1));
        assert_eq!(parse_start(Some(" 2,0 "), &g).unwrap(), (2, 0));
        assert!(matches!(
            parse_start(Some("3,0"), &g),
            Err(InputError::StartOutside { .. })
        ));
        let err = parse_start(Some("a,0"), &g).unwrap_err().to_string();
        assert!(err.starts_with("bad --start x \"a\": "), "{err}");
        assert!(matches!(
            parse_start(Some("middle"), &g),
            Err(InputError::BadStart(_))
        ));
    }

    #[test]
    fn clicks_parse_with_or_without_brackets_and_name_the_bad_move() {
        assert_eq!(
            parse_clicks("(7,0) (3,1);2,2").unwrap(),
            vec![(7, 0), (3, 1), (2, 2)]
        );
        assert_eq!(parse_clicks("").unwrap(), vec![]);
        assert_eq!(
            parse_clicks("(1,1) (2 3)").unwrap_err().to_string(),
            "move 2 \"2\" is not (x,y)"
        );
        assert_eq!(
            parse_clicks("1,z").unwrap_err().to_string(),
            "move 1: bad y \"z\""
        );
    }

    #[test]
    fn rule_and_search_choices_reach_the_setup() {
        let rules = RuleChoices {
            game: Some(Game::Former),
            min_group: Some(2),
            sideways: Some(Sideways::Left),
            ..RuleChoices::default()
        };
        let p = setup_from("AB,BA", &rules).unwrap();
        assert_eq!(p.setup.rules.min_group, 2);
        assert_eq!(p.setup.rules.sideways, Sideways::Left);
        assert!(p.note.is_none());
        let zero = RuleChoices {
            min_group: Some(0),
            ..rules.clone()
        };
        assert!(matches!(
            setup_from("AB,BA", &zero),
            Err(InputError::MinGroupZero)
        ));
        let mut setup = p.setup;
        let search = SearchChoices {
            time_limit: Some(1.5),
            memory_mib: 3,
            threads: Some(3),
            no_proof: true,
            anytime: Method::Nrpa,
            certify: false,
        };
        search.apply(&mut setup).unwrap();
        assert_eq!(setup.search.time_limit, Some(Duration::from_millis(1500)));
        assert_eq!(setup.search.memory, 3 << 20);
        assert_eq!(setup.search.threads, 3);
        assert!(setup.no_proof);
        let bad = SearchChoices {
            time_limit: Some(-1.0),
            ..search
        };
        assert!(matches!(
            bad.apply(&mut setup),
            Err(InputError::BadTimeLimit(_))
        ));
        let no_threads = SearchChoices {
            threads: Some(0),
            ..search
        };
        assert!(matches!(
            no_threads.apply(&mut setup),
            Err(InputError::NoThreads)
        ));
        let no_memory = SearchChoices {
            memory_mib: 0,
            ..search
        };
        assert!(matches!(
            no_memory.apply(&mut setup),
            Err(InputError::NoMemory)
        ));
        let machine = crate::machine::machine_mib().expect("the machine's memory");
        assert!(machine >= 64, "{machine} MiB");
        let too_much = SearchChoices {
            memory_mib: machine + 1,
            ..search
        };
        assert!(matches!(
            too_much.apply(&mut setup),
            Err(InputError::TooMuchMemory { .. })
        ));
    }

    #[test]
    fn a_date_gives_a_former_board_and_refuses_other_games() {
        let mut rules = RuleChoices::default();
        let text = dated_board("2024-12-07", &mut rules).unwrap();
        assert_eq!(rules.game, Some(Game::Former));
        let grid = Grid::parse(&text).unwrap();
        assert_eq!((grid.width(), grid.height()), (7, 9));
        let mut dust = RuleChoices {
            game: Some(Game::Dust),
            ..RuleChoices::default()
        };
        let e = dated_board("2024-12-07", &mut dust).unwrap_err();
        assert!(e.to_string().contains("not dust boards"), "{e}");
        let e = dated_board("2024-11-22", &mut RuleChoices::default()).unwrap_err();
        assert!(e.to_string().contains("NRK's server"), "{e}");
        let e = dated_board("2024-13-01", &mut RuleChoices::default()).unwrap_err();
        assert!(e.to_string().contains("2024-13-01"), "{e}");
    }

    #[test]
    fn a_range_of_dates_is_a_board_set_named_by_day() {
        let mut rules = RuleChoices::default();
        let set = dated_entries("2024-11-23..=2024-11-27", &mut rules).unwrap();
        let names: Vec<&str> = set.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "2024-11-23",
                "2024-11-24",
                "2024-11-25",
                "2024-11-26",
                "2024-11-27"
            ]
        );
        for e in &set {
            let mut r = RuleChoices::default();
            assert_eq!(e.board, dated_board(&e.name, &mut r).unwrap());
        }
    }
}
