//! What the SameGame examples share: reading a `problem NN` set and choosing positions.

use tumble::grid::Grid;
use tumble::samegame::Board;

/// The positions of a `problem NN` set, read by the library's board-set reader, in the
/// byte engine.
pub fn problems(text: &str) -> Vec<Board> {
    tumble::boardset::parse(text)
        .iter()
        .map(|e| {
            let grid: Grid = e.board.parse().expect("a board");
            Board::from_grid(&grid).expect("a SameGame board")
        })
        .collect()
}

/// Position numbers (from 1) given as a comma-separated list, e.g. `1,2,3`.
#[derive(Clone, Debug)]
pub struct Positions(pub Vec<usize>);

impl std::str::FromStr for Positions {
    type Err = std::num::ParseIntError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.split(',')
            .map(|p| p.trim().parse())
            .collect::<Result<_, _>>()
            .map(Positions)
    }
}

/// The positions numbered `positions` of the set in file `path`, each with its number.
pub fn chosen(
    path: &std::path::Path,
    positions: &Positions,
) -> anyhow::Result<Vec<(usize, Board)>> {
    let text = std::fs::read_to_string(path)?;
    let boards = problems(&text);
    positions
        .0
        .iter()
        .map(|&p| {
            let b = p
                .checked_sub(1)
                .and_then(|i| boards.get(i))
                .ok_or_else(|| anyhow::anyhow!("no position {p} in {} boards", boards.len()))?;
            Ok((p, *b))
        })
        .collect()
}
