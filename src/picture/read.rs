//! Reading a board from a screenshot: decoding, regions, the tile lattice, the board's
//! extent and the cell colours. The method is described in the module docs of
//! [`crate::picture`].

use std::io::Cursor;

use image::{ImageFormat, ImageReader, Limits, RgbImage};

use super::colour::{hex, lab, Lab, Rgb};
use super::font;
use super::{PictureError, FORMER_COLOURS};
use crate::grid::{BoardError, Grid, MAX_COLOURS};
use crate::rules::Game;

/// The longest image side [`decode`] accepts.
pub const MAX_SIDE: u32 = 16_384;
/// The most pixels [`decode`] accepts (a 7680×4320 8K screenshot is 33 million). Reading
/// takes about 16 bytes per pixel on top of the decoded image.
pub const MAX_PIXELS: u64 = 36_000_000;

/// Neighbouring pixels whose channels all differ by at most this much are one region.
const REGION_STEP: u8 = 14;
/// Pixels this close (largest channel difference) to a patch's median are its inliers.
const PATCH_INLIER: i32 = 28;
/// The largest ΔE from NRK's colour for a Former tile.
const FORMER_MAX_DELTA: f32 = 28.0;
/// The largest ΔE from the board background for an empty cell.
const EMPTY_MAX_DELTA: f32 = 18.0;
/// How far, in pixels, the scans along one side of a board's panel may end from each other
/// and still be one straight edge (blur and scaling soften an edge by a pixel or two).
const EDGE_SLACK: f64 = 2.5;
/// The fewest tiles a board sized from its tiles may hold (see `read_image`).
const FROM_TILES_MIN: usize = 8;
/// Tile colours closer than this ΔE join one cluster; farther ones are different colours.
const CLUSTER_DELTA: f32 = 15.0;
/// The two halves of a cluster this far apart (ΔE) are two colours: the samples of one
/// colour lie within a ΔE or two of each other.
const SPLIT_DELTA: f32 = 5.0;

/// What is known about the board to read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// The game: gives the palette (Former), the size (Former 7×9, Figure 5×5, dust 8×6)
    /// and the number of colours.
    pub game: Option<Game>,
    /// The board's width in cells, overriding the game's.
    pub width: Option<usize>,
    /// The board's height in cells, overriding the game's.
    pub height: Option<usize>,
    /// The most tile colours (K), overriding the game's.
    pub colours: Option<usize>,
}

impl ReadOptions {
    /// Options for `game` with its usual size (when fixed) and colours.
    pub fn game(game: Game) -> ReadOptions {
        ReadOptions {
            game: Some(game),
            ..ReadOptions::default()
        }
    }

    fn known_size(&self) -> (Option<usize>, Option<usize>) {
        let fixed = match self.game {
            Some(g @ (Game::Former | Game::Figure | Game::Dust)) => {
                let (w, h, _) = g.default_size();
                (Some(w), Some(h))
            }
            _ => (None, None),
        };
        (self.width.or(fixed.0), self.height.or(fixed.1))
    }

    fn max_colours(&self) -> usize {
        self.colours
            .or(self.game.map(|g| g.default_size().2))
            .unwrap_or(MAX_COLOURS)
            .min(MAX_COLOURS)
    }

    fn size_text(&self) -> String {
        match self.known_size() {
            (Some(w), Some(h)) => format!("{w}×{h}"),
            (Some(w), None) => format!("{w}-wide"),
            (None, Some(h)) => format!("{h}-high"),
            (None, None) => "square".into(),
        }
    }
}

/// A board read from a picture, with where it was found.
#[derive(Clone, Debug)]
pub struct Reading {
    /// The board.
    pub grid: Grid,
    /// The centre of the top-left cell, in pixels.
    pub first: (f64, f64),
    /// The distance between neighbouring cell centres, in pixels (x, y).
    pub pitch: (f64, f64),
    /// The visible size of a tile's face, in pixels (x, y).
    pub tile: (f64, f64),
    /// The board background (the colour of empty cells), when visible.
    pub background: Option<Rgb>,
    /// The colour read for each letter: `colours[k - 1]` for colour `k` of `grid`.
    pub colours: Vec<Rgb>,
    /// Set when the board's size was taken from its tiles because its edges do not show
    /// (SameGame and Clickomania): what was assumed, in one line.
    pub note: Option<String>,
}

impl Reading {
    /// The centre of cell `(x, y)` (`y = 0` the bottom row), in pixels.
    pub fn centre(&self, x: usize, y: usize) -> (f64, f64) {
        let row = self.grid.height() - 1 - y;
        (
            self.first.0 + x as f64 * self.pitch.0,
            self.first.1 + row as f64 * self.pitch.1,
        )
    }
}

/// A decoder's error as one line: some decoders end their messages with a new line or
/// spread them over several.
fn decode_error(e: impl std::fmt::Display) -> PictureError {
    let text = e.to_string();
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    PictureError::Decode(lines.join("; "))
}

/// The format of a picture [`decode`] reads (PNG, JPEG or WebP) that `bytes` start as, or
/// why they are none: another format, named, or none known.
fn readable_format(bytes: &[u8]) -> Result<ImageFormat, PictureError> {
    use image::ImageFormat::{Jpeg, Png, WebP};
    match image::guess_format(bytes) {
        Ok(f @ (Png | Jpeg | WebP)) => Ok(f),
        Ok(other) => {
            let name = other
                .extensions_str()
                .first()
                .map_or_else(|| format!("{other:?}"), |e| e.to_ascii_uppercase());
            Err(PictureError::Decode(format!(
                "a {name} image: tumble reads PNG, JPEG or WebP"
            )))
        }
        Err(_) => Err(PictureError::Decode("not a PNG, JPEG or WebP image".into())),
    }
}

/// Do `bytes` start the way a picture [`decode`] reads does (PNG, JPEG or WebP)?
pub fn is_picture(bytes: &[u8]) -> bool {
    readable_format(bytes).is_ok()
}

/// Decodes PNG, JPEG or WebP bytes to RGB pixels. The header's dimensions are checked
/// against [`MAX_SIDE`] and [`MAX_PIXELS`] before any pixel is decoded, so a forged header
/// cannot make us allocate gigabytes.
pub fn decode(bytes: &[u8]) -> Result<RgbImage, PictureError> {
    let format = readable_format(bytes)?;
    let reader = || ImageReader::with_format(Cursor::new(bytes), format);
    let (width, height) = reader().into_dimensions().map_err(decode_error)?;
    if width > MAX_SIDE || height > MAX_SIDE || width as u64 * height as u64 > MAX_PIXELS {
        return Err(PictureError::TooLarge {
            width,
            height,
            max_side: MAX_SIDE,
            max_pixels: MAX_PIXELS,
        });
    }
    if width == 0 || height == 0 {
        return Err(PictureError::Decode("the image has no pixels".into()));
    }
    let mut r = reader();
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_PIXELS * 4 + (64 << 20));
    r.limits(limits);
    Ok(r.decode().map_err(decode_error)?.to_rgb8())
}

/// Reads a board from image bytes (PNG, JPEG or WebP); see [`read_image`].
pub fn read(bytes: &[u8], options: &ReadOptions) -> Result<Reading, PictureError> {
    read_image(&decode(bytes)?, options)
}

/// A region of near-constant colour.
#[derive(Clone, Copy, Debug)]
struct Region {
    x0: u32,
    y0: u32,
    /// Inclusive.
    x1: u32,
    y1: u32,
    n: u32,
}

impl Region {
    fn w(&self) -> f64 {
        (self.x1 - self.x0 + 1) as f64
    }
    fn h(&self) -> f64 {
        (self.y1 - self.y0 + 1) as f64
    }
    fn fill(&self) -> f64 {
        self.n as f64 / (self.w() * self.h())
    }
}

/// The image cut into regions: `label[y * w + x]` indexes `regions`.
struct Regions {
    w: usize,
    label: Vec<u32>,
    regions: Vec<Region>,
}

impl Regions {
    fn at(&self, x: f64, y: f64) -> Option<u32> {
        let h = self.label.len() / self.w;
        if x < 0.0 || y < 0.0 || x >= self.w as f64 || y >= h as f64 {
            return None;
        }
        Some(self.label[y as usize * self.w + x as usize])
    }
}

fn find(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        let up = parent[parent[i as usize] as usize];
        parent[i as usize] = up;
        i = up;
    }
    i
}

/// Joins 4-neighbours whose channels differ by at most `step` (union–find).
fn regions(img: &RgbImage, step: u8) -> Regions {
    let (w, h) = (img.width() as usize, img.height() as usize);
    let px = img.as_raw();
    let close = |a: usize, b: usize| {
        let (a, b) = (&px[3 * a..3 * a + 3], &px[3 * b..3 * b + 3]);
        a[0].abs_diff(b[0]) <= step && a[1].abs_diff(b[1]) <= step && a[2].abs_diff(b[2]) <= step
    };
    let mut parent: Vec<u32> = (0..(w * h) as u32).collect();
    let union = |parent: &mut Vec<u32>, a: usize, b: usize| {
        let (ra, rb) = (find(parent, a as u32), find(parent, b as u32));
        if ra != rb {
            let (lo, hi) = (ra.min(rb), ra.max(rb));
            parent[hi as usize] = lo;
        }
    };
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            if x + 1 < w && close(i, i + 1) {
                union(&mut parent, i, i + 1);
            }
            if y + 1 < h && close(i, i + w) {
                union(&mut parent, i, i + w);
            }
        }
    }
    let mut label = vec![u32::MAX; w * h];
    let mut regions: Vec<Region> = Vec::new();
    for i in 0..w * h {
        let r = find(&mut parent, i as u32) as usize;
        // Roots come first in index order (a root is the smallest index of its set).
        let id = if r == i {
            regions.push(Region {
                x0: u32::MAX,
                y0: u32::MAX,
                x1: 0,
                y1: 0,
                n: 0,
            });
            (regions.len() - 1) as u32
        } else {
            label[r]
        };
        label[i] = id;
        let (x, y) = ((i % w) as u32, (i / w) as u32);
        let g = &mut regions[id as usize];
        g.x0 = g.x0.min(x);
        g.y0 = g.y0.min(y);
        g.x1 = g.x1.max(x);
        g.y1 = g.y1.max(y);
        g.n += 1;
    }
    Regions { w, label, regions }
}

/// A region shaped like one tile: its centre and size.
#[derive(Clone, Copy, Debug)]
struct Atom {
    cx: f64,
    cy: f64,
    w: f64,
    h: f64,
}

fn atoms(regs: &Regions, img_w: u32, img_h: u32) -> Vec<Atom> {
    let max_side = (img_w.max(img_h) as f64 / 2.0).max(8.0);
    regs.regions
        .iter()
        .filter(|r| {
            let (w, h) = (r.w(), r.h());
            w >= 8.0
                && h >= 8.0
                && w <= max_side
                && h <= max_side
                && (w - h).abs() <= (0.12 * w.max(h)).max(2.0)
                && r.fill() >= 0.5
        })
        .map(|r| Atom {
            cx: (r.x0 + r.x1 + 1) as f64 / 2.0,
            cy: (r.y0 + r.y1 + 1) as f64 / 2.0,
            w: r.w(),
            h: r.h(),
        })
        .collect()
}

/// Atoms grouped by size, most common size first (ties to the larger): up to three
/// groups of at least three atoms each. The tiles are usually the most common shape, but
/// the bits of background between rounded corners or marks inside tiles can outnumber
/// them, so each group is tried.
fn size_groups(atoms: &[Atom]) -> Vec<(f64, Vec<Atom>)> {
    let size = |a: &Atom| (a.w + a.h) / 2.0;
    let near = |s: f64, a: &Atom| (size(a) - s).abs() <= 0.1 * s + 1.0;
    let mut left: Vec<Atom> = atoms.to_vec();
    let mut out = Vec::new();
    while out.len() < 3 {
        let mut best = (0, 0.0);
        for a in &left {
            let s = size(a);
            let n = left.iter().filter(|b| near(s, b)).count();
            if n > best.0 || (n == best.0 && s > best.1) {
                best = (n, s);
            }
        }
        if best.0 < 3 {
            break;
        }
        let (chosen, rest): (Vec<Atom>, Vec<Atom>) = left.iter().partition(|a| near(best.1, a));
        let s = chosen.iter().map(size).sum::<f64>() / chosen.len() as f64;
        out.push((s, chosen));
        left = rest;
    }
    out
}

/// The period along one axis: `pos` holds (along, across) per atom. Every distance between
/// atoms of one row is a whole number of periods; the period is searched in
/// `[0.9 s, 2 s + 3]`, which holds the pitch (a tile plus a gap narrower than a tile) and
/// neither its half nor its double when gaps are narrow.
fn period(pos: &[(f64, f64)], s: f64) -> Vec<f64> {
    let mut sorted = pos.to_vec();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut ds = Vec::new();
    for (k, a) in sorted.iter().enumerate() {
        let mut near: Vec<f64> = sorted[k + 1..]
            .iter()
            .filter(|b| b.0 - a.0 > 0.8 * s && (b.1 - a.1).abs() < 0.5 * s)
            .map(|b| b.0 - a.0)
            .take(64)
            .collect();
        near.sort_by(f64::total_cmp);
        ds.extend(near.into_iter().take(4));
    }
    if ds.is_empty() {
        return Vec::new();
    }
    let (lo, hi) = (0.9 * s, 2.0 * s + 3.0);
    let score = |p: f64| -> f64 {
        let tol = (0.05 * p).max(1.0);
        ds.iter()
            .map(|&d| (1.0 - (d - (d / p).round() * p).abs() / tol).max(0.0))
            .sum()
    };
    let mut cands: Vec<f64> = Vec::new();
    for &d in &ds {
        for k in 1..=8 {
            let p = d / k as f64;
            if (lo..=hi).contains(&p) {
                cands.push((p * 4.0).round() / 4.0);
            }
        }
    }
    cands.sort_by(f64::total_cmp);
    cands.dedup();
    let scored: Vec<(f64, f64)> = cands.into_iter().map(|p| (score(p), p)).collect();
    let top = scored.iter().map(|c| c.0).fold(f64::NEG_INFINITY, f64::max);
    if !top.is_finite() || top <= 0.0 {
        return Vec::new();
    }
    // Periods that explain the distances as well as the best one: when every distance seen
    // is an even number of pitches, the double pitch ties with the pitch (and the pitch with
    // its half when gaps are wide). The caller keeps the one whose tiles cover the most.
    let mut tied: Vec<f64> = scored
        .iter()
        .filter(|c| c.0 > top - 1e-9)
        .map(|c| c.1)
        .collect();
    tied.dedup_by(|a, b| (*a - *b).abs() < 1.0);
    tied.iter()
        .take(3)
        .map(|&p| {
            // A fine search around the candidate.
            let mut fine = (score(p), p);
            for k in -20..=20 {
                let q = p + k as f64 * 0.025;
                let sc = score(q);
                if sc > fine.0 + 1e-9 {
                    fine = (sc, q);
                }
            }
            fine.1
        })
        .collect()
}

/// One axis of the lattice: cell `i` is centred at `phase + i * pitch`.
#[derive(Clone, Copy, Debug)]
struct Axis {
    phase: f64,
    pitch: f64,
}

impl Axis {
    fn at(&self, i: i64) -> f64 {
        self.phase + i as f64 * self.pitch
    }
    fn index(&self, v: f64) -> i64 {
        ((v - self.phase) / self.pitch).round() as i64
    }
    fn residual(&self, v: f64) -> f64 {
        v - self.at(self.index(v))
    }
    fn tol(&self) -> f64 {
        (0.08 * self.pitch).max(1.5)
    }
}

/// Least squares `v = phase + i * pitch` over the given (i, v).
fn least_squares(points: &[(i64, f64)], fallback: Axis) -> Axis {
    let n = points.len() as f64;
    let mi = points.iter().map(|p| p.0 as f64).sum::<f64>() / n;
    let mv = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sii: f64 = points.iter().map(|p| (p.0 as f64 - mi).powi(2)).sum();
    if points.len() < 2 || sii < 0.5 {
        let phase = points
            .first()
            .map_or(fallback.phase, |p| p.1 - p.0 as f64 * fallback.pitch);
        return Axis { phase, ..fallback };
    }
    let siv: f64 = points.iter().map(|p| (p.0 as f64 - mi) * (p.1 - mv)).sum();
    let pitch = siv / sii;
    Axis {
        phase: mv - pitch * mi,
        pitch,
    }
}

/// The phase that puts most values on the lattice, then a few rounds of least squares.
fn fit_axis(vals: &[f64], pitch: f64) -> Axis {
    let mut axis = Axis { phase: 0.0, pitch };
    let tol = axis.tol();
    let rems: Vec<f64> = vals.iter().map(|v| v.rem_euclid(pitch)).collect();
    let circ = |a: f64, b: f64| {
        let d = (a - b).abs();
        d.min(pitch - d)
    };
    let mut best = (0, 0.0);
    for &r in &rems {
        let n = rems.iter().filter(|&&q| circ(q, r) <= tol).count();
        if n > best.0 {
            best = (n, r);
        }
    }
    axis.phase = best.1;
    for round in 0..5 {
        let limit = if round < 2 { tol } else { axis.tol() };
        let pts: Vec<(i64, f64)> = vals
            .iter()
            .filter(|&&v| axis.residual(v).abs() <= limit)
            .map(|&v| (axis.index(v), v))
            .collect();
        if pts.is_empty() {
            break;
        }
        axis = least_squares(&pts, axis);
    }
    axis
}

/// Groups cells into clusters: `near(a, b)` says whether two cells touch.
fn clusters(
    cells: &[(i64, i64)],
    near: impl Fn((i64, i64), (i64, i64)) -> bool,
) -> Vec<Vec<usize>> {
    let mut seen = vec![false; cells.len()];
    let mut out = Vec::new();
    for s in 0..cells.len() {
        if seen[s] {
            continue;
        }
        seen[s] = true;
        let mut stack = vec![s];
        let mut group = Vec::new();
        while let Some(k) = stack.pop() {
            group.push(k);
            for m in 0..cells.len() {
                if !seen[m] && near(cells[k], cells[m]) {
                    seen[m] = true;
                    stack.push(m);
                }
            }
        }
        out.push(group);
    }
    out
}

/// A cell's colour: the median of a central patch, then the mean of the patch pixels near
/// the median. Returns the colour and the share of the patch that agreed with it.
fn sample(img: &RgbImage, cx: f64, cy: f64, half: i64) -> (Rgb, f64) {
    let (w, h) = (img.width() as i64, img.height() as i64);
    let (x0, y0) = (cx.floor() as i64, cy.floor() as i64);
    let mut hist = [[0u32; 256]; 3];
    let mut pixels = Vec::new();
    for y in (y0 - half).max(0)..=(y0 + half).min(h - 1) {
        for x in (x0 - half).max(0)..=(x0 + half).min(w - 1) {
            let p = img.get_pixel(x as u32, y as u32).0;
            for c in 0..3 {
                hist[c][p[c] as usize] += 1;
            }
            pixels.push(p);
        }
    }
    if pixels.is_empty() {
        return ([0, 0, 0], 0.0);
    }
    let mid = pixels.len() as u32 / 2;
    let mut med = [0i32; 3];
    for c in 0..3 {
        let mut acc = 0;
        for (v, &n) in hist[c].iter().enumerate() {
            acc += n;
            if acc > mid {
                med[c] = v as i32;
                break;
            }
        }
    }
    let (mut sum, mut n) = ([0u64; 3], 0u64);
    for p in &pixels {
        if (0..3).all(|c| (p[c] as i32 - med[c]).abs() <= PATCH_INLIER) {
            for c in 0..3 {
                sum[c] += p[c] as u64;
            }
            n += 1;
        }
    }
    if n == 0 {
        return ([med[0] as u8, med[1] as u8, med[2] as u8], 0.0);
    }
    let mean = [0, 1, 2].map(|c| ((sum[c] + n / 2) / n) as u8);
    (mean, n as f64 / pixels.len() as f64)
}

/// Whether a tile of colour `colour` centred at `(cx, cy)` fills its face of size `face`:
/// the colour is seen a little inside the middle of each of the face's four sides, clear
/// of a mark drawn in the tile's middle, of a border drawn along its edge, and of rounded
/// corners (even a round tile reaches there). A point off the picture counts as filled.
fn fills_face(img: &RgbImage, cx: f64, cy: f64, face: (f64, f64), colour: Lab, reach: f32) -> bool {
    let (dx, dy) = (0.35 * face.0, 0.35 * face.1);
    let half = ((0.05 * face.0.min(face.1)).round() as i64).max(1);
    let (w, h) = (img.width() as f64, img.height() as f64);
    [(cx - dx, cy), (cx + dx, cy), (cx, cy - dy), (cx, cy + dy)]
        .iter()
        .all(|&(x, y)| {
            if x < 0.0 || y < 0.0 || x >= w || y >= h {
                return true;
            }
            let (rgb, agree) = sample(img, x, y, half);
            agree >= 0.6 && colour.delta(lab(rgb)) <= reach
        })
}

/// A lattice cell `(i, j)`: column `i`, row `j` counted downwards.
type Cell = (i64, i64);

/// The lattice found in the picture.
struct Lattice {
    x: Axis,
    y: Axis,
    /// The tile face size (x, y).
    face: (f64, f64),
}

impl Lattice {
    /// The cells `(i0, i1, j0, j1)` region `r` covers when it starts and ends on tile edges
    /// (one tile, or several merged tiles).
    fn aligned(&self, r: &Region) -> Option<(i64, i64, i64, i64)> {
        let check = |axis: &Axis, face: f64, lo: u32, hi: u32| {
            let tol = (0.1 * axis.pitch).max(2.5);
            let (lo, hi) = (lo as f64, hi as f64 + 1.0);
            let first = axis.index(lo + face / 2.0);
            let last = axis.index(hi - face / 2.0);
            ((lo - (axis.at(first) - face / 2.0)).abs() <= tol
                && (hi - (axis.at(last) + face / 2.0)).abs() <= tol
                && last >= first
                && last - first < 40)
                .then_some((first, last))
        };
        if r.fill() < 0.4 {
            return None;
        }
        let (i0, i1) = check(&self.x, self.face.0, r.x0, r.x1)?;
        let (j0, j1) = check(&self.y, self.face.1, r.y0, r.y1)?;
        Some((i0, i1, j0, j1))
    }
}

fn unknown_extent() -> PictureError {
    PictureError::Ambiguous(
        "the board's size is not known and its edges are not visible (give its width and height)"
            .into(),
    )
}

fn no_grid(options: &ReadOptions, detail: impl Into<String>) -> PictureError {
    let detail: String = detail.into();
    PictureError::NoGrid {
        size: options.size_text(),
        detail: if detail.is_empty() {
            detail
        } else {
            format!(": {detail}")
        },
    }
}

/// Finds the tile lattice from the atoms.
/// The candidate pitches (x, y) of a group of atoms: each axis's periods, or the other
/// axis's when a row or column never holds two atoms.
fn pitches(s: f64, cand: &[Atom]) -> Vec<(f64, f64)> {
    let px = period(&cand.iter().map(|a| (a.cx, a.cy)).collect::<Vec<_>>(), s);
    let py = period(&cand.iter().map(|a| (a.cy, a.cx)).collect::<Vec<_>>(), s);
    let (px, py) = match (px.is_empty(), py.is_empty()) {
        (false, false) => (px, py),
        (false, true) => (px.clone(), px),
        (true, false) => (py.clone(), py),
        (true, true) => return Vec::new(),
    };
    px.iter()
        .flat_map(|&x| py.iter().map(move |&y| (x, y)))
        .filter(|(x, y)| (0.85..=1.18).contains(&(x / y)))
        .collect()
}

fn lattice(
    s: f64,
    cand: &[Atom],
    (px, py): (f64, f64),
    options: &ReadOptions,
) -> Result<(Lattice, Vec<(i64, i64)>), PictureError> {
    let mut x = fit_axis(&cand.iter().map(|a| a.cx).collect::<Vec<_>>(), px);
    let mut y = fit_axis(&cand.iter().map(|a| a.cy).collect::<Vec<_>>(), py);
    // The atoms on both lattices, and the largest cluster of them.
    let on: Vec<&Atom> = cand
        .iter()
        .filter(|a| x.residual(a.cx).abs() <= x.tol() && y.residual(a.cy).abs() <= y.tol())
        .collect();
    let cells: Vec<(i64, i64)> = on.iter().map(|a| (x.index(a.cx), y.index(a.cy))).collect();
    let groups = clusters(&cells, |a, b| {
        (a.0 - b.0).abs() <= 3 && (a.1 - b.1).abs() <= 3
    });
    let main = groups
        .into_iter()
        .max_by_key(|g| g.len())
        .unwrap_or_default();
    if main.len() < 3 {
        return Err(no_grid(options, "too few tiles on one lattice"));
    }
    x = least_squares(
        &main
            .iter()
            .map(|&k| (cells[k].0, on[k].cx))
            .collect::<Vec<_>>(),
        x,
    );
    y = least_squares(
        &main
            .iter()
            .map(|&k| (cells[k].1, on[k].cy))
            .collect::<Vec<_>>(),
        y,
    );
    let ratio = x.pitch / y.pitch;
    if !(0.85..=1.18).contains(&ratio) || x.pitch < s * 0.85 || y.pitch < s * 0.85 {
        return Err(no_grid(
            options,
            "the repeating pattern is not a grid of square tiles",
        ));
    }
    let n = main.len() as f64;
    let face = (
        main.iter().map(|&k| on[k].w).sum::<f64>() / n,
        main.iter().map(|&k| on[k].h).sum::<f64>() / n,
    );
    let atom_cells = main.iter().map(|&k| cells[k]).collect();
    Ok((Lattice { x, y, face }, atom_cells))
}

/// The board's tile cells: lattice cells whose region is aligned with the lattice, in the
/// cluster holding most atoms.
fn tile_cluster(
    regs: &Regions,
    lat: &Lattice,
    atom_cells: &[(i64, i64)],
    img: &RgbImage,
) -> Vec<(i64, i64)> {
    let (iw, ih) = (img.width() as f64, img.height() as f64);
    let i_range = lat.x.index(0.0) - 1..=lat.x.index(iw) + 1;
    let j_range = lat.y.index(0.0) - 1..=lat.y.index(ih) + 1;
    let mut aligned_cache: Vec<Option<bool>> = vec![None; regs.regions.len()];
    let mut tile_cells = Vec::new();
    for j in j_range.clone() {
        for i in i_range.clone() {
            let Some(r) = regs.at(lat.x.at(i), lat.y.at(j)) else {
                continue;
            };
            // A region spanning several cells is merged tiles, unless another tile lies
            // inside it: then it is a background panel seen through the gaps.
            let ok = *aligned_cache[r as usize].get_or_insert_with(|| {
                lat.aligned(&regs.regions[r as usize])
                    .is_some_and(|(a0, a1, b0, b1)| {
                        (a0 == a1 && b0 == b1)
                            || !atom_cells
                                .iter()
                                .any(|&(i, j)| (a0..=a1).contains(&i) && (b0..=b1).contains(&j))
                    })
            });
            if ok {
                tile_cells.push((i, j));
            }
        }
    }
    for &c in atom_cells {
        if !tile_cells.contains(&c) {
            tile_cells.push(c);
        }
    }
    let groups = clusters(&tile_cells, |a, b| {
        let (di, dj) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
        (dj <= 1 && di <= 7) || (di <= 1 && dj <= 2)
    });
    let main = groups
        .into_iter()
        .max_by_key(|g| {
            g.iter()
                .filter(|&&k| atom_cells.contains(&tile_cells[k]))
                .count()
        })
        .unwrap_or_default();
    main.iter().map(|&k| tile_cells[k]).collect()
}

/// Is the pixel at `(x, y)` the panel's colour `bg`? Channels within [`PATCH_INLIER`]:
/// JPEG noise and the soft edge of a blurred tile stay inside, any drawn edge goes beyond.
fn is_panel(img: &RgbImage, bg: Rgb, x: i64, y: i64) -> bool {
    let p = img.get_pixel(x as u32, y as u32).0;
    (0..3).all(|c| (p[c] as i32 - bg[c] as i32).abs() <= PATCH_INLIER)
}

/// Where the panel ends, scanning from `(x, y)` in the direction `(dx, dy)` (one of them
/// ±1): the pixel edge before the first two pixels in a row that are neither the panel's
/// colour nor a tile, or the picture's border, with `true` for the border. `None` when the
/// scan starts neither on the panel's colour nor on a tile.
///
/// A tile the tile cluster missed (one of a run of merged tiles, say) lies inside the
/// panel, so the scan crosses it: a stretch off the panel's colour that starts at the near
/// edge of a lattice cell's face (within the gap, or a border drawn on the tile) and whose
/// face's middle is off the panel's colour too. Past the face the scan must come back to
/// the panel, or meet the next tile at once, without reaching the picture's border;
/// otherwise the stretch was no tile but what lies beyond the panel (a screen whose edge
/// happens to fall where a face would start), and the panel ends where it starts.
fn panel_end(
    img: &RgbImage,
    bg: Rgb,
    lat: &Lattice,
    (x, y): (f64, f64),
    (dx, dy): (i64, i64),
) -> Option<(f64, bool)> {
    let (w, h) = (img.width() as i64, img.height() as i64);
    let inside = |x: i64, y: i64| (0..w).contains(&x) && (0..h).contains(&y);
    // The scan's axis and the other one, with the face size along each.
    let (along, across, face_along, face_across) = if dx != 0 {
        (&lat.x, &lat.y, lat.face.0, lat.face.1)
    } else {
        (&lat.y, &lat.x, lat.face.1, lat.face.0)
    };
    let step = dx + dy;
    let slack = ((along.pitch - face_along) / 2.0 + 1.0).max(2.5);
    // The position along the scan of pixel (x, y), and the pixel at a position along it.
    let pos = |x: i64, y: i64| if dx != 0 { x } else { y };
    let at = |x: i64, y: i64, p: i64| if dx != 0 { (p, y) } else { (x, p) };
    // If pixel (x, y) starts a tile's face (seen from the scan's side), the position just
    // past that face.
    // With `anywhere`, a pixel anywhere on the face (where a scan starts).
    let tile_from = |x: i64, y: i64, anywhere: bool| -> Option<i64> {
        let (p, q) = (
            pos(x, y) as f64 + 0.5,
            if dx != 0 { y } else { x } as f64 + 0.5,
        );
        let (i, k) = (along.index(p), across.index(q));
        let (c, m) = (along.at(i), across.at(k));
        let near = c - step as f64 * face_along / 2.0;
        let edge = p - step as f64 * 0.5; // the pixel's edge the scan crosses
        let on_face = if anywhere {
            (p - c).abs() <= face_along / 2.0 + slack
        } else {
            (edge - near).abs() <= slack
        };
        if !on_face || (q - m).abs() > face_across / 2.0 {
            return None;
        }
        let (mx, my) = at(x, y, c.floor() as i64);
        let (mx, my) = if dx != 0 {
            (mx, m.floor() as i64)
        } else {
            (m.floor() as i64, my)
        };
        if !inside(mx, my) || is_panel(img, bg, mx, my) {
            return None;
        }
        Some((c + step as f64 * (face_along / 2.0 + 1.0)).floor() as i64)
    };
    // Across the tile whose face ends at position `past`, and any tile right after it, to
    // the panel beyond.
    let cross = |x: i64, y: i64, past: i64| -> Option<(i64, i64)> {
        let (mut x, mut y) = at(x, y, past);
        loop {
            // The panel, within a border drawn round the tile.
            let beyond = (0..=slack.ceil() as i64)
                .map(|k| (x + k * dx, y + k * dy))
                .take_while(|&(x, y)| inside(x, y))
                .find(|&(x, y)| is_panel(img, bg, x, y));
            if beyond.is_some() || !inside(x, y) {
                return beyond;
            }
            let next = tile_from(x - dx, y - dy, false).or_else(|| tile_from(x, y, false))?;
            (x, y) = at(x, y, next);
        }
    };
    let (mut x, mut y) = (x.floor() as i64, y.floor() as i64);
    if !inside(x, y) {
        return None;
    }
    // The first pixels next to a tile may carry its colour (JPEG's halved colour
    // resolution, blur): the panel may start a few pixels further out.
    match (0..=4)
        .map(|k| (x + k * dx, y + k * dy))
        .find(|&(x, y)| inside(x, y) && is_panel(img, bg, x, y))
    {
        Some(p) => (x, y) = p,
        None => (x, y) = cross(x, y, tile_from(x, y, true)?)?,
    }
    // The pixel edge just past (x, y) in the scan's direction.
    let edge = |x: i64, y: i64| (pos(x, y) + (step + 1) / 2) as f64;
    loop {
        let (nx, ny) = (x + dx, y + dy);
        if !inside(nx, ny) {
            return Some((edge(x, y), true));
        }
        if is_panel(img, bg, nx, ny) {
            (x, y) = (nx, ny);
            continue;
        }
        if let Some(p) = tile_from(nx, ny, false).and_then(|past| cross(nx, ny, past)) {
            (x, y) = p;
            continue;
        }
        if !inside(nx + dx, ny + dy) || !is_panel(img, bg, nx + dx, ny + dy) {
            return Some((edge(x, y), false));
        }
        (x, y) = (nx, ny);
    }
}

/// The edge where most scans end, if nearly all of them (nine in ten) end there: a straight
/// edge.
/// Returns its position and whether it is the picture's border.
fn straight_edge(ends: &[Option<(f64, bool)>]) -> Option<(f64, bool)> {
    let found: Vec<(f64, bool)> = ends.iter().flatten().copied().collect();
    if found.is_empty() {
        return None;
    }
    let mut at: Vec<f64> = found.iter().map(|e| e.0).collect();
    at.sort_by(f64::total_cmp);
    let median = at[at.len() / 2];
    let border = found.iter().filter(|e| e.1).count() * 2 > found.len();
    let on = found
        .iter()
        .filter(|e| (e.0 - median).abs() <= EDGE_SLACK && e.1 == border)
        .count();
    (on * 10 >= ends.len() * 9).then_some((median, border))
}

/// The board's panel: the rectangle of the background colour `bg` around the tiles' faces
/// `face_box` (left, right, top, bottom), as its edges (left, right, top, bottom) in pixels.
/// Scans start `out` pixels outside the faces (in the gaps around the outer tiles, clear of
/// a border drawn on a tile) and run outwards until the colour changes. A panel is found
/// only when
/// - each side is one straight edge: the scans from every outer row and column end
///   together, and so do scans along the whole side from corner to corner, margins
///   included (a title, a button or a bar beside the board breaks the line);
/// - the panel is an island in the picture or the whole picture: all four edges are drawn
///   edges, or all four are the picture's borders. A panel cut by some borders but not all
///   is a screen around the board, which tells nothing of where the board ends.
///
/// Edges are found by colour distance from `bg`, not by joining neighbouring pixels, so a
/// gradient that blur or JPEG leaves between the panel and the screen does not join them.
fn panel_edges(
    img: &RgbImage,
    bg: Rgb,
    lat: &Lattice,
    face_box: (f64, f64, f64, f64),
    outs: [(f64, f64); 2],
) -> Option<(f64, f64, f64, f64)> {
    // Positions across a span, `LINES` evenly spread with the ends a few pixels inside.
    const LINES: usize = 24;
    let across = |lo: f64, hi: f64| -> Vec<f64> {
        let (lo, hi) = (lo + 3.0, hi - 3.0);
        (0..LINES)
            .map(|k| lo + (hi - lo) * k as f64 / (LINES - 1) as f64)
            .collect()
    };
    let side = |from: &[(f64, f64)], dir: (i64, i64)| {
        let ends: Vec<_> = from
            .iter()
            .map(|&p| panel_end(img, bg, lat, p, dir))
            .collect();
        straight_edge(&ends)
    };
    let (ys, xs) = (
        across(face_box.2, face_box.3),
        across(face_box.0, face_box.1),
    );
    // One side: its edge and where its scans start, the first of the two starting
    // distances that finds a straight edge (the farther clears a border drawn around a
    // tile, the nearer fits in a margin narrower than the gaps).
    let find = |dir: (i64, i64)| {
        outs.iter().find_map(|out| {
            let start = match dir {
                (-1, _) => face_box.0 - out.0,
                (1, _) => face_box.1 + out.0,
                (_, -1) => face_box.2 - out.1,
                _ => face_box.3 + out.1,
            };
            let from: Vec<(f64, f64)> = if dir.0 != 0 {
                ys.iter().map(|&y| (start, y)).collect()
            } else {
                xs.iter().map(|&x| (x, start)).collect()
            };
            side(&from, dir).map(|e| (e, start))
        })
    };
    let (left, l0) = find((-1, 0))?;
    let (right, r0) = find((1, 0))?;
    let (top, t0) = find((0, -1))?;
    let (bottom, b0) = find((0, 1))?;
    let borders = [left.1, right.1, top.1, bottom.1];
    if borders.iter().any(|&b| b != borders[0]) {
        return None;
    }
    // Each side again along its whole length, corners included: the scans start in the
    // margins beside the tiles and must end on the same edge.
    let (l, r, t, b) = (left.0, right.0, top.0, bottom.0);
    let whole = |starts: Vec<(f64, f64)>, dir: (i64, i64), want: (f64, bool)| {
        side(&starts, dir).is_some_and(|e| (e.0 - want.0).abs() <= EDGE_SLACK && e.1 == want.1)
    };
    let (ys, xs) = (across(t, b), across(l, r));
    let ok = whole(ys.iter().map(|&y| (l0, y)).collect(), (-1, 0), left)
        && whole(ys.iter().map(|&y| (r0, y)).collect(), (1, 0), right)
        && whole(xs.iter().map(|&x| (x, t0)).collect(), (0, -1), top)
        && whole(xs.iter().map(|&x| (x, b0)).collect(), (0, 1), bottom);
    ok.then_some((l, r, t, b))
}

/// Two colours that best explain `points` (two-means from the farthest pair): the two
/// centres, which of them each point is nearer to (`true` for the second), and the
/// farthest any point lies from its own centre.
fn two_means(points: &[Lab]) -> (Lab, Lab, Vec<bool>, f32) {
    let mean = |ps: &mut dyn Iterator<Item = Lab>| {
        let (mut acc, mut n) = ((0.0f32, 0.0f32, 0.0f32), 0.0f32);
        for p in ps {
            acc = (acc.0 + p.l, acc.1 + p.a, acc.2 + p.b);
            n += 1.0;
        }
        Lab {
            l: acc.0 / n,
            a: acc.1 / n,
            b: acc.2 / n,
        }
    };
    let centre = mean(&mut points.iter().copied());
    let far = |from: Lab| {
        *points
            .iter()
            .max_by(|p, q| from.delta(**p).total_cmp(&from.delta(**q)))
            .expect("points")
    };
    let mut a = far(centre);
    let mut b = far(a);
    let mut side: Vec<bool> = Vec::new();
    for _ in 0..8 {
        side = points.iter().map(|p| b.delta(*p) < a.delta(*p)).collect();
        if side.iter().all(|&s| s) || side.iter().all(|&s| !s) {
            break;
        }
        a = mean(&mut points.iter().zip(&side).filter(|z| !*z.1).map(|z| *z.0));
        b = mean(&mut points.iter().zip(&side).filter(|z| *z.1).map(|z| *z.0));
    }
    let spread = points
        .iter()
        .zip(&side)
        .map(|(p, &s)| if s { b.delta(*p) } else { a.delta(*p) })
        .fold(0.0f32, f32::max);
    (a, b, side, spread)
}

/// Reads a board from pixels. See the module docs of [`crate::picture`] for the method.
pub fn read_image(img: &RgbImage, options: &ReadOptions) -> Result<Reading, PictureError> {
    let regs = regions(img, REGION_STEP);
    let all = atoms(&regs, img.width(), img.height());
    let groups = size_groups(&all);
    if groups.is_empty() {
        return Err(no_grid(options, "no tile-shaped regions"));
    }
    // The lattice whose tiles cover the most area.
    let mut best: Option<(f64, Lattice, Vec<Cell>)> = None;
    let mut first_error = None;
    let hypotheses: Vec<(f64, &Vec<Atom>, (f64, f64))> = groups
        .iter()
        .flat_map(|(s, cand)| pitches(*s, cand).into_iter().map(move |p| (*s, cand, p)))
        .collect();
    if hypotheses.is_empty() {
        return Err(no_grid(options, "no repeating tiles"));
    }
    for (s, cand, p) in hypotheses {
        match lattice(s, cand, p, options) {
            Ok((lat, atom_cells)) => {
                let tiles = tile_cluster(&regs, &lat, &atom_cells, img);
                let area = tiles.len() as f64 * lat.x.pitch * lat.y.pitch;
                if best.as_ref().is_none_or(|b| area > b.0) {
                    best = Some((area, lat, tiles));
                }
            }
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    let Some((_, lat, tiles)) = best else {
        return Err(first_error.expect("a group was tried"));
    };
    let (iw, ih) = (img.width() as f64, img.height() as f64);
    let i0 = tiles.iter().map(|c| c.0).min().unwrap_or(0);
    let i1 = tiles.iter().map(|c| c.0).max().unwrap_or(0);
    let j0 = tiles.iter().map(|c| c.1).min().unwrap_or(0);
    let j1 = tiles.iter().map(|c| c.1).max().unwrap_or(0);

    // The background panel around the tiles, seen just outside their faces.
    // Half a pitch out is the middle of the gap (or the tile's edge without gaps); two more
    // pixels clear a darker border drawn around the face.
    let (fx, fy) = (
        (lat.x.pitch / 2.0 + 2.0).max(lat.face.0 / 2.0 + 2.5),
        (lat.y.pitch / 2.0 + 2.0).max(lat.face.1 / 2.0 + 2.5),
    );
    // Narrow margins are caught just outside the face.
    let (nx, ny) = (lat.face.0 / 2.0 + 2.5, lat.face.1 / 2.0 + 2.5);
    let mut probes = Vec::new();
    for (fx, fy) in [(fx, fy), (nx, ny)] {
        for j in j0..=j1 {
            probes.push((lat.x.at(i0) - fx, lat.y.at(j)));
            probes.push((lat.x.at(i1) + fx, lat.y.at(j)));
        }
        for i in i0..=i1 {
            probes.push((lat.x.at(i), lat.y.at(j0) - fy));
            probes.push((lat.x.at(i), lat.y.at(j1) + fy));
        }
    }
    let labels: Vec<(u32, (f64, f64))> = probes
        .iter()
        .filter_map(|&(x, y)| regs.at(x, y).map(|r| (r, (x, y))))
        .collect();
    let mut panel: Option<u32> = None;
    let mut best = 0;
    for &(r, _) in &labels {
        let n = labels.iter().filter(|l| l.0 == r).count();
        if n > best {
            best = n;
            panel = Some(r);
        }
    }
    let background = panel.map(|p| {
        let pts: Vec<Rgb> = labels
            .iter()
            .filter(|l| l.0 == p)
            .map(|l| img.get_pixel(l.1 .0 as u32, l.1 .1 as u32).0)
            .collect();
        [0, 1, 2].map(|c| (pts.iter().map(|q| q[c] as u32).sum::<u32>() / pts.len() as u32) as u8)
    });
    // The panel's margins around the tile faces, from its four straight edges (see
    // `panel_edges`).
    let face_box = (
        lat.x.at(i0) - lat.face.0 / 2.0,
        lat.x.at(i1) + lat.face.0 / 2.0,
        lat.y.at(j0) - lat.face.1 / 2.0,
        lat.y.at(j1) + lat.face.1 / 2.0,
    );
    let margins = background.and_then(|bg| {
        let outs = [
            (fx - lat.face.0 / 2.0, fy - lat.face.1 / 2.0),
            (nx - lat.face.0 / 2.0, ny - lat.face.1 / 2.0),
        ];
        let (l, r, t, b) = panel_edges(img, bg, &lat, face_box, outs)?;
        Some((
            face_box.0 - l,
            r - face_box.1,
            face_box.2 - t,
            b - face_box.3,
        ))
    });

    // The board's extent.
    let (known_w, known_h) = options.known_size();
    let packs_left = matches!(options.game, Some(Game::Samegame | Game::Clickomania));
    let (wt, ht) = ((i1 - i0 + 1) as usize, (j1 - j0 + 1) as usize);
    // Margins agree when within this many pixels. The bottom margin is always the board's
    // own (the bottom row holds a tile), so the others are checked against it.
    let agree = (0.15 * lat.x.pitch.min(lat.y.pitch)).max(3.0);
    // The empty columns left and right of the tiles and the empty rows above them, as the
    // panel shows them: each margin less a whole number of pitches must equal the bottom
    // one. (Such a row or column may hold tiles the tile cluster missed; they are read
    // with the rest.)
    let shown = margins.and_then(|(ml, mr, mt, mb)| {
        let count = |m: f64, p: f64| {
            let k = ((m - mb) / p).round().max(0.0);
            ((m - k * p - mb).abs() <= agree).then_some(k as i64)
        };
        let l = count(ml, lat.x.pitch)?;
        let (r, t) = (count(mr, lat.x.pitch)?, count(mt, lat.y.pitch)?);
        Some((l, r, t))
    });
    // Under SameGame rules a board whose panel does not show its edges is sized from its
    // tiles (see below).
    let from_tiles = shown.is_none() && packs_left && (known_w.is_none() || known_h.is_none());
    let disagree = || {
        PictureError::Ambiguous(
            "the board's margins in its panel disagree, so its edges are unclear (give its width and height)"
                .into(),
        )
    };
    let (left, width) = match known_w {
        Some(w) if wt > w => {
            return Err(no_grid(options, format!("the tiles span {wt} columns")));
        }
        Some(w) if wt == w => (i0, w),
        Some(w) => {
            if packs_left {
                // Columns close to the left: the leftmost column holds tiles.
                (i0, w)
            } else {
                let Some((ml, mr, _, mb)) = margins else {
                    return Err(PictureError::Ambiguous(format!(
                        "the tiles span {wt} of {w} columns and the board's edges are not visible"
                    )));
                };
                let extra = (w - wt) as i64;
                let p = lat.x.pitch;
                let mut fits: Vec<(f64, i64)> = (0..=extra)
                    .map(|l| {
                        (
                            ((ml - l as f64 * p) - (mr - (extra - l) as f64 * p)).abs(),
                            l,
                        )
                    })
                    .collect();
                fits.sort_by(|a, b| a.0.total_cmp(&b.0));
                if fits[0].0 > agree || (ml - fits[0].1 as f64 * p - mb).abs() > agree {
                    return Err(PictureError::Ambiguous(format!(
                    "the tiles span {wt} of {w} columns and the board is not centred in its panel"
                )));
                }
                (i0 - fits[0].1, w)
            }
        }
        // A Flood-It board is always full: its tiles are the board.
        None if options.game == Some(Game::Floodit) => (i0, wt),
        None => match shown {
            // Columns beyond the bottom margin's width on either side are empty columns.
            Some((l, r, _)) => (i0 - l, wt + (l + r) as usize),
            // Columns close to the left and tiles fall: the bottom-left cell holds a tile,
            // and every column right of the tiles is empty. Empty columns on the right never
            // take part in play, so the tiles' columns are a board that plays the same.
            None if packs_left => (i0, wt),
            None if margins.is_some() => return Err(disagree()),
            None => return Err(unknown_extent()),
        },
    };
    let (top, height) = match known_h {
        Some(h) if ht > h => {
            return Err(no_grid(options, format!("the tiles span {ht} rows")));
        }
        Some(h) => (j1 - h as i64 + 1, h),
        None if options.game == Some(Game::Floodit) => (j0, ht),
        None => {
            let extra = match shown {
                Some((_, _, t)) => t,
                // Rows above every tile are empty, and an empty top row never takes part in
                // play (tiles only fall), so the tiles' rows are a board that plays the same.
                None if packs_left => 0,
                None if margins.is_some() => return Err(disagree()),
                None => return Err(unknown_extent()),
            };
            (j0 - extra, ht + extra as usize)
        }
    };
    let first = (lat.x.at(left), lat.y.at(top));
    let last = (
        lat.x.at(left + width as i64 - 1),
        lat.y.at(top + height as i64 - 1),
    );
    if first.0 < 0.0 || first.1 < 0.0 || last.0 >= iw || last.1 >= ih {
        return Err(no_grid(options, "the board runs off the picture"));
    }

    // The cells' colours.
    let half = ((0.3 * lat.face.0.min(lat.face.1)).round() as i64).max(1);
    // The middle of each cell, rows from the top.
    let cell_centres: Vec<(f64, f64)> = (0..height as i64)
        .flat_map(|r| (0..width as i64).map(move |x| (x, r)))
        .map(|(x, r)| (lat.x.at(left + x), lat.y.at(top + r)))
        .collect();
    let samples: Vec<(Rgb, f64)> = cell_centres
        .iter()
        .map(|&(cx, cy)| sample(img, cx, cy, half))
        .collect();
    // (x, y) of sample k in board coordinates (y = 0 the bottom row).
    let at = |k: usize| (k % width, height - 1 - k / width);
    let bg = background.map(lab);
    let is_empty = |c: Lab| bg.is_some_and(|b| b.delta(c) <= EMPTY_MAX_DELTA);
    let mut kinds: Vec<Option<usize>> = vec![None; samples.len()]; // tile class per sample
    let names: Vec<char>;
    // The tile colours and how far a tile may be from its colour.
    let tile_colours: Vec<Lab>;
    let tile_reach: f32;
    if options.game == Some(Game::Former) {
        let nrk: Vec<Lab> = FORMER_COLOURS.iter().map(|c| lab(c.1)).collect();
        for (k, &(rgb, _)) in samples.iter().enumerate() {
            let c = lab(rgb);
            let (best, d) = nrk
                .iter()
                .enumerate()
                .map(|(n, t)| (n, t.delta(c)))
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .expect("four colours");
            if is_empty(c) && bg.is_some_and(|b| b.delta(c) < d) {
                continue;
            }
            if d > FORMER_MAX_DELTA {
                let (x, y) = at(k);
                return Err(PictureError::UnknownColour {
                    x,
                    y,
                    colour: hex(rgb),
                });
            }
            kinds[k] = Some(best);
        }
        names = FORMER_COLOURS.iter().map(|c| c.0).collect();
        tile_colours = nrk;
        tile_reach = FORMER_MAX_DELTA;
    } else {
        let mut centres: Vec<Lab> = Vec::new();
        for (k, &(rgb, _)) in samples.iter().enumerate() {
            let c = lab(rgb);
            if is_empty(c) {
                continue;
            }
            let near = centres
                .iter()
                .enumerate()
                .map(|(n, t)| (n, t.delta(c)))
                .min_by(|a, b| a.1.total_cmp(&b.1));
            match near {
                Some((n, d)) if d <= CLUSTER_DELTA => kinds[k] = Some(n),
                _ => {
                    centres.push(c);
                    kinds[k] = Some(centres.len() - 1);
                }
            }
        }
        // Two rounds of k-means from the leaders.
        for _ in 0..2 {
            let mut acc = vec![(0.0f32, 0.0f32, 0.0f32, 0usize); centres.len()];
            for (k, kind) in kinds.iter().enumerate() {
                if let Some(n) = *kind {
                    let c = lab(samples[k].0);
                    acc[n] = (acc[n].0 + c.l, acc[n].1 + c.a, acc[n].2 + c.b, acc[n].3 + 1);
                }
            }
            for (n, a) in acc.iter().enumerate() {
                if a.3 > 0 {
                    let m = a.3 as f32;
                    centres[n] = Lab {
                        l: a.0 / m,
                        a: a.1 / m,
                        b: a.2 / m,
                    };
                }
            }
            for (k, kind) in kinds.iter_mut().enumerate() {
                if kind.is_some() {
                    let c = lab(samples[k].0);
                    *kind = centres
                        .iter()
                        .enumerate()
                        .min_by(|a, b| a.1.delta(c).total_cmp(&b.1.delta(c)))
                        .map(|(n, _)| n);
                }
            }
        }
        let max = options.max_colours();
        // Two tile colours closer than `CLUSTER_DELTA` fall in one cluster. The samples of
        // one colour lie within a ΔE or two of each other (each is the robust mean of a
        // patch), so a cluster whose two-means halves are `SPLIT_DELTA` or more apart holds
        // two colours. It is split while the colours stay within the number expected
        // (`--colours` or the game's); beyond it, the picture is refused rather than read
        // with the two merged.
        let mut n = 0;
        while n < centres.len() {
            let members: Vec<usize> = (0..samples.len())
                .filter(|&k| kinds[k] == Some(n))
                .collect();
            let points: Vec<Lab> = members.iter().map(|&k| lab(samples[k].0)).collect();
            if points.len() >= 2 {
                let (a, b, side, _) = two_means(&points);
                let apart = a.delta(b);
                if apart >= SPLIT_DELTA {
                    if centres.len() >= max {
                        let first = |s: bool| {
                            members
                                .iter()
                                .zip(&side)
                                .find(|z| *z.1 == s)
                                .map_or(String::new(), |z| hex(samples[*z.0].0))
                        };
                        let (x, y) = at(members[0]);
                        return Err(PictureError::Unclear {
                            x,
                            y,
                            why: format!(
                                "{} and {} are only ΔE {apart:.0} apart and would make {} colours where at most {max} are expected{}",
                                first(false),
                                first(true),
                                max + 1,
                                if max < MAX_COLOURS {
                                    format!("; --colours {} reads them as two", max + 1)
                                } else {
                                    String::new()
                                }
                            ),
                        });
                    }
                    centres[n] = a;
                    centres.push(b);
                    for (&k, &s) in members.iter().zip(&side) {
                        if s {
                            kinds[k] = Some(centres.len() - 1);
                        }
                    }
                    continue;
                }
            }
            n += 1;
        }
        if centres.len() > max {
            return Err(PictureError::TooManyColours {
                found: centres.len(),
                max,
            });
        }
        let mut sep = f32::INFINITY;
        for a in 0..centres.len() {
            for b in a + 1..centres.len() {
                sep = sep.min(centres[a].delta(centres[b]));
            }
        }
        if sep < SPLIT_DELTA {
            return Err(PictureError::Unclear {
                x: 0,
                y: 0,
                why: format!("two tile colours are only ΔE {sep:.0} apart"),
            });
        }
        // How far a sample may lie from its colour: well short of halfway to the nearest
        // other colour, so that close colours are told apart only when every sample is
        // clearly nearer one of them.
        let reach = if sep >= CLUSTER_DELTA {
            (0.4 * sep).max(CLUSTER_DELTA * 0.6)
        } else {
            sep / 4.0
        };
        for (k, kind) in kinds.iter().enumerate() {
            if let Some(n) = *kind {
                let d = centres[n].delta(lab(samples[k].0));
                if d > reach {
                    let (x, y) = at(k);
                    return Err(PictureError::Unclear {
                        x,
                        y,
                        why: format!("{} lies between two tile colours", hex(samples[k].0)),
                    });
                }
            }
        }
        names = (0..centres.len())
            .map(|n| (b'A' + n as u8) as char)
            .collect();
        tile_colours = centres;
        tile_reach = CLUSTER_DELTA;
    }
    // No tile just outside the board: a tile there means the board's edge was misplaced
    // (a row or column of tiles went unseen). Where every tile of the board fills its face
    // out to near its edges in its own colour, a patch of a tile colour just outside that
    // does not (a button or a banner beside the board, off the lattice) is not a tile; in
    // any other style each tile-coloured patch there counts as one.
    // (Whether the board's tiles fill their faces is asked only once a patch outside fails
    // to, and then once for all.)
    let filled = std::cell::OnceCell::new();
    let board_filled = || {
        *filled.get_or_init(|| {
            kinds.iter().zip(&cell_centres).all(|(kind, &(cx, cy))| {
                kind.is_none_or(|n| fills_face(img, cx, cy, lat.face, tile_colours[n], tile_reach))
            })
        })
    };
    let mut outside = Vec::new();
    for r in -1..=height as i64 {
        outside.push((left - 1, top + r));
        outside.push((left + width as i64, top + r));
    }
    for x in 0..width as i64 {
        outside.push((left + x, top - 1));
        outside.push((left + x, top + height as i64));
    }
    for (i, j) in outside {
        let (cx, cy) = (lat.x.at(i), lat.y.at(j));
        if cx < 0.0 || cy < 0.0 || cx >= iw || cy >= ih {
            continue;
        }
        let (rgb, agree) = sample(img, cx, cy, half);
        let c = lab(rgb);
        let tile = tile_colours.iter().find(|t| t.delta(c) <= tile_reach);
        let off_lattice =
            |t: &Lab| !fills_face(img, cx, cy, lat.face, *t, tile_reach) && board_filled();
        if agree >= 0.6 && !is_empty(c) && tile.is_some_and(|t| !off_lattice(t)) {
            return Err(no_grid(
                options,
                format!(
                    "a tile-coloured cell ({}) lies just outside the board",
                    hex(rgb)
                ),
            ));
        }
    }
    for (k, kind) in kinds.iter().enumerate() {
        if kind.is_some() && samples[k].1 < 0.5 {
            let (x, y) = at(k);
            return Err(PictureError::Unclear {
                x,
                y,
                why: "the middle of the tile is not one colour".into(),
            });
        }
    }

    // Letters in order of first appearance from the top left.
    let mut order: Vec<usize> = Vec::new();
    for kind in kinds.iter().flatten() {
        if !order.contains(kind) {
            order.push(*kind);
        }
    }
    let mut palette: Vec<char> = Vec::new();
    let mut colours: Vec<Rgb> = Vec::new();
    for &n in &order {
        palette.push(if options.game == Some(Game::Former) {
            names[n]
        } else {
            (b'A' + palette.len() as u8) as char
        });
        let members: Vec<Rgb> = (0..samples.len())
            .filter(|&k| kinds[k] == Some(n))
            .map(|k| samples[k].0)
            .collect();
        colours.push([0, 1, 2].map(|c| {
            (members.iter().map(|m| m[c] as u32).sum::<u32>() / members.len() as u32) as u8
        }));
    }
    let mut cells = vec![0u8; width * height];
    for (k, kind) in kinds.iter().enumerate() {
        if let Some(n) = kind {
            let (x, y) = at(k);
            cells[y * width + x] = order.iter().position(|m| m == n).expect("listed") as u8 + 1;
        }
    }
    let grid = Grid::from_cells(width, height, cells, palette);
    if grid.is_empty() {
        return Err(no_grid(options, "every cell reads empty"));
    }
    if options.game == Some(Game::Floodit) {
        if let Err(BoardError::NotFull { x, y, .. }) = grid.check_full("floodit") {
            return Err(PictureError::NotFull {
                x,
                y,
                game: "floodit".into(),
            });
        }
    } else if let Err(BoardError::Floating { x, y, .. }) = grid.check_gravity() {
        return Err(PictureError::Gravity { x, y });
    }
    // Where columns close to the left, no empty column lies left of a tile.
    if packs_left {
        let first_empty = (0..width).find(|&x| grid.get(x, 0) == 0);
        if let Some(x) = first_empty.filter(|&x| (x..width).any(|c| grid.get(c, 0) != 0)) {
            return Err(PictureError::EmptyColumn {
                x,
                game: options.game.map_or("", |g| g.name()).into(),
            });
        }
    }
    // A board sized from its tiles rests on its columns being packed to the left and its
    // tiles fallen: the bottom row is full and the top row holds a tile. A reading that
    // breaks either found no such board. A row or a column of a few same-sized marks (a
    // window's buttons, a row of icons) is not taken for a board either: the tiles must
    // span two rows and two columns and number at least `FROM_TILES_MIN`.
    let tiles = (0..width)
        .flat_map(|x| (0..height).map(move |y| (x, y)))
        .filter(|&(x, y)| grid.get(x, y) != 0)
        .count();
    if from_tiles
        && (width < 2
            || height < 2
            || tiles < FROM_TILES_MIN
            || (0..width).any(|x| grid.get(x, 0) == 0)
            || (0..width).all(|x| grid.get(x, height - 1) == 0))
    {
        return Err(unknown_extent());
    }
    Ok(Reading {
        grid,
        first,
        pitch: (lat.x.pitch, lat.y.pitch),
        tile: lat.face,
        background,
        colours,
        note: from_tiles.then(|| {
            format!(
                "the board's edges do not show, so its size, {width}×{height}, is taken from its \
                 tiles (empty rows above or columns to the right would not change the play; \
                 give --width and --height to set it)"
            )
        }),
    })
}

/// The screenshot with the grid read drawn over it: each cell's face outlined and the letter
/// read (`.` for empty) in its middle, in the built-in bitmap font.
pub fn overlay(img: &RgbImage, reading: &Reading) -> RgbImage {
    let mut out = img.clone();
    let g = &reading.grid;
    let (tw, th) = reading.tile;
    let scale =
        ((reading.pitch.0.min(reading.pitch.1) / 3.0 / font::GLYPH_H as f64).round() as u32).max(1);
    for y in 0..g.height() {
        for x in 0..g.width() {
            let (cx, cy) = reading.centre(x, y);
            let (l, t) = (
                (cx - tw / 2.0).round() as i64,
                (cy - th / 2.0).round() as i64,
            );
            let (w, h) = (tw.round() as i64, th.round() as i64);
            for (inset, colour) in [(0, [0, 0, 0]), (1, [255, 255, 255])] {
                let (l, t, w, h) = (l + inset, t + inset, w - 2 * inset, h - 2 * inset);
                font::fill(&mut out, l, t, w, 1, colour);
                font::fill(&mut out, l, t + h - 1, w, 1, colour);
                font::fill(&mut out, l, t, 1, h, colour);
                font::fill(&mut out, l + w - 1, t, 1, h, colour);
            }
            let ch = g.symbol(g.get(x, y)).to_string();
            font::draw_text_halo(&mut out, cx, cy, &ch, scale, [0, 0, 0], [255, 255, 255]);
        }
    }
    out
}

/// Sets one pixel, for tests.
#[cfg(test)]
fn put(img: &mut RgbImage, x: u32, y: u32, c: Rgb) {
    img.put_pixel(x, y, image::Rgb(c));
}

#[cfg(test)]
mod tests {
    use super::super::render::{render, Style};
    use super::*;

    fn encode_png(img: &RgbImage) -> Vec<u8> {
        let mut out = Vec::new();
        img.write_to(&mut Cursor::new(&mut out), image::ImageFormat::Png)
            .unwrap();
        out
    }

    #[test]
    fn a_rendered_former_board_reads_back() {
        let g: Grid = "OPGBOPG,PGBOPGB,GBOPGBO,BOPGBOP,OOPPGGB,PGBOPGB,GBOPGBO,BOPGBOP,OPGBOPG"
            .parse()
            .unwrap();
        let img = render(&g, Some(Game::Former), &Style::default());
        let r = read(&encode_png(&img), &ReadOptions::game(Game::Former)).unwrap();
        assert_eq!(r.grid.to_text(), g.to_text());
        assert!((r.pitch.0 - 52.0).abs() < 0.2, "{:?}", r.pitch);
    }

    #[test]
    fn a_gapless_board_with_holes_reads_back_and_finds_its_size() {
        let g: Grid = "..A..,.BA.C,ABBCC,CABAB".parse().unwrap();
        let style = Style {
            tile: 30,
            gap: 0,
            margin: 10,
            background: [240, 240, 240],
        };
        let img = render(&g, Some(Game::Samegame), &style);
        let r = read_image(&img, &ReadOptions::game(Game::Samegame)).unwrap();
        assert_eq!(r.grid.to_text(), g.to_text());
        let ov = overlay(&img, &r);
        assert_ne!(ov, img);
    }

    #[test]
    fn a_grey_tile_on_a_former_board_is_named() {
        let g: Grid = "OPGBOPG,PGBOPGB,GBOPGBO,BOPGBOP,OOPPGGB,PGBOPGB,GBOPGBO,BOPGBOP,OPGBOPG"
            .parse()
            .unwrap();
        let style = Style::default();
        let mut img = render(&g, Some(Game::Former), &style);
        // Paint cell (3,4) grey.
        let (x0, y0) = (16 + 3 * 52, 16 + 4 * 52);
        for y in y0 + 10..y0 + 38 {
            for x in x0 + 10..x0 + 38 {
                put(&mut img, x, y, [0x7a, 0x7a, 0x7a]);
            }
        }
        let e = read_image(&img, &ReadOptions::game(Game::Former)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cell (3,4): colour #7a7a7a matches no tile colour"
        );
    }

    #[test]
    fn two_close_tile_colours_are_told_apart_or_refused() {
        // Two reds ΔE 10 apart, closer than the clustering distance, on a 4×3 board.
        let (a, b) = ([0xE5, 0x39, 0x35], [0xF5, 0x5A, 0x40]);
        let delta = lab(a).delta(lab(b));
        assert!((8.0..15.0).contains(&delta), "ΔE {delta}");
        let g: Grid = "ABAB,BBAA,ABBA".parse().unwrap();
        let mut img = RgbImage::from_pixel(10 + 4 * 34 + 6, 10 + 3 * 34 + 6, image::Rgb([240; 3]));
        for y in 0..3 {
            for x in 0..4 {
                let c = if g.get(x, y) == 1 { a } else { b };
                let (x0, y0) = (10 + 34 * x as u32, 10 + 34 * (2 - y) as u32);
                for py in y0..y0 + 30 {
                    for px in x0..x0 + 30 {
                        put(&mut img, px, py, c);
                    }
                }
            }
        }
        let two = ReadOptions {
            colours: Some(2),
            ..ReadOptions::default()
        };
        assert_eq!(read_image(&img, &two).unwrap().grid.to_text(), g.to_text());
        let one = ReadOptions {
            colours: Some(1),
            ..ReadOptions::default()
        };
        let e = read_image(&img, &one).unwrap_err();
        assert!(
            e.to_string().contains("only ΔE 10 apart") && e.to_string().contains("--colours 2"),
            "{e}"
        );
    }

    #[test]
    fn a_plain_picture_has_no_grid() {
        let img = RgbImage::from_pixel(200, 100, image::Rgb([10, 20, 30]));
        let e = read_image(&img, &ReadOptions::game(Game::Former)).unwrap_err();
        assert!(
            e.to_string().starts_with("no grid of 7×9 tiles found"),
            "{e}"
        );
    }
}
