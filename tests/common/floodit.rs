//! Checks of a Flood-It answer that do not trust the solver.

use tumble::floodit::{self, bounds, Engine};
use tumble::grid::Grid;
use tumble::report::Report;

/// `r` is a proven answer for the 14×14 board `grid` (start top left): its colours replay
/// legally to one colour, and it is at least every bound of the start position. `what`
/// names the board in messages.
pub fn check_proven_answer(grid: &Grid, r: &Report, what: &str) {
    assert!(r.optimal, "{what} not proven");
    assert_eq!(r.lower_bound as usize, r.length, "{what}");
    let colours: Vec<char> = r
        .moves
        .iter()
        .map(|s| s.colour.chars().next().unwrap())
        .collect();
    let played = floodit::replay(grid, (0, 13), &colours)
        .unwrap()
        .expect("the answer is legal");
    assert!(floodit::is_one_colour(&played.last().unwrap().1), "{what}");
    let (e, p) = Engine::<4>::new(grid, (0, 13)).unwrap();
    for b in [
        bounds::colours(&e, &p.flood),
        bounds::distance(&e, &p.flood),
        bounds::seed(&e, &p.flood),
        bounds::puchert(&e, &p.flood),
    ] {
        assert!(r.length >= b as usize, "{what}: {} < bound {b}", r.length);
    }
}
