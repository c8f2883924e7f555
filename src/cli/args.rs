//! The command line as clap sees it, and its mapping onto the library's plain choices
//! ([`RuleChoices`], [`SearchChoices`]).

use clap::{Args, Parser, Subcommand, ValueEnum};

use tumble::input::{RuleChoices, SearchChoices};
use tumble::rules::{Clickable, Game, Objective, Sideways};
use tumble::search::anytime::Method;

#[derive(Parser)]
#[command(
    name = "tumble",
    version,
    about = "Solve tile-clearing puzzles (Former, Figure, dust, SameGame, Clickomania, Flood-It) optimally"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
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
    Bench(BenchArgs),
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

impl From<RuleArgs> for RuleChoices {
    fn from(a: RuleArgs) -> RuleChoices {
        RuleChoices {
            game: a.game,
            clickable: a.clickable,
            min_group: a.min_group,
            sideways: a.sideways,
            objective: a.objective,
            start: a.start,
        }
    }
}

/// The anytime algorithms, as named on the command line ([`Method`]).
#[derive(Clone, Copy, ValueEnum)]
pub enum AnytimeArg {
    /// Beam searches of doubling width.
    Beam,
    /// Nested Rollout Policy Adaptation, one per thread.
    Nrpa,
}

impl From<AnytimeArg> for Method {
    fn from(a: AnytimeArg) -> Method {
        match a {
            AnytimeArg::Beam => Method::Beam,
            AnytimeArg::Nrpa => Method::Nrpa,
        }
    }
}

/// Search limits.
#[derive(Args, Clone)]
pub struct SearchArgs {
    /// Stop after this many seconds with the best found and a lower bound.
    #[arg(long, allow_negative_numbers = true)]
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
    pub anytime: AnytimeArg,
}

impl From<SearchArgs> for SearchChoices {
    fn from(a: SearchArgs) -> SearchChoices {
        SearchChoices {
            time_limit: a.time_limit,
            memory_mib: a.memory,
            threads: a.threads,
            no_proof: a.no_proof,
            anytime: a.anytime.into(),
        }
    }
}

/// `tumble bench`'s arguments.
#[derive(Args)]
pub struct BenchArgs {
    /// The board set.
    pub file: String,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Limits per board.
    #[command(flatten)]
    pub search: SearchArgs,
    /// Only the first N boards.
    #[arg(long)]
    pub limit: Option<usize>,
    /// Print one JSON object (per-board results and totals) instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Boards solved at the same time (default 1). With more than one, per-board times
    /// are measured while other boards run, and the wall-clock time is printed too.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
}
