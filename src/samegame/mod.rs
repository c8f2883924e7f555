//! A fast SameGame engine and its searches for the highest score, the fewest moves to
//! clear, or the fewest tiles left.
//!
//! The bitboard engine ([`crate::click`]) serves every click game, but on a 15×15 board
//! (a four-word bit set per colour) finding all groups by repeated dilation is what a
//! search spends its time on. This module is the SameGame and Clickomania special case:
//! any group of at least `min_group` tiles may be clicked, tiles fall, empty columns close
//! to the left. What a line is worth is its [`Objective`](crate::rules::Objective)'s
//! value, the same as the bitboard engine's ([`crate::objective`]).
//!
//! The engine:
//! - [`Board`] (`board`): one byte per cell, column-major with a stride of [`SIDE`]: cell
//!   `(x, y)` (`y = 0` at the bottom) is byte `x * 16 + y`, so a cell index fits a byte.
//! - [`Groups`] (`groups`): all groups of a position in one pass of union-find over the
//!   cells ([`Board::forest`]: each tile joined to the one below and the one to its left,
//!   every tree rooted at its group's lowest cell, which holds the group's size), then
//!   numbered ([`Board::groups`]).
//! - [`Live`] (`live`): the groups kept up to date across clicks, only those a click
//!   changed found anew, each legal move with a caller's value and weight: what playouts
//!   run on.
//! - [`Board::key`] (`zobrist`): a Zobrist key, for the beam's duplicate check.
//!
//! What a search knows before playing on (`estimate`): [`upper`], the most the tiles left
//! can still add, and [`Weights`], the beam's estimate of it (the *tabu colour* idea: the
//! most plentiful colour is kept for one big group at the end; a penalty per group by
//! Euler's formula, [`Board::components`]).
//!
//! The searches:
//! - [`playout`] (`playout`): the tabu rule played to the end, smallest group first.
//! - [`beam`] (`beam`): one beam search of a fixed width, children ranked by the estimate
//!   or by a playout from each.
//! - [`portfolio`] (`portfolio`): beams of growing width until the deadline, one per
//!   weight set, side by side ([`default_sets`]).
//! - [`nrpa`] (`nested`): nested rollout policy adaptation with the tabu rule as a prior.
//! - [`seeded`] (`seeded`): the portfolio for part of the time, then NRPA from its best
//!   line (the score's search when there is a deadline).
//! - [`polish`] and [`then_polish`] (`endgame`): the end of a line searched through
//!   exhaustively, for the last few percent of a timed search's time.
//!
//! Moves are reported as cell indices of the board they are played on; [`Board::xy`]
//! turns one into `(x, y)` for the engine-independent front ends.

mod beam;
mod board;
mod endgame;
mod estimate;
mod groups;
mod live;
mod nested;
mod playout;
mod portfolio;
mod seeded;
mod zobrist;

pub use beam::{beam, widest, Found, BEAM_BYTES};
pub use board::{Board, COLOURS, SIDE};
pub use endgame::{polish, positions_within, then_polish, value_of, ENDGAME_PART};
pub use estimate::{upper, Weights};
pub use groups::{Forest, Group, Groups};
pub use live::Live;
pub use nested::{nrpa, Code, Nrpa, Start};
pub use playout::playout;
pub use portfolio::{default_sets, portfolio};
pub use seeded::seeded;
