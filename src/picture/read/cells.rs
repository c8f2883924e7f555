//! The cells' colours: each cell's colour sampled, read as a tile colour (NRK's four for
//! Former, clusters of the samples otherwise) or as empty, and the board's grid made.

use image::RgbImage;

use super::extent::Extent;
use super::lattice::Lattice;
use super::{
    no_grid, ReadOptions, CLUSTER_DELTA, EMPTY_MAX_DELTA, FORMER_MAX_DELTA, PATCH_INLIER,
    SPLIT_DELTA,
};
use crate::grid::{Grid, MAX_COLOURS};
use crate::picture::{hex, lab, Lab, PictureError, Rgb, FORMER_COLOURS};
use crate::rules::Game;

/// A board's cells as read.
pub(super) struct Cells {
    board: Extent,
    /// The half-width of the patch a cell's colour is sampled from, in pixels.
    half: i64,
    /// Each cell's centre, a row at a time from the top ([`Extent::centres`]).
    centres: Vec<(f64, f64)>,
    /// Each cell's colour and the share of its patch that agreed with it ([`sample`]).
    samples: Vec<(Rgb, f64)>,
    /// The panel's colour, that of an empty cell.
    background: Option<Lab>,
    /// The tile colour each cell was read as (an index into `colours`), `None` for empty.
    kinds: Vec<Option<usize>>,
    /// The tile colours.
    colours: Vec<Lab>,
    /// How far (ΔE) a tile may lie from its colour.
    reach: f32,
}

impl Cells {
    /// The colours of the cells of `board` on `lat`, the panel's colour `background`.
    pub(super) fn read(
        img: &RgbImage,
        lat: &Lattice,
        board: Extent,
        background: Option<Rgb>,
        options: &ReadOptions,
    ) -> Result<Cells, PictureError> {
        let half = ((0.3 * lat.face.0.min(lat.face.1)).round() as i64).max(1);
        let centres = board.centres(lat);
        let samples: Vec<(Rgb, f64)> = centres
            .iter()
            .map(|&(cx, cy)| sample(img, cx, cy, half))
            .collect();
        let background = background.map(lab);
        let (kinds, colours, reach) = if options.game == Some(Game::Former) {
            let nrk: Vec<Lab> = FORMER_COLOURS.iter().map(|c| lab(c.1)).collect();
            let kinds = former(&samples, &nrk, background, &board)?;
            (kinds, nrk, FORMER_MAX_DELTA)
        } else {
            let (kinds, centres) = clustered(&samples, background, &board, options)?;
            (kinds, centres, CLUSTER_DELTA)
        };
        Ok(Cells {
            board,
            half,
            centres,
            samples,
            background,
            kinds,
            colours,
            reach,
        })
    }

    /// Checks that no tile lies just outside the board and that each tile's middle is one
    /// colour.
    pub(super) fn check(
        &self,
        img: &RgbImage,
        lat: &Lattice,
        options: &ReadOptions,
    ) -> Result<(), PictureError> {
        let Extent {
            left,
            top,
            width,
            height,
            ..
        } = self.board;
        let board = &self.board;
        let (kinds, samples, cell_centres) = (&self.kinds, &self.samples, &self.centres);
        let (tile_colours, tile_reach, half) = (&self.colours, self.reach, self.half);
        let (iw, ih) = (img.width() as f64, img.height() as f64);
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
                kinds.iter().zip(cell_centres).all(|(kind, &(cx, cy))| {
                    kind.is_none_or(|n| {
                        fills_face(img, cx, cy, lat.face, tile_colours[n], tile_reach)
                    })
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
            if agree >= 0.6 && !empty(self.background, c) && tile.is_some_and(|t| !off_lattice(t)) {
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
                let (x, y) = board.cell(k);
                return Err(PictureError::Unclear {
                    x,
                    y,
                    why: "the middle of the tile is not one colour".into(),
                });
            }
        }
        Ok(())
    }

    /// The board read, and the colour read for each of its letters (`colours[k - 1]` for
    /// colour `k`): letters in order of first appearance from the top left, NRK's own for
    /// Former.
    pub(super) fn grid(&self, options: &ReadOptions) -> (Grid, Vec<Rgb>) {
        let board = &self.board;
        let (width, height) = (board.width, board.height);
        let (kinds, samples) = (&self.kinds, &self.samples);
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
                FORMER_COLOURS[n].0
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
                let (x, y) = board.cell(k);
                cells[y * width + x] = order.iter().position(|m| m == n).expect("listed") as u8 + 1;
            }
        }
        (Grid::from_cells(width, height, cells, palette), colours)
    }
}

/// Whether a cell of colour `c` is empty: near the panel's colour.
fn empty(background: Option<Lab>, c: Lab) -> bool {
    background.is_some_and(|b| b.delta(c) <= EMPTY_MAX_DELTA)
}

/// Each sample read as one of NRK's Former colours `nrk` (its index), or as empty.
fn former(
    samples: &[(Rgb, f64)],
    nrk: &[Lab],
    background: Option<Lab>,
    board: &Extent,
) -> Result<Vec<Option<usize>>, PictureError> {
    let mut kinds: Vec<Option<usize>> = vec![None; samples.len()];
    for (k, &(rgb, _)) in samples.iter().enumerate() {
        let c = lab(rgb);
        let (best, d) = nrk
            .iter()
            .enumerate()
            .map(|(n, t)| (n, t.delta(c)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .expect("four colours");
        if empty(background, c) && background.is_some_and(|b| b.delta(c) < d) {
            continue;
        }
        if d > FORMER_MAX_DELTA {
            let (x, y) = board.cell(k);
            return Err(PictureError::UnknownColour {
                x,
                y,
                colour: hex(rgb),
            });
        }
        kinds[k] = Some(best);
    }
    Ok(kinds)
}

/// The tile colours of a game without a fixed palette: the samples clustered, with each
/// sample's cluster (`None` for empty) and the clusters' colours.
fn clustered(
    samples: &[(Rgb, f64)],
    background: Option<Lab>,
    board: &Extent,
    options: &ReadOptions,
) -> Result<(Vec<Option<usize>>, Vec<Lab>), PictureError> {
    let mut kinds: Vec<Option<usize>> = vec![None; samples.len()];
    let mut centres: Vec<Lab> = Vec::new();
    for (k, &(rgb, _)) in samples.iter().enumerate() {
        let c = lab(rgb);
        if empty(background, c) {
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
                    let (x, y) = board.cell(members[0]);
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
                let (x, y) = board.cell(k);
                return Err(PictureError::Unclear {
                    x,
                    y,
                    why: format!("{} lies between two tile colours", hex(samples[k].0)),
                });
            }
        }
    }
    Ok((kinds, centres))
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
