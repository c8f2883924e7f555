//! Pictures of boards: render boards of every game in many styles, degrade them the way a
//! screenshot is degraded (phone and desktop frames, blur, scaling, JPEG), and read them back.
//!
//! Two renderers feed the reader: the crate's own ([`picture::render`]) and a second,
//! independent one written here, drawing styles the reader never saw (rounded tiles, a darker
//! border per tile, shaded tiles, another palette). Every case ends in one of three ways: the
//! exact board, a typed error, or a wrong board; a wrong board is never allowed. Each test
//! counts its cases and prints the exact-read rate per game and style.

mod common;

use std::collections::BTreeMap;
use std::io::Cursor;

use common::scratch::Scratch;
use fastrand::Rng;
use image::{imageops, Rgb, RgbImage};
use tumble::grid::Grid;
use tumble::picture::{self, font, Pick, PictureError, ReadOptions, Style};
use tumble::rules::Game;

/// Board backgrounds, each far (ΔE > 25) from every tile colour used below.
const BACKGROUNDS: [[u8; 3]; 6] = [
    [0x1B, 0x1F, 0x2A],
    [0xFF, 0xFF, 0xFF],
    [0xEE, 0xEE, 0xEE],
    [0x20, 0x20, 0x20],
    [0x2E, 0x34, 0x40],
    [0xFA, 0xF3, 0xE0],
];

/// Screen colours around a board in a frame.
const SCREENS: [[u8; 3]; 4] = [
    [0x12, 0x12, 0x12],
    [0xF5, 0xF5, 0xF7],
    [0x3A, 0x3F, 0x4B],
    [0xD8, 0xE4, 0xEC],
];

/// The foreign renderer's palette for non-Former games: lighter hues than the crate's.
const FOREIGN: [[u8; 3]; 6] = [
    [0xE5, 0x73, 0x73],
    [0x64, 0xB5, 0xF6],
    [0x81, 0xC7, 0x84],
    [0xFF, 0xD5, 0x4F],
    [0xBA, 0x68, 0xC8],
    [0x26, 0xA6, 0x9A],
];

/// The games drawn, with `None` for a board read without a game.
const GAMES: [Option<Game>; 7] = [
    Some(Game::Former),
    Some(Game::Figure),
    Some(Game::Dust),
    Some(Game::Samegame),
    Some(Game::Clickomania),
    Some(Game::Floodit),
    None,
];

fn game_name(game: Option<Game>) -> &'static str {
    game.map_or("none", |g| g.name())
}

/// Does the game close empty columns to the left?
fn packs_left(game: Option<Game>) -> bool {
    matches!(game, Some(Game::Samegame | Game::Clickomania) | None)
}

/// A random board of `game`: colour letters in order of first appearance from the top left
/// (`O P G B` for Former), with holes obeying gravity when `holes`.
fn random_board(rng: &mut Rng, game: Option<Game>, holes: bool) -> Grid {
    let (w, h, k) = match game {
        Some(Game::Former) => (7, 9, 4),
        Some(Game::Figure) => (5, 5, 4),
        Some(Game::Dust) => (8, 6, 5),
        Some(Game::Samegame) => (rng.usize(8..=15), rng.usize(8..=15), rng.usize(3..=5)),
        Some(Game::Clickomania) => (rng.usize(5..=12), rng.usize(5..=12), rng.usize(2..=4)),
        Some(Game::Floodit) => (rng.usize(6..=14), rng.usize(6..=14), rng.usize(3..=6)),
        None => (rng.usize(3..=10), rng.usize(3..=10), rng.usize(2..=6)),
    };
    // heights[x]: tiles in column x.
    let mut heights = vec![h; w];
    if holes && game != Some(Game::Floodit) {
        let filled = if packs_left(game) {
            rng.usize(w / 2..=w).max(1)
        } else {
            w
        };
        for (x, hx) in heights.iter_mut().enumerate() {
            *hx = if x >= filled {
                0
            } else if packs_left(game) {
                rng.usize(1..=h)
            } else {
                rng.usize(0..=h)
            };
        }
        if heights.iter().all(|&n| n == 0) {
            heights[0] = 1;
        }
    }
    let letters: Vec<char> = if game == Some(Game::Former) {
        "OPGB".chars().collect()
    } else {
        ('A'..='Z').take(k).collect()
    };
    let mut rows = Vec::new();
    let mut order: Vec<usize> = Vec::new();
    for y in (0..h).rev() {
        let mut row = String::new();
        for &hx in &heights {
            if y >= hx {
                row.push('.');
                continue;
            }
            let c = rng.usize(0..k);
            let c = if game == Some(Game::Former) {
                c
            } else {
                // Relabel by first appearance, as the reader labels.
                match order.iter().position(|&o| o == c) {
                    Some(p) => p,
                    None => {
                        order.push(c);
                        order.len() - 1
                    }
                }
            };
            row.push(letters[c]);
        }
        rows.push(row);
    }
    rows.join("\n").parse().expect("a valid board")
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Look {
    Own,
    Rounded,
    Border,
    Shaded,
}

/// The independent renderer: `look` draws tiles the crate's renderer never draws.
fn foreign_render(
    g: &Grid,
    game: Option<Game>,
    look: Look,
    st: &Style,
    colours: &[[u8; 3]],
    rng: &mut Rng,
) -> RgbImage {
    let (w, h) = st.size(g.width(), g.height());
    let mut img = RgbImage::from_pixel(w, h, Rgb(st.background));
    let t = st.tile as f64;
    let radius = t * (0.15 + 0.2 * rng.f64());
    let border = (t / 12.0).max(2.0);
    let shade = 0.12 + 0.1 * rng.f64();
    for y in 0..g.height() {
        for x in 0..g.width() {
            let c = g.get(x, y);
            if c == 0 {
                continue;
            }
            let base = if game == Some(Game::Former) {
                picture::FORMER_COLOURS
                    .iter()
                    .find(|f| f.0 == g.symbol(c))
                    .unwrap()
                    .1
            } else {
                colours[c as usize - 1]
            };
            let left = st.margin + x as u32 * (st.tile + st.gap);
            let top = st.margin + (g.height() - 1 - y) as u32 * (st.tile + st.gap);
            for dy in 0..st.tile {
                for dx in 0..st.tile {
                    let (fx, fy) = (dx as f64 + 0.5, dy as f64 + 0.5);
                    let colour = match look {
                        Look::Own => unreachable!(),
                        Look::Rounded => {
                            let cx = fx.clamp(radius, t - radius);
                            let cy = fy.clamp(radius, t - radius);
                            if (fx - cx).powi(2) + (fy - cy).powi(2) > radius * radius {
                                continue;
                            }
                            base
                        }
                        Look::Border => {
                            let edge = fx.min(fy).min(t - fx).min(t - fy);
                            if edge < border {
                                base.map(|v| (v as f64 * 0.6) as u8)
                            } else {
                                base
                            }
                        }
                        Look::Shaded => {
                            let f = 1.0 + shade * (1.0 - 2.0 * fy / t);
                            base.map(|v| (v as f64 * f).clamp(0.0, 255.0) as u8)
                        }
                    };
                    img.put_pixel(left + dx, top + dy, Rgb(colour));
                }
            }
        }
    }
    img
}

fn fill(img: &mut RgbImage, x: u32, y: u32, w: u32, h: u32, c: [u8; 3]) {
    for yy in y..(y + h).min(img.height()) {
        for xx in x..(x + w).min(img.width()) {
            img.put_pixel(xx, yy, Rgb(c));
        }
    }
}

/// Words for titles, buttons and score lines.
const WORDS: [&str; 8] = [
    "FORMER",
    "LEVEL 12",
    "SCORE 4210",
    "NEW GAME",
    "UNDO",
    "MOVES 7",
    "BEST 31",
    "DAILY",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Frame {
    None,
    /// A phone screen: status bar, title, the board, a score line, buttons.
    Phone,
    /// A desktop window: title bar, a side bar of text, the board somewhere in the content.
    Desktop,
}

/// Puts `board` in a fake screenshot. Returns the picture and whether the board's own
/// background panel is visible as a panel (the screen around it has another colour).
fn frame(board: &RgbImage, kind: Frame, bg: [u8; 3], rng: &mut Rng) -> (RgbImage, bool) {
    if kind == Frame::None {
        return (board.clone(), true);
    }
    // A screen colour clearly apart from the board's (every channel pair ≥ 40 apart in at
    // least one channel), or the board's own colour one time in three.
    let apart: Vec<[u8; 3]> = SCREENS
        .iter()
        .copied()
        .filter(|s| (0..3).any(|c| s[c].abs_diff(bg[c]) >= 40))
        .collect();
    let same = apart.is_empty() || rng.u32(0..3) == 0;
    let screen = if same {
        bg
    } else {
        apart[rng.usize(0..apart.len())]
    };
    let ink = if screen.iter().map(|&v| v as u32).sum::<u32>() > 380 {
        [30, 30, 30]
    } else {
        [230, 230, 230]
    };
    let (bw, bh) = board.dimensions();
    let (img, bx, by) = match kind {
        Frame::Phone => {
            let side = rng.u32(16..60);
            let (status, title) = (rng.u32(24..60), rng.u32(50..140));
            let below = rng.u32(120..260);
            let (iw, ih) = (bw + 2 * side, status + title + bh + below);
            let mut img = RgbImage::from_pixel(iw, ih, Rgb(screen));
            fill(&mut img, 0, 0, iw, status, [0, 0, 0]);
            font::draw_text(
                &mut img,
                8,
                (status / 4) as i64,
                "12:34",
                (status / 14).max(1),
                [255, 255, 255],
            );
            fill(
                &mut img,
                iw - 40,
                status / 3,
                24,
                status / 3,
                [255, 255, 255],
            );
            let scale = rng.u32(3..7);
            font::draw_text(
                &mut img,
                side as i64,
                (status + title / 4) as i64,
                WORDS[rng.usize(0..8)],
                scale,
                ink,
            );
            font::draw_text(
                &mut img,
                side as i64,
                (status + title - 9 * 2) as i64,
                WORDS[rng.usize(0..8)],
                2,
                ink,
            );
            let y = status + title + bh + 12;
            font::draw_text(
                &mut img,
                side as i64,
                y as i64,
                WORDS[rng.usize(0..8)],
                3,
                ink,
            );
            let buttons = rng.u32(1..4);
            let bwid = (img.width() - 2 * side - 10 * (buttons - 1)) / buttons;
            for b in 0..buttons {
                let x = side + b * (bwid + 10);
                let colour =
                    [[0x34, 0x78, 0xF6], [0xE0, 0x40, 0x40], [0x60, 0x60, 0x68]][rng.usize(0..3)];
                fill(&mut img, x, y + 40, bwid, 56, colour);
                font::draw_text(
                    &mut img,
                    x as i64 + 10,
                    y as i64 + 58,
                    WORDS[rng.usize(0..8)],
                    2,
                    [255, 255, 255],
                );
            }
            (img, side, status + title)
        }
        Frame::Desktop => {
            let (bar, sidebar) = (rng.u32(28..44), rng.u32(120..260));
            let (padx, pady) = (rng.u32(20..200), rng.u32(20..120));
            let (iw, ih) = (sidebar + bw + 2 * padx, bar + bh + 2 * pady);
            let mut img = RgbImage::from_pixel(iw, ih, Rgb(screen));
            fill(&mut img, 0, 0, iw, bar, [0xDD, 0xDD, 0xE2]);
            for (k, c) in [[0xFF, 0x5F, 0x57], [0xFE, 0xBC, 0x2E], [0x28, 0xC8, 0x40]]
                .iter()
                .enumerate()
            {
                fill(&mut img, 10 + 20 * k as u32, bar / 2 - 6, 12, 12, *c);
            }
            font::draw_text(
                &mut img,
                90,
                (bar / 2 - 7) as i64,
                "TUMBLE",
                2,
                [40, 40, 40],
            );
            fill(&mut img, 0, bar, sidebar, ih - bar, [0xE8, 0xEA, 0xF0]);
            for line in 0..8 {
                font::draw_text(
                    &mut img,
                    12,
                    (bar + 20 + 30 * line) as i64,
                    WORDS[(line as usize) % 8],
                    2,
                    [60, 60, 70],
                );
            }
            (img, sidebar + padx, bar + pady)
        }
        Frame::None => unreachable!(),
    };
    let mut img = img;
    imageops::replace(&mut img, board, bx as i64, by as i64);
    (img, !same)
}

/// One case: the picture's bytes and what a reader must return.
struct Case {
    bytes: Vec<u8>,
    options: ReadOptions,
    /// The board drawn. A reading equal to it is exact, whatever `expect` says: a board of
    /// unknown size whose tiles fill it can be read exactly from its tiles alone.
    board: String,
    /// The board text to read, or `None` when the picture cannot tell where the board is
    /// (a known size whose edge columns are empty and whose panel is not visible): the
    /// reader must then fail.
    expect: Option<String>,
    /// SameGame and Clickomania: the board without its empty top rows and right columns.
    /// A reading that trims to it plays the same.
    trimmed: Option<String>,
    label: String,
}

/// `text` (rows top to bottom) without the rows above every tile and the columns right of
/// every tile.
fn trim(text: &str) -> String {
    let rows: Vec<&str> = text
        .lines()
        .skip_while(|r| r.chars().all(|c| c == '.'))
        .collect();
    let width = rows
        .iter()
        .filter_map(|r| r.rfind(|c| c != '.'))
        .max()
        .map_or(0, |i| i + 1);
    rows.iter()
        .map(|r| &r[..width])
        .collect::<Vec<_>>()
        .join("\n")
}

/// Draws `board` in a random style, frames and degrades it, and encodes it.
fn make_case(
    rng: &mut Rng,
    game: Option<Game>,
    look: Look,
    holes: bool,
    colours: &[[u8; 3]],
) -> Case {
    let board = random_board(rng, game, holes);
    let big = board.width().max(board.height()) as u32;
    let gap = rng.u32(0..=4);
    let tile_max = (900 / big).saturating_sub(gap).clamp(20, 150);
    let tile = rng.u32(20..=tile_max);
    let bg = BACKGROUNDS[rng.usize(0..BACKGROUNDS.len())];
    let style = Style {
        tile,
        gap,
        margin: rng.u32(4..=40),
        background: bg,
    };
    let img = match look {
        Look::Own => picture::render(&board, game, &style),
        _ => foreign_render(&board, game, look, &style, colours, rng),
    };
    let kind = [Frame::None, Frame::Phone, Frame::Desktop][rng.usize(0..3)];
    let (mut img, panel) = frame(&img, kind, bg, rng);
    let mut notes = format!("{look:?} {kind:?} tile {tile} gap {gap} bg {:?}", bg);
    if !panel {
        notes += " panel hidden";
    }
    if rng.u32(0..3) == 0 {
        let sigma = 0.4 + 0.6 * rng.f32();
        img = imageops::fast_blur(&img, sigma);
        notes += &format!(" blur {sigma:.2}");
    }
    if rng.u32(0..3) == 0 {
        let lo = (20.5 / tile as f64).max(0.7);
        let hi = (150.0 / tile as f64).min(1.3);
        if lo < hi {
            let f = lo + (hi - lo) * rng.f64();
            let (w, h) = (
                (img.width() as f64 * f) as u32,
                (img.height() as f64 * f) as u32,
            );
            img = imageops::resize(&img, w, h, imageops::FilterType::Triangle);
            notes += &format!(" scale {f:.2}");
        }
    }
    let mut bytes = Vec::new();
    match rng.u32(0..4) {
        0 | 1 => {
            let q = rng.u8(60..=95);
            image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, q)
                .encode_image(&img)
                .unwrap();
            notes += &format!(" jpeg {q}");
        }
        2 => {
            img.write_to(&mut Cursor::new(&mut bytes), image::ImageFormat::Png)
                .unwrap();
            notes += " png";
        }
        _ => {
            image::codecs::webp::WebPEncoder::new_lossless(&mut bytes)
                .encode(
                    img.as_raw(),
                    img.width(),
                    img.height(),
                    image::ExtendedColorType::Rgb8,
                )
                .unwrap();
            notes += " webp";
        }
    }
    let fixed = matches!(game, Some(Game::Former | Game::Figure | Game::Dust));
    let full_width = board.get(0, 0) != 0 && board.get(board.width() - 1, 0) != 0;
    // Without a visible panel, a board of unknown size (but Flood-It, always full) or a
    // board of known size missing edge columns cannot be placed: the reader must refuse.
    let expect = if panel || game == Some(Game::Floodit) || (fixed && full_width) {
        Some(board.to_text())
    } else {
        None
    };
    Case {
        bytes,
        board: board.to_text(),
        options: ReadOptions {
            game,
            ..ReadOptions::default()
        },
        expect,
        trimmed: matches!(game, Some(Game::Samegame | Game::Clickomania))
            .then(|| trim(&board.to_text())),
        label: format!(
            "{} {}: {notes}\n{}",
            game_name(game),
            if holes { "mid-game" } else { "full" },
            board
        ),
    }
}

/// Saves a failing case's picture when `TUMBLE_PICTURE_DUMP` names a directory.
fn dump(case: &Case, what: &str) {
    if let Ok(dir) = std::env::var("TUMBLE_PICTURE_DUMP") {
        let n = std::fs::read_dir(&dir).map_or(0, |d| d.count());
        let stem = format!("{dir}/{n:03}-{what}");
        std::fs::write(format!("{stem}.img"), &case.bytes).unwrap();
        std::fs::write(format!("{stem}.txt"), &case.label).unwrap();
    }
}

#[derive(Default, Debug)]
struct Tally {
    cases: usize,
    exact: usize,
    errors: usize,
    /// Pictures that cannot tell the board's position, correctly refused.
    refused: usize,
    /// SameGame and Clickomania boards read with more or fewer empty rows above the tiles
    /// or empty columns right of them than drawn: boards that play the same (the reader
    /// sizes a board from its tiles when its edges do not show).
    same_play: usize,
    wrong: Vec<String>,
    samples: Vec<String>,
    /// Boards holding both of the first two colours (the close pair of [`close_palette`]).
    close_pair: usize,
}

/// Runs `n` cases per (game, look) and returns the tallies.
fn run(
    seed: u64,
    looks: &[Look],
    games: &[Option<Game>],
    n: usize,
) -> BTreeMap<(String, Look), Tally> {
    run_with(seed, looks, games, n, |_| FOREIGN.to_vec())
}

/// [`run`] with the foreign renderer's colours drawn by `colours` for each case.
fn run_with(
    seed: u64,
    looks: &[Look],
    games: &[Option<Game>],
    n: usize,
    colours: impl Fn(&mut Rng) -> Vec<[u8; 3]>,
) -> BTreeMap<(String, Look), Tally> {
    let mut rng = Rng::with_seed(seed);
    let mut out: BTreeMap<(String, Look), Tally> = BTreeMap::new();
    for &game in games {
        for &look in looks {
            for i in 0..n {
                let palette = colours(&mut rng);
                let case = make_case(&mut rng, game, look, i % 2 == 1, &palette);
                let t = out.entry((game_name(game).to_string(), look)).or_default();
                t.cases += 1;
                t.close_pair += (case.board.contains('A') && case.board.contains('B')) as usize;
                let got = picture::read(&case.bytes, &case.options);
                match (&case.expect, got) {
                    (_, Ok(r)) if r.grid.to_text() == case.board => t.exact += 1,
                    (_, Ok(r)) if case.trimmed == Some(trim(&r.grid.to_text())) => t.same_play += 1,
                    (None, Err(PictureError::Ambiguous(_))) => t.refused += 1,
                    (_, Err(err)) => {
                        let msg = err.to_string();
                        assert!(!msg.contains('\n'), "a multi-line error: {msg}");
                        t.errors += 1;
                        dump(&case, "error");
                        if t.samples.len() < 3 {
                            t.samples
                                .push(format!("{msg} [{}]", case.label.lines().next().unwrap()));
                        }
                    }
                    (_, Ok(r)) => {
                        dump(&case, "wrong");
                        t.wrong.push(format!("{}\nread:\n{}", case.label, r.grid))
                    }
                }
            }
        }
    }
    out
}

fn report(title: &str, tallies: &BTreeMap<(String, Look), Tally>) -> (usize, usize, usize) {
    println!(
        "{title}: game, style: exact / cases (same play, refused as ambiguous, errors, wrong)"
    );
    let (mut cases, mut exact, mut wrong) = (0, 0, 0);
    for ((game, look), t) in tallies {
        println!(
            "  {game:12} {look:8?} {:3} / {:3} = {:5.1}%  (same play {}, refused {}, errors {}, wrong {})",
            t.exact,
            t.cases,
            100.0 * t.exact as f64 / t.cases as f64,
            t.same_play,
            t.refused,
            t.errors,
            t.wrong.len()
        );
        for s in &t.samples {
            println!("      error: {s}");
        }
        cases += t.cases;
        exact += t.exact + t.same_play + t.refused;
        wrong += t.wrong.len();
    }
    println!(
        "  all: {exact} / {cases} read exactly, as a board that plays the same or refused as ambiguous, {wrong} wrong"
    );
    (cases, exact, wrong)
}

fn assert_never_wrong(tallies: &BTreeMap<(String, Look), Tally>) {
    for ((game, look), t) in tallies {
        assert!(
            t.wrong.is_empty(),
            "{game} {look:?}: {} wrong boards, first:\n{}",
            t.wrong.len(),
            t.wrong[0]
        );
    }
}

#[test]
fn own_renders_of_every_game_read_back_exactly() {
    let tallies = run(0x5eed_0001, &[Look::Own], &GAMES, 36);
    let (cases, exact, _) = report("own renderer", &tallies);
    assert_eq!(cases, 36 * GAMES.len());
    assert_never_wrong(&tallies);
    // Every game reads back, with at most a rare typed error.
    for ((game, _), t) in &tallies {
        assert!(
            t.exact + t.same_play + t.refused >= t.cases * 85 / 100,
            "{game}: {t:?}"
        );
    }
    assert!(exact * 100 >= cases * 92, "{exact} of {cases}");
}

#[test]
fn foreign_renders_read_exactly_or_fail_clearly() {
    let looks = [Look::Rounded, Look::Border, Look::Shaded];
    let tallies = run(0x5eed_0002, &looks, &GAMES, 10);
    let (cases, exact, _) = report("foreign renderer", &tallies);
    assert_eq!(cases, 10 * GAMES.len() * looks.len());
    assert_never_wrong(&tallies);
    assert!(exact * 100 >= cases * 90, "{exact} of {cases}");
}

/// The foreign palette with its first two colours replaced by a pair only ΔE 8–15 apart:
/// a random colour of the palette and one moved from it in a random direction. The moved
/// colour stays far (ΔE > 25) from the other colours and from every board background.
fn close_palette(rng: &mut Rng) -> Vec<[u8; 3]> {
    loop {
        let i = rng.usize(0..FOREIGN.len());
        let base = FOREIGN[i];
        let want = 8.0 + 7.0 * rng.f32();
        let dir: [f32; 3] = [0; 3].map(|_| rng.f32() * 2.0 - 1.0);
        let norm = dir.iter().map(|d| d * d).sum::<f32>().sqrt();
        if norm < 0.1 {
            continue;
        }
        // Steps of half a unit along the direction until the colour is `want` away.
        let moved = (1..400).map(|t| {
            let mut c = base;
            for (k, v) in c.iter_mut().enumerate() {
                *v = (base[k] as f32 + dir[k] / norm * t as f32 * 0.5).clamp(0.0, 255.0) as u8;
            }
            c
        });
        let Some(near) = moved
            .into_iter()
            .find(|&c| picture::lab(base).delta(picture::lab(c)) >= want)
        else {
            continue;
        };
        let delta = picture::lab(base).delta(picture::lab(near));
        if delta > 15.0 {
            continue;
        }
        let mut palette = vec![base, near];
        palette.extend(
            FOREIGN
                .iter()
                .enumerate()
                .filter(|&(k, _)| k != i)
                .map(|(_, c)| *c),
        );
        let far = |c: [u8; 3]| picture::lab(c).delta(picture::lab(near)) > 25.0;
        if palette[2..].iter().all(|&c| far(c)) && BACKGROUNDS.iter().all(|&c| far(c)) {
            return palette;
        }
    }
}

#[test]
fn close_tile_colours_read_exactly_or_are_refused() {
    // Two tile colours only ΔE 8–15 apart, closer than the reader's clustering distance:
    // merged, they would make a wrong board. Each picture must be read exactly (the two
    // colours told apart) or refused.
    let looks = [Look::Rounded, Look::Border, Look::Shaded];
    let games = [
        Some(Game::Samegame),
        Some(Game::Clickomania),
        Some(Game::Floodit),
        Some(Game::Figure),
        None,
    ];
    let n = 8;
    let tallies = run_with(0x5eed_0007, &looks, &games, n, close_palette);
    let (cases, _, _) = report("close colours", &tallies);
    assert_eq!(cases, n * looks.len() * games.len());
    assert_never_wrong(&tallies);
    let exact: usize = tallies.values().map(|t| t.exact).sum();
    let both: usize = tallies.values().map(|t| t.close_pair).sum();
    println!("  boards holding both close colours: {both}; read exactly: {exact}");
    assert!(
        both * 2 >= cases,
        "only {both} of {cases} boards hold both close colours"
    );
    assert!(exact * 2 >= cases, "only {exact} of {cases} read exactly");
}

#[test]
fn packed_boards_read_exactly_or_from_their_tiles() {
    // SameGame and Clickomania boards in every style and frame: where the board's edges do
    // not show, the reader takes its size from its tiles (a board that plays the same) and
    // says so; it never gives a board that plays differently.
    let looks = [Look::Own, Look::Rounded, Look::Border, Look::Shaded];
    let games = [Some(Game::Samegame), Some(Game::Clickomania)];
    let tallies = run(0x5eed_0005, &looks, &games, 30);
    let (cases, correct, _) = report("packed boards", &tallies);
    assert_eq!(cases, 30 * looks.len() * games.len());
    assert_never_wrong(&tallies);
    let same_play: usize = tallies.values().map(|t| t.same_play).sum();
    assert!(same_play > 0, "no board was read from its tiles");
    assert!(correct * 100 >= cases * 90, "{correct} of {cases}");
}

#[test]
fn exact_tile_sizes_from_20_to_150_pixels_read_back() {
    // Plain PNG renders across the whole tile range, with and without gaps.
    let mut rng = Rng::with_seed(0x5eed_0003);
    let mut n = 0;
    for tile in (20..=150).step_by(10) {
        for gap in [0, 3] {
            let game = [
                Some(Game::Former),
                Some(Game::Figure),
                Some(Game::Clickomania),
            ][rng.usize(0..3)];
            let board = random_board(&mut rng, game, false);
            let style = Style {
                tile,
                gap,
                margin: 8,
                background: BACKGROUNDS[rng.usize(0..BACKGROUNDS.len())],
            };
            let img = picture::render(&board, game, &style);
            let r = picture::read_image(
                &img,
                &ReadOptions {
                    game,
                    ..ReadOptions::default()
                },
            )
            .unwrap_or_else(|e| panic!("tile {tile} gap {gap}: {e}\n{board}"));
            assert_eq!(r.grid.to_text(), board.to_text(), "tile {tile} gap {gap}");
            assert!(
                (r.pitch.0 - (tile + gap) as f64).abs() < 0.1,
                "pitch {:?}",
                r.pitch
            );
            n += 1;
        }
    }
    assert_eq!(n, 28);
}

#[test]
fn pictures_without_a_board_and_broken_files_are_typed_errors() {
    let mut rng = Rng::with_seed(0x5eed_0004);
    let mut checked = 0;
    // Screens with text and buttons but no board, and noise.
    for i in 0..6 {
        let empty = RgbImage::from_pixel(300, 200, Rgb(BACKGROUNDS[i]));
        let (img, _) = frame(
            &empty,
            [Frame::Phone, Frame::Desktop][i % 2],
            BACKGROUNDS[i],
            &mut rng,
        );
        let e = picture::read_image(&img, &ReadOptions::game(Game::Former)).unwrap_err();
        assert!(matches!(e, PictureError::NoGrid { .. }), "{e}");
        assert!(
            e.to_string().starts_with("no grid of 7×9 tiles found"),
            "{e}"
        );
        checked += 1;
    }
    let noise = RgbImage::from_fn(400, 300, |_, _| Rgb([rng.u8(..), rng.u8(..), rng.u8(..)]));
    assert!(picture::read_image(&noise, &ReadOptions::default()).is_err());
    checked += 1;
    // A truncated PNG.
    let board = random_board(&mut rng, Some(Game::Former), false);
    let img = picture::render(&board, Some(Game::Former), &Style::default());
    let mut png = Vec::new();
    img.write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let e = picture::read(&png[..png.len() / 2], &ReadOptions::game(Game::Former)).unwrap_err();
    assert!(matches!(e, PictureError::Decode(_)), "{e}");
    checked += 1;
    // The whole PNG reads.
    assert_eq!(
        picture::read(&png, &ReadOptions::game(Game::Former))
            .unwrap()
            .grid,
        board
    );
    // A header declaring 60000×60000 pixels: refused from the header, nothing allocated.
    let mut huge = png[..16].to_vec(); // signature, IHDR length and type
    let mut ihdr = b"IHDR".to_vec();
    ihdr.extend_from_slice(&60_000u32.to_be_bytes());
    ihdr.extend_from_slice(&60_000u32.to_be_bytes());
    ihdr.extend_from_slice(&png[24..29]);
    huge.extend_from_slice(&ihdr[4..]);
    huge.extend_from_slice(&crc32(&ihdr).to_be_bytes());
    huge.extend_from_slice(&png[33..]); // the original data chunks
    let e = picture::read(&huge, &ReadOptions::default()).unwrap_err();
    assert!(
        matches!(
            e,
            PictureError::TooLarge {
                width: 60_000,
                height: 60_000,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains(&picture::MAX_PIXELS.to_string()));
    checked += 1;
    // Not an image at all.
    let e = picture::read(
        b"OPGB,BGPO\nthis is a board as text, not a picture",
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert!(matches!(e, PictureError::Decode(_)), "{e}");
    checked += 1;
    assert_eq!(checked, 10);
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// Removes the group at `(x, y)` and lets the rest fall (columns stay).
fn click(g: &Grid, x: usize, y: usize) -> Grid {
    let group = picture::flood_group(g, x, y);
    let mut cells = vec![0u8; g.width() * g.height()];
    for cx in 0..g.width() {
        let mut to = 0;
        for cy in 0..g.height() {
            if g.get(cx, cy) != 0 && !group.contains(&(cx, cy)) {
                cells[to * g.width() + cx] = g.get(cx, cy);
                to += 1;
            }
        }
    }
    Grid::from_cells(g.width(), g.height(), cells, g.palette().to_vec())
}

#[test]
fn steps_pictures_and_files_by_extension() {
    let mut rng = Rng::with_seed(0x5eed_0005);
    let mut boards = vec![random_board(&mut rng, Some(Game::Former), false)];
    let mut picks = Vec::new();
    while !boards.last().unwrap().is_empty() && boards.len() < 12 {
        let g = boards.last().unwrap().clone();
        let (x, y) = (0..g.width())
            .flat_map(|x| (0..g.height()).map(move |y| (x, y)))
            .find(|&(x, y)| g.get(x, y) != 0)
            .unwrap();
        picks.push(if picks.len() % 2 == 0 {
            Pick::Click(x, y)
        } else {
            Pick::Group(picture::flood_group(&g, x, y))
        });
        boards.push(click(&g, x, y));
    }
    let style = Style::default();
    let png = picture::render_steps(&boards, &picks, Some(Game::Former), &style).unwrap();
    let columns = (boards.len() as f64).sqrt().ceil() as u32;
    let (bw, _) = style.size(7, 9);
    assert!(
        png.width() >= columns * bw,
        "{} panels in {} px",
        boards.len(),
        png.width()
    );
    let svg = picture::render_steps_svg(&boards, &picks, Some(Game::Former), &style).unwrap();
    let tiles: usize = boards.iter().map(|b| b.tiles()).sum();
    assert_eq!(svg.matches("<title>").count(), tiles);
    assert!(svg.matches("<line").count() >= 4 * picks.len());
    // Files by extension.
    let scratch = Scratch::new("steps_pictures_and_files_by_extension");
    let dir = scratch.dir();
    picture::save_board(&dir.join("b.png"), &boards[0], Some(Game::Former), &style).unwrap();
    picture::save_board(&dir.join("b.SVG"), &boards[0], Some(Game::Former), &style).unwrap();
    picture::save_steps(
        &dir.join("s.png"),
        &boards,
        &picks,
        Some(Game::Former),
        &style,
    )
    .unwrap();
    let back = picture::read(
        &std::fs::read(dir.join("b.png")).unwrap(),
        &ReadOptions::game(Game::Former),
    )
    .unwrap();
    assert_eq!(back.grid, boards[0]);
    assert!(std::fs::read_to_string(dir.join("b.SVG"))
        .unwrap()
        .starts_with("<svg"));
    let e = picture::save_board(&dir.join("b.gif"), &boards[0], None, &style).unwrap_err();
    assert!(matches!(e, PictureError::Extension(_)), "{e}");
}

#[test]
fn the_overlay_marks_every_cell_read() {
    let mut rng = Rng::with_seed(0x5eed_0006);
    let board = random_board(&mut rng, Some(Game::Samegame), true);
    let img = picture::render(&board, Some(Game::Samegame), &Style::default());
    let r = picture::read_image(&img, &ReadOptions::game(Game::Samegame)).unwrap();
    assert_eq!(r.grid.to_text(), board.to_text());
    let ov = picture::overlay(&img, &r);
    // The centre of every cell now shows the letter's dark ink or its white halo.
    let mut marked = 0;
    for y in 0..board.height() {
        for x in 0..board.width() {
            let (cx, cy) = r.centre(x, y);
            let reach = (r.pitch.0 / 4.0) as i32;
            let changed = (-reach..=reach).any(|d: i32| {
                (-reach..=reach).any(|e: i32| {
                    let (px, py) = ((cx as i32 + d) as u32, (cy as i32 + e) as u32);
                    ov.get_pixel(px, py) != img.get_pixel(px, py)
                })
            });
            marked += changed as usize;
        }
    }
    assert_eq!(marked, board.width() * board.height());
}
