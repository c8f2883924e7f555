//! A board argument read: a file, `-` for standard input, the board itself, or a
//! screenshot; every source capped in size.

use std::io::Read;
use std::path::Path;

use super::InputError;

/// The most bytes a board, a board set or a picture read from a file or stdin may take:
/// far past any real one, so that an endless source (`/dev/zero`, a stream that never
/// ends) is an error rather than a machine out of memory.
pub const MAX_INPUT_BYTES: u64 = 256 << 20;

/// All of `source`, or an error once it is over [`MAX_INPUT_BYTES`].
pub fn read_capped(source: impl Read) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    source.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        let over = format!("it is over {} MiB", MAX_INPUT_BYTES >> 20);
        return Err(std::io::Error::other(over));
    }
    Ok(bytes)
}

/// Bytes that are not UTF-8 text, as the read error they are.
pub(super) fn not_utf8(e: std::string::FromUtf8Error) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error())
}

/// The text of an argument that may name where to read it (a board, moves), `what` it is
/// in the errors: `-` for stdin, a file, or else the argument itself. Whatever is there and
/// is not a directory is read: a file, and also a pipe or a device (`tumble solve <(tumble
/// gen …)` names `/dev/fd/63`). An argument that looks like a path or a file name and
/// names nothing is an error, not text. `not_text` says what bytes that are not UTF-8 are.
pub(super) fn argument_text(
    arg: &str,
    what: &'static str,
    not_text: impl FnOnce(std::string::FromUtf8Error) -> InputError,
) -> Result<String, InputError> {
    let path = Path::new(arg);
    let found = std::fs::metadata(path);
    let bytes = if arg == "-" {
        read_capped(std::io::stdin().lock())
    } else if found.as_ref().is_ok_and(|m| m.is_dir()) {
        let path = arg.to_string();
        return Err(InputError::Directory { what, path });
    } else if found.is_ok() {
        std::fs::File::open(path).and_then(read_capped)
    } else if arg.contains('/') || arg.contains('\\') || names_a_file(arg) {
        let path = arg.to_string();
        return Err(InputError::NoSuchFile { what, path });
    } else {
        return Ok(arg.to_string());
    };
    let bytes = bytes.map_err(|err| read_error(arg, what, err))?;
    String::from_utf8(bytes).map_err(not_text)
}

/// Reads a board argument: a file, `-` for stdin, or the board itself.
pub fn read_board_text(arg: &str) -> Result<String, InputError> {
    const WHAT: &str = "board";
    argument_text(arg, WHAT, |e| {
        // (only a file that is not text is looked at as a picture: a board whose first
        // letters happen to be some format's signature stays a board)
        if crate::picture::is_picture(e.as_bytes()) {
            return match arg {
                "-" => InputError::PictureOnStdin,
                _ => InputError::PictureAsBoard(arg.to_string()),
            };
        }
        read_error(arg, WHAT, not_utf8(e))
    })
}

/// The error of reading `what` from `arg` (`-`: stdin).
pub(super) fn read_error(arg: &str, what: &'static str, err: std::io::Error) -> InputError {
    match arg {
        "-" => InputError::Stdin { what, err },
        _ => InputError::File {
            what,
            path: arg.to_string(),
            err,
        },
    }
}

/// Does an argument of one line read as a file name rather than a board or moves: a name, a
/// dot and an extension of one to five lower-case letters and digits, at least one a letter
/// (`set.txt`, `day.png`, `answer.json`)? A board of one row could look like that, but no
/// game has boards one row high, and a mistyped file name is far likelier; moves have no
/// dots (`.` is an empty cell, no colour).
fn names_a_file(arg: &str) -> bool {
    let Some((stem, ext)) = arg.rsplit_once('.') else {
        return false;
    };
    !stem.is_empty()
        && !arg.contains([',', '\n'])
        && (1..=5).contains(&ext.len())
        && ext
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && ext.bytes().any(|b| b.is_ascii_lowercase())
}

/// Reads the board in a screenshot (a file, or `-` for stdin) as [`crate::picture::read`]
/// does; also gives the decoded picture (for an overlay).
pub fn read_image_board(
    path: &str,
    options: &crate::picture::ReadOptions,
) -> Result<(image::RgbImage, crate::picture::Reading), InputError> {
    let bytes = if path == "-" {
        let err = |err| InputError::Stdin {
            what: "picture",
            err,
        };
        read_capped(std::io::stdin().lock()).map_err(err)?
    } else {
        std::fs::File::open(path)
            .and_then(read_capped)
            .map_err(|err| InputError::Image {
                path: path.to_string(),
                err,
            })?
    };
    let picture_error = |err| InputError::Picture {
        path: path.to_string(),
        err,
    };
    let img = crate::picture::decode(&bytes).map_err(picture_error)?;
    let reading = crate::picture::read_image(&img, options).map_err(picture_error)?;
    Ok((img, reading))
}
