//! The picture cut into regions of near-constant colour, and the regions shaped like one
//! tile (the atoms the lattice is found from).

use image::RgbImage;

/// A region of near-constant colour.
#[derive(Clone, Copy, Debug)]
pub(super) struct Region {
    pub(super) x0: u32,
    pub(super) y0: u32,
    /// Inclusive.
    pub(super) x1: u32,
    pub(super) y1: u32,
    n: u32,
}

impl Region {
    fn w(&self) -> f64 {
        (self.x1 - self.x0 + 1) as f64
    }
    fn h(&self) -> f64 {
        (self.y1 - self.y0 + 1) as f64
    }
    pub(super) fn fill(&self) -> f64 {
        self.n as f64 / (self.w() * self.h())
    }
}

/// The image cut into regions: `label[y * w + x]` indexes `regions`.
pub(super) struct Regions {
    w: usize,
    label: Vec<u32>,
    pub(super) regions: Vec<Region>,
}

impl Regions {
    pub(super) fn at(&self, x: f64, y: f64) -> Option<u32> {
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
pub(super) fn regions(img: &RgbImage, step: u8) -> Regions {
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
pub(super) struct Atom {
    pub(super) cx: f64,
    pub(super) cy: f64,
    pub(super) w: f64,
    pub(super) h: f64,
}

pub(super) fn atoms(regs: &Regions, img_w: u32, img_h: u32) -> Vec<Atom> {
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
pub(super) fn size_groups(atoms: &[Atom]) -> Vec<(f64, Vec<Atom>)> {
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
