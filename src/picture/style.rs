//! How a board is drawn: tile, gap, margin and background, and the largest tile a
//! picture's pixel budget allows.

use super::colour::Rgb;

/// How a board is drawn. Sizes are in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// The side of a tile.
    pub tile: u32,
    /// The space between neighbouring tiles.
    pub gap: u32,
    /// The space around the board.
    pub margin: u32,
    /// The colour of the board behind the tiles; empty cells show it.
    pub background: Rgb,
}

impl Default for Style {
    fn default() -> Style {
        Style {
            tile: 48,
            gap: 4,
            margin: 16,
            background: [0x1B, 0x1F, 0x2A],
        }
    }
}

impl Style {
    /// The default style with tiles of `tile` pixels, its gaps and margin in proportion.
    pub fn with_tile(tile: u32) -> Style {
        Style {
            tile,
            gap: (tile / 12).max(1),
            margin: tile / 3,
            ..Style::default()
        }
    }
    pub(super) fn pitch(&self) -> u32 {
        self.tile + self.gap
    }
    /// The pixel size of a `width`×`height` board.
    pub fn size(&self, width: usize, height: usize) -> (u32, u32) {
        let span = |n: usize| {
            2 * self.margin + n as u32 * self.tile + (n as u32).saturating_sub(1) * self.gap
        };
        (span(width), span(height))
    }
    /// The top-left pixel of cell `(x, y)` (`y = 0` the bottom row) of a board `height` high.
    pub(super) fn corner(&self, height: usize, x: usize, y: usize) -> (u32, u32) {
        let row = (height - 1 - y) as u32;
        (
            self.margin + x as u32 * self.pitch(),
            self.margin + row * self.pitch(),
        )
    }
    /// The corner radius of NRK's rounded tiles.
    pub(super) fn radius(&self) -> f64 {
        self.tile as f64 / 8.0
    }
}

/// The most pixels a picture drawn at a tile size of tumble's choice has ([`fitting_style`];
/// 48 MiB as RGB): every board the engines take fits at the default tile, and a picture of
/// many moves gets smaller tiles.
pub const MAX_PICTURE_PIXELS: u64 = 16 << 20;

/// The tile sizes [`fitting_style`] tries, largest first: the default, down to one still
/// readable.
pub const FITTING_TILES: [u32; 6] = [48, 40, 32, 24, 16, 12];

/// The style of the largest tile of [`FITTING_TILES`] ([`Style::with_tile`]) whose picture,
/// of the size `size` gives for a style, has at most [`MAX_PICTURE_PIXELS`]; when none has,
/// `Err` with the smallest tile's style.
pub fn fitting_style(size: impl Fn(&Style) -> (u32, u32)) -> Result<Style, Style> {
    let pixels = |s: &Style| {
        let (w, h) = size(s);
        u64::from(w) * u64::from(h)
    };
    let styles = FITTING_TILES.map(Style::with_tile);
    match styles.iter().find(|s| pixels(s) <= MAX_PICTURE_PIXELS) {
        Some(s) => Ok(*s),
        None => Err(styles[styles.len() - 1]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::picture::steps_size;

    #[test]
    fn fitting_style_takes_the_largest_tile_within_the_pixel_budget() {
        let board: Grid = "AB,BA".replace(',', "\n").parse().unwrap();
        let big: Grid = vec!["AB".repeat(8); 16].join("\n").parse().unwrap();
        let mut checked = 0;
        // (the boards, whether the default tile fits, whether any tile fits)
        for (boards, default, any) in [
            (vec![board.clone()], true, true),
            (vec![big.clone(); 20], true, true),
            (vec![big.clone(); 200], false, true),
            (vec![big.clone(); 20_000], false, false),
        ] {
            let size = |s: &Style| steps_size(&boards, s);
            let fits = |s: &Style| {
                let (w, h) = size(s);
                u64::from(w) * u64::from(h) <= MAX_PICTURE_PIXELS
            };
            let n = boards.len();
            match fitting_style(size) {
                Ok(s) => {
                    assert!(any, "{n} boards: tile {}", s.tile);
                    assert!(fits(&s), "{n} boards");
                    assert_eq!(s.tile == 48, default, "{n} boards: tile {}", s.tile);
                    assert_eq!(s, Style::with_tile(s.tile));
                    // no larger tile of the list fits
                    for &larger in FITTING_TILES.iter().filter(|&&l| l > s.tile) {
                        assert!(!fits(&Style::with_tile(larger)), "{n} boards: {larger}");
                    }
                }
                Err(s) => {
                    assert!(!any, "{n} boards");
                    assert_eq!(s.tile, 12);
                    assert!(!fits(&s));
                }
            }
            checked += 1;
        }
        assert_eq!(checked, 4);
    }
}
