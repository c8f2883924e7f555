//! Where a picture is drawn: pixels or SVG text. A board and the steps of a solution are
//! walked once ([`super::render`], [`super::steps`]) and described as a few shapes; each
//! canvas turns the shapes into its own output.

use std::fmt::Write as _;

use image::{Rgb as Pixel, RgbImage};

use super::colour::{hex, Rgb};
use super::font::{self, fill};
use super::style::Style;

/// What a picture is made of. Coordinates are pixels from the picture's top-left corner.
pub(super) trait Canvas {
    /// The rectangle `w`×`h` at `(x, y)` filled with `colour`.
    fn rect(&mut self, x: u32, y: u32, w: u32, h: u32, colour: Rgb);

    /// A tile of `style.tile` pixels a side at `(x, y)` in `colour`, standing for the
    /// board's letter `symbol`; with `former`, NRK's tile: rounded, with its white mark.
    fn tile(&mut self, x: u32, y: u32, colour: Rgb, symbol: char, former: bool, style: &Style);

    /// The text `text` in `ink`, its glyphs `scale` times the font's size, above the point
    /// `(x, y)`: in the `label` pixels between `y - label` and `y`.
    fn label(&mut self, x: u32, y: u32, label: u32, scale: u32, text: &str, ink: Rgb);

    /// The segment `(x0, y0, x1, y1)` from `(x0, y0)` to `(x1, y1)` (level or upright),
    /// `width` pixels wide and reaching half its width past each end, in `colour`.
    fn segment(&mut self, segment: (f64, f64, f64, f64), width: f64, colour: Rgb);
}

/// A canvas of pixels.
pub(super) struct Pixels(pub RgbImage);

impl Pixels {
    /// `w`×`h` pixels of `background`.
    pub fn new(w: u32, h: u32, background: Rgb) -> Pixels {
        Pixels(RgbImage::from_pixel(w, h, Pixel(background)))
    }
}

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

impl Canvas for Pixels {
    fn rect(&mut self, x: u32, y: u32, w: u32, h: u32, colour: Rgb) {
        fill(&mut self.0, x as i64, y as i64, w as i64, h as i64, colour);
    }

    fn tile(&mut self, x: u32, y: u32, colour: Rgb, _: char, former: bool, style: &Style) {
        let t = style.tile as f64;
        for dy in 0..style.tile {
            for dx in 0..style.tile {
                let (fx, fy) = (dx as f64 + 0.5, dy as f64 + 0.5);
                let pixel = if !former {
                    colour
                } else if !in_rounded(fx, fy, t, style.radius()) {
                    continue;
                } else if on_mark(fx, fy, t) {
                    [255, 255, 255]
                } else {
                    colour
                };
                self.0.put_pixel(x + dx, y + dy, Pixel(pixel));
            }
        }
    }

    fn label(&mut self, x: u32, y: u32, label: u32, scale: u32, text: &str, ink: Rgb) {
        font::draw_text(&mut self.0, x as i64, (y - label) as i64, text, scale, ink);
    }

    fn segment(&mut self, (x0, y0, x1, y1): (f64, f64, f64, f64), width: f64, colour: Rgb) {
        let h = width / 2.0;
        let (ax, ay) = (x0.min(x1) - h, y0.min(y1) - h);
        let (bx, by) = (x0.max(x1) + h, y0.max(y1) + h);
        fill(
            &mut self.0,
            ax.round() as i64,
            ay.round() as i64,
            (bx - ax).round() as i64,
            (by - ay).round() as i64,
            colour,
        );
    }
}

/// A canvas of SVG elements, one per line.
pub(super) struct Svg(String);

impl Svg {
    /// An SVG picture of `w`×`h` pixels, with nothing drawn.
    pub fn new(w: u32, h: u32) -> Svg {
        Svg(format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n"
        ))
    }

    /// An SVG picture of `w`×`h` pixels, all of it `background`.
    pub fn filled(w: u32, h: u32, background: Rgb) -> Svg {
        let mut svg = Svg::new(w, h);
        let _ = writeln!(
            svg.0,
            r#"<rect width="100%" height="100%" fill="{}"/>"#,
            hex(background)
        );
        svg
    }

    /// The SVG text, closed.
    pub fn finish(mut self) -> String {
        self.0.push_str("</svg>\n");
        self.0
    }
}

impl Canvas for Svg {
    fn rect(&mut self, x: u32, y: u32, w: u32, h: u32, colour: Rgb) {
        let _ = writeln!(
            self.0,
            r#"<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{}"/>"#,
            hex(colour)
        );
    }

    fn tile(&mut self, x: u32, y: u32, colour: Rgb, symbol: char, former: bool, style: &Style) {
        let t = style.tile as f64;
        let rx = if former { style.radius() } else { 0.0 };
        let _ = writeln!(
            self.0,
            r#"<rect x="{x}" y="{y}" width="{0}" height="{0}" rx="{rx}" fill="{1}"><title>{symbol}</title></rect>"#,
            style.tile,
            hex(colour),
        );
        if former {
            let (cx, cy, r) = (x as f64 + t / 2.0, y as f64 + t / 2.0, 0.3 * t);
            let a0 = 30f64.to_radians();
            let a1 = 150f64.to_radians();
            let _ = writeln!(
                self.0,
                r##"<path d="M{:.2},{:.2} A{r:.2},{r:.2} 0 0 1 {:.2},{:.2}" fill="none" stroke="#ffffff" stroke-width="{:.2}"/>"##,
                cx + r * a0.cos(),
                cy + r * a0.sin(),
                cx + r * a1.cos(),
                cy + r * a1.sin(),
                (t / 14.0).max(1.5)
            );
        }
    }

    fn label(&mut self, x: u32, y: u32, _: u32, scale: u32, text: &str, ink: Rgb) {
        let _ = writeln!(
            self.0,
            r#"<text x="{x}" y="{}" font-family="sans-serif" font-size="{}" fill="{}">{text}</text>"#,
            y - scale,
            font::GLYPH_H * scale,
            hex(ink),
        );
    }

    fn segment(&mut self, (x0, y0, x1, y1): (f64, f64, f64, f64), width: f64, colour: Rgb) {
        let _ = writeln!(
            self.0,
            r#"<line x1="{x0:.1}" y1="{y0:.1}" x2="{x1:.1}" y2="{y1:.1}" stroke="{}" stroke-width="{width:.1}" stroke-linecap="square"/>"#,
            hex(colour)
        );
    }
}
