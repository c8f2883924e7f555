//! Solving a board end to end: what the front ends call.
//!
//! [`solve`] takes a [`Grid`] and a [`Setup`] (game, rules, search options), picks the
//! engine the board fits in (a one-word bitboard up to 64 cells, wider ones up to
//! [`MAX_CELLS`]), runs the search the objective calls for, and returns a [`Report`] with
//! the solution step by step, whether it is proven optimal and the best lower bound.
//! Progress ([`Progress`]) is reported through a callback as it happens.
//!
//! - fewest moves: a greedy solution in milliseconds, then the anytime search
//!   ([`crate::search::anytime`]) and IDA* ([`crate::search::ida_star`]) side by side,
//!   sharing the best solution and the proven lower bound both ways, until the optimum is
//!   proven or time runs out (with `no_proof`, the anytime search alone);
//! - fewest tiles (Clickomania) and highest score (SameGame): an exact search over positions
//!   on small boards; on boards too big for it, the anytime search until the time limit.
//!
//! Under SameGame and Clickomania rules (any group, columns closing left) on boards up to
//! 16×16, the anytime search of every objective is [`samegame`]'s beam search (or its NRPA,
//! with [`Method::Nrpa`]); a fewest-moves search that finds no line clearing the board
//! answers with the fewest tiles left.
//!
//! [`replay`] plays a given move list (the `check` command) and [`generate`] makes random
//! boards.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::bits::{Bits, Wide};
use crate::click::{fits, Click, ClickBoard, ClickGame};
use crate::grid::{BoardError, Grid};
use crate::objective::Objectived;
use crate::puzzle::{Puzzle, INFINITE};
use crate::rules::{Clickable, Game, Objective, Rules, Sideways};
use crate::samegame;
use crate::search::anytime::{self, anytime, Control, Method, Scored};
use crate::search::{ida_star, Event, Outcome, SearchOptions};

/// The largest click board: cells and side.
pub const MAX_CELLS: usize = 512;

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
    /// Flood-It: the start cell `(x, y)`, `y = 0` at the bottom.
    pub floodit_start: (usize, usize),
}

impl Setup {
    /// The game's own rules and default search options.
    pub fn new(game: Game) -> Setup {
        Setup {
            game,
            rules: game.rules().unwrap_or(Rules {
                clickable: crate::rules::Clickable::Any,
                min_group: 1,
                sideways: crate::rules::Sideways::None,
                objective: Objective::Moves,
            }),
            search: SearchOptions::default(),
            no_proof: false,
            anytime: Method::default(),
            floodit_start: (0, usize::MAX),
        }
    }
}

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

/// The answer for one board.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub game: String,
    pub width: usize,
    pub height: usize,
    /// The board as given, one line (rows top to bottom, commas between).
    pub board: String,
    pub objective: Objective,
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
    /// The board after each move (not in JSON).
    #[serde(skip)]
    pub boards: Vec<Grid>,
    /// Set when the objective could not be met as asked (e.g. the board cannot be cleared).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
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

/// SameGame score of removing groups of these sizes, with the clearing bonus.
pub fn samegame_score(sizes: impl IntoIterator<Item = u32>, cleared: bool) -> i64 {
    crate::rules::score(sizes, cleared)
}

/// Runs `f` with the engine (bit-set width) that `grid` fits in.
pub trait WithEngine {
    type Output;
    fn run<B: Bits>(self, game: ClickGame<B>, board: ClickBoard<B>) -> Self::Output;
}

/// Builds the engine for `grid` under `rules` and hands it to `f`.
pub fn dispatch<F: WithEngine>(grid: &Grid, rules: Rules, f: F) -> Result<F::Output, BoardError> {
    let (w, h) = (grid.width(), grid.height());
    if fits::<u64>(w, h) {
        let (g, b) = ClickGame::<u64>::new(grid, rules)?;
        Ok(f.run(g, b))
    } else if fits::<Wide<4>>(w, h) {
        let (g, b) = ClickGame::<Wide<4>>::new(grid, rules)?;
        Ok(f.run(g, b))
    } else if fits::<Wide<8>>(w, h) {
        let (g, b) = ClickGame::<Wide<8>>::new(grid, rules)?;
        Ok(f.run(g, b))
    } else {
        Err(BoardError::TooLarge {
            width: w,
            height: h,
            limit: format!(
                "click boards may have at most {MAX_CELLS} cells (e.g. 22×22) and 64 rows or columns"
            ),
        })
    }
}

/// Solves a click-game board under `setup`, reporting progress to `on_progress`.
pub fn solve(
    grid: &Grid,
    setup: &Setup,
    on_progress: &mut dyn FnMut(Progress),
) -> Result<Report, BoardError> {
    if setup.game == Game::Floodit {
        return crate::floodit::solve(grid, setup, on_progress);
    }
    struct Run<'a> {
        grid: &'a Grid,
        setup: &'a Setup,
        on_progress: &'a mut dyn FnMut(Progress),
    }
    impl WithEngine for Run<'_> {
        type Output = Report;
        fn run<B: Bits>(self, game: ClickGame<B>, board: ClickBoard<B>) -> Report {
            solve_click(&game, &board, self.grid, self.setup, self.on_progress)
        }
    }
    dispatch(
        grid,
        setup.rules,
        Run {
            grid,
            setup,
            on_progress,
        },
    )
}

fn solve_click<B: Bits>(
    game: &ClickGame<B>,
    board: &ClickBoard<B>,
    grid: &Grid,
    setup: &Setup,
    on_progress: &mut dyn FnMut(Progress),
) -> Report {
    let clearable = game.clicks_bound(board) < INFINITE;
    let mut objective = match setup.rules.objective {
        Objective::Moves if clearable => Objective::Moves,
        Objective::Moves => Objective::Tiles,
        o => o,
    };
    let mut note = (setup.rules.objective == Objective::Moves && !clearable).then(|| {
        "the board cannot be cleared (a colour has fewer tiles than the smallest group): \
         the answer is the fewest tiles left"
            .to_string()
    });
    // The anytime search ranks and prunes with the narrow edge slices only: the wide ones
    // cost more per position than their sharper bound brings a beam (Former's 40 boards
    // at 1 s each: 544 moves with them, 541 without; IDA* keeps them).
    let ranking = game.with_narrow_edges();
    let scored = Objectived::new(&ranking, objective);
    // SameGame and Clickomania rules on a board the byte engine holds: its beam search (or
    // with `--anytime nrpa` its NRPA) is the anytime search, for every objective.
    let fast = (setup.rules.clickable == Clickable::Any && setup.rules.sideways == Sideways::Left)
        .then(|| samegame::Board::from_grid(grid))
        .flatten();
    let (mut moves, mut proven, mut lower, mut nodes) = match objective {
        Objective::Moves => {
            let provable = grid.width() * grid.height() <= PROVABLE_CELLS;
            fewest_moves(game, &scored, board, setup, provable, fast, on_progress)
        }
        Objective::Tiles | Objective::Score => {
            let (moves, proven, nodes) = best_value(&scored, board, setup, fast, on_progress);
            (moves, proven, 0, nodes)
        }
    };
    if objective == Objective::Moves && lower >= INFINITE {
        // The search proved that no line of play clears the board (the bound could not
        // tell beforehand): the answer is the fewest tiles left, as for Clickomania.
        objective = Objective::Tiles;
        let tiles = Objectived::new(&ranking, objective);
        let (m, p, n) = best_value(&tiles, board, setup, fast, on_progress);
        (moves, proven, lower, nodes) = (m, p, 0, nodes + n);
        note = Some("the board cannot be cleared: the answer is the fewest tiles left".into());
    }
    if objective == Objective::Moves
        && !moves.is_empty()
        && crate::search::replay(game, board, &moves).is_some_and(|e| !game.is_solved(&e))
    {
        // No line found clears the board (SameGame rules; it may still be clearable): the
        // line leaving the fewest tiles, as for Clickomania.
        objective = Objective::Tiles;
        note = Some(
            "no line clearing the board was found: the answer is the fewest tiles left found"
                .into(),
        );
    }
    let mut report = build_report(game, board, grid, setup, objective, &moves);
    report.optimal = proven;
    report.lower_bound = if objective == Objective::Moves {
        lower
    } else {
        0
    };
    report.nodes = nodes;
    if note.is_none() && objective == Objective::Tiles && proven && report.tiles_left > 0 {
        note = Some(format!(
            "the board cannot be cleared: {} tiles are left at best",
            report.tiles_left
        ));
    }
    report.note = note;
    report
}

/// Fills a report from the moves of a solution.
fn build_report<B: Bits>(
    game: &ClickGame<B>,
    board: &ClickBoard<B>,
    grid: &Grid,
    setup: &Setup,
    objective: Objective,
    moves: &[Click],
) -> Report {
    let mut steps = Vec::new();
    let mut boards = Vec::new();
    let mut s = *board;
    for m in moves {
        let (x, y) = game.click_xy(m);
        let (_, group) = game
            .group_at(&s, x, y)
            .expect("a solution's moves are legal");
        steps.push(Step {
            x: Some(x),
            y: Some(y),
            colour: grid.palette()[m.colour as usize - 1].to_string(),
            size: Some(m.size as u32),
        });
        s = game.remove(&s, group, m.colour);
        boards.push(game.grid(&s));
    }
    let tiles_left = s.tiles() as usize;
    Report {
        game: setup.game.name().to_string(),
        width: grid.width(),
        height: grid.height(),
        board: grid.to_inline(),
        objective,
        length: moves.len(),
        score: samegame_score(moves.iter().map(|m| m.size as u32), tiles_left == 0),
        moves: steps,
        optimal: false,
        lower_bound: 0,
        tiles_left,
        nodes: 0,
        elapsed_ms: setup.search.start.elapsed().as_millis() as u64,
        boards,
        note: None,
    }
}

/// How long the anytime search runs when it is the only search and no time limit is set.
pub const DEFAULT_ANYTIME_LIMIT: Duration = Duration::from_secs(10);

/// For the highest score with a deadline, the part of the time the beam portfolio has
/// before NRPA goes on from its best line (standard20 at 60 s: see the README).
pub const SEEDED_PART: f64 = 0.1;

/// For the highest score with a deadline, NRPA's top-level searches per thread (each a
/// sixth of NRPA's time; README, "SameGame `standard20`, highest score").
pub const SEEDED_RUNS: usize = 6;

/// For the highest score with a deadline, the colours NRPA tries keeping for last: those
/// with at least this share of the most plentiful colour's tiles.
pub const SEEDED_SHARE: f64 = 0.9;

/// For the highest score with a deadline, what NRPA ranks a line by: its score less this
/// times `(n − 2)²` for `n > 2` tiles left ([`samegame::Nrpa::penalty`]; README, "SameGame
/// `standard20`, highest score").
pub const SEEDED_PENALTY: f64 = 1.0;

/// How long the anytime search runs beside IDA* on boards small enough to prove
/// ([`PROVABLE_CELLS`]); on bigger ones it runs as long as IDA*.
pub const PROOF_ANYTIME_LIMIT: Duration = Duration::from_secs(1);

/// Beside IDA*, the anytime search also stops once IDA*'s lower bound is one below its
/// best answer and it has gone without a better line for [`PROOF_ANYTIME_PATIENCE`] times
/// as long as it took to find its last one, but not before this: the beam finds its final
/// answer on most boards within milliseconds, after which it only takes a core from the
/// proof. On the 40 NRK Former boards its last answer came at most 18 times as late as
/// the one before (2025-11-28: 14 moves at 0.028 s, 13 at 0.507 s), and an answer found
/// by the anytime search spares IDA* its last iteration (on that board 5 of the 5.5 s it
/// took without).
pub const PROOF_ANYTIME_MIN: Duration = Duration::from_millis(40);

/// See [`PROOF_ANYTIME_MIN`].
pub const PROOF_ANYTIME_PATIENCE: u32 = 30;

/// Boards of at most this many cells count as small enough to prove (the one-word engine).
pub const PROVABLE_CELLS: usize = 64;

/// How many positions the exact search for fewest tiles or highest score may visit before
/// the board counts as too big to prove and the anytime search takes over.
pub const EXACT_POSITIONS: usize = 50_000;

/// Boards with more tiles than this skip the exact search for fewest tiles or highest score.
pub const EXACT_TILES: u32 = 40;

/// What the searches running side by side tell the thread that reports progress.
enum Msg<M> {
    /// A better solution from the anytime search.
    Solution(Vec<M>, Duration),
    /// Progress of IDA*.
    Ida(Event<M>),
    /// IDA* has finished.
    IdaDone(Outcome<M>),
    /// The anytime search has finished.
    AnytimeDone,
    /// A search thread ended by panicking.
    Panicked,
}

/// Held by a search thread: if the thread panics, it tells the message loop so, which then
/// stops waiting for it (the thread scope passes the panic on) instead of waiting for ever
/// for a message that will not come.
struct PanicNotice<M>(mpsc::Sender<Msg<M>>);

impl<M> Drop for PanicNotice<M> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let _ = self.0.send(Msg::Panicked);
        }
    }
}

/// Fewest moves: a greedy solution at once, then the anytime search (`q`) and IDA* (on
/// `p`) side by side, sharing bounds both ways: every solution either finds is offered to
/// the anytime search (pruning it), every lower bound IDA* proves becomes the anytime
/// search's target (reaching it stops it), and IDA* is stopped as soon as its lower bound
/// reaches the best solution's length. With `no_proof`, the anytime search alone on every
/// thread. With `fast` (the same position in [`samegame`]'s byte engine), that engine's
/// beam search is the anytime search. Returns (moves, proven, lower bound, nodes).
fn fewest_moves<B: Bits>(
    p: &ClickGame<B>,
    q: &Objectived<B>,
    start: &ClickBoard<B>,
    setup: &Setup,
    provable: bool,
    fast: Option<samegame::Board>,
    on_progress: &mut dyn FnMut(Progress),
) -> (Vec<Click>, bool, u32, u64) {
    let opts = &setup.search;
    if p.is_solved(start) {
        return (Vec::new(), true, 0, 0);
    }
    let lower0 = p.lower_bound(start);
    let any_stop = Arc::new(AtomicBool::new(false));
    let ida_stop = Arc::new(AtomicBool::new(false));
    let mut any_opts = opts.clone();
    any_opts.stop = any_stop.clone();
    if setup.no_proof && any_opts.time_limit.is_none() {
        any_opts.time_limit = Some(DEFAULT_ANYTIME_LIMIT);
    }
    if !setup.no_proof && provable {
        // Where a proof is within reach the anytime search is there for a quick upper
        // bound (on the NRK Former boards it has its final answer within 0.3 s): after
        // PROOF_ANYTIME_LIMIT it leaves the cores to IDA*.
        let cap = opts
            .time_limit
            .map_or(PROOF_ANYTIME_LIMIT, |t| t.min(PROOF_ANYTIME_LIMIT));
        any_opts.time_limit = Some(cap);
    }
    let mut ida_opts = opts.clone();
    ida_opts.stop = ida_stop.clone();
    ida_opts.upper = Arc::new(AtomicU32::new(u32::MAX));
    let ida_upper = ida_opts.upper.clone();
    let (tx, rx) = mpsc::channel();
    let tx_any = Mutex::new(tx.clone());
    let ctl = Control::new(&any_opts, move |_, moves: &[Click], elapsed| {
        let _ = tx_any
            .lock()
            .expect("no panics")
            .send(Msg::Solution(moves.to_vec(), elapsed));
    });
    ctl.set_target(-(lower0 as i64));
    // The greedy solution: the first answer, and IDA*'s first upper bound. A greedy
    // descent runs even when no time is left, so that an answer is a solution whenever one
    // is easy to find.
    let unlimited = SearchOptions {
        time_limit: None,
        ..opts.clone()
    };
    if let Some(m) = crate::search::greedy(p, start, &unlimited) {
        ctl.offer(-(m.len() as i64), &m);
    }
    anytime::beam(q, start, 1, &ctl);
    // Only a line that clears the board is a solution (the anytime search also ranks lines
    // that do not, on boards that may not be clearable).
    let clears = |m: &[Click]| crate::search::replay(p, start, m).is_some_and(|e| p.is_solved(&e));
    let known = ctl.best().map(|b| b.1).filter(|m| clears(m));
    let any_threads = if setup.no_proof {
        opts.threads
    } else {
        (opts.threads / 2).max(1)
    };
    let mut best: Option<Vec<Click>> = None;
    let mut lower = lower0;
    let mut proven = false;
    let mut nodes = 0;
    std::thread::scope(|sc| {
        let mut running = 1;
        let tx1 = tx.clone();
        let (ctl, any_opts) = (&ctl, &any_opts);
        sc.spawn(move || {
            let _notice = PanicNotice(tx1.clone());
            anytime_search(q, start, fast.as_ref(), setup, any_threads, ctl, any_opts);
            let _ = tx1.send(Msg::AnytimeDone);
        });
        if !setup.no_proof {
            running += 1;
            let tx2 = tx.clone();
            sc.spawn(move || {
                let _notice = PanicNotice(tx2.clone());
                let out = ida_star(p, start, &ida_opts, known, &mut |e| {
                    let _ = tx2.send(Msg::Ida(e));
                });
                let _ = tx2.send(Msg::IdaDone(out));
            });
        }
        drop(tx);
        let patient = setup.no_proof || !provable;
        let mut last_gain = Duration::ZERO;
        while running > 0 {
            // Only once IDA* is one move from the best answer: until then a better answer
            // is the anytime search's to find (and the answer if the proof runs out of time).
            if !patient
                && best.as_ref().is_some_and(|b| b.len() as u32 <= lower + 1)
                && opts.start.elapsed() > PROOF_ANYTIME_MIN.max(last_gain * PROOF_ANYTIME_PATIENCE)
            {
                any_stop.store(true, Ordering::Relaxed);
            }
            let msg = match rx.recv_timeout(Duration::from_millis(5)) {
                Ok(m) => m,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if opts.stop.load(Ordering::Relaxed) {
                        any_stop.store(true, Ordering::Relaxed);
                        ida_stop.store(true, Ordering::Relaxed);
                    }
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            if let Msg::Solution(_, elapsed) = &msg {
                last_gain = *elapsed;
            }
            match msg {
                Msg::Solution(moves, elapsed) | Msg::Ida(Event::Solution { moves, elapsed }) => {
                    if best.as_ref().is_none_or(|b| moves.len() < b.len()) && clears(&moves) {
                        on_progress(Progress::Solution {
                            moves: moves.len(),
                            tiles_left: 0,
                            score: samegame_score(moves.iter().map(|m| m.size as u32), true),
                            elapsed,
                        });
                        // IDA*'s solutions prune the anytime search, and the anytime
                        // search's stop IDA* once it has proven them optimal.
                        ctl.offer(-(moves.len() as i64), &moves);
                        ida_upper.fetch_min(moves.len() as u32, Ordering::Relaxed);
                        best = Some(moves);
                    }
                }
                Msg::Ida(Event::LowerBound { bound, elapsed, .. }) => {
                    if bound > lower {
                        lower = bound;
                        on_progress(Progress::LowerBound { bound, elapsed });
                        ctl.set_target(-(bound as i64));
                    }
                }
                Msg::IdaDone(out) => {
                    running -= 1;
                    nodes = out.nodes;
                    lower = lower.max(out.lower_bound);
                    if lower >= INFINITE {
                        // Proven unclearable: nothing for the anytime search to find.
                        any_stop.store(true, Ordering::Relaxed);
                    }
                    if out.proven {
                        if let Some(b) = out.best {
                            if best.as_ref().is_none_or(|x| b.len() < x.len()) {
                                best = Some(b);
                            }
                        }
                        proven = true;
                        any_stop.store(true, Ordering::Relaxed);
                    }
                }
                Msg::AnytimeDone => running -= 1,
                Msg::Panicked => {
                    any_stop.store(true, Ordering::Relaxed);
                    ida_stop.store(true, Ordering::Relaxed);
                    break;
                }
            }
            if lower < INFINITE && best.as_ref().is_some_and(|b| b.len() as u32 <= lower) {
                proven = true;
                any_stop.store(true, Ordering::Relaxed);
                ida_stop.store(true, Ordering::Relaxed);
            }
        }
    });
    // No clearing line found: the best line of the anytime search (fewest tiles left, then
    // fewest moves), if it has one.
    let best = best.or_else(|| ctl.best().map(|b| b.1)).unwrap_or_default();
    let lower = if proven { best.len() as u32 } else { lower };
    (best, proven, lower, nodes)
}

/// The anytime search for `q` from `start` on `threads` threads: the byte engine's
/// ([`fast_search`]) when `fast` holds the position in that engine, else the generic one
/// `setup` asks for. Every line goes to `ctl`.
fn anytime_search<B: Bits>(
    q: &Objectived<B>,
    start: &ClickBoard<B>,
    fast: Option<&samegame::Board>,
    setup: &Setup,
    threads: usize,
    ctl: &Control<Click>,
    opts: &SearchOptions,
) {
    match fast {
        Some(fb) => fast_search(q, start, fb, setup.anytime, threads, ctl, opts),
        None => {
            anytime(q, start, setup.anytime, threads, ctl);
        }
    }
}

/// The byte engine's portfolio ([`samegame::portfolio`]; for the score with a deadline,
/// [`samegame::seeded`]: the portfolio for [`SEEDED_PART`] of the time, then NRPA from its
/// line), or with [`Method::Nrpa`] its NRPA ([`samegame::nrpa`], one per thread,
/// restarted until the deadline), from `fb` (the
/// position `start` in that engine) for `q`'s objective, on `threads` threads until `opts`'
/// stop flag or deadline: every line it finds is replayed into clicks and offered to `ctl`.
fn fast_search<B: Bits>(
    q: &Objectived<B>,
    start: &ClickBoard<B>,
    fb: &samegame::Board,
    method: Method,
    threads: usize,
    ctl: &Control<Click>,
    opts: &SearchOptions,
) {
    let game = q.game;
    let goal = q.objective;
    // Its moves are cells of the board they are played on: the bitboard engine replays
    // them into clicks.
    let found = |value: i64, cells: &[u8]| {
        let mut s = *start;
        let mut line = Vec::with_capacity(cells.len());
        for &i in cells {
            let (x, y) = samegame::Board::xy(i);
            let (click, group) = game.group_at(&s, x, y).expect("a legal move");
            s = game.remove(&s, group, click.colour);
            line.push(click);
        }
        ctl.offer(value, &line);
    };
    let min_group = game.rules.min_group as u16;
    let sets = samegame::default_sets(goal);
    match method {
        Method::Beam if goal == Objective::Score && opts.deadline().is_some() => {
            // The portfolio for a tenth of the time, then NRPA from its best line.
            let deadline = opts.deadline().expect("a deadline");
            let now = Instant::now();
            let part = now + deadline.saturating_duration_since(now).mul_f64(SEEDED_PART);
            let set = samegame::Nrpa {
                size: 0.0,
                code: samegame::Code::Cell,
                runs: SEEDED_RUNS,
                share: SEEDED_SHARE,
                penalty: SEEDED_PENALTY,
                ..samegame::Nrpa::default()
            };
            samegame::seeded(
                fb,
                min_group,
                goal,
                &sets,
                &set,
                threads,
                &found,
                &opts.stop,
                Some(part),
                Some(deadline),
            );
        }
        Method::Beam => {
            samegame::portfolio(
                fb,
                min_group,
                &sets,
                threads,
                usize::MAX,
                &found,
                &opts.stop,
                opts.deadline(),
            );
        }
        Method::Nrpa => {
            samegame::nrpa(
                samegame::Start::at(fb),
                min_group,
                goal,
                &samegame::Nrpa::default(),
                threads,
                None,
                &std::sync::atomic::AtomicI64::new(i64::MIN),
                &found,
                &opts.stop,
                opts.deadline(),
            );
        }
    }
}

/// Fewest tiles left or highest score: a greedy answer at once, then on boards small
/// enough (at most [`EXACT_TILES`] tiles) an exact search over positions (at most
/// [`EXACT_POSITIONS`]); otherwise, or with `no_proof`, the anytime search until the time
/// limit ([`DEFAULT_ANYTIME_LIMIT`] if none). Every improvement is reported with its time.
/// With `fast` (the same position in [`samegame`]'s byte engine, for the score), that
/// engine's beam search is the anytime search. Returns (moves, proven, nodes).
fn best_value<B: Bits>(
    q: &Objectived<B>,
    start: &ClickBoard<B>,
    setup: &Setup,
    fast: Option<samegame::Board>,
    on_progress: &mut dyn FnMut(Progress),
) -> (Vec<Click>, bool, u64) {
    let game = q.game;
    let progress = |moves: &[Click], elapsed: Duration| {
        let end = crate::search::replay(game, start, moves).expect("solutions are legal");
        Progress::Solution {
            moves: moves.len(),
            tiles_left: end.tiles() as usize,
            score: samegame_score(moves.iter().map(|m| m.size as u32), end.is_empty()),
            elapsed,
        }
    };
    let opts = &setup.search;
    let mut any_opts = opts.clone();
    if any_opts.time_limit.is_none() {
        any_opts.time_limit = Some(DEFAULT_ANYTIME_LIMIT);
    }
    let (tx, rx) = mpsc::channel();
    let tx_any = Mutex::new(tx);
    let ctl = Control::new(&any_opts, move |_, moves: &[Click], elapsed| {
        let _ = tx_any
            .lock()
            .expect("no panics")
            .send((moves.to_vec(), elapsed));
    });
    ctl.set_target(q.optimistic(start));
    let exact = !setup.no_proof && start.tiles() <= EXACT_TILES;
    let proven = std::thread::scope(|sc| {
        let worker = sc.spawn(|| {
            // A greedy answer at once; the exact search on small boards; else anytime.
            anytime::beam(q, start, 1, &ctl);
            if exact && anytime::exhaustive(q, start, EXACT_POSITIONS, &ctl).is_some() {
                return true;
            }
            anytime_search(
                q,
                start,
                fast.as_ref(),
                setup,
                opts.threads,
                &ctl,
                &any_opts,
            );
            false
        });
        while !worker.is_finished() {
            if let Ok((moves, elapsed)) = rx.recv_timeout(Duration::from_millis(20)) {
                on_progress(progress(&moves, elapsed));
            }
        }
        while let Ok((moves, elapsed)) = rx.try_recv() {
            on_progress(progress(&moves, elapsed));
        }
        worker.join().expect("the search does not panic")
    });
    let best = ctl.best().map(|b| b.1).unwrap_or_default();
    // Proven by the exact search, or when the best meets the start's upper bound.
    (best, proven || ctl.reached_target(), 0)
}

/// One replayed move: the step, and the board after it.
pub type Replayed = (Step, Grid);

/// Plays clicks `(x, y)` on a click-game board. On an illegal move: its number (1-based)
/// and why.
pub fn replay(
    grid: &Grid,
    rules: Rules,
    clicks: &[(usize, usize)],
) -> Result<Result<Vec<Replayed>, (usize, String)>, BoardError> {
    struct Run<'a> {
        grid: &'a Grid,
        clicks: &'a [(usize, usize)],
    }
    impl WithEngine for Run<'_> {
        type Output = Result<Vec<Replayed>, (usize, String)>;
        fn run<B: Bits>(self, game: ClickGame<B>, board: ClickBoard<B>) -> Self::Output {
            let mut s = board;
            let mut out = Vec::new();
            for (i, &(x, y)) in self.clicks.iter().enumerate() {
                let (click, group) = game.legal_click(&s, x, y).map_err(|e| (i + 1, e))?;
                s = game.remove(&s, group, click.colour);
                out.push((
                    Step {
                        x: Some(x),
                        y: Some(y),
                        colour: self.grid.palette()[click.colour as usize - 1].to_string(),
                        size: Some(click.size as u32),
                    },
                    game.grid(&s),
                ));
            }
            Ok(out)
        }
    }
    dispatch(grid, rules, Run { grid, clicks })
}

/// Are there clickable groups left on this board under `rules`?
pub fn has_moves(grid: &Grid, rules: Rules) -> Result<bool, BoardError> {
    struct Run;
    impl WithEngine for Run {
        type Output = bool;
        fn run<B: Bits>(self, game: ClickGame<B>, board: ClickBoard<B>) -> bool {
            !game.groups(&board).is_empty()
        }
    }
    dispatch(grid, rules, Run)
}

/// A reproducible random board: `colours` colours drawn uniformly, every cell filled.
pub fn generate(width: usize, height: usize, colours: usize, seed: u64) -> Grid {
    const SYMBOLS: &[char] = &[
        'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O', 'P',
    ];
    let mut state = seed ^ 0x5851_f42d_4c95_7f2d;
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let colours = colours.clamp(1, SYMBOLS.len());
    let cells: Vec<u8> = (0..width * height)
        .map(|_| (next() % colours as u64) as u8 + 1)
        .collect();
    // Keep only the colours that occur, in order of first appearance from the top left,
    // so the palette is exactly the board's colours.
    let mut grid = Grid::from_cells(width, height, cells, SYMBOLS[..colours].to_vec());
    let text = grid.to_text();
    grid = Grid::parse(&text).expect("a generated board parses");
    grid
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panicking_search_thread_says_so() {
        let (tx, rx) = mpsc::channel::<Msg<u8>>();
        let keep = tx.clone(); // the loop's other senders stay alive, as in `fewest_moves`
        let quiet = std::thread::spawn(move || {
            let _notice = PanicNotice(tx.clone());
        });
        quiet.join().unwrap();
        assert!(
            rx.try_recv().is_err(),
            "a thread that ends normally says nothing"
        );
        let t = std::thread::spawn(move || {
            let _notice = PanicNotice(keep);
            panic!("a search thread panics");
        });
        assert!(t.join().is_err());
        assert!(matches!(
            rx.recv_timeout(Duration::from_secs(5)),
            Ok(Msg::Panicked)
        ));
    }
}
