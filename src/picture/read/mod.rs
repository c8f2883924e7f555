//! Reading a board from a screenshot: decoding, then one step per module: the regions
//! of near-constant colour and the tile-shaped ones among them (`regions`), the tile
//! lattice (`lattice`), the panel around the tiles (`panel`), the board's extent
//! (`extent`) and the cells' colours (`cells`). The method is described in the module docs
//! of [`crate::picture`].

mod cells;
mod extent;
mod lattice;
mod panel;
mod regions;

use std::io::Cursor;

use image::{ImageFormat, ImageReader, Limits, RgbImage};

use super::colour::Rgb;
use super::font;
use super::PictureError;
use crate::grid::{BoardError, Grid, MAX_COLOURS};
use crate::rules::Game;
use cells::Cells;
use extent::Extent;
use lattice::{best_lattice, Span};
use panel::Panel;
use regions::regions;

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

    /// Whether the game's columns close to the left (SameGame, Clickomania): its leftmost
    /// column holds tiles.
    fn packs_left(&self) -> bool {
        matches!(self.game, Some(Game::Samegame | Game::Clickomania))
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

/// A board of unknown size whose edges do not show.
fn unknown_extent() -> PictureError {
    PictureError::Ambiguous(
        "the board's size is not known and its edges are not visible (give its width and height)"
            .into(),
    )
}

/// No board of the size looked for (`options`') found, and why (`detail`, may be empty).
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

/// Reads a board from pixels. See the module docs of [`crate::picture`] for the method.
pub fn read_image(img: &RgbImage, options: &ReadOptions) -> Result<Reading, PictureError> {
    let regs = regions(img, REGION_STEP);
    let (lat, tiles) = best_lattice(img, &regs, options)?;
    let span = Span::of(&tiles);
    let panel = Panel::around(img, &regs, &lat, span);
    let board = Extent::find(img, &lat, span, panel.margins, options)?;
    let cells = Cells::read(img, &lat, board, panel.background, options)?;
    cells.check(img, &lat, options)?;
    let (grid, colours) = cells.grid(options);
    check_board(&grid, &board, options)?;
    let Extent {
        width,
        height,
        from_tiles,
        ..
    } = board;
    Ok(Reading {
        grid,
        first: board.first,
        pitch: (lat.x.pitch, lat.y.pitch),
        tile: lat.face,
        background: panel.background,
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

/// Checks that the grid read is a board of its game: not empty, full (Flood-It) or with its
/// tiles fallen, its columns closed to the left where the game closes them, and, where its
/// size was taken from its tiles, such a board.
fn check_board(grid: &Grid, board: &Extent, options: &ReadOptions) -> Result<(), PictureError> {
    let Extent {
        width,
        height,
        from_tiles,
        ..
    } = *board;
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
    if options.packs_left() {
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
    Ok(())
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
    use super::super::colour::lab;
    use super::*;
    use crate::picture::{render, Style};

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
