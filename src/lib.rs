//! # tumble
//!
//! An exact and anytime solver for tile-clearing puzzles: click a connected group of
//! same-coloured tiles, it vanishes, the rest falls; clear the board in the fewest moves.
//! NRK's *Former*, *Figure*, the Nodiatis dust game, SameGame and Clickomania are one engine
//! with a few rule knobs; Flood-It is its sister puzzle.
//!
//! The layers, bottom up (each uses only those above it in this table):
//!
//! | module | what it is for |
//! |---|---|
//! | [`bits`] | bit sets over cells (`u64`, wider [`bits::Wide`]) with pext/pdep |
//! | [`machine`] | the machine's cores and memory, the process's peak memory, and the C allocator told to give freed memory back |
//! | [`zeroed`] | zeroed memory on huge pages for the large shared tables |
//! | [`grid`] | the board as text and as a plain grid: parsing, errors, printing |
//! | [`rules`] | the rule knobs and the named games |
//! | [`generate`] | reproducible random boards |
//! | [`daily`] | NRK Former's board of a day, made as NRK's page makes it |
//! | [`boardset`] | the one reader of board sets (benchmarks, proven boards, records) |
//! | [`report`] | what a solver hands back: report, steps, progress |
//! | [`puzzle`] | the small trait every search algorithm is written against |
//! | [`edge`] | the edge bound where columns stay: relaxed games on the edge columns |
//! | [`click`] | the click-game bitboard engine: groups, gravity, sideways steps, bounds |
//! | [`search`] | IDA* with a transposition table, beam search, anytime search (beam, NRPA) |
//! | [`objective`] | moves, tiles and SameGame score as values for the anytime search |
//! | [`samegame`] | a byte-per-cell SameGame engine and its beam search for the score |
//! | [`floodit`] | the Flood-It engine and its A* |
//! | [`solve`] | board in, report out: picks the engine and the algorithms |
//! | [`move_json`] | moves written as JSON, read for a game into the move text `check` replays |
//! | [`input`] | from what a user typed to a [`solve::Setup`]: boards, games, choices |
//! | [`check`] | a move list replayed (`tumble check`) |
//! | [`bench`](mod@bench) | a board set solved, per-board rows and totals (`tumble bench`) |
//! | [`fuzzing`] | the readers of user input on arbitrary bytes (fuzz targets, property tests) |
//! | `server` | `tumble serve`: the web page and its JSON API (feature `server`) |
//!
//! The `tumble` binary only parses arguments (clap), calls these and prints.
//!
//! ```
//! use tumble::{grid::Grid, rules::Game, solve::{solve, Setup}};
//! let board: Grid = "AAB,ABB,BAA".parse().unwrap();
//! let report = solve(&board, &Setup::new(Game::Former), &mut |_| {}).unwrap();
//! assert!(report.optimal);
//! assert_eq!(report.length, 3); // B, then A, then the last A
//! ```

pub mod answer_json;
pub mod bench;
pub mod bits;
pub mod boardset;
pub mod check;
pub mod click;
pub mod daily;
pub mod edge;
pub mod floodit;
pub mod fuzzing;
pub mod generate;
pub mod grid;
pub mod input;
pub mod machine;
pub mod move_json;
pub mod objective;
pub mod picture;
pub mod puzzle;
pub mod report;
pub mod rules;
pub mod samegame;
pub mod search;
#[cfg(feature = "server")]
pub mod server;
pub mod solve;
pub mod zeroed;
