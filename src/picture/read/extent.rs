//! The board's extent: which lattice cells are the board, from its known size, the tiles
//! and the margins of the panel around them.

use image::RgbImage;

use super::lattice::{Lattice, Span};
use super::{no_grid, unknown_extent, ReadOptions};
use crate::picture::PictureError;
use crate::rules::Game;

/// Where the board lies on the lattice.
#[derive(Clone, Copy, Debug)]
pub(super) struct Extent {
    /// Its leftmost column on the lattice.
    pub(super) left: i64,
    /// Its top row on the lattice (rows counted downwards).
    pub(super) top: i64,
    /// Its width in cells.
    pub(super) width: usize,
    /// Its height in cells.
    pub(super) height: usize,
    /// The centre of its top-left cell, in pixels.
    pub(super) first: (f64, f64),
    /// Whether its size was taken from its tiles, its panel not showing its edges (SameGame
    /// and Clickomania only; `read_image` checks that the tiles make such a board).
    pub(super) from_tiles: bool,
}

impl Extent {
    /// The board around the tiles spanning `span`, given the panel's `margins` (left,
    /// right, top, bottom) where they show.
    pub(super) fn find(
        img: &RgbImage,
        lat: &Lattice,
        span: Span,
        margins: Option<(f64, f64, f64, f64)>,
        options: &ReadOptions,
    ) -> Result<Extent, PictureError> {
        let (known_w, known_h) = options.known_size();
        let packs_left = options.packs_left();
        let Span { i0, i1, j0, j1 } = span;
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
        if first.0 < 0.0
            || first.1 < 0.0
            || last.0 >= img.width() as f64
            || last.1 >= img.height() as f64
        {
            return Err(no_grid(options, "the board runs off the picture"));
        }

        Ok(Extent {
            left,
            top,
            width,
            height,
            first,
            from_tiles,
        })
    }

    /// The cells' centres in pixels, a row at a time from the top.
    pub(super) fn centres(&self, lat: &Lattice) -> Vec<(f64, f64)> {
        (0..self.height as i64)
            .flat_map(|r| (0..self.width as i64).map(move |x| (x, r)))
            .map(|(x, r)| (lat.x.at(self.left + x), lat.y.at(self.top + r)))
            .collect()
    }

    /// The board's `(x, y)` (`y = 0` the bottom row) of the `k`th cell of [`Extent::centres`].
    pub(super) fn cell(&self, k: usize) -> (usize, usize) {
        (k % self.width, self.height - 1 - k / self.width)
    }
}
