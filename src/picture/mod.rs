//! Pictures of boards: render a board to PNG or SVG (one board, or the steps of a solution),
//! and read a board back from a screenshot.
//!
//! - [`render`], [`render_svg`], [`render_steps`], [`render_steps_svg`]; as a file's bytes
//!   [`board_bytes`], [`steps_bytes`]; to a file [`save_board`], [`save_steps`]: a
//!   [`Grid`](crate::grid::Grid) drawn with a [`Style`] (tile size, gap, margin, background)
//!   in the game's palette ([`palette`]): NRK's four colours with a white mark for Former,
//!   a fixed set of distinct colours by colour index for the other games.
//!   (The style in `style`, one board in `render`, the steps as panels in `steps`, files
//!   and their bytes in `file`.)
//! - [`read`], [`read_image`]: image bytes (PNG, JPEG, WebP) or pixels to a
//!   [`Grid`](crate::grid::Grid); the board may sit anywhere in a phone or desktop
//!   screenshot. [`overlay`] draws what was read over the screenshot.
//!
//! How [`read`] finds the board, in order:
//!
//! 1. The image is cut into regions of near-constant colour (4-neighbours whose channels
//!    differ by at most a small step are joined, so smooth shading stays one region and the
//!    sharp edge between two tiles does not).
//! 2. *Atoms* are regions shaped like one tile: square bounding box, mostly filled. The most
//!    common atom size is the tile size. On a board with gaps every tile is an atom; on a
//!    gapless board two touching tiles of one colour form one region, but a tile with no
//!    same-coloured neighbour is still an atom, and a handful is enough.
//! 3. The pitch along each axis is the period that best explains the distances between atoms
//!    of one row (one column): every such distance is a whole number of pitches. Searching
//!    periods between 0.9 and 2 tile sizes excludes the half and double periods. A least-squares
//!    fit of atom centres against their lattice indices refines pitch and phase to sub-pixel
//!    precision, and atoms off the lattice (text, icons) drop out.
//! 4. Lattice cells whose region is aligned with the lattice (its bounding box starts and ends
//!    on tile edges, so merged same-coloured tiles count) are tile cells; the connected cluster
//!    holding most atoms is the board's tiles.
//! 5. The board's extent: under gravity the lowest row holding a tile is the bottom row.
//!    A known height (Former 7×9, Figure 5×5, dust 8×6, or given) is counted up from it. A
//!    known width the tiles do not span is placed at the left for SameGame and Clickomania
//!    (columns close left, so the left column holds tiles) and otherwise centred in the
//!    board's background panel. An unknown size is the tiles' extent, plus the empty rows
//!    above and columns beside them that the panel shows. The panel's edges are found by
//!    scanning outwards from the tiles in the background colour (crossing any tile the
//!    cluster missed) until the colour changes; it counts only when each side is one
//!    straight edge from corner to corner, the panel is the whole picture or an island in
//!    it, and its margins all come out equal to the bottom one (always the board's own).
//!    Otherwise the board's edges are unknown: SameGame and Clickomania boards are then
//!    sized from their tiles (a board that plays the same), other reads are refused
//!    (Flood-It boards, always full, are their tiles' extent). A tile colour found just
//!    outside the board also refuses it, unless every tile of the board fills its face
//!    in its colour near each side's middle and the patch outside does not (a button
//!    beside the board, not a tile of its lattice).
//! 6. Each cell's colour is the robust mean of a central patch 0.6 of the face across (the
//!    median, then the mean of the pixels near it, so a white mark of up to a third of
//!    the tile, JPEG ringing or blur do not count). The board
//!    background reads as empty; Former tiles map to NRK's colours by CIELAB distance, other
//!    games' tiles are clustered in CIELAB into at most K colours labelled `A`, `B`, … in order
//!    of first appearance from the top left. A cluster whose two halves lie apart by more
//!    than the samples of one colour ever do holds two close colours: it is split while
//!    the count stays within K, and the picture is refused beyond it.
//! 7. The result must obey gravity. Whenever a step is unsure, [`read`] returns a
//!    [`PictureError`] instead of a board.

mod canvas;
mod colour;
mod file;
pub mod font;
mod read;
mod render;
mod steps;
mod style;

use thiserror::Error;

use crate::rules::Game;

pub use colour::{hex, lab, parse_hex, Lab, Rgb};
pub use file::{
    board_bytes, check_output, check_png_output, png_bytes, save_board, save_steps, steps_bytes,
    write_png,
};
pub use read::{
    decode, is_picture, overlay, read, read_image, ReadOptions, Reading, MAX_PIXELS, MAX_SIDE,
};
pub use render::{render, render_svg};
pub use steps::{flood_group, render_steps, render_steps_svg, solution_panels, steps_size, Pick};
pub use style::{fitting_style, Style, FITTING_TILES, MAX_PICTURE_PIXELS};

/// NRK Former's tile colours and their letters: orange, pink, green, blue.
pub const FORMER_COLOURS: [(char, Rgb); 4] = [
    ('O', [0xFF, 0x9C, 0x54]),
    ('P', [0xF9, 0x58, 0xAB]),
    ('G', [0x5D, 0xC4, 0x79]),
    ('B', [0x35, 0xB1, 0xE7]),
];

/// The colours of the other games, by colour index (`1` is the first): distinct hues first,
/// then lighter and darker ones.
pub const OTHER_COLOURS: [Rgb; 16] = [
    [0xE5, 0x39, 0x35], // red
    [0x1E, 0x88, 0xE5], // blue
    [0x43, 0xA0, 0x47], // green
    [0xFD, 0xD8, 0x35], // yellow
    [0x8E, 0x24, 0xAA], // purple
    [0xFB, 0x8C, 0x00], // orange
    [0x00, 0xAC, 0xC1], // cyan
    [0xF0, 0x62, 0x92], // pink
    [0x6D, 0x4C, 0x41], // brown
    [0xC0, 0xCA, 0x33], // lime
    [0x00, 0x69, 0x5C], // teal
    [0x39, 0x49, 0xAB], // indigo
    [0xBD, 0xBD, 0xBD], // grey
    [0xFF, 0xCC, 0xBC], // peach
    [0x82, 0x77, 0x17], // olive
    [0xB3, 0x9D, 0xDB], // lavender
];

/// The colour each colour index of `grid` is drawn in: `palette(game, grid)[k - 1]` for
/// colour `k`. Former maps the letters `O P G B` to NRK's colours (other letters take the
/// NRK colours in that order by index); other games take [`OTHER_COLOURS`] by index.
pub fn palette(game: Option<Game>, letters: &[char]) -> Vec<Rgb> {
    letters
        .iter()
        .enumerate()
        .map(|(k, ch)| {
            if game == Some(Game::Former) {
                FORMER_COLOURS
                    .iter()
                    .find(|(c, _)| c == ch)
                    .map_or(FORMER_COLOURS[k % 4].1, |&(_, rgb)| rgb)
            } else {
                OTHER_COLOURS[k % OTHER_COLOURS.len()]
            }
        })
        .collect()
}

/// Why a picture could not be written or read. Every message is one line.
#[derive(Debug, Error)]
pub enum PictureError {
    /// The bytes are not an image in a format we decode, or the image is damaged.
    #[error("not a readable image: {0}")]
    Decode(String),
    /// The image header declares more pixels than we are willing to decode.
    #[error("the image is {width}×{height} pixels; at most {max_side} per side and {max_pixels} in all are read")]
    TooLarge {
        width: u32,
        height: u32,
        max_side: u32,
        max_pixels: u64,
    },
    /// No periodic grid of tiles, or not one of the size asked for.
    #[error("no grid of {size} tiles found{detail}")]
    NoGrid { size: String, detail: String },
    /// The board's position cannot be told from the picture.
    #[error("the board's position is ambiguous: {0}")]
    Ambiguous(String),
    /// A cell's colour is none of the game's tile colours nor the background.
    #[error("cell ({x},{y}): colour {colour} matches no tile colour")]
    UnknownColour { x: usize, y: usize, colour: String },
    /// A cell whose colour cannot be told with confidence.
    #[error("cell ({x},{y}): colour unclear ({why})")]
    Unclear { x: usize, y: usize, why: String },
    /// More tile colours than the game has.
    #[error("found {found} tile colours, but at most {max} were expected")]
    TooManyColours { found: usize, max: usize },
    /// The board read has a hole under a tile.
    #[error(
        "column {x}: cell ({x},{y}) reads empty under a tile, but a board in play obeys gravity"
    )]
    Gravity { x: usize, y: usize },
    /// An empty column left of a column with tiles, where columns close to the left.
    #[error("column {x} reads empty, but columns right of it hold tiles and a {game} board closes empty columns to the left")]
    EmptyColumn { x: usize, game: String },
    /// Flood-It boards have no empty cells.
    #[error("cell ({x},{y}) reads empty, but a {game} board has no empty cells")]
    NotFull { x: usize, y: usize, game: String },
    /// An output file name whose extension is neither `.png` nor `.svg`.
    #[error("cannot tell the picture format of {0:?}: use a .png or .svg file name")]
    Extension(String),
    /// An output file name for a picture only a PNG can hold, without `.png`.
    #[error("this picture is written as a PNG: use a .png file name")]
    NotPng,
    /// A board or steps list the renderer cannot draw.
    #[error("cannot draw: {0}")]
    Draw(String),
    /// Writing the file failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}
