//! One board drawn: to pixels, or to SVG text.

use std::fmt::Write as _;

use image::{Rgb as Pixel, RgbImage};

use super::colour::hex;
use super::font::fill;
use super::palette;
use super::style::Style;
use crate::grid::Grid;
use crate::rules::Game;

/// Is the pixel at offset `(dx, dy)` inside a tile of side `t` with corners rounded to `r`?
fn in_rounded(dx: f64, dy: f64, t: f64, r: f64) -> bool {
    let cx = dx.clamp(r, t - r);
    let cy = dy.clamp(r, t - r);
    (dx - cx).powi(2) + (dy - cy).powi(2) <= r * r
}

/// Is the pixel at offset `(dx, dy)` on NRK's white mark of a tile of side `t`: an arc
/// below the centre, clear of the central patch the reader samples?
fn on_mark(dx: f64, dy: f64, t: f64) -> bool {
    let (x, y) = (dx - t / 2.0, dy - t / 2.0);
    let d = (x * x + y * y).sqrt();
    let half = (t / 28.0).max(0.75);
    let angle = y.atan2(x).to_degrees(); // y grows downwards: 90° is straight down
    (d - 0.3 * t).abs() <= half && (30.0..=150.0).contains(&angle)
}

/// Draws one board on `img` with its top-left corner at `(ox, oy)`.
pub(super) fn draw_board(
    img: &mut RgbImage,
    ox: u32,
    oy: u32,
    grid: &Grid,
    game: Option<Game>,
    style: &Style,
) {
    let colours = palette(game, grid.palette());
    let (w, h) = style.size(grid.width(), grid.height());
    fill(
        img,
        ox as i64,
        oy as i64,
        w as i64,
        h as i64,
        style.background,
    );
    let t = style.tile as f64;
    let former = game == Some(Game::Former);
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            let c = grid.get(x, y);
            if c == 0 {
                continue;
            }
            let rgb = colours[c as usize - 1];
            let (px, py) = style.corner(grid.height(), x, y);
            for dy in 0..style.tile {
                for dx in 0..style.tile {
                    let (fx, fy) = (dx as f64 + 0.5, dy as f64 + 0.5);
                    let colour = if !former {
                        rgb
                    } else if !in_rounded(fx, fy, t, style.radius()) {
                        continue;
                    } else if on_mark(fx, fy, t) {
                        [255, 255, 255]
                    } else {
                        rgb
                    };
                    img.put_pixel(ox + px + dx, oy + py + dy, Pixel(colour));
                }
            }
        }
    }
}

/// A board drawn as pixels (save as PNG with [`save_board`](super::save_board) or `image`).
pub fn render(grid: &Grid, game: Option<Game>, style: &Style) -> RgbImage {
    let (w, h) = style.size(grid.width(), grid.height());
    let mut img = RgbImage::new(w, h);
    draw_board(&mut img, 0, 0, grid, game, style);
    img
}

/// The SVG elements of one board at `(ox, oy)`; each tile carries its letter as a `<title>`.
pub(super) fn svg_board(
    out: &mut String,
    ox: u32,
    oy: u32,
    grid: &Grid,
    game: Option<Game>,
    style: &Style,
) {
    let colours = palette(game, grid.palette());
    let (w, h) = style.size(grid.width(), grid.height());
    let _ = writeln!(
        out,
        r#"<rect x="{ox}" y="{oy}" width="{w}" height="{h}" fill="{}"/>"#,
        hex(style.background)
    );
    let former = game == Some(Game::Former);
    let t = style.tile as f64;
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            let c = grid.get(x, y);
            if c == 0 {
                continue;
            }
            let (px, py) = style.corner(grid.height(), x, y);
            let (px, py) = (px + ox, py + oy);
            let rx = if former { style.radius() } else { 0.0 };
            let _ = writeln!(
                out,
                r#"<rect x="{px}" y="{py}" width="{0}" height="{0}" rx="{rx}" fill="{1}"><title>{2}</title></rect>"#,
                style.tile,
                hex(colours[c as usize - 1]),
                grid.symbol(c)
            );
            if former {
                let (cx, cy, r) = (px as f64 + t / 2.0, py as f64 + t / 2.0, 0.3 * t);
                let a0 = 30f64.to_radians();
                let a1 = 150f64.to_radians();
                let _ = writeln!(
                    out,
                    r##"<path d="M{:.2},{:.2} A{r:.2},{r:.2} 0 0 1 {:.2},{:.2}" fill="none" stroke="#ffffff" stroke-width="{:.2}"/>"##,
                    cx + r * a0.cos(),
                    cy + r * a0.sin(),
                    cx + r * a1.cos(),
                    cy + r * a1.sin(),
                    (t / 14.0).max(1.5)
                );
            }
        }
    }
}

/// A board as SVG text.
pub fn render_svg(grid: &Grid, game: Option<Game>, style: &Style) -> String {
    let (w, h) = style.size(grid.width(), grid.height());
    let mut out = svg_header(w, h);
    svg_board(&mut out, 0, 0, grid, game, style);
    out.push_str("</svg>\n");
    out
}

pub(super) fn svg_header(w: u32, h: u32) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n"
    )
}

#[cfg(test)]
mod tests {
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
