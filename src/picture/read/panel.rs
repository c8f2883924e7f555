//! The board's panel: the background around the tiles, its colour and how far its edges
//! lie from the tile faces.

use image::RgbImage;

use super::lattice::{Lattice, Span};
use super::regions::Regions;
use super::{EDGE_SLACK, PATCH_INLIER};
use crate::picture::Rgb;

/// The panel as seen around a board's tiles.
pub(super) struct Panel {
    /// Its colour (that of empty cells), when the tiles have one around them.
    pub(super) background: Option<Rgb>,
    /// Its margins around the tile faces (left, right, top, bottom), in pixels, where its
    /// four edges show (see `panel_edges`).
    pub(super) margins: Option<(f64, f64, f64, f64)>,
}

impl Panel {
    /// The panel around the tiles spanning `span` on `lat`.
    pub(super) fn around(img: &RgbImage, regs: &Regions, lat: &Lattice, span: Span) -> Panel {
        let Span { i0, i1, j0, j1 } = span;
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
            [0, 1, 2]
                .map(|c| (pts.iter().map(|q| q[c] as u32).sum::<u32>() / pts.len() as u32) as u8)
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
            let (l, r, t, b) = panel_edges(img, bg, lat, face_box, outs)?;
            Some((
                face_box.0 - l,
                r - face_box.1,
                face_box.2 - t,
                b - face_box.3,
            ))
        });

        Panel {
            background,
            margins,
        }
    }
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
