//! The `tumble` command line: a thin front end over the library.
//!
//! - `tumble solve [BOARD]` solves a board (with no board, the dust board of the seed
//!   article), printing each improvement as it is found, then the answer step by step;
//! - `tumble check BOARD MOVES` replays a move list;
//! - `tumble gen` prints a reproducible random board;
//! - `tumble bench FILE` solves a set of boards and prints totals.
//!
//! Bad input is one line on stderr and exit code 2.

use std::io::{IsTerminal, Read, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Parser, Subcommand};

use tumble::grid::Grid;
use tumble::rules::{Clickable, Game, Objective, Sideways};
use tumble::solve::{self, Progress, Report, Setup};

mod bench;

/// The dust board of the seed article "Depth first search puzzle solving with heuristics".
pub const EXAMPLE: &str = "GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG";

#[derive(Parser)]
#[command(
    name = "tumble",
    version,
    about = "Solve tile-clearing puzzles (Former, Figure, dust, SameGame, Clickomania, Flood-It) optimally"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a board: prints every improvement as found, then the answer step by step.
    Solve {
        /// The board: a file, `-` for stdin, or inline (`GGGGBOYO,RORGYGBY,...`).
        /// Without it, the dust board of the seed article.
        board: Option<String>,
        #[command(flatten)]
        rules: RuleArgs,
        #[command(flatten)]
        search: SearchArgs,
        /// Print exactly one JSON object on stdout and nothing else.
        #[arg(long)]
        json: bool,
    },
    /// Replay a move list on a board, printing the board after each move.
    Check {
        /// The board: a file, `-` for stdin, or inline.
        board: String,
        /// The moves: `"(7,0) (3,1) ..."` for click games, colours for Flood-It.
        moves: String,
        #[command(flatten)]
        rules: RuleArgs,
    },
    /// Print a reproducible random board.
    Gen {
        #[arg(long, value_enum, default_value = "former")]
        game: Game,
        #[arg(long)]
        width: Option<usize>,
        #[arg(long)]
        height: Option<usize>,
        #[arg(long)]
        colours: Option<usize>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Solve a set of boards and print per-board results and totals.
    Bench(bench::BenchArgs),
}

/// The game and its rule knobs.
#[derive(Args, Clone)]
pub struct RuleArgs {
    /// The game (without it: from a `game|board` line, or from the board's size).
    #[arg(long, value_enum)]
    pub game: Option<Game>,
    /// Which groups may be clicked.
    #[arg(long, value_enum)]
    pub clickable: Option<Clickable>,
    /// The smallest clickable group.
    #[arg(long)]
    pub min_group: Option<u32>,
    /// What happens sideways after gravity.
    #[arg(long, value_enum)]
    pub sideways: Option<Sideways>,
    /// What to optimise.
    #[arg(long, value_enum)]
    pub objective: Option<Objective>,
    /// Flood-It start cell: `topleft`, `centre` or `X,Y`.
    #[arg(long)]
    pub start: Option<String>,
}

/// Search limits.
#[derive(Args, Clone)]
pub struct SearchArgs {
    /// Stop after this many seconds with the best found and a lower bound.
    #[arg(long)]
    pub time_limit: Option<f64>,
    /// Memory for the transposition table, in MiB (it starts small and grows up to this).
    #[arg(long, default_value_t = 1024)]
    pub memory: usize,
    /// Threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Skip the proof: anytime search only.
    #[arg(long)]
    pub no_proof: bool,
    /// The anytime algorithm: beam searches of doubling width, or NRPA (on SameGame and
    /// Clickomania boards up to 16×16, the byte engine's of either).
    #[arg(long, value_enum, default_value = "beam")]
    pub anytime: tumble::search::anytime::Method,
}

impl SearchArgs {
    pub fn apply(&self, setup: &mut Setup) -> Result<()> {
        if let Some(t) = self.time_limit {
            if !(t.is_finite() && t >= 0.0) {
                bail!("--time-limit must be a number of seconds ≥ 0, not {t}");
            }
            setup.search.time_limit = Some(Duration::from_secs_f64(t));
        }
        if self.memory == 0 {
            bail!("--memory must be at least 1 MiB");
        }
        setup.search.memory = self.memory << 20;
        if let Some(n) = self.threads {
            setup.search.threads = n.max(1);
        }
        setup.no_proof = self.no_proof;
        setup.anytime = self.anytime;
        Ok(())
    }
}

/// Reads a board argument: a file, `-` for stdin, or the board itself.
pub fn read_board_text(arg: &str) -> Result<String> {
    if arg == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .context("cannot read the board from stdin")?;
        return Ok(s);
    }
    let path = Path::new(arg);
    if path.is_file() {
        return std::fs::read_to_string(path)
            .with_context(|| format!("cannot read board file {arg}"));
    }
    if arg.contains('/') || arg.contains('\\') || path.is_dir() {
        bail!("cannot read board file {arg}: no such file");
    }
    Ok(arg.to_string())
}

/// A game name from a `game|board|...` line, and the board part.
fn split_game_line(text: &str) -> (Option<Game>, String) {
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .collect();
    if lines.len() == 1 && lines[0].contains('|') {
        let mut parts = lines[0].split('|');
        let game = parts.next().and_then(|g| g.trim().parse().ok());
        if let (Some(g), Some(board)) = (game, parts.next()) {
            return (Some(g), board.trim().to_string());
        }
    }
    (None, text.to_string())
}

/// The game a board of this size most likely is.
fn game_from_size(w: usize, h: usize) -> Option<Game> {
    [Game::Former, Game::Figure, Game::Dust, Game::Samegame]
        .into_iter()
        .find(|g| {
            let (gw, gh, _) = g.default_size();
            (gw, gh) == (w, h)
        })
}

/// Parses the board and works out the game and rules.
pub fn setup_from(text: &str, rules: &RuleArgs) -> Result<(Grid, Setup, Option<String>)> {
    let (line_game, board_text) = split_game_line(text);
    let mut grid = Grid::parse(&board_text)?;
    if rules.game.or(line_game) == Some(Game::Floodit) {
        // Flood-It sets write an N×N board as one line of N² colours.
        grid = tumble::floodit::square_up(grid);
    }
    let mut note = None;
    let game = match rules.game.or(line_game) {
        Some(g) => g,
        None => {
            let g = game_from_size(grid.width(), grid.height()).ok_or_else(|| {
                anyhow!(
                    "a {}×{} board is not the usual size of any game: say which with --game",
                    grid.width(),
                    grid.height()
                )
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
            bail!("--start is for Flood-It only");
        }
    }
    if let Some(c) = rules.clickable {
        setup.rules.clickable = c;
    }
    if let Some(m) = rules.min_group {
        if m == 0 {
            bail!("--min-group must be at least 1");
        }
        setup.rules.min_group = m;
    }
    if let Some(s) = rules.sideways {
        setup.rules.sideways = s;
    }
    if let Some(o) = rules.objective {
        setup.rules.objective = o;
    }
    Ok((grid, setup, note))
}

/// Parses `--start`.
fn parse_start(arg: Option<&str>, grid: &Grid) -> Result<(usize, usize)> {
    let (w, h) = (grid.width(), grid.height());
    // (x, y) with y = 0 at the bottom
    match arg.map(str::trim) {
        None | Some("topleft") => Ok((0, h - 1)),
        Some("centre") | Some("center") => Ok((w / 2, h - 1 - h / 2)),
        Some(xy) => {
            let (x, y) = xy
                .split_once(',')
                .ok_or_else(|| anyhow!("--start must be topleft, centre or X,Y, not {xy:?}"))?;
            let x: usize = x
                .trim()
                .parse()
                .with_context(|| format!("bad --start x {x:?}"))?;
            let y: usize = y
                .trim()
                .parse()
                .with_context(|| format!("bad --start y {y:?}"))?;
            if x >= w || y >= h {
                bail!("--start {x},{y} is outside the {w}×{h} board");
            }
            Ok((x, y))
        }
    }
}

fn secs(d: Duration) -> String {
    format!("{:.3}s", d.as_secs_f64())
}

fn print_report(r: &Report) {
    let tiles = r.objective == Objective::Tiles || r.tiles_left > 0;
    let what = if tiles {
        format!(
            "{} tile{} left in {} move{}",
            r.tiles_left,
            if r.tiles_left == 1 { "" } else { "s" },
            r.length,
            if r.length == 1 { "" } else { "s" }
        )
    } else {
        format!("{} move{}", r.length, if r.length == 1 { "" } else { "s" })
    };
    if let Some(n) = &r.note {
        println!("note: {n}");
    }
    if r.objective == Objective::Score {
        let what = format!("score {} ({what})", r.score);
        if r.optimal {
            println!("optimal: {what} (proven)");
        } else {
            println!("best found: {what} (not proven optimal)");
        }
    } else {
        if r.optimal {
            println!("optimal: {what} (proven)");
        } else if tiles {
            println!("best found: {what} (not proven optimal)");
        } else {
            println!(
                "best found: {what}, lower bound {} (not proven optimal)",
                r.lower_bound
            );
        }
        if r.game == "samegame" {
            println!("score: {}", r.score);
        }
    }
    println!(
        "nodes: {}, time: {:.3}s",
        r.nodes,
        r.elapsed_ms as f64 / 1000.0
    );
    for (i, (step, board)) in r.moves.iter().zip(&r.boards).enumerate() {
        println!();
        println!("{:>2}. {step}", i + 1);
        println!("{board}");
    }
}

fn cmd_solve(
    board: Option<String>,
    rules: RuleArgs,
    search: SearchArgs,
    json: bool,
) -> Result<ExitCode> {
    let text = match &board {
        Some(b) => read_board_text(b)?,
        None => EXAMPLE.to_string(),
    };
    let mut rules = rules;
    if board.is_none() && rules.game.is_none() {
        rules.game = Some(Game::Dust);
    }
    let (grid, mut setup, note) = setup_from(&text, &rules)?;
    search.apply(&mut setup)?;
    setup.search.start = std::time::Instant::now();
    if !json {
        if let Some(n) = note {
            println!("{n}");
        }
        println!(
            "{} {}×{}, {} colour{}:",
            setup.game,
            grid.width(),
            grid.height(),
            grid.colours(),
            if grid.colours() == 1 { "" } else { "s" }
        );
        println!("{grid}");
        println!();
    }
    let objective = setup.rules.objective;
    let mut progress = |p: Progress| {
        if json {
            return;
        }
        match p {
            Progress::Solution {
                moves,
                tiles_left,
                score,
                elapsed,
            } => {
                let tiles = if tiles_left > 0 || objective == Objective::Tiles {
                    format!(", {tiles_left} tiles left")
                } else {
                    String::new()
                };
                if objective == Objective::Score {
                    println!(
                        "[{}] solution: score {score}, {moves} moves{tiles}",
                        secs(elapsed)
                    );
                } else {
                    println!("[{}] solution: {moves} moves{tiles}", secs(elapsed));
                }
            }
            Progress::LowerBound { bound, elapsed } => {
                println!("[{}] lower bound: {bound}", secs(elapsed))
            }
        }
        let _ = std::io::stdout().flush();
    };
    let report = solve::solve(&grid, &setup, &mut progress)?;
    if json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        println!();
        print_report(&report);
    }
    let solved = report.length > 0 || report.tiles_left == 0 || report.optimal;
    Ok(if solved {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Parses `(x,y)` pairs: `"(7,0) (3,1)"`, also `7,0 3,1`.
fn parse_clicks(moves: &str) -> Result<Vec<(usize, usize)>> {
    let cleaned: String = moves
        .chars()
        .map(|c| {
            if c == '(' || c == ')' || c == ';' {
                ' '
            } else {
                c
            }
        })
        .collect();
    let mut out = Vec::new();
    for tok in cleaned.split_whitespace() {
        let (x, y) = tok
            .split_once(',')
            .ok_or_else(|| anyhow!("move {} {tok:?} is not (x,y)", out.len() + 1))?;
        let x = x
            .parse()
            .map_err(|_| anyhow!("move {}: bad x {x:?}", out.len() + 1))?;
        let y = y
            .parse()
            .map_err(|_| anyhow!("move {}: bad y {y:?}", out.len() + 1))?;
        out.push((x, y));
    }
    Ok(out)
}

fn cmd_check(board: String, moves: String, rules: RuleArgs) -> Result<ExitCode> {
    let text = read_board_text(&board)?;
    let (grid, setup, note) = setup_from(&text, &rules)?;
    if let Some(n) = note {
        println!("{n}");
    }
    println!("{grid}");
    // Both kinds of game replay to (steps, the illegal move if any), printed alike.
    let (steps, failure) = if setup.game == Game::Floodit {
        let colours = tumble::floodit::parse_colours(&moves);
        let start = tumble::floodit::start_of(&grid, &setup);
        match tumble::floodit::replay(&grid, start, &colours)? {
            Ok(s) => (s, None),
            Err((n, why, prefix)) => (prefix, Some((n, why))),
        }
    } else {
        let clicks = parse_clicks(&moves)?;
        match solve::replay(&grid, setup.rules, &clicks)? {
            Ok(s) => (s, None),
            Err((n, why)) => {
                // replay the legal prefix to show it
                let ok = solve::replay(&grid, setup.rules, &clicks[..n - 1])?
                    .expect("the prefix is legal");
                (ok, Some((n, why)))
            }
        }
    };
    for (i, (step, after)) in steps.iter().enumerate() {
        println!();
        println!("{:>2}. {step}", i + 1);
        println!("{after}");
    }
    println!();
    if let Some((n, why)) = failure {
        println!("illegal move {n}: {why}");
        return Ok(ExitCode::from(1));
    }
    if setup.game == Game::Floodit {
        let last = steps.last().map_or(&grid, |s| &s.1);
        if tumble::floodit::is_one_colour(last) {
            println!("solved in {} moves", steps.len());
        } else {
            let left: std::collections::HashSet<u8> = (0..last.height())
                .flat_map(|y| (0..last.width()).map(move |x| last.get(x, y)))
                .collect();
            println!(
                "not solved: {} colours left after {} moves",
                left.len(),
                steps.len()
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let last = steps.last().map_or(&grid, |s| &s.1);
    let sizes = steps.iter().filter_map(|s| s.0.size);
    if last.is_empty() {
        println!("cleared in {} moves", steps.len());
    } else {
        let more = solve::has_moves(last, setup.rules)?;
        println!(
            "not cleared: {} tiles left after {} moves{}",
            last.tiles(),
            steps.len(),
            if more { "" } else { " (no moves left)" }
        );
    }
    if setup.game == Game::Samegame || setup.rules.objective == Objective::Score {
        println!("score: {}", solve::samegame_score(sizes, last.is_empty()));
    }
    Ok(ExitCode::SUCCESS)
}

fn cmd_gen(
    game: Game,
    width: Option<usize>,
    height: Option<usize>,
    colours: Option<usize>,
    seed: u64,
) -> Result<ExitCode> {
    let (dw, dh, dk) = game.default_size();
    let (w, h, k) = (
        width.unwrap_or(dw),
        height.unwrap_or(dh),
        colours.unwrap_or(dk),
    );
    if w == 0 || h == 0 {
        bail!("--width and --height must be at least 1");
    }
    if !(1..=16).contains(&k) {
        bail!("--colours must be from 1 to 16, not {k}");
    }
    if w * h > 100_000 {
        bail!("a {w}×{h} board is too large to generate");
    }
    println!("{}", solve::generate(w, h, k, seed));
    Ok(ExitCode::SUCCESS)
}

fn one_line(e: &str) -> String {
    e.lines()
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && !l.starts_with("For more information") && !l.starts_with("Usage:")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn main() -> ExitCode {
    // Die quietly when the reader of our output goes away (`tumble solve | head`), as
    // command-line tools do, instead of panicking on the failed write.
    #[cfg(unix)]
    // SAFETY: restoring the default action of a signal at start-up, before any threads.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind::*;
            if matches!(
                e.kind(),
                DisplayHelp | DisplayVersion | DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            eprintln!("{}", one_line(&e.render().to_string()));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Solve {
            board,
            rules,
            search,
            json,
        } => cmd_solve(board, rules, search, json),
        Command::Check {
            board,
            moves,
            rules,
        } => cmd_check(board, moves, rules),
        Command::Gen {
            game,
            width,
            height,
            colours,
            seed,
        } => cmd_gen(game, width, height, colours, seed),
        Command::Bench(args) => bench::run(args, std::io::stderr().is_terminal()),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            let msg = format!("{e:#}");
            eprintln!("error: {}", one_line(&msg));
            ExitCode::from(2)
        }
    }
}
