//! The anytime search of the solve layer: the generic one of [`crate::search::anytime`],
//! or on SameGame and Clickomania boards the byte engine ([`samegame`]) has room for, that
//! engine's beam portfolio or NRPA ([`fast_search`]).

use std::time::Instant;

use crate::bits::Bits;
use crate::click::{Click, ClickBoard};
use crate::objective::Objectived;
use crate::rules::Objective;
use crate::samegame;
use crate::search::anytime::{anytime, Control, Method};
use crate::search::SearchOptions;

use super::Setup;

/// For the highest score with a deadline, the part of the time the beam portfolio has
/// before NRPA goes on from its best line (`docs/benchmarks.md`, SameGame).
pub const SEEDED_PART: f64 = 0.1;

/// For the highest score with a deadline, NRPA's top-level searches per thread (each a
/// sixth of NRPA's time; `docs/benchmarks.md`, SameGame).
pub const SEEDED_RUNS: usize = 6;

/// For the highest score with a deadline, the colours NRPA tries keeping for last: those
/// with at least this share of the most plentiful colour's tiles.
pub const SEEDED_SHARE: f64 = 0.9;

/// For the highest score with a deadline, what NRPA ranks a line by: its score less this
/// times `(n − 2)²` for `n > 2` tiles left ([`samegame::Nrpa::penalty`]; see
/// `docs/benchmarks.md`, SameGame).
pub const SEEDED_PENALTY: f64 = 1.0;

/// The anytime search for `q` from `start` on `threads` threads: the byte engine's
/// ([`fast_search`]) when `fast` holds the position in that engine, else the generic one
/// `setup` asks for. Every line goes to `ctl`.
pub(super) fn anytime_search<B: Bits>(
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
/// stop flag or deadline, with a deadline the end of its best line searched through for
/// the last [`samegame::ENDGAME_PART`] of the time ([`samegame::then_polish`]): every line
/// it finds is replayed into clicks and offered to `ctl`.
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
    // the portfolio's beams run side by side within the memory budget
    let max_width = samegame::widest(opts.memory, sets.len());
    let stop = &opts.stop;
    let nrpa = |found: &samegame::Found, deadline: Option<Instant>| {
        samegame::nrpa(
            samegame::Start::at(fb),
            min_group,
            goal,
            &samegame::Nrpa::default(),
            threads,
            None,
            &std::sync::atomic::AtomicI64::new(i64::MIN),
            found,
            stop,
            deadline,
        );
    };
    // For the highest score with a deadline, the beams' time ends at SEEDED_PART of it.
    let part = opts
        .deadline()
        .filter(|_| goal == Objective::Score)
        .map(|d| {
            let now = Instant::now();
            now + d.saturating_duration_since(now).mul_f64(SEEDED_PART)
        });
    let search = |found: &samegame::Found, deadline: Option<Instant>| match method {
        Method::Beam if part.is_some() => {
            // The portfolio until `part`, then NRPA from its best line.
            let set = samegame::Nrpa {
                size: 0.0,
                code: samegame::Code::Cell,
                runs: SEEDED_RUNS,
                share: SEEDED_SHARE,
                penalty: SEEDED_PENALTY,
                ..samegame::Nrpa::default()
            };
            samegame::seeded(
                fb, min_group, goal, &sets, &set, threads, max_width, found, stop, part, deadline,
            );
        }
        Method::Beam => {
            let (_, capped) = samegame::portfolio(
                fb, min_group, &sets, threads, max_width, found, stop, deadline,
            );
            if capped {
                // the beams have filled their memory: NRPA goes on within it
                ctl.fill();
                nrpa(found, deadline);
            }
        }
        Method::Nrpa => nrpa(found, deadline),
    };
    // With a deadline, the end of the best line searched through for the last part of the
    // time: the beams and NRPA are done by then, and its table has their memory.
    samegame::then_polish(
        fb,
        min_group,
        goal,
        samegame::positions_within(opts.memory),
        &found,
        stop,
        opts.deadline(),
        search,
    );
}
