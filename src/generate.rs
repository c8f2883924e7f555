//! Reproducible random boards (`tumble gen`, and tests that want many boards).

use crate::grid::Grid;

/// The colour symbols of generated boards, in order.
const SYMBOLS: &[char] = &[
    'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O', 'P',
];

/// A reproducible random board: `colours` colours (1 to 16) drawn uniformly, every cell
/// filled. The same arguments give the same board.
pub fn generate(width: usize, height: usize, colours: usize, seed: u64) -> Grid {
    let mut rng = fastrand::Rng::with_seed(seed);
    let colours = colours.clamp(1, SYMBOLS.len());
    let cells: Vec<u8> = (0..width * height)
        .map(|_| rng.u8(1..=colours as u8))
        .collect();
    // Keep only the colours that occur, in order of first appearance from the top left,
    // so the palette is exactly the board's colours.
    let grid = Grid::from_cells(width, height, cells, SYMBOLS[..colours].to_vec());
    Grid::parse(&grid.to_text()).expect("a generated board parses")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_are_full_reproducible_and_use_at_most_the_colours_asked() {
        let mut checked = 0;
        for seed in 0..20 {
            let g = generate(7, 5, 4, seed);
            assert_eq!((g.width(), g.height()), (7, 5));
            assert_eq!(g.tiles(), 35, "every cell filled");
            assert!((1..=4).contains(&g.colours()), "seed {seed}");
            assert_eq!(g, generate(7, 5, 4, seed), "same seed, same board");
            checked += 1;
        }
        assert_eq!(checked, 20);
        assert_ne!(generate(7, 5, 4, 1), generate(7, 5, 4, 2));
        assert_eq!(generate(3, 3, 1, 9).colours(), 1);
    }
}
