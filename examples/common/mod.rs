//! What the SameGame examples share: reading a `problem NN` set.

use tumble::grid::Grid;
use tumble::samegame::Board;

/// The positions of a `problem NN` set (the rows after each `problem` line, top row first;
/// `#` lines are comments), in the byte engine.
pub fn problems(text: &str) -> Vec<Board> {
    let mut boards: Vec<String> = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        if line.starts_with("problem") {
            boards.push(String::new());
        } else if let Some(b) = boards.last_mut().filter(|_| !line.trim().is_empty()) {
            b.push_str(line.trim());
            b.push('\n');
        }
    }
    boards
        .iter()
        .map(|b| {
            let grid: Grid = b.parse().expect("a board");
            Board::from_grid(&grid).expect("a SameGame board")
        })
        .collect()
}
