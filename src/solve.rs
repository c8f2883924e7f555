//! Solving a board end to end: what the front ends call.
//!
//! [`solve`] takes a [`Grid`] and a [`Setup`] (game, rules, search options), picks the
//! engine the board fits in (a one-word bitboard up to 64 cells, wider ones up to
//! [`MAX_CELLS`]), runs the search the objective calls for, and returns a [`Report`] with
//! the solution step by step, whether it is proven optimal and the best lower bound.
//! Progress ([`Progress`]) is reported through a callback as it happens.
//!
//! - fewest moves: beam searches of growing width give the first solutions in milliseconds,
//!   then IDA* ([`crate::search::ida_star`]) proves the optimum (or runs out of time with a
//!   lower bound);
//! - fewest tiles (Clickomania): an exhaustive search with a table of solved positions.
//!
//! [`replay`] plays a given move list (the `check` command) and [`generate`] makes random
//! boards.

use std::collections::HashMap;
use std::time::Duration;

use serde::Serialize;

use crate::bits::{Bits, Wide};
use crate::click::{fits, Click, ClickBoard, ClickGame};
use crate::grid::{BoardError, Grid};
use crate::puzzle::{Puzzle, INFINITE};
use crate::rules::{Game, Objective, Rules};
use crate::search::{beam_search, ida_star, Event, SearchOptions};

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
    let s: i64 = sizes
        .into_iter()
        .map(|n| {
            let k = n as i64 - 2;
            if k > 0 {
                k * k
            } else {
                0
            }
        })
        .sum();
    s + if cleared { 1000 } else { 0 }
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
    let opts = &setup.search;
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
    let (mut moves, mut proven, mut lower, mut nodes) = match objective {
        Objective::Moves => fewest_moves(game, board, setup, on_progress),
        Objective::Tiles | Objective::Score => {
            let score = objective == Objective::Score;
            let (moves, proven, nodes) = fewest_tiles(game, board, opts, score, on_progress);
            (moves, proven, 0, nodes)
        }
    };
    if objective == Objective::Moves && lower >= INFINITE {
        // The search proved that no line of play clears the board (the bound could not
        // tell beforehand): the answer is the fewest tiles left, as for Clickomania.
        let (m, p, n) = fewest_tiles(game, board, opts, false, on_progress);
        (moves, proven, lower, nodes) = (m, p, 0, nodes + n);
        objective = Objective::Tiles;
        note = Some("the board cannot be cleared: the answer is the fewest tiles left".into());
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

/// Beam searches of growing width, then IDA*. Returns (moves, proven, lower bound, nodes).
fn fewest_moves<P: SizedMoves>(
    p: &P,
    start: &P::State,
    setup: &Setup,
    on_progress: &mut dyn FnMut(Progress),
) -> (Vec<P::Move>, bool, u32, u64)
where
    P::Move: Sized,
{
    let opts = &setup.search;
    let mut best: Option<Vec<P::Move>> = None;
    // Records `moves` if it beats `best`, and says so.
    let improve = |moves: &Vec<P::Move>,
                   best: &mut Option<Vec<P::Move>>,
                   on_progress: &mut dyn FnMut(Progress)| {
        if best.as_ref().is_none_or(|b| moves.len() < b.len()) {
            on_progress(Progress::Solution {
                moves: moves.len(),
                tiles_left: 0,
                score: samegame_score(moves.iter().map(|m| p.removed(m)), true),
                elapsed: opts.start.elapsed(),
            });
            *best = Some(moves.clone());
        }
    };
    let widths: &[usize] = if setup.no_proof {
        &[1, 4, 16, 64, 256, 1024, 4096, 16384]
    } else {
        &[1, 16, 256]
    };
    // The greedy descent (width 1) runs even when no time is left: an anytime answer
    // should be a solution whenever one is easy to find.
    let unlimited = SearchOptions {
        time_limit: None,
        ..opts.clone()
    };
    for (i, &w) in widths.iter().enumerate() {
        if i > 0 && opts.should_stop() {
            break;
        }
        if let Some(m) = beam_search(p, start, w, if i == 0 { &unlimited } else { opts }) {
            improve(&m, &mut best, on_progress);
        }
    }
    let lower0 = p.lower_bound(start);
    if setup.no_proof {
        let proven = best.as_ref().is_some_and(|b| b.len() as u32 <= lower0);
        return (best.unwrap_or_default(), proven, lower0, 0);
    }
    let mut last_bound = lower0;
    let out = ida_star(p, start, opts, best.clone(), &mut |e| match e {
        Event::Solution { moves, .. } => improve(&moves, &mut best, on_progress),
        Event::LowerBound { bound, elapsed, .. } => {
            if bound > last_bound {
                last_bound = bound;
                on_progress(Progress::LowerBound { bound, elapsed });
            }
        }
    });
    let moves = out.best.or(best).unwrap_or_default();
    (moves, out.proven, out.lower_bound, out.nodes)
}

/// Moves that remove a number of tiles (for scores in progress reports).
pub trait SizedMoves: Puzzle {
    fn removed(&self, m: &Self::Move) -> u32;
}

impl<B: Bits> SizedMoves for ClickGame<B> {
    fn removed(&self, m: &Click) -> u32 {
        m.size as u32
    }
}

/// Fewest tiles left, then fewest clicks (or with `score`: the highest SameGame score, then
/// fewest clicks): an exhaustive search over positions with a table of solved ones.
/// Returns (moves, proven, nodes); on time-out the best found so far.
fn fewest_tiles<B: Bits>(
    game: &ClickGame<B>,
    board: &ClickBoard<B>,
    opts: &SearchOptions,
    score: bool,
    on_progress: &mut dyn FnMut(Progress),
) -> (Vec<Click>, bool, u64) {
    struct Ctx<'a, B: Bits> {
        game: &'a ClickGame<B>,
        opts: &'a SearchOptions,
        score: bool,
        memo: HashMap<u64, (i64, u32)>,
        nodes: u64,
        stopped: bool,
        path: Vec<Click>,
        best: Option<(i64, Vec<Click>)>,
        on_progress: &'a mut dyn FnMut(Progress),
    }
    impl<B: Bits> Ctx<'_, B> {
        /// What is minimised at the end of a line: tiles left, or minus the clearing bonus.
        fn end_cost(&self, s: &ClickBoard<B>) -> i64 {
            match (self.score, s.is_empty()) {
                (false, _) => s.tiles() as i64,
                (true, true) => -1000,
                (true, false) => 0,
            }
        }
        /// What a click adds to the cost: nothing, or minus its score.
        fn step_cost(&self, c: &Click) -> i64 {
            if self.score {
                -samegame_score([c.size as u32], false)
            } else {
                0
            }
        }
        /// The best (cost, clicks) reachable from `s`.
        fn value(&mut self, s: &ClickBoard<B>) -> (i64, u32) {
            let key = self.game.key(s);
            if let Some(&v) = self.memo.get(&key) {
                return v;
            }
            self.nodes += 1;
            if self.stopped || (self.nodes & 0xff == 0 && self.opts.should_stop()) {
                self.stopped = true;
                return (i64::MAX, 0);
            }
            let groups = self.game.groups(s);
            let mut v = (self.end_cost(s), 0);
            if groups.is_empty() {
                let cost =
                    self.end_cost(s) + self.path.iter().map(|c| self.step_cost(c)).sum::<i64>();
                let better = self
                    .best
                    .as_ref()
                    .is_none_or(|(t, m)| (cost, self.path.len()) < (*t, m.len()));
                if better {
                    self.best = Some((cost, self.path.clone()));
                    (self.on_progress)(Progress::Solution {
                        moves: self.path.len(),
                        tiles_left: s.tiles() as usize,
                        score: samegame_score(
                            self.path.iter().map(|m| m.size as u32),
                            s.is_empty(),
                        ),
                        elapsed: self.opts.start.elapsed(),
                    });
                }
            } else {
                v = (i64::MAX, 0);
                for (click, group) in groups {
                    let child = self.game.remove(s, group, click.colour);
                    self.path.push(click);
                    let (t, m) = self.value(&child);
                    self.path.pop();
                    v = v.min((t.saturating_add(self.step_cost(&click)), m + 1));
                }
            }
            if !self.stopped {
                self.memo.insert(key, v);
            }
            v
        }
    }
    let mut ctx = Ctx {
        game,
        opts,
        score,
        memo: HashMap::new(),
        nodes: 0,
        stopped: false,
        path: Vec::new(),
        best: None,
        on_progress,
    };
    ctx.value(board);
    let proven = !ctx.stopped;
    if !proven {
        return (ctx.best.map(|b| b.1).unwrap_or_default(), false, ctx.nodes);
    }
    // Walk the table down the optimal line.
    let mut s = *board;
    let mut moves = Vec::new();
    loop {
        let here = ctx.memo[&game.key(&s)];
        if here.1 == 0 {
            break;
        }
        let next = game
            .groups(&s)
            .into_iter()
            .map(|(c, g)| (c, game.remove(&s, g, c.colour)))
            .find(|(c, child)| {
                ctx.memo
                    .get(&game.key(child))
                    .is_some_and(|&(t, m)| (t + ctx.step_cost(c), m + 1) == here)
            })
            .expect("the table holds the optimal line");
        moves.push(next.0);
        s = next.1;
    }
    debug_assert_eq!(ctx.end_cost(&s), ctx.memo[&game.key(&s)].0);
    (moves, true, ctx.nodes)
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
