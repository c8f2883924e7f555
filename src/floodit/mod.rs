//! Flood-It: the engine (region graph, positions, moves) and the two entry points the solve
//! layer and the front ends call, [`solve`] and [`replay`] (for `tumble check`).
//!
//! A board is turned once into its *region graph* ([`Engine`]): every 4-connected
//! same-colour region is a node, numbered `0..R` in breadth-first order from the start,
//! with its colour and the bit set of its neighbours. A position is then just the set of
//! regions the flood has swallowed ([`Set`], a `[u64; N]` bit set over regions, with its
//! helpers in [`set`]). Playing colour `c` adds every region of colour `c` adjacent to the
//! flood; the flood's own colour is the colour of its last move (or of the start region).
//! Because regions are maximal, no region of the flood's colour ever touches the flood, so
//! a move is legal exactly when it adds at least one region.
//!
//! The engine is generic over the number of words `N`; [`solve`] picks the smallest width
//! the board's region count fits in (up to [`MAX_REGIONS`]). The lower bounds live in
//! [`bounds`], the moves the searches generate in [`moves`], the first solutions in
//! [`beam`], the A* search in [`solver`] and its deepening once memory fills in
//! [`frontier`].

pub mod beam;
pub mod bounds;
mod engine;
pub mod frontier;
pub mod moves;
mod node;
pub mod set;
pub mod solver;

use engine::too_large;
pub use engine::{check_size, count_regions, Engine, Pos, MAX_CELLS, MAX_REGIONS};
pub use set::Set;

use crate::grid::{BoardError, Grid};
use crate::report::{Played, Progress, Replayed, Report, Step};
use crate::rules::Objective;
use crate::search::SearchOptions;

/// Runs `f` with the narrowest engine the board's regions fit in.
pub trait WithFlood {
    type Output;
    fn run<const N: usize>(self, engine: Engine<N>, start: Pos<N>) -> Self::Output;
}

/// Builds the engine for `grid` from `start` and hands it to `f`.
pub fn dispatch<F: WithFlood>(
    grid: &Grid,
    start: (usize, usize),
    f: F,
) -> Result<F::Output, BoardError> {
    let (w, h) = (grid.width(), grid.height());
    check_size(w, h)?;
    grid.check_full("floodit")?;
    let n = count_regions(grid);
    macro_rules! go {
        ($($n:literal),*) => {
            $(if n <= $n * 64 {
                let (e, p) = Engine::<$n>::new(grid, start)?;
                return Ok(f.run(e, p));
            })*
        };
    }
    // Five words for 257–320 regions, common on 19×19 boards: in an eight-word engine
    // their nodes would be half empty words, costing memory and time. No three-word
    // engine: a four-word set is one vector, and three words cost more instructions.
    go!(2, 4, 5, 8, 16);
    Err(too_large(w, h))
}

/// Solves a Flood-It board from the start cell `start` (`(x, y)`, `y = 0` at the bottom):
/// a greedy solution at once, then A* proves the optimum (or runs out of time or memory
/// with a lower bound).
pub fn solve(
    grid: &Grid,
    start: (usize, usize),
    search: &SearchOptions,
    on_progress: &mut dyn FnMut(Progress),
) -> Result<Report, BoardError> {
    struct Run<'a> {
        grid: &'a Grid,
        search: &'a SearchOptions,
        on_progress: &'a mut dyn FnMut(Progress),
    }
    impl WithFlood for Run<'_> {
        type Output = Report;
        fn run<const N: usize>(self, e: Engine<N>, p: Pos<N>) -> Report {
            let out = solver::astar(&e, &p, self.search, self.on_progress);
            let mut steps = Vec::new();
            let mut boards = Vec::new();
            let mut s = p;
            for &c in &out.moves {
                s = e.play(&s, c).expect("a solution's moves are legal");
                steps.push(Step {
                    x: None,
                    y: None,
                    colour: e.palette[c as usize].to_string(),
                    size: None,
                });
                boards.push(e.grid(&s));
            }
            Report {
                game: "floodit".into(),
                width: self.grid.width(),
                height: self.grid.height(),
                board: self.grid.to_inline(),
                objective: Objective::Moves,
                played: Played::default(),
                length: out.moves.len(),
                moves: steps,
                optimal: out.proven,
                lower_bound: out.lower_bound,
                tiles_left: 0,
                score: 0,
                nodes: out.nodes,
                elapsed_ms: self.search.start.elapsed().as_millis() as u64,
                first_ms: None,
                boards,
                note: out.memory_filled.map(|t| {
                    format!(
                        "the A* filled its memory (--memory {} MiB) at {:.1} s; went on by iterative deepening from its frontier",
                        self.search.memory >> 20,
                        t.as_secs_f64()
                    )
                }),
                certified: None,
                stopped: out.stopped,
            }
        }
    }
    dispatch(
        grid,
        start,
        Run {
            grid,
            search,
            on_progress,
        },
    )
}

/// An illegal move: its number (1-based), why, and the legal moves before it.
pub type Failure = (usize, String, Vec<Replayed>);

/// Plays colour characters on a board. On an illegal move: its number (1-based) and why.
/// Returns each move's step and the board after it.
pub fn replay(
    grid: &Grid,
    start: (usize, usize),
    colours: &[char],
) -> Result<Result<Vec<Replayed>, Failure>, BoardError> {
    struct Run<'a> {
        grid: &'a Grid,
        colours: &'a [char],
    }
    impl WithFlood for Run<'_> {
        type Output = Result<Vec<Replayed>, Failure>;
        fn run<const N: usize>(self, e: Engine<N>, p: Pos<N>) -> Self::Output {
            let mut s = p;
            let mut out = Vec::new();
            for (i, &ch) in self.colours.iter().enumerate() {
                let Some(c) = self.grid.palette().iter().position(|&x| x == ch) else {
                    return Err((i + 1, format!("{ch:?} is not a colour of this board"), out));
                };
                let c = c as u8;
                if e.is_solved(&s) {
                    return Err((i + 1, "the board is already one colour".into(), out));
                }
                if c == s.colour {
                    return Err((i + 1, format!("{ch} is the flood's own colour"), out));
                }
                let Some(next) = e.play(&s, c) else {
                    return Err((i + 1, format!("colour {ch} does not touch the flood"), out));
                };
                s = next;
                out.push((
                    Step {
                        x: None,
                        y: None,
                        colour: ch.to_string(),
                        size: None,
                    },
                    e.grid(&s),
                ));
            }
            Ok(out)
        }
    }
    dispatch(grid, start, Run { grid, colours })
}

/// A one-row board of `n²` cells (`n ≥ 2`) as the `n×n` board it writes row by row, top
/// row first (the format of the Flood-It benchmark sets); any other board unchanged.
pub fn square_up(grid: Grid) -> Grid {
    let len = grid.width();
    let n = (len as f64).sqrt().round() as usize;
    if grid.height() != 1 || n < 2 || n * n != len {
        return grid;
    }
    let row: Vec<u8> = (0..len).map(|x| grid.get(x, 0)).collect();
    // cells bottom row first: row r from the top is the slice r*n..(r+1)*n
    let cells = (0..n)
        .rev()
        .flat_map(|r| row[r * n..(r + 1) * n].to_vec())
        .collect();
    Grid::from_cells(n, n, cells, grid.palette().to_vec())
}

/// Is this board (the output of a move) one colour?
pub fn is_one_colour(grid: &Grid) -> bool {
    let c = grid.get(0, 0);
    (0..grid.height()).all(|y| (0..grid.width()).all(|x| grid.get(x, y) == c))
}

/// Parses a colour sequence: every character that is not a space or comma is one move.
pub fn parse_colours(moves: &str) -> Vec<char> {
    moves
        .chars()
        .filter(|c| !c.is_whitespace() && *c != ',' && *c != ';')
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::generate;
    use crate::puzzle::Puzzle;
    use crate::search::ida_star;

    /// The generic searches work on Flood-It through this impl, so that they can be checked
    /// against the dedicated A* ([`solver::astar`]), which is what solves Flood-It.
    impl<const N: usize> Puzzle for Engine<N> {
        type State = Pos<N>;
        type Move = u8;

        fn is_solved(&self, s: &Pos<N>) -> bool {
            Engine::is_solved(self, s)
        }
        fn successors(&self, s: &Pos<N>, out: &mut Vec<(u8, Pos<N>)>) {
            for c in 0..self.colours() as u8 {
                if let Some(p) = self.play(s, c) {
                    out.push((c, p));
                }
            }
        }
        fn lower_bound(&self, s: &Pos<N>) -> u32 {
            if self.is_solved(s) {
                0
            } else {
                bounds::puchert(self, &s.flood).max(1)
            }
        }
        fn key(&self, s: &Pos<N>) -> u64 {
            Self::hash(&s.flood)
        }
        fn check(&self, s: &Pos<N>) -> u32 {
            let mut h = 0x1319_8a2e_0370_7344u64;
            for &w in &s.flood {
                h = (h ^ w).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
                h ^= h >> 31;
            }
            (h >> 32) as u32
        }
        fn priority(&self, _s: &Pos<N>, _m: &u8, child: &Pos<N>) -> i64 {
            set::count(&child.flood) as i64
        }
    }

    #[test]
    fn one_line_boards_are_squared_up_top_row_first() {
        let g = square_up("ABCD".parse().unwrap());
        assert_eq!(g.to_inline(), "AB,CD");
        let g = square_up("ABC".parse().unwrap());
        assert_eq!(g.to_inline(), "ABC");
    }

    #[test]
    fn the_generic_ida_star_agrees_with_the_a_star() {
        for seed in 0..6 {
            let g = generate(6, 6, 4, seed);
            let (e, p) = Engine::<2>::new(&g, (0, 5)).unwrap();
            let ida = ida_star(&e, &p, &SearchOptions::default(), None, &mut |_| {});
            let a = solver::astar(&e, &p, &SearchOptions::default(), &mut |_| {});
            assert!(ida.proven && a.proven);
            assert_eq!(ida.best.unwrap().len(), a.moves.len(), "seed {seed}");
        }
    }
}
