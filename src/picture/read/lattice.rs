//! The tile lattice: the period of the tile-shaped regions along each axis, the lattice
//! fitted to them, and the cells of the board's tiles on it.

use image::RgbImage;

use super::regions::{atoms, size_groups, Atom, Region, Regions};
use super::{no_grid, ReadOptions};
use crate::picture::PictureError;

/// The lattice whose tiles cover the most area, of those the tile-shaped regions of the
/// picture suggest, with the cells of its tiles.
pub(super) fn best_lattice(
    img: &RgbImage,
    regs: &Regions,
    options: &ReadOptions,
) -> Result<(Lattice, Vec<Cell>), PictureError> {
    let all = atoms(regs, img.width(), img.height());
    let groups = size_groups(&all);
    if groups.is_empty() {
        return Err(no_grid(options, "no tile-shaped regions"));
    }
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
                let tiles = tile_cluster(regs, &lat, &atom_cells, img);
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
    match best {
        Some((_, lat, tiles)) => Ok((lat, tiles)),
        None => Err(first_error.expect("a group was tried")),
    }
}

/// The lattice cells a set of cells spans: columns `i0..=i1`, rows `j0..=j1` (downwards).
#[derive(Clone, Copy, Debug)]
pub(super) struct Span {
    pub(super) i0: i64,
    pub(super) i1: i64,
    pub(super) j0: i64,
    pub(super) j1: i64,
}

impl Span {
    /// The span of `cells` (all zero for none).
    pub(super) fn of(cells: &[Cell]) -> Span {
        Span {
            i0: cells.iter().map(|c| c.0).min().unwrap_or(0),
            i1: cells.iter().map(|c| c.0).max().unwrap_or(0),
            j0: cells.iter().map(|c| c.1).min().unwrap_or(0),
            j1: cells.iter().map(|c| c.1).max().unwrap_or(0),
        }
    }
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
pub(super) struct Axis {
    phase: f64,
    pub(super) pitch: f64,
}

impl Axis {
    pub(super) fn at(&self, i: i64) -> f64 {
        self.phase + i as f64 * self.pitch
    }
    pub(super) fn index(&self, v: f64) -> i64 {
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

/// A lattice cell `(i, j)`: column `i`, row `j` counted downwards.
pub(super) type Cell = (i64, i64);

/// The lattice found in the picture.
pub(super) struct Lattice {
    pub(super) x: Axis,
    pub(super) y: Axis,
    /// The tile face size (x, y).
    pub(super) face: (f64, f64),
}

impl Lattice {
    /// The cells `(i0, i1, j0, j1)` region `r` covers when it starts and ends on tile edges
    /// (one tile, or several merged tiles).
    pub(super) fn aligned(&self, r: &Region) -> Option<(i64, i64, i64, i64)> {
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
