//! The command line as clap sees it, and its mapping onto the library's plain choices
//! ([`RuleChoices`], [`SearchChoices`]).

use clap::{Args, Parser, Subcommand, ValueEnum};

use tumble::input::SearchChoices;
use tumble::rules::{Clickable, Game, Objective, RuleChoices, Sideways};
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
        /// Without it (and without --date), the dust board of the seed article.
        #[arg(conflicts_with = "date")]
        board: Option<String>,
        /// NRK Former's board of this day: `YYYY-MM-DD` or `today` (from 2024-11-23 on).
        #[arg(long, conflicts_with = "image")]
        date: Option<String>,
        /// Read the board from a screenshot (PNG, JPEG or WebP; `-` for stdin), as
        /// `tumble read` does (with --game, --width, --height, --colours).
        #[arg(long, conflicts_with = "board")]
        image: Option<String>,
        #[command(flatten)]
        size: SizeArgs,
        #[command(flatten)]
        rules: RuleArgs,
        #[command(flatten)]
        search: SearchArgs,
        /// Print exactly one JSON object on stdout and nothing else.
        #[arg(long)]
        json: bool,
        /// Draw the answer step by step (the group to click outlined) to this file: `.png`
        /// or `.svg`.
        #[arg(long, value_name = "FILE")]
        render: Option<std::path::PathBuf>,
        /// The picture's tile size in pixels (default: 48, or less where an answer of many
        /// moves would pass 16 million pixels).
        #[arg(long, requires = "render")]
        tile: Option<u32>,
    },
    /// Read a board from a screenshot and print it in the text format.
    Read {
        /// The picture: PNG, JPEG or WebP, or `-` for stdin.
        image: String,
        /// The game (its palette, size and colours).
        #[arg(long, value_enum)]
        game: Option<Game>,
        #[command(flatten)]
        size: SizeArgs,
        /// Also write the picture with the grid and the letter read on each cell (PNG).
        #[arg(long, value_name = "OUT.png")]
        overlay: Option<std::path::PathBuf>,
    },
    /// Draw a board as a picture: `.png` or `.svg` by the output's extension.
    Render {
        /// The board: a file, `-` for stdin, or inline (with `solve --json`'s answer as
        /// --moves, the answer's own board when left out).
        #[arg(required_unless_present_any = ["date", "moves"], conflicts_with = "date")]
        board: Option<String>,
        /// NRK Former's board of this day: `YYYY-MM-DD` or `today`.
        #[arg(long)]
        date: Option<String>,
        /// Draw these moves step by step, as `solve --render` draws an answer: the moves as
        /// `tumble check` takes them (inline, a file, `-` for stdin, or `solve --json`'s
        /// answer, drawn under the rules it records).
        #[arg(long)]
        moves: Option<String>,
        #[command(flatten)]
        rules: RuleArgs,
        /// The picture to write.
        #[arg(short, long, value_name = "FILE")]
        output: std::path::PathBuf,
        /// Tile size in pixels (default: 48, or less where a picture of many moves would
        /// pass 16 million pixels).
        #[arg(long)]
        tile: Option<u32>,
    },
    /// Replay a move list on a board, printing the board after each move.
    Check {
        /// The board (a file, `-` for stdin, or inline), then the moves: `"(7,0) (3,1) ..."`
        /// for click games, colours for Flood-It, or `solve --json`'s answer; inline, a file,
        /// or `-` for stdin. With --date, the moves alone. `solve --json`'s answer alone is
        /// replayed on its own board, and an answer always under the rules it records
        /// (options given must agree with them).
        #[arg(num_args = 1..=2, required = true, value_names = ["BOARD", "MOVES"])]
        args: Vec<String>,
        /// NRK Former's board of this day: `YYYY-MM-DD` or `today`.
        #[arg(long)]
        date: Option<String>,
        #[command(flatten)]
        rules: RuleArgs,
    },
    /// Print a reproducible random board, or a set of them.
    Gen(GenArgs),
    /// Solve a set of boards and print per-board results and totals.
    Bench(BenchArgs),
    /// Merge the JSON-lines files of `bench --jsonl` runs (the shards of a set) and print
    /// the totals, and which boards are missing or recorded twice.
    Merge(MergeArgs),
    /// Serve the web page and its JSON API; prints the page's address.
    #[cfg(feature = "server")]
    Serve(ServeArgs),
}

/// `tumble serve`'s arguments.
#[cfg(feature = "server")]
#[derive(Args)]
pub struct ServeArgs {
    /// The port (0: a free one, printed).
    #[arg(long, default_value_t = 8017)]
    pub port: u16,
    /// The address to listen on (loopback only by default).
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: std::net::IpAddr,
    /// Open the page in a browser.
    #[arg(long)]
    pub open: bool,
    /// The longest solve, in seconds (every request's time limit is capped at it).
    #[arg(long, default_value_t = 60.0)]
    pub max_time: f64,
    /// Solves running at once, one search thread each (default: all cores; at most 8 per
    /// core); twice as many wait, and more are refused with 429.
    #[arg(long)]
    pub jobs: Option<usize>,
}

/// What is known of a screenshot's board besides its game.
#[derive(Args, Clone, Default)]
pub struct SizeArgs {
    /// The board's width in tiles (found from the picture when the game does not fix it).
    #[arg(long)]
    pub width: Option<usize>,
    /// The board's height in tiles.
    #[arg(long)]
    pub height: Option<usize>,
    /// The number of tile colours.
    #[arg(long)]
    pub colours: Option<usize>,
}

impl SizeArgs {
    /// The first of these options given, by its name (`--width`), if any.
    pub fn first_given(&self) -> Option<&'static str> {
        [
            ("--width", self.width),
            ("--height", self.height),
            ("--colours", self.colours),
        ]
        .into_iter()
        .find_map(|(name, value)| value.map(|_| name))
    }

    /// The reader's options for `game` and these sizes.
    pub fn options(&self, game: Option<Game>) -> tumble::picture::ReadOptions {
        tumble::picture::ReadOptions {
            game,
            width: self.width,
            height: self.height,
            colours: self.colours,
        }
    }
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
    /// The memory budget in MiB: the transposition table's, and Flood-It's whole search's.
    #[arg(long, default_value_t = 1024)]
    pub memory: usize,
    /// Threads (default: all cores; in `bench`, a board's share of the cores: cores / --jobs,
    /// at least 1); at most 8 per core.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Skip the proof: anytime search only.
    #[arg(long)]
    pub no_proof: bool,
    /// The anytime algorithm: beam searches of doubling width, or NRPA (on SameGame and
    /// Clickomania boards up to 16×16, the byte engine's of either).
    #[arg(long, value_enum, default_value = "beam")]
    pub anytime: AnytimeArg,
    /// Prove the final lower bound again with every bound keyed on its whole position
    /// (exact and slower), and say so (`"certified": true` in JSON).
    #[arg(long)]
    pub certify: bool,
}

impl From<SearchArgs> for SearchChoices {
    fn from(a: SearchArgs) -> SearchChoices {
        SearchChoices {
            time_limit: a.time_limit,
            memory_mib: a.memory,
            threads: a.threads,
            no_proof: a.no_proof,
            anytime: a.anytime.into(),
            certify: a.certify,
        }
    }
}

/// `tumble gen`'s arguments.
#[derive(Args)]
pub struct GenArgs {
    /// The game, whose usual size and colours are the default.
    #[arg(long, value_enum, default_value = "former")]
    pub game: Game,
    /// NRK Former's board of this day (`YYYY-MM-DD` or `today`) instead of a random one.
    #[arg(long, conflicts_with_all = ["width", "height", "colours", "seed", "seeds", "dates"])]
    pub date: Option<String>,
    /// A board set of NRK Former's boards of a range of days (`A..B`, `A..=B`, `A..`),
    /// one `date|board` line each, for `tumble bench`.
    #[arg(long, conflicts_with_all = ["width", "height", "colours", "seed", "seeds"])]
    pub dates: Option<String>,
    /// A board set of the random boards of a range of seeds (`A..B`, `A..=B`), one
    /// `game-seed|board` line each, for `tumble bench --game GAME`.
    #[arg(long, conflicts_with = "seed")]
    pub seeds: Option<String>,
    /// The board's width in tiles (default: the game's). A board must fit the game's
    /// engine: at most 64 tiles a side and 512 in all (Flood-It: 1024 in all).
    #[arg(long)]
    pub width: Option<usize>,
    /// The board's height in tiles (default: the game's).
    #[arg(long)]
    pub height: Option<usize>,
    /// The number of tile colours, 1 to 16 (default: the game's).
    #[arg(long)]
    pub colours: Option<usize>,
    /// The random seed: the same seed, size and colours give the same board.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// `tumble bench`'s arguments.
#[derive(Args)]
pub struct BenchArgs {
    /// The board set.
    #[arg(required_unless_present = "dates", conflicts_with = "dates")]
    pub file: Option<String>,
    /// NRK Former's boards of a range of days instead of a file: `2024-11-23..2026-11-24`
    /// (end left out), `A..=B` (end included), `A..` or `..today`.
    #[arg(long)]
    pub dates: Option<String>,
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
    /// Boards solved at the same time (default: every core, one board per core; never more
    /// than the boards to solve; at most 8 per core). Each board's search then gets cores / N
    /// threads (at least 1) unless --threads is given, so `--jobs 1` solves one board at a
    /// time on all the cores. With more than one, rows
    /// come as boards end, per-board times are measured while other boards run, and the
    /// wall-clock time is printed too.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Only part I of N of the set: board k (from 0) belongs to part k mod N + 1. Rows
    /// keep their index in the whole set.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Write one JSON line per board as it ends (a row of --json, with its "index" in the
    /// whole set and the set's size "set"), flushed each line: appended to FILE, or to
    /// stdout for `-` or no FILE (the table and totals then go to stderr).
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "-")]
    pub jsonl: Option<String>,
    /// Skip the boards already recorded in this JSON-lines file (a truncated last line is
    /// left out) and count their rows in the totals; new rows are appended to it unless
    /// --jsonl names another file. A file that does not exist yet holds no records.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<String>,
}

/// `tumble merge`'s arguments.
#[derive(Args)]
pub struct MergeArgs {
    /// The JSON-lines files of `bench --jsonl` runs.
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<String>,
    /// Print one JSON object (the object of `bench --json`, with "missing" and "duplicates"
    /// when there are any) instead of a table.
    #[arg(long)]
    pub json: bool,
}
