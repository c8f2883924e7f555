//! The steps of a solution drawn as panels: the board before each move, its step number,
//! and the group about to be clicked outlined.

use image::RgbImage;

use super::canvas::{Canvas, Pixels, Svg};
use super::colour::Rgb;
use super::font;
use super::render::draw_board;
use super::style::Style;
use super::PictureError;
use crate::grid::Grid;
use crate::rules::Game;

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

/// The strokes that outline a group, drawn in turn over its segments ([`outline`]), as
/// (width in pixels, colour): a wide white one, then a narrow black one along its middle,
/// so the outline shows on every tile colour and on the background.
fn outline_strokes(style: &Style) -> [(f64, Rgb); 2] {
    let thick = (style.tile as f64 / 10.0).max(2.0);
    [
        (thick, [255, 255, 255]),
        ((thick / 3.0).max(1.0), [0, 0, 0]),
    ]
}

/// Draws the steps picture of `lay` on `canvas`: each board in its panel, its step number
/// above it, and its group outlined.
fn draw_steps(
    canvas: &mut impl Canvas,
    lay: &Layout,
    boards: &[Grid],
    game: Option<Game>,
    style: &Style,
) {
    let ink = ink(style.background);
    for (i, board) in boards.iter().enumerate() {
        let (ox, oy) = lay.origin(i);
        let step = (i + 1).to_string();
        canvas.label(ox, oy, lay.label, lay.scale, &step, ink);
        draw_board(canvas, ox, oy, board, game, style);
        let segments = outline(&lay.groups[i], board.height(), style);
        let (x, y) = (ox as f64, oy as f64);
        for (width, colour) in outline_strokes(style) {
            for &(x0, y0, x1, y1) in &segments {
                canvas.segment((x + x0, y + y0, x + x1, y + y1), width, colour);
            }
        }
    }
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
    let mut pixels = Pixels::new(lay.size.0, lay.size.1, style.background);
    draw_steps(&mut pixels, &lay, boards, game, style);
    Ok(pixels.0)
}

/// [`render_steps`] as SVG text.
pub fn render_steps_svg(
    boards: &[Grid],
    picks: &[Pick],
    game: Option<Game>,
    style: &Style,
) -> Result<String, PictureError> {
    let lay = layout(boards, picks, style)?;
    let mut svg = Svg::filled(lay.size.0, lay.size.1, style.background);
    draw_steps(&mut svg, &lay, boards, game, style);
    Ok(svg.finish())
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

#[cfg(test)]
mod tests {
    use super::*;

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
