//! The entry points the fuzz targets (`fuzz/fuzz_targets/`) and the property tests of the
//! normal suite (`tests/bad_input.rs`) both call: each takes arbitrary bytes, feeds them to
//! one reader of user input, and panics only if that reader breaks a promise (a panic
//! inside it, an error message of more than one line, a value that is not what it claims).
//! A fuzzer reports any panic as a crash, so every panic here is a bug to fix.
//!
//! | function | what it reads |
//! |---|---|
//! | [`board_text`] | a board argument: [`crate::input::setup_from`], [`crate::grid::Grid::parse`], the Flood-It start |
//! | [`check_moves`] | a board and a move list: [`crate::input::parse_clicks`], [`crate::check::check`] |
//! | [`boardset`] | a board set: [`crate::boardset::parse`], then each board as `bench` reads it |
//! | [`screenshot`] | a picture: [`crate::picture::read`] on the bytes |
//!
//! | [`api_json`] | the server's requests (feature `server`): the JSON bodies of `/api/solve`, `/api/apply` (then the moves played) and `/api/render` (then drawn), the query strings of `/api/generate` and `/api/read`, the date of `/api/former` |

use crate::grid::Grid;
use crate::input::{parse_clicks, parse_start, setup_from};
use crate::rules::{Game, RuleChoices};

/// The largest picture [`screenshot`] decodes, in pixels: the reader's work grows with the
/// picture, and a fuzzer must not spend seconds on one input. Larger pictures (up to
/// [`crate::picture::MAX_PIXELS`]) are the reader's normal business; this cap only keeps
/// each fuzz input fast.
pub const SCREENSHOT_MAX_PIXELS: u64 = 1 << 20;

/// An error's message must be one line, and not empty.
fn one_line(e: impl std::fmt::Display) {
    let m = e.to_string();
    assert!(
        !m.is_empty() && !m.contains('\n'),
        "error message not one line: {m:?}"
    );
}

/// The rule choices that the first byte of a fuzz input selects: no game, or a named one,
/// with or without a Flood-It start cell. The rest of the input is the text.
fn choices(data: &[u8]) -> (RuleChoices, &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return (RuleChoices::default(), data);
    };
    let games = [
        None,
        Some(Game::Former),
        Some(Game::Floodit),
        Some(Game::Samegame),
        Some(Game::Clickomania),
    ];
    let starts = [
        None,
        Some("topleft"),
        Some("centre"),
        Some("1,1"),
        Some("7,99"),
    ];
    let choices = RuleChoices {
        game: games[first as usize % games.len()],
        start: starts[(first as usize / games.len()) % starts.len()].map(str::to_string),
        ..RuleChoices::default()
    };
    (choices, rest)
}

/// A board argument: parsed as a grid, and as `solve` reads it (the game from the first
/// byte, from a `game|board` line or from the size). A board that is accepted has cells,
/// and its start cell (Flood-It) lies on it.
pub fn board_text(data: &[u8]) {
    let (rules, rest) = choices(data);
    let text = String::from_utf8_lossy(rest);
    match Grid::parse(&text) {
        Ok(g) => {
            assert!(g.width() * g.height() > 0, "an empty grid was accepted");
            // the start cell is on the board, or refused in one line
            match parse_start(Some(&text), &g) {
                Ok((x, y)) => assert!(x < g.width() && y < g.height(), "start ({x},{y})"),
                Err(e) => one_line(e),
            }
        }
        Err(e) => one_line(e),
    }
    match setup_from(&text, &rules) {
        Ok(p) => {
            assert!(p.grid.width() * p.grid.height() > 0);
            if p.setup.game == Game::Floodit {
                let (x, y) = p.setup.floodit_start_on(&p.grid);
                assert!(x < p.grid.width() && y < p.grid.height(), "start ({x},{y})");
            }
        }
        Err(e) => one_line(e),
    }
}

/// A board and a move list, split at the first NUL byte (without one, the whole input is
/// the move list on a fixed board of each game): the move list replayed as `check` does. A
/// replay never claims more legal steps than there are moves.
pub fn check_moves(data: &[u8]) {
    let (rules, rest) = choices(data);
    let (board, moves) = match rest.iter().position(|&b| b == 0) {
        Some(i) => (String::from_utf8_lossy(&rest[..i]), &rest[i + 1..]),
        None => (
            match rules.game {
                Some(Game::Floodit) => "ABC,BCA,CAB".into(),
                _ => "AAB,ABB,BAA".into(),
            },
            rest,
        ),
    };
    let rules = RuleChoices {
        game: rules.game.or(Some(Game::Former)),
        ..rules
    };
    let prepared = match setup_from(&board, &rules) {
        Ok(p) => p,
        Err(e) => return one_line(e),
    };
    // as `check` reads its argument: moves as written, or JSON read for the game and board
    let text = String::from_utf8_lossy(moves).into_owned();
    let moves = match crate::input::moves_text(text, &prepared.grid, &prepared.setup) {
        Ok(m) => m,
        Err(e) => return one_line(e),
    };
    if let Err(e) = parse_clicks(&moves) {
        one_line(e);
    }
    match crate::check::check(&prepared.grid, &prepared.setup, &moves) {
        Ok(c) => {
            // a step per legal move, so no more steps than characters in the list
            assert!(c.steps.len() <= moves.chars().count());
            assert!(c.illegal.is_some() != c.end.is_some(), "{c:?}");
            if let Some((_, why)) = &c.illegal {
                one_line(why);
            }
        }
        Err(e) => one_line(e),
    }
}

/// A board set as `bench` reads it: the entries, each named, each written as a line
/// (`gen`'s sets) that reads back as the same board, and the first few boards read as
/// `solve` reads them.
pub fn boardset(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let entries = crate::boardset::parse(&text);
    let rows = |board: &str| -> Vec<String> {
        board
            .split(['\n', ','])
            .map(|r| r.trim().to_string())
            .filter(|r| !r.is_empty())
            .collect()
    };
    for e in &entries {
        let line = e.to_line();
        let back = crate::boardset::single_line(&line)
            .unwrap_or_else(|| panic!("{e:?} wrote {line:?}, which is no set line"));
        assert_eq!(rows(&back.board), rows(&e.board), "{e:?} as {line:?}");
        assert_eq!(back.expected, e.expected, "{e:?} as {line:?}");
    }
    for e in entries.iter().take(8) {
        assert!(!e.name.is_empty(), "an entry without a name: {e:?}");
        let rules = RuleChoices {
            game: e.game,
            ..RuleChoices::default()
        };
        if let Err(err) = setup_from(&e.board, &rules) {
            one_line(err);
        }
    }
}

/// A screenshot: the bytes decoded and read as `tumble read` does, or refused in one line.
/// Pictures over [`SCREENSHOT_MAX_PIXELS`] are skipped (their header is read, no pixel).
pub fn screenshot(data: &[u8]) {
    let dims = image::ImageReader::new(std::io::Cursor::new(data))
        .with_guessed_format()
        .ok()
        .and_then(|r| r.into_dimensions().ok());
    if dims.is_some_and(|(w, h)| w as u64 * h as u64 > SCREENSHOT_MAX_PIXELS) {
        return;
    }
    let options = match data.first() {
        Some(b) if b % 2 == 1 => crate::picture::ReadOptions::game(Game::Former),
        _ => crate::picture::ReadOptions::default(),
    };
    match crate::picture::read(data, &options) {
        Ok(r) => assert!(r.grid.width() * r.grid.height() > 0, "an empty reading"),
        Err(e) => one_line(e),
    }
}

/// The server's requests, chosen by the first byte: the JSON body of `/api/solve` (parsed,
/// checked and turned into a setup), the JSON body of `/api/apply` (parsed, its moves played
/// and the answer built), a query string of `/api/generate` or `/api/read`, or the date of
/// `/api/former`. Every refusal is a 4xx with a one-line message; an accepted solve has a
/// time limit within the server's cap.
#[cfg(feature = "server")]
pub fn api_json(data: &[u8]) {
    use crate::server::answer::apply;
    use crate::server::request::{
        former_board, read_options, ApplyRequest, GenerateRequest, RenderRequest, SolveRequest,
    };
    let refused = |e: crate::server::ApiError| {
        assert!(
            (400..500).contains(&e.status),
            "status {} for {e:?}",
            e.status
        );
        one_line(&e.message);
    };
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    match first % 5 {
        0 => match SolveRequest::parse(rest) {
            Ok(r) => {
                let setup = r.setup(60.0, 1 << 20);
                let limit = setup.search.time_limit.expect("a solve has a time limit");
                assert!(limit.as_secs_f64() <= 60.0, "time limit {limit:?}");
            }
            Err(e) => refused(e),
        },
        1 => {
            if let Err(e) = ApplyRequest::parse(rest).and_then(|r| apply(&r)) {
                refused(e)
            }
            // the same body as a picture to draw, where its fields are render's too
            match RenderRequest::parse(rest).and_then(|r| crate::server::picture::draw(&r)) {
                Ok(p) => assert!(!p.bytes.is_empty(), "an empty picture"),
                Err(e) => refused(e),
            }
        }
        2 => {
            if let Err(e) = GenerateRequest::parse(&String::from_utf8_lossy(rest)) {
                refused(e)
            }
        }
        3 => {
            if let Err(e) = read_options(&String::from_utf8_lossy(rest)) {
                refused(e)
            }
        }
        _ => {
            if let Err(e) = former_board(&String::from_utf8_lossy(rest)) {
                refused(e)
            }
        }
    }
}
