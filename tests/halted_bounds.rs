//! Halting the edge bound's relaxed searches (what a search does when its time is up)
//! keeps every bound admissible and teaches the memos nothing false: on positions of
//! NRK Former boards reached by random play, a halted game's bound is never above the
//! bound of a game never halted, and once the game runs again its bounds are that game's
//! exactly.

use tumble::click::ClickGame;
use tumble::daily::{former_board, Date};
use tumble::puzzle::Puzzle;
use tumble::rules::Game;

#[test]
fn halted_edge_bounds_are_weaker_never_wrong() {
    let mut rng = fastrand::Rng::with_seed(0x4a17);
    let rules = Game::Former.rules().expect("Former has rules");
    let (mut positions, mut weaker, mut days) = (0, 0, 0);
    for date in ["2024-11-24", "2025-03-15", "2025-06-29", "2026-02-06"] {
        let grid = former_board(date.parse::<Date>().expect("a date")).expect("a board");
        // `reference` is never halted; `game` is halted and let go, turn by turn
        let (reference, start) = ClickGame::<u64>::new(&grid, rules).expect("a board");
        let (game, _) = ClickGame::<u64>::new(&grid, rules).expect("a board");
        for line in 0..6 {
            let mut s = start;
            let mut kids = Vec::new();
            while !game.is_solved(&s) {
                let truth = reference.lower_bound(&s);
                game.halt_bounds(true);
                let halted = game.lower_bound(&s);
                assert!(
                    halted <= truth,
                    "{date}, line {line}: halted bound {halted} above the bound {truth}"
                );
                weaker += usize::from(halted < truth);
                game.halt_bounds(false);
                assert_eq!(
                    game.lower_bound(&s),
                    truth,
                    "{date}, line {line}: after halting, the bound is the bound again"
                );
                positions += 1;
                kids.clear();
                game.successors(&s, &mut kids);
                s = kids.swap_remove(rng.usize(..kids.len())).1;
            }
        }
        days += 1;
    }
    assert_eq!(days, 4);
    assert!(positions > 200, "{positions} positions");
    // halting is seen to weaken bounds, so the checks above compared two different things
    assert!(
        weaker > 0,
        "no halted bound came out weaker in {positions} positions"
    );
    println!("{positions} positions, {weaker} with a weaker bound while halted");
}
