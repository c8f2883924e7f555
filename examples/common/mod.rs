//! What the SameGame examples share: their arguments and reading a `problem NN` set.

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

/// The command line (program name first) and the positions of the set named by its first
/// argument; with fewer than `min` entries, prints `usage` and exits with status 2.
pub fn args_and_set(min: usize, usage: &str) -> (Vec<String>, Vec<Board>) {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < min {
        eprintln!("usage: {usage}");
        std::process::exit(2);
    }
    let text = std::fs::read_to_string(&args[1]).expect("a readable set");
    let boards = problems(&text);
    (args, boards)
}
