//! The bitboard engine against the plain reference simulator of `tests/common`: random
//! boards under every rule set, random legal play, cell-for-cell comparison after every move
//! and the same set of clickable groups at every step; bounds and `solve` against brute force.

mod common;

use std::collections::{BTreeSet, HashMap};

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use common::{
    best_score, bfs_optimum, fewest_tiles, random_board, replay, Cell, RefBoard, Rng, EMPTY,
};
use tumble::bits::{Bits, Wide};
use tumble::click::{ClickBoard, ClickGame};
use tumble::edge::{DEFAULT_MEMORY as EDGE_MEMORY, LONG_CROSSING_REACH};
use tumble::grid::Grid;
use tumble::puzzle::{Puzzle, INFINITE};
use tumble::rules::{Clickable, Game, Objective, Rules, Sideways};
use tumble::search::{ida_star, SearchOptions};
use tumble::solve::{dispatch, solve, Setup, WithEngine};

/// A named game or a custom combination of knobs (objective: fewest moves).
fn rules_strategy() -> impl Strategy<Value = (Game, Rules)> {
    let named = prop::sample::select(vec![
        Game::Former,
        Game::Figure,
        Game::Dust,
        Game::Samegame,
        Game::Clickomania,
    ])
    .prop_map(|g| (g, g.rules().unwrap()));
    let custom = (
        prop::sample::select(vec![Clickable::Any, Clickable::Bottom]),
        1u32..=3,
        prop::sample::select(vec![Sideways::None, Sideways::Left, Sideways::Centre]),
    )
        .prop_map(|(clickable, min_group, sideways)| {
            (
                Game::Former,
                Rules {
                    clickable,
                    min_group,
                    sideways,
                    objective: Objective::Moves,
                },
            )
        });
    prop_oneof![named, custom]
}

/// The engine's board as the reference's text rows (top first).
fn engine_rows<B: Bits>(game: &ClickGame<B>, b: &ClickBoard<B>) -> Vec<String> {
    game.grid(b).rows()
}

fn cells_of<B: Bits>(game: &ClickGame<B>, group: B) -> BTreeSet<Cell> {
    group.iter().map(|i| game.geom.coords(i)).collect()
}

/// Checks one position: cells, the set of clickable groups (with their click data),
/// `group_at` and `legal_click` at a few random cells.
fn compare_position<B: Bits>(
    game: &ClickGame<B>,
    b: &ClickBoard<B>,
    r: &RefBoard,
    rules: &Rules,
    rng: &mut Rng,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(engine_rows(game, b), r.rows_top(), "cells differ");
    prop_assert_eq!(b.tiles() as usize, r.tiles());
    prop_assert_eq!(b.is_empty(), r.is_empty());
    prop_assert_eq!(game.colours_left(b) as usize, r.colours_left());

    let engine_groups = game.groups(b);
    let mut engine_set = BTreeSet::new();
    for (click, group) in &engine_groups {
        let cells = cells_of(game, *group);
        let (cx, cy) = game.click_xy(click);
        prop_assert!(cells.contains(&(cx, cy)), "click cell outside its group");
        prop_assert_eq!(click.size as usize, cells.len());
        let sym = game.grid(b).symbol(click.colour);
        prop_assert_eq!(sym as u8, r.get(cx, cy), "click colour");
        let x0 = cells.iter().map(|c| c.0).min().unwrap();
        let x1 = cells.iter().map(|c| c.0).max().unwrap();
        prop_assert_eq!((click.x0 as usize, click.x1 as usize), (x0, x1));
        engine_set.insert(cells);
    }
    prop_assert_eq!(
        engine_set.len(),
        engine_groups.len(),
        "a group listed twice"
    );
    let ref_set: BTreeSet<BTreeSet<Cell>> = r.clickable_groups(rules).into_iter().collect();
    prop_assert_eq!(engine_set, ref_set, "clickable groups differ");

    // Random cells, some outside the board.
    let (w, h) = (r.width(), r.height());
    for _ in 0..3 {
        let x = rng.usize(..w + 1);
        let y = rng.usize(..h + 1);
        let inside = x < w && y < h;
        let at = game.group_at(b, x, y);
        if inside && r.get(x, y) != EMPTY {
            let (click, group) = at.expect("group_at finds the tile's group");
            prop_assert_eq!(cells_of(game, group), r.flood(x, y));
            prop_assert_eq!(click.size as usize, r.flood(x, y).len());
        } else {
            prop_assert!(at.is_none(), "group_at on an empty or outside cell");
        }
        match (game.legal_click(b, x, y), r.click(x, y, rules)) {
            (Ok((_, g)), Ok((_, rg))) => prop_assert_eq!(cells_of(game, g), rg),
            (Err(e), Err(_)) => prop_assert!(!e.is_empty() && !e.contains('\n')),
            (e, rr) => prop_assert!(
                false,
                "legal_click disagrees at ({},{}): engine {:?}, reference {:?}",
                x,
                y,
                e.map(|_| ()),
                rr.map(|_| ())
            ),
        }
    }
    Ok(())
}

/// Plays random legal moves to the end on both, comparing after every move. Returns the
/// number of moves played.
fn play<B: Bits>(
    game: &ClickGame<B>,
    start: ClickBoard<B>,
    r0: &RefBoard,
    rules: &Rules,
    rng: &mut Rng,
) -> Result<usize, TestCaseError> {
    let mut moves = 0;
    play_checking(game, start, r0, rules, rng, |b, r, rng| {
        compare_position(game, b, r, rules, rng)?;
        // Gravity holds after every move under every rule set.
        prop_assert!(r.obeys_gravity());
        moves += 1;
        Ok(())
    })?;
    Ok(moves - 1)
}

/// Plays random legal moves to the end on the engine and the reference side by side,
/// calling `check` on every position (the start included).
fn play_checking<B: Bits>(
    game: &ClickGame<B>,
    start: ClickBoard<B>,
    r0: &RefBoard,
    rules: &Rules,
    rng: &mut Rng,
    mut check: impl FnMut(&ClickBoard<B>, &RefBoard, &mut Rng) -> Result<(), TestCaseError>,
) -> Result<(), TestCaseError> {
    let (mut b, mut r) = (start, r0.clone());
    loop {
        check(&b, &r, rng)?;
        let groups = r.clickable_groups(rules);
        if groups.is_empty() {
            return Ok(());
        }
        let g = &groups[rng.usize(..groups.len())];
        let (x, y) = *g.iter().nth(rng.usize(..g.len())).unwrap();
        let (click, group) = game
            .legal_click(&b, x, y)
            .map_err(|e| TestCaseError::fail(format!("legal move ({x},{y}) refused: {e}")))?;
        b = game.remove(&b, group, click.colour);
        r = r.click(x, y, rules).unwrap().0;
    }
}

/// Runs [`play`] with the engine `dispatch` picks.
struct Play<'a> {
    r: &'a RefBoard,
    rules: Rules,
    rng: &'a mut Rng,
}

impl WithEngine for Play<'_> {
    type Output = Result<usize, TestCaseError>;
    fn run<B: Bits>(self, game: ClickGame<B>, board: ClickBoard<B>) -> Self::Output {
        play(&game, board, self.r, &self.rules, self.rng)
    }
}

fn grid_of(r: &RefBoard) -> Grid {
    Grid::parse(&r.inline()).expect("a reference board parses")
}

/// Plays on the dispatched engine and on `Wide<8>` (the widest), from the same seed.
fn check_board(r: &RefBoard, rules: Rules, seed: u64) -> Result<usize, TestCaseError> {
    let grid = grid_of(r);
    prop_assert_eq!(grid.rows(), r.rows_top(), "parse and print round trip");
    let mut rng = Rng::with_seed(seed);
    let n = dispatch(
        &grid,
        rules,
        EDGE_MEMORY,
        Play {
            r,
            rules,
            rng: &mut rng,
        },
    )
    .map_err(|e| TestCaseError::fail(e.to_string()))??;
    let (game, board) = ClickGame::<Wide<8>>::new(&grid, rules).unwrap();
    let mut rng = Rng::with_seed(seed);
    let n8 = play(&game, board, r, &rules, &mut rng)?;
    prop_assert_eq!(n, n8);
    Ok(n)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// Small and medium boards (1×1 up to 12×12) under every rule set.
    #[test]
    fn engine_matches_reference(
        (_game, rules) in rules_strategy(),
        w in 1usize..=12,
        h in 1usize..=12,
        colours in 1usize..=6,
        holes in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::with_seed(seed);
        let r = random_board(&mut rng, w, h, colours, holes);
        check_board(&r, rules, rng.u64(..))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    /// Boards of more than 64 cells (multi-word bitboards), up to 22×22 and 8×64 / 64×8.
    #[test]
    fn engine_matches_reference_on_big_boards(
        (_game, rules) in rules_strategy(),
        (w, h) in prop_oneof![
            (9usize..=22, 9usize..=22),
            Just((10, 10)),
            Just((15, 15)),
            Just((64, 8)),
            Just((8, 64)),
            Just((1, 64)),
            Just((64, 1)),
        ],
        colours in 1usize..=6,
        holes in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::with_seed(seed);
        let r = random_board(&mut rng, w, h, colours, holes);
        check_board(&r, rules, rng.u64(..))?;
    }
}

/// Bounds of the engine at one position of a tiny board, against the brute force.
struct Bounds<'a> {
    r: &'a RefBoard,
    rules: Rules,
}

impl WithEngine for Bounds<'_> {
    type Output = Result<(), TestCaseError>;
    fn run<B: Bits>(self, game: ClickGame<B>, board: ClickBoard<B>) -> Self::Output {
        let opt = bfs_optimum(self.r, &self.rules);
        let bound = game.clicks_bound(&board);
        if let Some(o) = opt {
            prop_assert!(
                bound as usize <= o,
                "clicks_bound {} > optimum {}",
                bound,
                o
            );
            prop_assert!(game.colours_left(&board) as usize <= o);
            if self.rules.sideways == Sideways::None {
                let runs = game.column_runs(&board);
                prop_assert!(runs as usize <= o, "column_runs {} > optimum {}", runs, o);
            }
        }
        if bound >= INFINITE {
            prop_assert_eq!(opt, None, "bound says unclearable but it clears");
        }
        Ok(())
    }
}

/// A tiny board: at most 12 cells.
fn tiny_size() -> impl Strategy<Value = (usize, usize)> {
    (1usize..=6).prop_flat_map(|w| (Just(w), 1usize..=(12 / w)))
}

fn solve_setup(game: Game, rules: Rules) -> Setup {
    let mut setup = Setup::new(game);
    setup.rules = rules;
    setup.search.threads = 1;
    setup.search.memory = 16 << 20;
    setup
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// `clicks_bound`, `column_runs` and `colours_left` never exceed the optimum, at every
    /// position of a random line of play.
    #[test]
    fn bounds_are_admissible_on_tiny_boards(
        (_game, rules) in rules_strategy(),
        (w, h) in tiny_size(),
        colours in 1usize..=4,
        holes in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::with_seed(seed);
        let mut r = random_board(&mut rng, w, h, colours, holes);
        loop {
            dispatch(&grid_of(&r), rules, EDGE_MEMORY, Bounds { r: &r, rules })
                .map_err(|e| TestCaseError::fail(e.to_string()))??;
            let groups = r.clickable_groups(&rules);
            if groups.is_empty() {
                break;
            }
            r = r.remove(&groups[rng.usize(..groups.len())], &rules);
        }
    }

    /// `solve` proves the brute-force optimum, and its moves replay legally (through the
    /// reference) to what it claims.
    #[test]
    fn solve_matches_brute_force_on_tiny_boards(
        (game, rules) in rules_strategy(),
        (w, h) in tiny_size(),
        colours in 1usize..=4,
        holes in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::with_seed(seed);
        let r = random_board(&mut rng, w, h, colours, holes);
        let report = solve(&grid_of(&r), &solve_setup(game, rules), &mut |_| {})
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let clicks: Vec<Cell> = report
            .moves
            .iter()
            .map(|m| (m.x.unwrap(), m.y.unwrap()))
            .collect();
        let (end, sizes) = replay(&r, &rules, &clicks)
            .map_err(|(n, why)| TestCaseError::fail(format!("move {n} illegal: {why}")))?;
        prop_assert_eq!(report.length, clicks.len());
        prop_assert_eq!(report.tiles_left, end.tiles());
        for (m, n) in report.moves.iter().zip(&sizes) {
            prop_assert_eq!(m.size, Some(*n as u32));
        }
        prop_assert!(report.optimal, "a tiny board is proven");
        match rules.objective {
            Objective::Moves => match bfs_optimum(&r, &rules) {
                Some(o) => {
                    prop_assert!(end.is_empty(), "the solution clears the board");
                    prop_assert_eq!(report.length, o, "optimum");
                    prop_assert!(report.lower_bound as usize <= o);
                }
                None => {
                    // Unclearable: the answer is the fewest tiles left, and says so.
                    let (tiles, clicks) = fewest_tiles(&r, &rules);
                    prop_assert_eq!((report.tiles_left, report.length), (tiles, clicks));
                    prop_assert!(report.note.is_some(), "an unclearable board says so");
                }
            },
            Objective::Tiles => {
                let (tiles, clicks) = fewest_tiles(&r, &rules);
                prop_assert_eq!((report.tiles_left, report.length), (tiles, clicks));
            }
            Objective::Score => {
                prop_assert_eq!(report.score, best_score(&r, &rules), "best SameGame score");
            }
        }
    }
}

/// The row squeeze on a hand-checked example (odd width): RULES.md's definition, cell by
/// cell, with the reference and the engine.
#[test]
fn squeeze_odd_width_example() {
    let rules = Game::Dust.rules().unwrap();
    // W = 5, m = 2: columns 0..2 slide right to end at 1, columns 2..5 slide left from 2.
    let r = RefBoard::from_rows_top(&["A.B.C", "ABBCC"]);
    // The A group is (0,0),(0,1): remove it, emptying column 0.
    let (after, g) = r.click(0, 0, &rules).unwrap();
    assert_eq!(g.len(), 2);
    // Gravity leaves row 1 = ". . B . C" and row 0 = ". B B C C"; the squeeze gives
    // row 1: left tiles [] , right [B, C] from column 2 -> "..BC."
    // row 0: left [B] ends at column 1 -> ".B", right [B,C,C] from 2 -> "BCC"
    assert_eq!(after.rows_top(), vec!["..BC.", ".BBCC"]);
    let grid = grid_of(&r);
    let (game, b) = ClickGame::<u64>::new(&grid, rules).unwrap();
    let (click, group) = game.legal_click(&b, 0, 1).unwrap();
    let b = game.remove(&b, group, click.colour);
    assert_eq!(engine_rows(&game, &b), after.rows_top());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The forced-move rule (`src/click.rs`: a whole run with nothing resting on it may be
    /// clicked first) never loses a move: whenever the engine names a forced group, the
    /// brute-force optimum is one more than the optimum after clicking it. Fixed-column
    /// rules only, where the rule applies; every position of a random line of play.
    #[test]
    fn forced_moves_keep_the_optimum(
        bottom in any::<bool>(),
        min_group in 1u32..=2,
        (w, h) in (1usize..=4).prop_flat_map(|w| (Just(w), 1usize..=(14 / w).min(5))),
        colours in 1usize..=4,
        holes in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let rules = Rules {
            clickable: if bottom { Clickable::Bottom } else { Clickable::Any },
            min_group,
            sideways: Sideways::None,
            objective: Objective::Moves,
        };
        let mut rng = Rng::with_seed(seed);
        let mut r = random_board(&mut rng, w, h, colours, holes);
        loop {
            let (g, b) = ClickGame::<u64>::new(&grid_of(&r), rules)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            if let Some((click, _)) = g.forced_group(&b) {
                let (x, y) = g.click_xy(&click);
                let group = r.flood(x, y);
                let after = r.remove(&group, &rules);
                let here = bfs_optimum(&r, &rules);
                let there = bfs_optimum(&after, &rules);
                prop_assert_eq!(here, there.map(|n| n + 1), "forced ({},{}) on {}", x, y, r.inline());
            }
            let groups = r.clickable_groups(&rules);
            if groups.is_empty() {
                break;
            }
            r = r.remove(&groups[rng.usize(..groups.len())], &rules);
        }
    }
}

/// The property above is not vacuous: over many small boards the rule fires often, and
/// every time it keeps the optimum.
#[test]
fn forced_moves_fire_and_keep_the_optimum() {
    let rules = Game::Former.rules().unwrap();
    let (mut fired, mut positions) = (0, 0);
    for seed in 0..400u64 {
        let mut rng = Rng::with_seed(seed);
        let mut r = random_board(&mut rng, 3, 4, 3, seed % 2 == 0);
        loop {
            positions += 1;
            let (g, b) = ClickGame::<u64>::new(&grid_of(&r), rules).unwrap();
            if let Some((click, _)) = g.forced_group(&b) {
                fired += 1;
                let (x, y) = g.click_xy(&click);
                let after = r.remove(&r.flood(x, y), &rules);
                assert_eq!(
                    bfs_optimum(&r, &rules),
                    bfs_optimum(&after, &rules).map(|n| n + 1),
                    "forced ({x},{y}) on {}",
                    r.inline()
                );
            }
            let groups = r.clickable_groups(&rules);
            if groups.is_empty() {
                break;
            }
            r = r.remove(&groups[rng.usize(..groups.len())], &rules);
        }
    }
    assert!(
        fired * 10 > positions,
        "fired {fired} times in {positions} positions"
    );
}

/// How often, along random lines of play, the edge bound rose above the column runs and
/// the joint part above both edges' own.
#[derive(Default)]
struct EdgeCounts {
    above_runs: usize,
    joint_above_sides: usize,
    wide_above_narrow: usize,
}

/// The edge bound of every position along a random line of play from one start (so the
/// engine's masks of starting tiles are exercised, not rebuilt), against the brute-force
/// optimum; and the bound each child gets from its parent ([`Puzzle::bounded_successors`],
/// updated from the parent's edge terms) never above the child's own. `narrow` is the
/// game with its narrow edge slices only, whose bound is never above the game's.
fn edge_bound_along_play<B: Bits>(
    game: &ClickGame<B>,
    narrow: &ClickGame<B>,
    start: ClickBoard<B>,
    r0: &RefBoard,
    rules: &Rules,
    rng: &mut Rng,
    counts: &mut EdgeCounts,
) -> Result<(), TestCaseError> {
    let mut kids = Vec::new();
    play_checking(game, start, r0, rules, rng, |b, r, _| {
        let edge = game.edge_bound(b);
        let runs = game.column_runs(b);
        let opt = bfs_optimum(r, rules).expect("with groups of one every board clears");
        prop_assert!(
            edge as usize <= opt,
            "edge bound {} > optimum {} at\n{}",
            edge,
            opt,
            r.rows_top().join("\n")
        );
        prop_assert_eq!(game.clicks_bound(b), edge.max(runs));
        counts.above_runs += usize::from(edge > runs);
        let without_wide = narrow.edge_bound(b);
        prop_assert!(
            without_wide <= edge,
            "narrow {} > wide {}",
            without_wide,
            edge
        );
        counts.wide_above_narrow += usize::from(edge > without_wide);
        if let Some([l, r, joint, crossing]) = game.edge_bound_parts(b) {
            counts.joint_above_sides += usize::from(joint > l.max(r));
            prop_assert!(
                crossing as usize <= opt,
                "crossing bound {} > optimum {}",
                crossing,
                opt
            );
        }
        kids.clear();
        game.bounded_successors(b, INFINITE - 1, &mut kids);
        for (_, child, h) in &kids {
            prop_assert!(
                *h <= game.clicks_bound(child),
                "a child's bound from its parent {} > its own {}",
                h,
                game.clicks_bound(child)
            );
        }
        Ok(())
    })
}

/// [`edge_bound_along_play`] from `cases` random Former boards of the sizes `(w, h)` taken
/// in turn, with 2 to 4 colours, each of whose edge slices is `slice` columns wide; the
/// edge bound must rise above the column runs somewhere, and its joint part above both
/// edges' own; with three-column slices (and so four-column wide ones besides), the
/// wide slices must raise it somewhere.
fn edge_bound_on_random_boards(seed: u64, cases: usize, sizes: &[(usize, usize)], slice: usize) {
    let rules = Game::Former.rules().unwrap();
    let mut rng = Rng::with_seed(seed);
    let mut counts = EdgeCounts::default();
    for case in 0..cases {
        let (w, h) = sizes[case % sizes.len()];
        let colours = 2 + case % 3;
        let r = random_board(&mut rng, w, h, colours, case % 4 == 0);
        let grid = grid_of(&r);
        let (game, board) = ClickGame::<u64>::new(&grid, rules).unwrap();
        assert_eq!(game.edge_slice(), slice, "case {case}");
        let narrow = game.with_narrow_edges();
        edge_bound_along_play(&game, &narrow, board, &r, &rules, &mut rng, &mut counts)
            .unwrap_or_else(|e| panic!("case {case}: {e}"));
    }
    assert!(
        counts.above_runs > 0,
        "the edge bound never rose above the column runs"
    );
    assert!(
        counts.joint_above_sides > 0,
        "the joint edge bound never rose above both edges'"
    );
    if slice == 3 {
        assert!(
            counts.wide_above_narrow > 0,
            "the wide edge slices never raised the bound"
        );
    }
}

/// Every position of random lines of play on random Former boards of 4 or 5 columns (the
/// edge bound needs four) up to 20 cells: the edge bound never exceeds the optimum, and
/// it does go above the column-run bound, its joint part above both edges' own; the
/// bounds children get from their parent are never above their own.
#[test]
fn edge_bound_is_admissible_on_small_former_boards() {
    let sizes = [(4, 3), (4, 4), (5, 3), (4, 5), (5, 4)];
    edge_bound_on_random_boards(0x5eed_ed6e, 120, &sizes, 2);
}

/// The same on random Former boards of seven columns and two or three rows, where each
/// edge's narrow slice is three columns wide (so one colour can have two runs inside one
/// slice, in columns 4 and 6 with column 5 empty of it) and a wide one of four comes
/// besides.
#[test]
fn three_column_edge_bound_is_admissible_on_small_wide_boards() {
    edge_bound_on_random_boards(0x7c01_ed6e, 60, &[(7, 2), (7, 3)], 3);
}

/// The crossing games (`src/edge/crossing.rs`) rarely raise the edge bound on boards
/// small enough for breadth-first search, so this looks for the positions where they do:
/// along random lines of play on random Former boards of seven columns and three or four
/// rows, each position of at most 21 tiles whose crossing part is above the bound's other
/// parts is solved by breadth-first search: the crossing part must not exceed the optimum,
/// and IDA*, whose children the crossing games drop at every depth, must find and prove
/// the same optimum.
#[test]
fn crossing_games_are_admissible_where_they_raise_the_bound() {
    const MOST_TILES: usize = 21;
    let rules = Game::Former.rules().unwrap();
    let mut rng = Rng::with_seed(0xc055_1e57);
    let (mut boards, mut positions, mut raised, mut tight, mut searched) = (0, 0, 0, 0, 0);
    while raised < 30 && boards < 50_000 {
        let h = 3 + boards % 2;
        let colours = 3 + boards % 2;
        boards += 1;
        let r = random_board(&mut rng, 7, h, colours, false);
        // (memos of 1 MiB: a fresh board's memos are mostly pages to zero)
        let (game, board) = ClickGame::<u64>::with_memory(&grid_of(&r), rules, 1 << 20).unwrap();
        play_checking(&game, board, &r, &rules, &mut rng, |b, r, _| {
            positions += 1;
            let Some([left, right, joint, crossing]) = game.edge_bound_parts(b) else {
                return Ok(());
            };
            if crossing <= left.max(right).max(joint) {
                return Ok(());
            }
            if r.tiles() > MOST_TILES {
                return Ok(());
            }
            raised += 1;
            let opt = bfs_optimum(r, &rules).expect("with groups of one every board clears");
            prop_assert!(
                crossing as usize <= opt,
                "crossing bound {} > optimum {} at\n{}",
                crossing,
                opt,
                r.rows_top().join("\n")
            );
            tight += usize::from(crossing as usize == opt);
            // The children's crossing games drop children in IDA* (at every depth), at
            // the limit and, as in a long proof, below it: it must still find the
            // optimum, and prove it.
            let opts = SearchOptions {
                threads: 1,
                memory: 1 << 20,
                ..SearchOptions::default()
            };
            for reach in [0, LONG_CROSSING_REACH] {
                game.reach_crossings(reach);
                let out = ida_star(&game, b, &opts, None, &mut |_| {});
                let found = out.best.map(|m| m.len());
                prop_assert!(
                    out.proven && found == Some(opt),
                    "IDA* with crossing reach {} found {:?} (proven: {}), the optimum is {} at\n{}",
                    reach,
                    found,
                    out.proven,
                    opt,
                    r.rows_top().join("\n")
                );
                searched += 1;
            }
            game.reach_crossings(0);
            Ok(())
        })
        .unwrap_or_else(|e| panic!("board {boards}: {e}"));
    }
    assert!(
        raised >= 30,
        "the crossing games raised the bound at only {raised} of {positions} positions \
         of {boards} boards"
    );
    assert_eq!(
        searched,
        2 * raised,
        "every position raised was searched at both reaches"
    );
    eprintln!(
        "{raised} positions raised by the crossing games ({tight} to the optimum, \
         each solved by IDA*), of {positions} positions of {boards} boards"
    );
}

/// The fewest clicks that clear `r` (every Former board clears: a group of one may be
/// clicked), by exhaustive recursion remembered in `memo`, which a line of play shares.
fn optimum_memo(r: &RefBoard, rules: &Rules, memo: &mut HashMap<RefBoard, usize>) -> usize {
    if r.is_empty() {
        return 0;
    }
    if let Some(&v) = memo.get(r) {
        return v;
    }
    let best = r
        .clickable_groups(rules)
        .iter()
        .map(|g| optimum_memo(&r.remove(g, rules), rules, memo))
        .min()
        .expect("a board with tiles has a group to click");
    memo.insert(r.clone(), best + 1);
    best + 1
}

/// A search asks for a position's children within a limit
/// ([`Puzzle::bounded_successors`]), and the relaxed searches behind their edge bounds stop
/// where the limit lets them; at every limit, the children kept and the bound given to
/// those left out must lose no solution. Along random lines of play on random Former
/// boards of seven columns (where each edge has a wide slice beside its narrow one, and
/// the joint bounds and crossing games come in), for each limit from 0 to one past the
/// best child's optimum (exhaustive search): each kept child's bound is at most its
/// optimum, and the least of the kept children's optima and the bound of those left out
/// is at most the best child's.
#[test]
fn children_within_each_limit_lose_no_solution() {
    let rules = Game::Former.rules().unwrap();
    let mut rng = Rng::with_seed(0x1e55_0ff5);
    let (mut positions, mut limits, mut left_out) = (0, 0, 0);
    for case in 0..16 {
        let r = random_board(&mut rng, 7, 2 + case % 2, 3 + case % 2, false);
        let (game, board) = ClickGame::<u64>::with_memory(&grid_of(&r), rules, 1 << 20).unwrap();
        assert_eq!(
            game.edge_slice(),
            3,
            "case {case}: narrow slices of three columns"
        );
        let mut memo = HashMap::new();
        let mut kids = Vec::new();
        play_checking(&game, board, &r, &rules, &mut rng, |b, r, _| {
            let groups = r.clickable_groups(&rules);
            let mut child_optimum = HashMap::new();
            for g in &groups {
                let o = optimum_memo(&r.remove(g, &rules), &rules, &mut memo);
                child_optimum.extend(g.iter().map(|&cell| (cell, o)));
            }
            let Some(&best) = child_optimum.values().min() else {
                return Ok(());
            };
            positions += 1;
            for limit in 0..=best as u32 + 1 {
                kids.clear();
                let pruned = game.bounded_successors(b, limit, &mut kids);
                let mut least = pruned as usize;
                for (click, _, h) in &kids {
                    let o = child_optimum[&game.click_xy(click)];
                    prop_assert!(
                        *h as usize <= o,
                        "limit {limit}: a child's bound {h} > its optimum {o}"
                    );
                    least = least.min(o);
                }
                prop_assert!(
                    least <= best,
                    "limit {limit}: kept and left out give {least}, the best child needs {best} at\n{}",
                    r.rows_top().join("\n")
                );
                limits += 1;
                left_out += groups.len() - kids.len();
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("case {case}: {e}"));
    }
    assert!(
        positions >= 100 && left_out >= 1000,
        "only {positions} positions and {left_out} children left out"
    );
    eprintln!("{positions} positions, {limits} limits, {left_out} children left out");
}

/// What [`moved_region_and_left_out_children`] saw over its positions: children the
/// engine's filter left out without building them.
#[derive(Default)]
struct MovedCounts {
    left_out: usize,
}

/// At every position of a random line of play (engine and reference side by side):
/// `is_settled` says whether the reference's sideways step would leave the position as it
/// is; in a settled position, every cell outside `moved_region` of a click holds the same
/// after the click (by the reference); and where columns move, every child that keeps
/// every colour and that [`Puzzle::bounded_successors`] leaves out at no slack has no
/// colour the reference finds whole and clickable (so it needs a click more).
fn moved_region_and_left_out_children<B: Bits>(
    game: &ClickGame<B>,
    start: ClickBoard<B>,
    r0: &RefBoard,
    rules: &Rules,
    rng: &mut Rng,
    counts: &mut MovedCounts,
) -> Result<(), TestCaseError> {
    let mut kids = Vec::new();
    play_checking(game, start, r0, rules, rng, |b, r, _| {
        let settled = r.remove(&BTreeSet::new(), rules) == *r;
        prop_assert_eq!(game.is_settled(b), settled, "is_settled at {}", r.inline());
        if !settled {
            return Ok(());
        }
        for group in r.clickable_groups(rules) {
            let after = r.remove(&group, rules);
            let (x, y) = *group.iter().next().unwrap();
            let (click, bits) = game.legal_click(b, x, y).unwrap();
            let region = game.moved_region(b, bits, click.x0 as usize, click.x1 as usize);
            for cx in 0..r.width() {
                for cy in 0..r.height() {
                    if !region.has(game.geom.index(cx, cy)) {
                        prop_assert_eq!(
                            after.get(cx, cy),
                            r.get(cx, cy),
                            "cell ({},{}) outside the region of the click ({},{}) changed on {}",
                            cx,
                            cy,
                            x,
                            y,
                            r.inline()
                        );
                    }
                }
            }
        }
        let total = game.clicks_bound(b);
        if rules.columns_fixed() || total >= INFINITE - 1 {
            return Ok(());
        }
        kids.clear();
        let pruned = game.bounded_successors(b, total, &mut kids);
        let built: Vec<_> = kids.iter().map(|k| k.0).collect();
        for group in r.clickable_groups(rules) {
            let (x, y) = *group.iter().next().unwrap();
            let (click, _) = game.legal_click(b, x, y).unwrap();
            let after = r.remove(&group, rules);
            if after.colours_left() < r.colours_left() || built.contains(&click) {
                continue;
            }
            let count = |colour: u8| {
                (0..after.width())
                    .flat_map(|cx| (0..after.height()).map(move |cy| (cx, cy)))
                    .filter(|&(cx, cy)| after.get(cx, cy) == colour)
                    .count()
            };
            let stuck = (0..after.width())
                .flat_map(|cx| (0..after.height()).map(move |cy| (cx, cy)))
                .map(|(cx, cy)| after.get(cx, cy))
                .any(|c| c != EMPTY && (count(c) as u32) < rules.min_group);
            if stuck {
                continue; // left out as unclearable, not by the filter
            }
            // left out at no slack: no colour may be whole and clickable
            counts.left_out += 1;
            prop_assert!(
                pruned > total,
                "left out with a bound of {} <= {}",
                pruned,
                total
            );
            for g in after.clickable_groups(rules) {
                let (gx, gy) = *g.iter().next().unwrap();
                let colour = after.get(gx, gy);
                prop_assert!(
                    g.len() < count(colour),
                    "the click ({},{}) was left out, but leaves colour {} whole on {}",
                    x,
                    y,
                    colour,
                    r.inline()
                );
            }
        }
        Ok(())
    })
}

struct Moved<'a> {
    r: &'a RefBoard,
    rules: Rules,
    rng: &'a mut Rng,
    counts: &'a mut MovedCounts,
}

impl WithEngine for Moved<'_> {
    type Output = Result<(), TestCaseError>;
    fn run<B: Bits>(self, game: ClickGame<B>, board: ClickBoard<B>) -> Self::Output {
        moved_region_and_left_out_children(&game, board, self.r, &self.rules, self.rng, self.counts)
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// [`moved_region_and_left_out_children`] on random boards under every rule set.
    #[test]
    fn moved_region_holds_every_change(
        (_game, rules) in rules_strategy(),
        w in 1usize..=10,
        h in 1usize..=8,
        colours in 1usize..=5,
        holes in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::with_seed(seed);
        let r = random_board(&mut rng, w, h, colours, holes);
        let mut counts = MovedCounts::default();
        dispatch(&grid_of(&r), rules, EDGE_MEMORY, Moved { r: &r, rules, rng: &mut rng, counts: &mut counts })
            .map_err(|e| TestCaseError::fail(e.to_string()))??;
    }
}

/// The check above is not vacuous: on dust-sized boards (8×6, 5 colours) under the dust
/// rules, the filter leaves children out, and every one has no whole colour.
#[test]
fn dust_children_left_out_have_no_whole_colour() {
    let rules = Game::Dust.rules().unwrap();
    let mut rng = Rng::with_seed(0xd057_f11e);
    let mut counts = MovedCounts::default();
    for case in 0..40 {
        let r = random_board(&mut rng, 8, 6, 3 + case % 3, case % 5 == 0);
        let grid = grid_of(&r);
        let (game, board) = ClickGame::<u64>::new(&grid, rules).unwrap();
        moved_region_and_left_out_children(&game, board, &r, &rules, &mut rng, &mut counts)
            .unwrap_or_else(|e| panic!("case {case}: {e}"));
    }
    assert!(counts.left_out > 100, "left out only {}", counts.left_out);
}
