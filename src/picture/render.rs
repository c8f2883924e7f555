//! Drawing boards: one board to pixels or SVG, and the steps of a solution as panels.

use std::fmt::Write as _;
use std::path::Path;

use image::{Rgb as Pixel, RgbImage};

use super::colour::{hex, Rgb};
use super::font::{self, fill};
use super::{palette, PictureError};
use crate::grid::Grid;
use crate::rules::Game;

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
    fn pitch(&self) -> u32 {
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
    fn corner(&self, height: usize, x: usize, y: usize) -> (u32, u32) {
        let row = (height - 1 - y) as u32;
        (
            self.margin + x as u32 * self.pitch(),
            self.margin + row * self.pitch(),
        )
    }
    /// The corner radius of NRK's rounded tiles.
    fn radius(&self) -> f64 {
        self.tile as f64 / 8.0
    }
}

/// Which group is about to be clicked on a panel of [`render_steps`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pick {
    /// The cells of the group, `(x, y)` with `y = 0` the bottom row.
    Group(Vec<(usize, usize)>),
    /// The clicked cell; its group is flood-filled on the board.
    Click(usize, usize),
    /// Nothing outlined (the final board).
    None,
}

/// The 4-connected group of same-coloured cells around `(x, y)`; empty for an empty cell or
/// a cell off the board.
pub fn flood_group(grid: &Grid, x: usize, y: usize) -> Vec<(usize, usize)> {
    if x >= grid.width() || y >= grid.height() || grid.get(x, y) == 0 {
        return Vec::new();
    }
    let colour = grid.get(x, y);
    let mut seen = vec![false; grid.width() * grid.height()];
    let mut stack = vec![(x, y)];
    seen[y * grid.width() + x] = true;
    let mut out = Vec::new();
    while let Some((cx, cy)) = stack.pop() {
        out.push((cx, cy));
        let mut push = |nx: usize, ny: usize| {
            let i = ny * grid.width() + nx;
            if !seen[i] && grid.get(nx, ny) == colour {
                seen[i] = true;
                stack.push((nx, ny));
            }
        };
        if cx > 0 {
            push(cx - 1, cy);
        }
        if cx + 1 < grid.width() {
            push(cx + 1, cy);
        }
        if cy > 0 {
            push(cx, cy - 1);
        }
        if cy + 1 < grid.height() {
            push(cx, cy + 1);
        }
    }
    out.sort_unstable();
    out
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

/// Draws one board on `img` with its top-left corner at `(ox, oy)`.
fn draw_board(
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

/// A board drawn as pixels (save as PNG with [`save_board`] or `image`).
pub fn render(grid: &Grid, game: Option<Game>, style: &Style) -> RgbImage {
    let (w, h) = style.size(grid.width(), grid.height());
    let mut img = RgbImage::new(w, h);
    draw_board(&mut img, 0, 0, grid, game, style);
    img
}

/// The SVG elements of one board at `(ox, oy)`; each tile carries its letter as a `<title>`.
fn svg_board(out: &mut String, ox: u32, oy: u32, grid: &Grid, game: Option<Game>, style: &Style) {
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

fn svg_header(w: u32, h: u32) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n"
    )
}

/// The panel layout of a steps picture.
struct Layout {
    columns: usize,
    panel: (u32, u32),
    label: u32,
    scale: u32,
    space: u32,
    size: (u32, u32),
    /// Per step, the outlined cells.
    groups: Vec<Vec<(usize, usize)>>,
}

fn layout(boards: &[Grid], picks: &[Pick], style: &Style) -> Result<Layout, PictureError> {
    if boards.is_empty() {
        return Err(PictureError::Draw("no boards to draw".into()));
    }
    if picks.len() > boards.len() {
        return Err(PictureError::Draw(format!(
            "{} picks for {} boards",
            picks.len(),
            boards.len()
        )));
    }
    let mut groups = Vec::new();
    for (i, board) in boards.iter().enumerate() {
        let group = match picks.get(i).unwrap_or(&Pick::None) {
            Pick::None => Vec::new(),
            Pick::Click(x, y) => {
                let g = flood_group(board, *x, *y);
                if g.is_empty() {
                    return Err(PictureError::Draw(format!(
                        "step {}: the click ({x},{y}) is not on a tile",
                        i + 1
                    )));
                }
                g
            }
            Pick::Group(cells) => {
                if let Some(&(x, y)) = cells
                    .iter()
                    .find(|&&(x, y)| x >= board.width() || y >= board.height())
                {
                    return Err(PictureError::Draw(format!(
                        "step {}: cell ({x},{y}) is off the {}×{} board",
                        i + 1,
                        board.width(),
                        board.height()
                    )));
                }
                cells.clone()
            }
        };
        groups.push(group);
    }
    Ok(frame(boards, style, groups))
}

/// The panels' places for `boards` (at least one), about square: as many columns as the
/// square root of the boards, each panel as large as the largest board.
fn frame(boards: &[Grid], style: &Style, groups: Vec<Vec<(usize, usize)>>) -> Layout {
    let mut panel = (0u64, 0u64);
    for b in boards {
        let (w, h) = style.size(b.width(), b.height());
        panel = (panel.0.max(w.into()), panel.1.max(h.into()));
    }
    let scale = (style.tile / 16).max(1);
    let label = font::GLYPH_H * scale + 2 * scale;
    let columns = (boards.len() as f64).sqrt().ceil().max(1.0) as usize;
    let rows = boards.len().div_ceil(columns);
    let space = style.margin.max(8);
    let (c, r, s, l) = (
        columns as u64,
        rows as u64,
        u64::from(space),
        u64::from(label),
    );
    // (in u64: a long answer of big boards may pass u32's pixels, which `steps_size` says)
    let size = (c * panel.0 + (c + 1) * s, r * (panel.1 + l) + (r + 1) * s);
    let clamp = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
    Layout {
        columns,
        panel: (clamp(panel.0), clamp(panel.1)),
        label,
        scale,
        space,
        size: (clamp(size.0), clamp(size.1)),
        groups,
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

/// The pixel size of [`render_steps`]' picture of `boards` in `style`.
pub fn steps_size(boards: &[Grid], style: &Style) -> (u32, u32) {
    frame(boards, style, Vec::new()).size
}

impl Layout {
    /// The top-left corner of panel `i`'s board (below its label).
    fn origin(&self, i: usize) -> (u32, u32) {
        let (c, r) = ((i % self.columns) as u32, (i / self.columns) as u32);
        (
            self.space + c * (self.panel.0 + self.space),
            self.space + r * (self.panel.1 + self.label + self.space) + self.label,
        )
    }
}

/// A colour that stands out on `bg`.
fn ink(bg: Rgb) -> Rgb {
    let luma = 0.299 * bg[0] as f64 + 0.587 * bg[1] as f64 + 0.114 * bg[2] as f64;
    if luma < 128.0 {
        [255, 255, 255]
    } else {
        [0, 0, 0]
    }
}

/// The outline of a group: per cell side with no group neighbour, the segment
/// `(x0, y0, x1, y1)` in pixels, along the middle of the gap around the tile.
fn outline(group: &[(usize, usize)], height: usize, style: &Style) -> Vec<(f64, f64, f64, f64)> {
    let has = |x: i64, y: i64| group.iter().any(|&(a, b)| a as i64 == x && b as i64 == y);
    let half_gap = style.gap as f64 / 2.0;
    let t = style.tile as f64;
    let mut out = Vec::new();
    for &(x, y) in group {
        let (px, py) = style.corner(height, x, y);
        let (l, tp) = (px as f64 - half_gap, py as f64 - half_gap);
        let (r, b) = (px as f64 + t + half_gap, py as f64 + t + half_gap);
        let (xi, yi) = (x as i64, y as i64);
        if !has(xi - 1, yi) {
            out.push((l, tp, l, b));
        }
        if !has(xi + 1, yi) {
            out.push((r, tp, r, b));
        }
        if !has(xi, yi + 1) {
            out.push((l, tp, r, tp));
        }
        if !has(xi, yi - 1) {
            out.push((l, b, r, b));
        }
    }
    out
}

/// The boards before each move of a solution, as panels in a grid, each with its step number
/// and the group about to be clicked outlined. `picks[i]` belongs to `boards[i]`; missing
/// picks (such as the final board's) outline nothing.
pub fn render_steps(
    boards: &[Grid],
    picks: &[Pick],
    game: Option<Game>,
    style: &Style,
) -> Result<RgbImage, PictureError> {
    let lay = layout(boards, picks, style)?;
    let mut img = RgbImage::from_pixel(lay.size.0, lay.size.1, Pixel(style.background));
    let ink = ink(style.background);
    let thick = (style.tile as f64 / 10.0).max(2.0);
    for (i, board) in boards.iter().enumerate() {
        let (ox, oy) = lay.origin(i);
        font::draw_text(
            &mut img,
            ox as i64,
            (oy - lay.label) as i64,
            &(i + 1).to_string(),
            lay.scale,
            ink,
        );
        draw_board(&mut img, ox, oy, board, game, style);
        for (width, colour) in [
            (thick, [255, 255, 255]),
            ((thick / 3.0).max(1.0), [0, 0, 0]),
        ] {
            for (x0, y0, x1, y1) in outline(&lay.groups[i], board.height(), style) {
                let h = width / 2.0;
                let (ax, ay) = (ox as f64 + x0.min(x1) - h, oy as f64 + y0.min(y1) - h);
                let (bx, by) = (ox as f64 + x0.max(x1) + h, oy as f64 + y0.max(y1) + h);
                fill(
                    &mut img,
                    ax.round() as i64,
                    ay.round() as i64,
                    (bx - ax).round() as i64,
                    (by - ay).round() as i64,
                    colour,
                );
            }
        }
    }
    Ok(img)
}

/// [`render_steps`] as SVG text.
pub fn render_steps_svg(
    boards: &[Grid],
    picks: &[Pick],
    game: Option<Game>,
    style: &Style,
) -> Result<String, PictureError> {
    let lay = layout(boards, picks, style)?;
    let mut out = svg_header(lay.size.0, lay.size.1);
    let _ = writeln!(
        out,
        r#"<rect width="100%" height="100%" fill="{}"/>"#,
        hex(style.background)
    );
    let thick = (style.tile as f64 / 10.0).max(2.0);
    for (i, board) in boards.iter().enumerate() {
        let (ox, oy) = lay.origin(i);
        let _ = writeln!(
            out,
            r#"<text x="{ox}" y="{}" font-family="sans-serif" font-size="{}" fill="{}">{}</text>"#,
            oy - lay.scale,
            font::GLYPH_H * lay.scale,
            hex(ink(style.background)),
            i + 1
        );
        svg_board(&mut out, ox, oy, board, game, style);
        for (width, colour) in [(thick, "#ffffff"), ((thick / 3.0).max(1.0), "#000000")] {
            for (x0, y0, x1, y1) in outline(&lay.groups[i], board.height(), style) {
                let _ = writeln!(
                    out,
                    r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}" stroke-width="{width:.1}" stroke-linecap="square"/>"#,
                    ox as f64 + x0,
                    oy as f64 + y0,
                    ox as f64 + x1,
                    oy as f64 + y1
                );
            }
        }
    }
    out.push_str("</svg>\n");
    Ok(out)
}

/// Whether a picture may be written to `path`, checked before the work that makes it (a
/// solve may take a minute): a `.png` or `.svg` name, not a directory, in a directory
/// that exists. Whether the file can then be written is only known by writing it.
pub fn check_output(path: &Path) -> Result<(), PictureError> {
    is_svg(path)?;
    check_place(path)
}

/// [`check_output`] for a picture only a PNG can hold (a screenshot with marks drawn on it).
pub fn check_png_output(path: &Path) -> Result<(), PictureError> {
    if !has_extension(path, "png") {
        return Err(PictureError::NotPng);
    }
    check_place(path)
}

/// `path` names no directory, and the directory it is in exists.
fn check_place(path: &Path) -> Result<(), PictureError> {
    if path.is_dir() {
        return Err(PictureError::Io(std::io::Error::other("it is a directory")));
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    match dir {
        Some(d) if !d.is_dir() => Err(PictureError::Io(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("no directory {}", d.display()),
        ))),
        _ => Ok(()),
    }
}

fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// Is `path` a `.png` (false) or `.svg` (true) file name?
fn is_svg(path: &Path) -> Result<bool, PictureError> {
    if has_extension(path, "svg") {
        Ok(true)
    } else if has_extension(path, "png") {
        Ok(false)
    } else {
        Err(PictureError::Extension(path.display().to_string()))
    }
}

/// `img` as the bytes of a PNG file.
pub fn png_bytes(img: &RgbImage) -> Result<Vec<u8>, PictureError> {
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png)
        .map_err(|e| PictureError::Draw(e.to_string()))?;
    Ok(out.into_inner())
}

/// Writes `img` to `path` as a PNG.
pub fn write_png(path: &Path, img: &RgbImage) -> Result<(), PictureError> {
    std::fs::write(path, png_bytes(img)?)?;
    Ok(())
}

/// The panels of a solution's steps picture: the board before each move with the group
/// about to be clicked, then the final board. `after[i]` is the board after move `i`, and
/// `clicks[i]` its clicked cell (`None` for a move with no cell, as Flood-It's colours:
/// its flooded region, the group of `start`, is outlined instead).
pub fn solution_panels(
    start_board: &Grid,
    after: &[Grid],
    clicks: &[Option<(usize, usize)>],
    start: Option<(usize, usize)>,
) -> (Vec<Grid>, Vec<Pick>) {
    let mut boards = vec![start_board.clone()];
    boards.extend(after.iter().cloned());
    let mut picks: Vec<Pick> = clicks
        .iter()
        .map(|c| match c.or(start) {
            Some((x, y)) => Pick::Click(x, y),
            None => Pick::None,
        })
        .collect();
    picks.push(Pick::None);
    (boards, picks)
}

/// A board drawn as the bytes of a picture file: SVG text (`svg`) or a PNG.
pub fn board_bytes(
    grid: &Grid,
    game: Option<Game>,
    style: &Style,
    svg: bool,
) -> Result<Vec<u8>, PictureError> {
    if svg {
        Ok(render_svg(grid, game, style).into_bytes())
    } else {
        png_bytes(&render(grid, game, style))
    }
}

/// The steps of a solution (see [`render_steps`]) as the bytes of a picture file: SVG text
/// (`svg`) or a PNG.
pub fn steps_bytes(
    boards: &[Grid],
    picks: &[Pick],
    game: Option<Game>,
    style: &Style,
    svg: bool,
) -> Result<Vec<u8>, PictureError> {
    if svg {
        Ok(render_steps_svg(boards, picks, game, style)?.into_bytes())
    } else {
        png_bytes(&render_steps(boards, picks, game, style)?)
    }
}

/// Draws a board to `path`, PNG or SVG by the extension.
pub fn save_board(
    path: &Path,
    grid: &Grid,
    game: Option<Game>,
    style: &Style,
) -> Result<(), PictureError> {
    let svg = is_svg(path)?;
    std::fs::write(path, board_bytes(grid, game, style, svg)?)?;
    Ok(())
}

/// Draws the steps of a solution to `path` (see [`render_steps`]), PNG or SVG by the extension.
pub fn save_steps(
    path: &Path,
    boards: &[Grid],
    picks: &[Pick],
    game: Option<Game>,
    style: &Style,
) -> Result<(), PictureError> {
    let svg = is_svg(path)?;
    std::fs::write(path, steps_bytes(boards, picks, game, style, svg)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn a_click_outlines_its_flood_filled_group() {
        let g: Grid = "AAB,ABB,BAA".parse().unwrap();
        assert_eq!(flood_group(&g, 0, 2), vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(flood_group(&g, 2, 2), vec![(1, 1), (2, 1), (2, 2)]);
        let s = Style::default();
        let by_click =
            render_steps(std::slice::from_ref(&g), &[Pick::Click(0, 2)], None, &s).unwrap();
        let by_cells = render_steps(
            std::slice::from_ref(&g),
            &[Pick::Group(flood_group(&g, 1, 2))],
            None,
            &s,
        )
        .unwrap();
        assert_eq!(by_click, by_cells);
        let plain = render_steps(std::slice::from_ref(&g), &[], None, &s).unwrap();
        assert_ne!(plain, by_click);
        assert!(render_steps(&[g], &[Pick::Click(9, 9)], None, &s).is_err());
    }
}
