//! Pictures as files: whether a path may take one (checked before the work that makes
//! it), a picture's bytes as PNG or SVG, and writing them.

use std::path::Path;

use image::RgbImage;

use super::render::{render, render_svg};
use super::steps::{render_steps, render_steps_svg, Pick};
use super::style::Style;
use super::PictureError;
use crate::grid::Grid;
use crate::rules::Game;

/// Whether a picture may be written to `path`, checked before the work that makes it (a
/// solve may take a minute): a `.png` or `.svg` name, not a directory, in a directory
/// that exists. Whether the file can then be written is only known by writing it.
pub fn check_output(path: &Path) -> Result<(), PictureError> {
    is_svg(path)?;
    check_place(path)
}

/// [`check_output`] for a picture only a PNG can hold (a screenshot with marks drawn on it).
pub fn check_png_output(path: &Path) -> Result<(), PictureError> {
    if !has_extension(path, "png") {
        return Err(PictureError::NotPng);
    }
    check_place(path)
}

/// `path` names no directory, and the directory it is in exists.
fn check_place(path: &Path) -> Result<(), PictureError> {
    if path.is_dir() {
        return Err(PictureError::Io(std::io::Error::other("it is a directory")));
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    match dir {
        Some(d) if !d.is_dir() => Err(PictureError::Io(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("no directory {}", d.display()),
        ))),
        _ => Ok(()),
    }
}

fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// Is `path` a `.png` (false) or `.svg` (true) file name?
fn is_svg(path: &Path) -> Result<bool, PictureError> {
    if has_extension(path, "svg") {
        Ok(true)
    } else if has_extension(path, "png") {
        Ok(false)
    } else {
        Err(PictureError::Extension(path.display().to_string()))
    }
}

/// `img` as the bytes of a PNG file.
pub fn png_bytes(img: &RgbImage) -> Result<Vec<u8>, PictureError> {
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png)
        .map_err(|e| PictureError::Draw(e.to_string()))?;
    Ok(out.into_inner())
}

/// Writes `img` to `path` as a PNG.
pub fn write_png(path: &Path, img: &RgbImage) -> Result<(), PictureError> {
    std::fs::write(path, png_bytes(img)?)?;
    Ok(())
}

/// A board drawn as the bytes of a picture file: SVG text (`svg`) or a PNG.
pub fn board_bytes(
    grid: &Grid,
    game: Option<Game>,
    style: &Style,
    svg: bool,
) -> Result<Vec<u8>, PictureError> {
    if svg {
        Ok(render_svg(grid, game, style).into_bytes())
    } else {
        png_bytes(&render(grid, game, style))
    }
}

/// The steps of a solution (see [`render_steps`]) as the bytes of a picture file: SVG text
/// (`svg`) or a PNG.
pub fn steps_bytes(
    boards: &[Grid],
    picks: &[Pick],
    game: Option<Game>,
    style: &Style,
    svg: bool,
) -> Result<Vec<u8>, PictureError> {
    if svg {
        Ok(render_steps_svg(boards, picks, game, style)?.into_bytes())
    } else {
        png_bytes(&render_steps(boards, picks, game, style)?)
    }
}

/// Draws a board to `path`, PNG or SVG by the extension.
pub fn save_board(
    path: &Path,
    grid: &Grid,
    game: Option<Game>,
    style: &Style,
) -> Result<(), PictureError> {
    let svg = is_svg(path)?;
    std::fs::write(path, board_bytes(grid, game, style, svg)?)?;
    Ok(())
}

/// Draws the steps of a solution to `path` (see [`render_steps`]), PNG or SVG by the extension.
pub fn save_steps(
    path: &Path,
    boards: &[Grid],
    picks: &[Pick],
    game: Option<Game>,
    style: &Style,
) -> Result<(), PictureError> {
    let svg = is_svg(path)?;
    std::fs::write(path, steps_bytes(boards, picks, game, style, svg)?)?;
    Ok(())
}
