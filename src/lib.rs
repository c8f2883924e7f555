//! # tumble
//!
//! An exact and anytime solver for tile-clearing puzzles: click a connected group of
//! same-coloured tiles, it vanishes, the rest falls; clear the board in the fewest moves.
//! NRK's *Former*, *Figure*, the Nodiatis dust game, SameGame and Clickomania are one engine
//! with a few rule knobs; Flood-It is its sister puzzle.
//!
//! The layers, bottom up:
//!
//! | module | what it is for |
//! |---|---|
//! | [`bits`] | bit sets over cells (`u64`, wider [`bits::Wide`]) with pext/pdep |
//! | [`grid`] | the board as text and as a plain grid: parsing, errors, printing |
//! | [`rules`] | the rule knobs and the named games |
//! | [`click`] | the click-game bitboard engine: groups, gravity, sideways steps, bounds |
//! | [`edge`] | the edge bound where columns stay: relaxed games on the edge columns |
//! | [`floodit`] | the Flood-It engine |
//! | [`puzzle`] | the small trait every search algorithm is written against |
//! | [`samegame`] | a byte-per-cell SameGame engine and its beam search for the score |
//! | [`objective`] | moves, tiles and SameGame score as values for the anytime search |
//! | [`search`] | IDA* with a transposition table, beam search, anytime search (beam, NRPA) |
//! | [`solve`] | board in, report out: picks the engine and the algorithms |
//! | [`zeroed`] | zeroed memory on huge pages for the large shared tables |
//!
//! ```
//! use tumble::{grid::Grid, rules::Game, solve::{solve, Setup}};
//! let board: Grid = "AAB,ABB,BAA".parse().unwrap();
//! let report = solve(&board, &Setup::new(Game::Former), &mut |_| {}).unwrap();
//! assert!(report.optimal);
//! assert_eq!(report.length, 3); // B, then A, then the last A
//! ```

pub mod bits;
pub mod click;
pub mod edge;
pub mod floodit;
pub mod grid;
pub mod objective;
pub mod picture;
pub mod puzzle;
pub mod rules;
pub mod samegame;
pub mod search;
pub mod solve;
pub mod zeroed;
