//! One board drawn, on any [`Canvas`]: to pixels, or to SVG text.

use image::RgbImage;

use super::canvas::{Canvas, Pixels, Svg};
use super::palette;
use super::style::Style;
use crate::grid::Grid;
use crate::rules::Game;

/// Draws one board on `canvas` with its top-left corner at `(ox, oy)`: its background,
/// then a tile per cell that holds one.
pub(super) fn draw_board(
    canvas: &mut impl Canvas,
    ox: u32,
    oy: u32,
    grid: &Grid,
    game: Option<Game>,
    style: &Style,
) {
    let colours = palette(game, grid.palette());
    let (w, h) = style.size(grid.width(), grid.height());
    canvas.rect(ox, oy, w, h, style.background);
    let former = game == Some(Game::Former);
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            let c = grid.get(x, y);
            if c == 0 {
                continue;
            }
            let (px, py) = style.corner(grid.height(), x, y);
            let colour = colours[c as usize - 1];
            canvas.tile(ox + px, oy + py, colour, grid.symbol(c), former, style);
        }
    }
}

/// A board drawn as pixels (save as PNG with [`save_board`](super::save_board) or `image`).
pub fn render(grid: &Grid, game: Option<Game>, style: &Style) -> RgbImage {
    let (w, h) = style.size(grid.width(), grid.height());
    // (blank: the board's background covers the whole picture)
    let mut pixels = Pixels(RgbImage::new(w, h));
    draw_board(&mut pixels, 0, 0, grid, game, style);
    pixels.0
}

/// A board as SVG text; each tile carries its letter as a `<title>`.
pub fn render_svg(grid: &Grid, game: Option<Game>, style: &Style) -> String {
    let (w, h) = style.size(grid.width(), grid.height());
    let mut svg = Svg::new(w, h);
    draw_board(&mut svg, 0, 0, grid, game, style);
    svg.finish()
}

#[cfg(test)]
mod tests {
    use super::super::colour::hex;
    use super::*;

    #[test]
    fn former_tiles_take_nrk_colours_and_empty_cells_the_background() {
        let g: Grid = "O.\nPB".parse().unwrap();
        let s = Style {
            tile: 30,
            gap: 2,
            margin: 5,
            background: [1, 2, 3],
        };
        let img = render(&g, Some(Game::Former), &s);
        assert_eq!(img.dimensions(), (2 * 5 + 2 * 30 + 2, 2 * 5 + 2 * 30 + 2));
        // The middle of the top-left tile is orange; the top-right cell is background.
        assert_eq!(img.get_pixel(5 + 15, 5 + 15).0, [0xFF, 0x9C, 0x54]);
        assert_eq!(img.get_pixel(5 + 32 + 15, 5 + 15).0, [1, 2, 3]);
        // The mark is white, below the centre.
        assert_eq!(img.get_pixel(5 + 15, 5 + 15 + 9).0, [255, 255, 255]);
        // Bottom row: pink, blue.
        assert_eq!(img.get_pixel(5 + 15, 5 + 32 + 15).0, [0xF9, 0x58, 0xAB]);
        assert_eq!(
            img.get_pixel(5 + 32 + 15, 5 + 32 + 15).0,
            [0x35, 0xB1, 0xE7]
        );
    }

    #[test]
    fn svg_names_every_tile_and_its_colour() {
        let g: Grid = "AB,BA".parse().unwrap();
        let svg = render_svg(&g, Some(Game::Samegame), &Style::default());
        assert_eq!(svg.matches("<title>").count(), 4);
        assert!(svg.contains(&hex(super::super::OTHER_COLOURS[0])));
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    }
}
