//! The byte-per-cell SameGame engine against the plain reference simulator of
//! `tests/common` (same groups at every step, same board after every click, on random
//! boards and random play), and its beam search for every goal: every line it reports is
//! legal, plays to the end and is worth what it says (by the reference simulator, and the
//! same value as [`tumble::objective::value_of`] gives, since the solver compares lines of
//! both engines), and a wide enough beam finds the brute-force best score, fewest moves to
//! clear, or fewest tiles left of small boards.

mod common;
#[path = "../examples/samegame_nested/nmcs.rs"]
mod nmcs;

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::Mutex;

use common::{best_score, bfs_optimum, fewest_tiles, random_board, RefBoard, Rng, EMPTY};
use tumble::click::ClickGame;
use tumble::grid::Grid;
use tumble::objective::value_of;
use tumble::rules::{points, Game, Objective, TILE, UNCLEARED};
use tumble::samegame::{self, playout, Board, Code, Groups, Live, Nrpa, Start, Weights};

/// The value under `goal` of a tabu [`playout`] from `b`, the end included; its moves go to
/// `moves`.
fn rollout(
    b: &Board,
    min_group: u16,
    goal: Objective,
    groups: &mut Groups,
    moves: &mut Vec<u8>,
) -> i64 {
    let (v, end) = playout(b, min_group, goal, groups, moves);
    v + goal.terminal(end.tiles())
}

fn grid_of(r: &RefBoard) -> Grid {
    r.rows_top().join("\n").parse().unwrap()
}

/// The fast engine's board of `r`.
fn fast(r: &RefBoard) -> Board {
    Board::from_grid(&grid_of(r)).unwrap()
}

/// A random board of 1 to 16 columns and rows and 1 to 5 colours, in both engines.
fn random_case(rng: &mut Rng) -> (RefBoard, Board) {
    let (w, h) = (1 + rng.usize(..16), 1 + rng.usize(..16));
    let colours = 1 + rng.usize(..5);
    let r = random_board(rng, w, h, colours, false);
    let b = fast(&r);
    (r, b)
}

/// Does `b` hold exactly the tiles of `r` (up to the palette)?
fn same(b: &Board, r: &RefBoard, g: &Grid) {
    for x in 0..r.width() {
        for y in 0..r.height() {
            let want = r.get(x, y);
            let got = b.get(x, y);
            if want == EMPTY {
                assert_eq!(got, 0, "({x},{y}) should be empty");
            } else {
                assert_ne!(got, 0, "({x},{y}) should hold a tile");
                assert_eq!(g.symbol(got) as u8, want, "({x},{y})");
            }
        }
    }
}

#[test]
fn groups_and_clicks_match_the_reference() {
    let rules = Game::Samegame.rules().unwrap();
    let mut rng = Rng::with_seed(7);
    let mut lookups = 0;
    for case in 0..300 {
        let (w, h) = (1 + rng.usize(..16), 1 + rng.usize(..16));
        let colours = 1 + rng.usize(..6);
        let mut r = random_board(&mut rng, w, h, colours, false);
        let grid = grid_of(&r);
        let mut b = Board::from_grid(&grid).unwrap();
        let mut groups = Groups::default();
        loop {
            same(&b, &r, &grid);
            b.groups(&mut groups);
            let mine: BTreeSet<(u8, u16)> = groups.list.iter().map(|g| (g.seed, g.size)).collect();
            let theirs: BTreeSet<(u8, u16)> = r
                .all_groups()
                .iter()
                .map(|g| {
                    let &(x, y) = g.iter().min().unwrap();
                    ((x * samegame::SIDE + y) as u8, g.len() as u16)
                })
                .collect();
            assert_eq!(mine, theirs, "case {case}");
            // a move as a line records it (its group's lowest cell) finds its group
            for cell in 0..=u8::MAX {
                let at = groups
                    .starting_at(cell)
                    .map(|i| (groups.list[i].seed, groups.list[i].size));
                let want = theirs.iter().find(|&&(seed, _)| seed == cell).copied();
                assert_eq!(at, want, "case {case}, cell {cell}");
                lookups += 1;
            }
            let clickable: Vec<usize> = (0..groups.list.len())
                .filter(|&i| groups.list[i].size >= 2)
                .collect();
            if clickable.is_empty() {
                break;
            }
            let id = clickable[rng.usize(..clickable.len())];
            let (x, y) = Board::xy(groups.list[id].seed);
            let tiles = b.tiles();
            b.remove(&groups, id);
            assert_eq!(b.tiles() + groups.list[id].size as u32, tiles);
            r = r.click(x, y, &rules).unwrap().0;
        }
    }
    // every cell of every position looked up, at least the 300 starts
    assert!(lookups >= 300 * 256, "{lookups} lookups");
}

/// What [`Live`] is given per legal move in the test below: its value is the move itself,
/// its weight a function of it, so both can be checked.
fn weigh(root: u8, colour: u8, size: u16) -> ((u8, u8, u16), f64) {
    (
        (root, colour, size),
        root as f64 + 0.5 * size as f64 + colour as f64 / 16.0,
    )
}

#[test]
fn live_groups_match_the_forest_after_every_click() {
    let mut rng = Rng::with_seed(11);
    let mut groups = Groups::default();
    let mut last: Option<Live<(u8, u8, u16)>> = None;
    for case in 0..2000 {
        let (w, h) = (1 + rng.usize(..16), 1 + rng.usize(..16));
        let colours = 1 + rng.usize(..6);
        let min_group = 1 + (case % 2) as u16;
        let r = random_board(&mut rng, w, h, colours, false);
        let mut b = fast(&r);
        // Some cases start again from the last case's (played out) groups: by a copy of
        // fresh ones, or found anew.
        let fresh = Live::new(&b, min_group, weigh);
        let mut live = match last.take() {
            Some(mut old) if case % 3 == 1 => {
                old.restart(&fresh, weigh);
                old
            }
            Some(mut old) if case % 3 == 2 => {
                old.reset(&b, min_group, weigh);
                old
            }
            _ => fresh,
        };
        loop {
            assert_eq!(live.board(), &b, "case {case}");
            b.groups(&mut groups);
            // Every group (singletons too) is known by its lowest cell, colour and size.
            for g in &groups.list {
                let id = live.at(g.seed).expect("a group at its lowest cell");
                assert_eq!(live.group(id), (g.seed, g.colour, g.size), "case {case}");
            }
            let want: BTreeSet<(u8, u8, u16)> = groups
                .list
                .iter()
                .filter(|g| g.size >= min_group)
                .map(|g| (g.seed, g.colour, g.size))
                .collect();
            let got: BTreeSet<(u8, u8, u16)> =
                live.ids().iter().map(|&id| live.group(id)).collect();
            assert_eq!(got, want, "case {case}");
            assert_eq!(
                live.ids().len(),
                want.len(),
                "case {case}: a move listed twice"
            );
            for (k, &id) in live.ids().iter().enumerate() {
                let (value, weight) = weigh(live.group(id).0, live.group(id).1, live.group(id).2);
                assert_eq!(live.values()[k], value, "case {case}");
                assert_eq!(live.weights()[k], weight, "case {case}");
            }
            if live.ids().is_empty() {
                assert_eq!(
                    groups.list.iter().filter(|g| g.size >= min_group).count(),
                    0
                );
                break;
            }
            let id = live.ids()[rng.usize(..live.ids().len())];
            let seed = live.group(id).0;
            let size = live.play(id, weigh);
            let n = groups.list.iter().position(|g| g.seed == seed).unwrap();
            assert_eq!(size, groups.list[n].size, "case {case}");
            b.remove(&groups, n);
        }
        last = Some(live);
    }
}

#[test]
fn boards_with_a_gap_or_too_big_are_refused() {
    let gap: Grid = ".A.A\nBA.A".parse().unwrap();
    assert!(Board::from_grid(&gap).is_none());
    let big: Grid = vec!["A".repeat(17); 2].join("\n").parse().unwrap();
    assert!(Board::from_grid(&big).is_none());
}

/// Plays `cells` on the reference board: the line's value under `goal` (as [`Objective`]
/// defines it), or `None` if a move is illegal or the line stops early.
fn reference_value(start: &RefBoard, goal: Objective, cells: &[u8]) -> Option<i64> {
    let rules = Game::Samegame.rules().unwrap();
    let mut r = start.clone();
    let mut score = 0;
    for &i in cells {
        let (x, y) = Board::xy(i);
        let (next, g) = r.click(x, y, &rules).ok()?;
        score += points(g.len() as u32);
        r = next;
    }
    if !r.clickable_groups(&rules).is_empty() {
        return None; // a line plays to the end
    }
    let (moves, tiles) = (cells.len() as i64, r.tiles() as i64);
    Some(match goal {
        Objective::Score => score + if r.is_empty() { 1000 } else { 0 },
        Objective::Moves if tiles == 0 => -moves,
        Objective::Moves => UNCLEARED - TILE * tiles - moves,
        Objective::Tiles => -TILE * tiles - moves,
    })
}

fn reference_score(start: &RefBoard, cells: &[u8]) -> Option<i64> {
    reference_value(start, Objective::Score, cells)
}

/// The value the bitboard engine's objectives give `cells` (replayed into its clicks).
fn generic_value(r: &RefBoard, objective: Objective, cells: &[u8]) -> Option<i64> {
    let rules = Game::Samegame.rules().unwrap();
    let (game, start) = ClickGame::<u64>::new(&grid_of(r), rules).ok()?;
    let mut s = start;
    let mut clicks = Vec::new();
    for &i in cells {
        let (x, y) = Board::xy(i);
        let (click, group) = game.group_at(&s, x, y)?;
        s = game.remove(&s, group, click.colour);
        clicks.push(click);
    }
    value_of(&game, objective, &start, &clicks)
}

#[test]
fn beam_lines_are_legal_and_wide_beams_find_the_best_score() {
    let rules = Game::Samegame.rules().unwrap();
    let mut rng = Rng::with_seed(11);
    for case in 0..40 {
        let (w, h) = (2 + rng.usize(..4), 2 + rng.usize(..3));
        let colours = 2 + rng.usize(..3);
        let r = random_board(&mut rng, w, h, colours, false);
        let b = fast(&r);
        let lines = Mutex::new(Vec::new());
        let found = |v: i64, cells: &[u8]| lines.lock().unwrap().push((v, cells.to_vec()));
        let stop = AtomicBool::new(false);
        let sets = [
            Weights::default(),
            Weights {
                playouts: true,
                ..Weights::default()
            },
        ];
        let set = &sets[case % 2];
        let (best, _) = samegame::portfolio(
            &b,
            2,
            std::slice::from_ref(set),
            2,
            1 << 16,
            &found,
            &stop,
            None,
        );
        let lines = lines.into_inner().unwrap();
        assert!(!lines.is_empty());
        for pair in lines.windows(2) {
            assert!(pair[1].0 > pair[0].0, "improvements are strict");
        }
        for (v, cells) in &lines {
            assert_eq!(reference_score(&r, cells), Some(*v), "case {case}");
        }
        assert_eq!(best, best_score(&r, &rules), "case {case}");
    }
}

#[test]
fn playouts_are_legal_lines_worth_their_value() {
    let mut rng = Rng::with_seed(5);
    let mut groups = Groups::default();
    for _ in 0..100 {
        let (r, b) = random_case(&mut rng);
        let mut moves = Vec::new();
        let goal = [Objective::Score, Objective::Moves, Objective::Tiles][rng.usize(..3)];
        let v = rollout(&b, 2, goal, &mut groups, &mut moves);
        assert_eq!(reference_value(&r, goal, &moves), Some(v));
    }
}

/// The tabu playout takes, at every move, the smallest clickable group of a colour other
/// than the one with the most tiles at its start (the lowest such group on a tie), and a
/// group of that colour only when no other is left: checked move by move against that
/// rule applied to the numbered groups.
#[test]
fn playouts_follow_the_tabu_rule() {
    let mut rng = Rng::with_seed(11);
    let (mut groups, mut mine) = (Groups::default(), Groups::default());
    for _ in 0..100 {
        let (_, mut b) = random_case(&mut rng);
        let mut moves = Vec::new();
        rollout(&b, 2, Objective::Score, &mut mine, &mut moves);
        let counts = *b.counts();
        let most = (0..counts.len()).fold(0, |m, c| if counts[c] > counts[m] { c } else { m });
        let tabu = most as u8 + 1;
        for &cell in &moves {
            b.groups(&mut groups);
            let want = groups
                .list
                .iter()
                .filter(|g| g.size >= 2)
                .min_by_key(|g| (g.colour == tabu, g.size, g.seed))
                .expect("a playout move is clickable");
            assert_eq!(cell, want.seed);
            let id = groups.list.iter().position(|g| g.seed == cell).unwrap();
            b.remove(&groups, id);
        }
        b.groups(&mut groups);
        assert!(
            groups.list.iter().all(|g| g.size < 2),
            "it plays to the end"
        );
    }
}

/// A beam the deadline has already cut offers the line of a playout from its start.
#[test]
fn a_beam_cut_short_offers_a_playout() {
    let mut rng = Rng::with_seed(13);
    let mut groups = Groups::default();
    for _ in 0..50 {
        let (r, b) = random_case(&mut rng);
        let mut want = Vec::new();
        let v = rollout(&b, 2, Objective::Score, &mut groups, &mut want);
        let lines = Mutex::new(Vec::new());
        let found = |v: i64, cells: &[u8]| lines.lock().unwrap().push((v, cells.to_vec()));
        let floor = AtomicI64::new(i64::MIN);
        let stop = AtomicBool::new(false);
        let w = samegame::default_sets(Objective::Score)[0];
        let now = std::time::Instant::now();
        let out = samegame::beam(&b, 2, 64, &w, &floor, &found, &stop, Some(now));
        assert_eq!(out, None);
        assert_eq!(lines.into_inner().unwrap(), vec![(v, want.clone())]);
        assert_eq!(reference_score(&r, &want), Some(v));
    }
}

#[test]
fn components_count_the_groups_less_the_holes() {
    let mut rng = Rng::with_seed(3);
    let mut groups = Groups::default();
    for _ in 0..200 {
        let (r, b) = random_case(&mut rng);
        b.groups(&mut groups);
        let n = groups.list.len() as i64;
        // Euler's formula misses only the holes: a group ringed by another colour.
        assert!(b.components() <= n);
        if r.height() <= 2 || r.width() <= 2 {
            assert_eq!(b.components(), n, "no room for a hole");
        }
    }
}

#[test]
fn the_portfolio_reports_only_improvements_and_returns_the_best() {
    let mut rng = Rng::with_seed(17);
    let r = random_board(&mut rng, 8, 8, 4, false);
    let b = fast(&r);
    let best = Mutex::new(i64::MIN);
    let found = |v: i64, cells: &[u8]| {
        assert_eq!(reference_score(&r, cells), Some(v));
        let mut best = best.lock().unwrap();
        *best = (*best).max(v);
    };
    let stop = AtomicBool::new(false);
    let (v, _) = samegame::portfolio(
        &b,
        2,
        &samegame::default_sets(Objective::Score),
        2,
        256,
        &found,
        &stop,
        None,
    );
    assert_eq!(v, best.into_inner().unwrap());
}

#[test]
fn clearing_beams_report_legal_lines_and_wide_ones_find_the_optimum() {
    let rules = Game::Samegame.rules().unwrap();
    let mut rng = Rng::with_seed(23);
    let (mut cleared, mut stuck) = (0, 0);
    for case in 0..60 {
        let (w, h) = (2 + rng.usize(..4), 2 + rng.usize(..3));
        let colours = 2 + rng.usize(..3);
        let r = random_board(&mut rng, w, h, colours, false);
        if w * h > 64 {
            continue; // the one-word bitboard engine checks the values
        }
        let b = fast(&r);
        let goal = if case % 2 == 0 {
            Objective::Moves
        } else {
            Objective::Tiles
        };
        let lines = Mutex::new(Vec::new());
        let found = |v: i64, cells: &[u8]| lines.lock().unwrap().push((v, cells.to_vec()));
        let stop = AtomicBool::new(false);
        let w = Weights {
            playout_tiles: [0, 8, u32::MAX][case % 3],
            ..Weights::clearing(goal)
        };
        let (best, _) = samegame::portfolio(&b, 2, &[w], 2, 1 << 16, &found, &stop, None);
        let lines = lines.into_inner().unwrap();
        assert!(!lines.is_empty(), "case {case}");
        for pair in lines.windows(2) {
            assert!(pair[1].0 > pair[0].0, "improvements are strict");
        }
        for (v, cells) in &lines {
            assert_eq!(reference_value(&r, goal, cells), Some(*v), "case {case}");
            assert_eq!(generic_value(&r, goal, cells), Some(*v), "case {case}");
        }
        assert_eq!(best, lines.last().unwrap().0);
        // Brute force: the fewest tiles that can be left (with the fewest clicks that
        // leave them); clearing in the fewest clicks when the board can be cleared.
        let (tiles, clicks) = fewest_tiles(&r, &rules);
        let want = match (goal, bfs_optimum(&r, &rules)) {
            (Objective::Moves, Some(n)) => {
                assert_eq!(tiles, 0);
                -(n as i64)
            }
            (Objective::Moves, None) => UNCLEARED - TILE * tiles as i64 - clicks as i64,
            _ => -TILE * tiles as i64 - clicks as i64,
        };
        assert_eq!(best, want, "case {case}");
        if tiles == 0 {
            cleared += 1;
        } else {
            stuck += 1;
        }
    }
    assert!(
        cleared > 5 && stuck > 5,
        "both kinds of board: {cleared} {stuck}"
    );
}

/// NRPA (from the start, or from a prefix, seeded with a tabu playout's line) and nested
/// Monte-Carlo search report legal lines worth what they say, by the reference simulator
/// and the bitboard engine's objectives, the best of them the value the search ends with; a
/// seeded NRPA never ends below its seed, and NMCS returns a line worth what it says.
#[test]
fn nested_searches_report_legal_lines_worth_their_value() {
    let mut rng = Rng::with_seed(29);
    let mut groups = Groups::default();
    for case in 0..30 {
        let (w, h) = (2 + rng.usize(..7), 2 + rng.usize(..7));
        let colours = 2 + rng.usize(..4);
        let r = random_board(&mut rng, w, h, colours, false);
        let b = fast(&r);
        // A prefix: the first move of a tabu playout, when there is one.
        let mut first = Vec::new();
        rollout(&b, 2, Objective::Score, &mut groups, &mut first);
        let (prefix, from, value) = match first.first() {
            Some(&m) if case % 2 == 1 => {
                b.groups(&mut groups);
                let id = groups.list.iter().position(|g| g.seed == m).unwrap();
                let mut c = b;
                c.remove(&groups, id);
                (vec![m], c, points(groups.list[id].size as u32))
            }
            _ => (Vec::new(), b, 0),
        };
        let start = Start {
            board: &from,
            prefix: &prefix,
            value,
        };
        let mut seed = Vec::new();
        let seeded = value + rollout(&from, 2, Objective::Score, &mut groups, &mut seed);
        let set = Nrpa {
            level: 2,
            iterations: 8,
            code: [Code::Cell, Code::CellSize][case % 2],
            size: 0.1,
            // With a share below 1 the second thread may keep another colour for last.
            share: [1.0, 0.5][case / 2 % 2],
            ..Nrpa::default()
        };
        let lines = Mutex::new(Vec::new());
        let found = |v: i64, cells: &[u8]| lines.lock().unwrap().push((v, cells.to_vec()));
        let stop = AtomicBool::new(false);
        let floor = AtomicI64::new(i64::MIN);
        let seed = (case % 3 != 0).then_some(&seed[..]);
        let playouts = samegame::nrpa(
            start,
            2,
            Objective::Score,
            &set,
            2,
            seed,
            &floor,
            &found,
            &stop,
            None,
        );
        assert_eq!(playouts, 2 * 8 * 8, "two threads, each a level 2 of 8 × 8");
        let nrpa_lines = std::mem::take(&mut *lines.lock().unwrap());
        let best = floor.load(Ordering::Relaxed);
        assert_eq!(
            nrpa_lines.iter().map(|l| l.0).max(),
            Some(best),
            "case {case}"
        );
        if seed.is_some() {
            assert!(
                best >= seeded,
                "case {case}: {best} below the seed's {seeded}"
            );
        }
        let floor = AtomicI64::new(i64::MIN);
        let (v, moves) = nmcs::nmcs(
            start,
            2,
            Objective::Score,
            1 + case % 2,
            &floor,
            &found,
            &stop,
            None,
        );
        let mut line = prefix.clone();
        line.extend(&moves);
        assert_eq!(reference_score(&r, &line), Some(value + v), "case {case}");
        assert_eq!(floor.load(Ordering::Relaxed), value + v, "case {case}");
        // Both search in parallel (NRPA on two threads, NMCS's top level on the rayon
        // pool), so lines may be reported out of order: the best is the floor.
        let nmcs_lines = lines.into_inner().unwrap();
        assert_eq!(
            nmcs_lines.iter().map(|l| l.0).max(),
            Some(value + v),
            "case {case}"
        );
        for lines in [nrpa_lines, nmcs_lines] {
            for (v, cells) in &lines {
                assert!(cells.starts_with(&prefix));
                assert_eq!(reference_score(&r, cells), Some(*v), "case {case}");
                if w * h <= 64 {
                    assert_eq!(
                        generic_value(&r, Objective::Score, cells),
                        Some(*v),
                        "case {case}"
                    );
                }
            }
        }
    }
}

/// With a deadline, NRPA's top level begins again several times per thread and tries
/// every near-plentiful colour as the tabu colour ([`Nrpa::runs`], [`Nrpa::share`]), with
/// and without a penalty on the tiles left ([`Nrpa::penalty`]): every line it reports is
/// legal and worth its value, and it never ends below the seed.
#[test]
fn nrpa_with_restarts_and_tabu_colours_reports_legal_lines() {
    let mut rng = Rng::with_seed(31);
    let mut groups = Groups::default();
    for case in 0..6 {
        let r = random_board(&mut rng, 8, 8, 3 + case % 2, false);
        let b = fast(&r);
        let mut seed = Vec::new();
        let seeded = rollout(&b, 2, Objective::Score, &mut groups, &mut seed);
        let set = Nrpa {
            level: 2,
            iterations: 6,
            runs: 4,
            share: 0.5,
            // Ranking lines by the tiles they leave changes what it keeps, not what it reports.
            penalty: [0.0, 1.0][case % 2],
            ..Nrpa::default()
        };
        let lines = Mutex::new(Vec::new());
        let found = |v: i64, cells: &[u8]| lines.lock().unwrap().push((v, cells.to_vec()));
        let stop = AtomicBool::new(false);
        let floor = AtomicI64::new(i64::MIN);
        let deadline = std::time::Instant::now() + std::time::Duration::from_millis(40);
        let playouts = samegame::nrpa(
            Start::at(&b),
            2,
            Objective::Score,
            &set,
            2,
            Some(&seed),
            &floor,
            &found,
            &stop,
            Some(deadline),
        );
        assert!(playouts > 0, "case {case}");
        let best = floor.load(Ordering::Relaxed);
        assert!(
            best >= seeded,
            "case {case}: {best} below the seed's {seeded}"
        );
        let lines = lines.into_inner().unwrap();
        assert_eq!(lines.iter().map(|l| l.0).max(), Some(best), "case {case}");
        for (v, cells) in &lines {
            assert_eq!(reference_score(&r, cells), Some(*v), "case {case}");
        }
    }
}
