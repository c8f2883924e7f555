//! The API's pictures: a board, or an answer's steps, drawn as `tumble render` and `tumble
//! solve --render` draw them, with tiles as large as [`MAX_PICTURE_PIXELS`] allows.

use super::errors::ApiError;
use super::request::RenderRequest;
use crate::picture::{
    board_bytes, fitting_style, steps_bytes, steps_size, Style, MAX_PICTURE_PIXELS,
};

/// A picture and its media type.
pub struct Picture {
    pub content_type: &'static str,
    pub bytes: Vec<u8>,
}

/// Draws the request's board, or the steps of its moves (each board before a move with the
/// group to click outlined, then the last board), as a PNG or SVG picture. An illegal move
/// is a 400 in the words of `tumble check`, naming the move.
pub fn draw(r: &RenderRequest) -> Result<Picture, ApiError> {
    let (grid, setup) = (&r.prepared.grid, &r.prepared.setup);
    let game = Some(setup.game);
    let bytes = match &r.moves {
        None => {
            let style = fitting(|s| s.size(grid.width(), grid.height()))?;
            board_bytes(grid, game, &style, r.svg)?
        }
        Some(moves) => {
            let checked = crate::check::check(grid, setup, moves)?;
            if let Some(e) = super::answer::illegal_move(&checked) {
                return Err(e);
            }
            let (boards, picks) = checked.panels(grid, setup);
            let style = fitting(|s| steps_size(&boards, s))?;
            steps_bytes(&boards, &picks, game, &style, r.svg)?
        }
    };
    let content_type = if r.svg { "image/svg+xml" } else { "image/png" };
    Ok(Picture {
        content_type,
        bytes,
    })
}

/// The style [`fitting_style`] picks for a picture of the size `size` gives; a 400 when
/// even its smallest tiles make too large a picture.
fn fitting(size: impl Fn(&Style) -> (u32, u32)) -> Result<Style, ApiError> {
    fitting_style(&size).map_err(|smallest| {
        let (w, h) = size(&smallest);
        ApiError::bad_request(format!(
            "the picture would be {w}×{h} pixels even with tiles of {} pixels; at most {} \
             million pixels are drawn (draw fewer moves)",
            smallest.tile,
            MAX_PICTURE_PIXELS >> 20
        ))
    })
}
