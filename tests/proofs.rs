//! Proofs that can be checked: the parallel IDA* (frontier split, bounds backed up, the
//! shared lock-free table) with 2, 3 and 4 threads, and with one more while its cores are
//! shared ([`SearchOptions::shared`]), and the exact re-proof of
//! `search::certify`, against brute force on small boards of every click game.

mod common;

use common::{bfs_optimum, RefBoard};
use tumble::bits::Bits;
use tumble::click::{ClickBoard, ClickGame};
use tumble::grid::Grid;
use tumble::puzzle::Puzzle;
use tumble::rules::{Clickable, Game, Objective, Rules, Sideways};
use tumble::search::{certify, ida_star, SearchOptions};
use tumble::solve::{dispatch, WithEngine};

/// A random full board, `w × h`, `colours` colours, as the reference and as text.
fn random_board(rng: &mut fastrand::Rng, w: usize, h: usize, colours: u8) -> (RefBoard, Grid) {
    let rows: Vec<String> = (0..h)
        .map(|_| {
            (0..w)
                .map(|_| (b'A' + rng.u8(0..colours)) as char)
                .collect()
        })
        .collect();
    let inline = rows.join(",");
    (
        RefBoard::from_inline(&inline),
        inline.parse().expect("a board"),
    )
}

fn options(threads: usize) -> SearchOptions {
    SearchOptions {
        threads,
        memory: 1 << 20,
        ..SearchOptions::default()
    }
}

/// The runs of IDA* each board gets: threads, and whether its cores are shared.
const RUNS: [(usize, bool); 6] = [
    (1, false),
    (2, false),
    (3, false),
    (4, false),
    (1, true),
    (2, true),
];

/// What the exact searches find on one board: the optimum of `ida_star` per run (threads,
/// cores shared), whether each was proven, and the lower bound `certify` reaches toward it.
struct Prove {
    runs: &'static [(usize, bool)],
}

impl WithEngine for Prove {
    type Output = (Vec<(Option<usize>, bool)>, Option<(u32, Option<usize>)>);
    fn run<B: Bits>(self, game: ClickGame<B>, board: ClickBoard<B>) -> Self::Output {
        let runs: Vec<(Option<usize>, bool)> = self
            .runs
            .iter()
            .map(|&(t, shared)| {
                let opts = options(t);
                opts.shared
                    .store(shared, std::sync::atomic::Ordering::Relaxed);
                let out = ida_star(&game, &board, &opts, None, &mut |_| {});
                (out.best.map(|m| m.len()), out.proven)
            })
            .collect();
        let cert = runs[0].0.map(|n| {
            let out = certify(&game, &board, &options(2), n as u32);
            (out.lower_bound, out.best.map(|m| m.len()))
        });
        assert!(game.is_solved(&board) || game.lower_bound(&board) >= 1);
        (runs, cert)
    }
}

fn rule_sets() -> Vec<(&'static str, Rules)> {
    let mut sets: Vec<(&'static str, Rules)> = [
        Game::Former,
        Game::Figure,
        Game::Dust,
        Game::Samegame,
        Game::Clickomania,
    ]
    .iter()
    .map(|g| {
        let mut r = g.rules().expect("a click game");
        r.objective = Objective::Moves;
        (g.name(), r)
    })
    .collect();
    sets.push((
        "custom",
        Rules {
            clickable: Clickable::Bottom,
            min_group: 1,
            sideways: Sideways::Centre,
            objective: Objective::Moves,
        },
    ));
    sets
}

/// Boards large enough that the optimum is past the split depth (so the parallel path
/// runs), small enough for breadth-first search.
#[test]
fn parallel_ida_and_certify_match_brute_force() {
    let mut rng = fastrand::Rng::with_seed(0x0b5e_55ed);
    let sizes = [(4, 3), (3, 4), (5, 3), (4, 4), (6, 2), (3, 5)];
    let mut checked = 0;
    let mut parallel = 0;
    let mut unclearable = 0;
    for (name, rules) in rule_sets() {
        for case in 0..40 {
            let (w, h) = sizes[case % sizes.len()];
            let colours = 2 + (case % 3) as u8;
            let (reference, grid) = random_board(&mut rng, w, h, colours);
            let Some(optimum) = bfs_optimum(&reference, &rules) else {
                unclearable += 1;
                continue;
            };
            let (runs, cert) = dispatch(
                &grid,
                rules,
                tumble::edge::DEFAULT_MEMORY,
                Prove { runs: &RUNS },
            )
            .expect("a small board fits");
            for ((found, proven), (threads, shared)) in runs.iter().zip(RUNS) {
                let threads = format!("{threads}{}", if shared { " (+1, shared)" } else { "" });
                assert_eq!(
                    *found,
                    Some(optimum),
                    "{name} {} with {threads} threads",
                    grid.to_text()
                );
                assert!(*proven, "{name} {} with {threads} threads", grid.to_text());
            }
            let (lower, shorter) = cert.expect("a solution was found");
            assert!(
                lower as usize >= optimum,
                "{name}: certify reached {lower} < {optimum}"
            );
            assert_eq!(shorter, None, "{name}: certify found a shorter line");
            if optimum > 3 {
                parallel += 1;
            }
            checked += 1;
        }
    }
    assert_eq!(checked + unclearable, 6 * 40);
    assert!(checked >= 150, "only {checked} clearable boards");
    assert!(
        parallel >= 100,
        "only {parallel} boards reached the parallel split"
    );
}
