//! Fewest tiles left or highest score: [`best_value`].

use std::sync::{mpsc, Mutex};
use std::time::Duration;

use crate::bits::Bits;
use crate::click::{Click, ClickBoard};
use crate::objective::Objectived;
use crate::report::Progress;
use crate::samegame;
use crate::search::anytime::{self, Control, Scored};

use super::fast::anytime_search;
use super::{Searched, Setup};

/// How long the anytime search runs when it is the only search and no time limit is set.
pub const DEFAULT_ANYTIME_LIMIT: Duration = Duration::from_secs(10);

/// How many positions the exact search for fewest tiles or highest score may visit before
/// the board counts as too big to prove and the anytime search takes over.
pub const EXACT_POSITIONS: usize = 50_000;

/// Boards with more tiles than this skip the exact search for fewest tiles or highest score.
pub const EXACT_TILES: u32 = 40;

/// With `no_proof`, the exact search still runs, up to this many positions (little next to
/// any time limit): a board whose every line is searched so soon gets its optimum at once,
/// where the anytime search would play it over and over until the time limit.
pub const EXACT_POSITIONS_NO_PROOF: usize = 2_000;

/// Fewest tiles left or highest score: a greedy answer at once, then on boards small
/// enough (at most [`EXACT_TILES`] tiles) an exact search over positions (at most
/// [`EXACT_POSITIONS`], or [`EXACT_POSITIONS_NO_PROOF`] with `no_proof`); otherwise the
/// anytime search until the time limit ([`DEFAULT_ANYTIME_LIMIT`] if none). Every
/// improvement is reported with its time.
/// With `fast` (the same position in [`samegame`]'s byte engine, for the score), that
/// engine's beam search is the anytime search. Unless proven, it ran until the user's
/// interrupt or the anytime search's time limit, and says which.
pub(super) fn best_value<B: Bits>(
    q: &Objectived<B>,
    start: &ClickBoard<B>,
    setup: &Setup,
    fast: Option<samegame::Board>,
    on_progress: &mut dyn FnMut(Progress),
) -> Searched {
    let game = q.game;
    let progress = |moves: &[Click], elapsed: Duration| {
        let end = crate::search::replay(game, start, moves).expect("solutions are legal");
        Progress::Solution {
            moves: moves.len(),
            tiles_left: end.tiles() as usize,
            score: crate::rules::score(moves.iter().map(|m| m.size as u32), end.is_empty()),
            elapsed,
        }
    };
    let opts = &setup.search;
    let mut any_opts = opts.clone();
    any_opts.memory = super::budget::alone(opts.memory, game.edge_bytes());
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
    let exact_positions = if setup.no_proof {
        EXACT_POSITIONS_NO_PROOF
    } else {
        EXACT_POSITIONS
    };
    let exact = start.tiles() <= EXACT_TILES;
    let proven = std::thread::scope(|sc| {
        let worker = sc.spawn(|| {
            // A greedy answer at once; the exact search on small boards; else anytime.
            anytime::beam(q, start, 1, &ctl);
            if exact && anytime::exhaustive(q, start, exact_positions, &ctl).is_some() {
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
    let proven = proven || ctl.reached_target();
    let stopped = if proven { None } else { any_opts.stopped() };
    Searched {
        moves: best,
        proven,
        lower: 0,
        nodes: 0,
        stopped,
        filled: ctl.filled(),
    }
}
