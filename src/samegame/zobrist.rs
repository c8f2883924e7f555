//! Zobrist keys of positions, for the beam's duplicate check.

use super::board::{Board, CELLS, COLOURS, SIDE};

impl Board {
    /// A 64-bit Zobrist key of the position.
    pub fn key(&self) -> u64 {
        let z = zobrist();
        let mut h = 0u64;
        for x in 0..self.width as usize {
            for y in 0..self.heights[x] as usize {
                let i = x * SIDE + y;
                h ^= z[i * COLOURS + self.cells[i] as usize - 1];
            }
        }
        h
    }
}

/// The Zobrist table: one random word per (cell, colour).
fn zobrist() -> &'static [u64; CELLS * COLOURS] {
    static TABLE: std::sync::OnceLock<Box<[u64; CELLS * COLOURS]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([0u64; CELLS * COLOURS]);
        // A fixed seed: the same keys in every run.
        let mut rng = fastrand::Rng::with_seed(0x853c_49e6_748f_ea9b);
        t.iter_mut().for_each(|v| *v = rng.u64(..));
        t
    })
}
