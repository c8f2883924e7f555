//! The picture commands end to end: `tumble render` draws boards that `tumble read` reads
//! back exactly, `tumble solve --image` solves the board of a screenshot, `--render` draws
//! the answer, and bad pictures are one-line errors with exit code 2.

mod common;

use common::scratch::Scratch;
use serde_json::Value;

use tumble::daily::{former_board, Date};
use tumble::generate::generate;
use tumble::rules::Game;

fn tumble(args: &[&str]) -> (i32, String, String) {
    common::cli::run(args, None)
}

/// The board with its colours renamed A, B, C… in order of first appearance from the top
/// left (empty cells kept), so two namings of one board compare equal.
fn canonical(board: &str) -> String {
    let mut names: Vec<char> = Vec::new();
    board
        .trim_end()
        .chars()
        .map(|c| match c {
            '.' | '\n' => c,
            c => {
                let i = names.iter().position(|&n| n == c).unwrap_or_else(|| {
                    names.push(c);
                    names.len() - 1
                });
                (b'A' + i as u8) as char
            }
        })
        .collect()
}

#[test]
fn rendered_boards_of_every_game_read_back_exactly() {
    let scratch = Scratch::new("rendered_boards_of_every_game_read_back_exactly");
    let mut cases = 0;
    for (i, game) in Game::ALL.iter().enumerate() {
        let (w, h, k) = game.default_size();
        for seed in 0..3u64 {
            let board = if *game == Game::Former {
                // NRK's letters, which the Former palette maps to its colours
                let day = Date::new(2025, 1, 1 + seed as u32).unwrap();
                former_board(day).unwrap().to_text()
            } else {
                generate(w, h, k, 100 * i as u64 + seed).to_text()
            };
            let png = scratch.path(&format!("{game}-{seed}.png"));
            let png = png.to_str().unwrap();
            let tile = ["24", "40", "64"][seed as usize];
            let (code, _, err) = tumble(&[
                "render",
                &board,
                "--game",
                game.name(),
                "-o",
                png,
                "--tile",
                tile,
            ]);
            assert_eq!(code, 0, "{game}: {err}");
            let (code, out, err) = tumble(&["read", png, "--game", game.name()]);
            assert_eq!(code, 0, "{game} seed {seed}: {err}");
            // Former reads NRK's letters; other games' letters are A, B, C… in order of
            // first appearance, so the board is the same up to naming its colours.
            if *game == Game::Former {
                assert_eq!(out.trim_end(), board.trim_end(), "{game} seed {seed}");
            } else {
                assert_eq!(canonical(&out), canonical(&board), "{game} seed {seed}");
            }
            cases += 1;
        }
    }
    assert_eq!(cases, 3 * Game::ALL.len());
}

/// `render --date` draws NRK's board of that day, which reads back as that board; a board
/// beside the date, or a game other than Former, is refused.
#[test]
fn render_draws_the_board_of_a_date() {
    let scratch = Scratch::new("render_draws_the_board_of_a_date");
    let mut cases = 0;
    for day in ["2024-11-23", "2025-06-29", "2026-11-24"] {
        let png = scratch.path(&format!("date-{day}.png"));
        let png = png.to_str().unwrap();
        let (code, _, err) = tumble(&["render", "--date", day, "-o", png]);
        assert_eq!(code, 0, "{day}: {err}");
        let (code, out, err) = tumble(&["read", png, "--game", "former"]);
        assert_eq!(code, 0, "{day}: {err}");
        let board = former_board(day.parse::<Date>().unwrap())
            .unwrap()
            .to_text();
        assert_eq!(out.trim_end(), board.trim_end(), "{day}");
        cases += 1;
    }
    assert_eq!(cases, 3);
    let png = scratch.path("date-refused.png");
    let png = png.to_str().unwrap();
    common::cli::assert_error(
        &["render", "--date", "2025-01-01", "AB,BA", "-o", png],
        None,
        &["--date", "BOARD"],
    );
    common::cli::assert_error(
        &[
            "render",
            "--date",
            "2025-01-01",
            "--game",
            "dust",
            "-o",
            png,
        ],
        None,
        &["--date", "dust"],
    );
    common::cli::assert_error(
        &["render", "--date", "2024-11-22", "-o", png],
        None,
        &["2024-11-22"],
    );
    assert!(
        !std::path::Path::new(png).exists(),
        "a refused render writes nothing"
    );
}

/// `render --moves` draws moves step by step as `solve --render` draws its answer, byte for
/// byte, taking the moves as `check` does (here `solve --json`'s answer, from a file and
/// from stdin); an illegal move is refused, naming it, and nothing is written.
#[test]
fn render_draws_moves_as_solve_render_draws_an_answer() {
    let scratch = Scratch::new("render_draws_moves_as_solve_render_draws_an_answer");
    let mut cases = 0;
    // (game, board, picture format, tile size asked for of both)
    for (game, board, ext, tile) in [
        ("dust", common::data::DUST, "png", None),
        ("floodit", "ABCA,BCAB,CABC,ABCA", "svg", None),
        ("former", "AABB,BBAA,ABAB", "png", None),
        ("dust", common::data::DUST, "png", Some("20")),
    ] {
        let name = format!("moves-{game}-{}", tile.unwrap_or("fitting"));
        let solved = scratch.path(&format!("{name}-solved.{ext}"));
        let drawn = scratch.path(&format!("{name}-drawn.{ext}"));
        let (solved, drawn) = (solved.to_str().unwrap(), drawn.to_str().unwrap());
        let tile_args: Vec<&str> = tile.map(|t| vec!["--tile", t]).unwrap_or_default();
        let mut args = vec!["solve", "--game", game, board, "--json", "--render", solved];
        args.extend(&tile_args);
        let (code, answer, err) = tumble(&args);
        assert_eq!(code, 0, "{game}: {err}");
        let json = scratch.path(&format!("{name}.json"));
        std::fs::write(&json, &answer).unwrap();
        for moves in [json.to_str().unwrap(), "-"] {
            let _ = std::fs::remove_file(drawn);
            let mut args = vec![
                "render", "--game", game, board, "--moves", moves, "-o", drawn,
            ];
            args.extend(&tile_args);
            let (code, _, err) = common::cli::run(&args, Some(&answer));
            assert_eq!(code, 0, "{game}: {err}");
            assert!(
                std::fs::read(drawn).unwrap() == std::fs::read(solved).unwrap(),
                "{game}, moves from {moves}: not solve --render's picture"
            );
            cases += 1;
        }
        if let Some(t) = tile {
            // drawn at the tile asked for: narrower than at the tile tumble picks (48
            // pixels for an answer this short)
            let fitting = scratch.path(&format!("moves-{game}-fitting-solved.{ext}"));
            let (w20, _) = image::image_dimensions(solved).unwrap();
            let (w48, _) = image::image_dimensions(&fitting).unwrap();
            assert!(w20 < w48, "--tile {t}: {w20} wide against {w48}");
        }
    }
    assert_eq!(cases, 8);
    let png = scratch.path("moves-illegal.png");
    let png = png.to_str().unwrap();
    common::cli::assert_error(
        &[
            "render",
            "--date",
            "2024-12-07",
            "--moves",
            "(0,0) (9,9)",
            "-o",
            png,
        ],
        None,
        &["illegal move 2", "(9,9)"],
    );
    assert!(
        !std::path::Path::new(png).exists(),
        "a refused render writes nothing"
    );
}

#[test]
fn solve_reads_a_screenshot_and_draws_its_answer() {
    let scratch = Scratch::new("solve_reads_a_screenshot_and_draws_its_answer");
    let dust = "GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG";
    let png = scratch.path("dust.png");
    let steps = scratch.path("steps.png");
    let (code, _, err) = tumble(&[
        "render",
        dust,
        "--game",
        "dust",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    // the screenshot given as a board file: one line that points to --image
    let (code, _, err) = tumble(&["solve", png.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("is a picture") && err.contains("--image"),
        "{err}"
    );
    // and so on stdin, pointing to --image -
    let out = common::cli::tumble()
        .args(["solve", "-"])
        .write_stdin(std::fs::read(&png).unwrap())
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("board from stdin: it is a picture") && err.contains("--image -"),
        "{err}"
    );
    let (code, out, err) = tumble(&[
        "solve",
        "--image",
        png.to_str().unwrap(),
        "--game",
        "dust",
        "--json",
        "--render",
        steps.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["optimal"], true);
    assert_eq!(v["length"], 11, "the dust board of the article takes 11");
    let picture = image::open(&steps).expect("a PNG of the steps");
    assert!(picture.width() > 200 && picture.height() > 200);
    let svg = scratch.path("steps.svg");
    let (code, _, err) = tumble(&[
        "solve",
        dust,
        "--game",
        "dust",
        "--render",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") || text.starts_with("<?xml"), "SVG");
    assert!(
        text.matches("<rect").count() > 11 * 48 / 2,
        "panels of tiles"
    );
    // a picture that cannot be written is refused before the search: nothing is printed
    // but the one line
    let dir_named_png = scratch.path("a-folder.png");
    std::fs::create_dir_all(&dir_named_png).unwrap();
    let mut refused = 0;
    for (path, words) in [
        (scratch.path("steps.jpg"), "use a .png or .svg file name"),
        (
            scratch.path("no-such-folder").join("steps.png"),
            "no directory",
        ),
        (dir_named_png.clone(), "it is a directory"),
    ] {
        let path = path.to_str().unwrap();
        let (code, out, err) = tumble(&["solve", dust, "--game", "dust", "--render", path]);
        assert_eq!(code, 2, "{path}: {err}");
        assert!(out.is_empty(), "{path}: searched first:\n{out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(path) && err.contains(words), "{err}");
        refused += 1;
    }
    assert_eq!(refused, 3);
}

#[test]
fn read_writes_an_overlay_the_size_of_the_picture() {
    let scratch = Scratch::new("read_writes_an_overlay_the_size_of_the_picture");
    let board = generate(15, 15, 5, 7).to_text();
    let png = scratch.path("overlay-in.png");
    let over = scratch.path("overlay-out.png");
    let (code, _, err) = tumble(&[
        "render",
        &board,
        "--game",
        "samegame",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = tumble(&[
        "read",
        png.to_str().unwrap(),
        "--game",
        "samegame",
        "--overlay",
        over.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(canonical(&out), canonical(&board));
    let (a, b) = (image::open(&png).unwrap(), image::open(&over).unwrap());
    assert_eq!((a.width(), a.height()), (b.width(), b.height()));
    // an overlay is a PNG: another name, or a place it cannot go, is refused before the
    // picture is read (a picture that is no picture shows which came first)
    let dir_named_png = scratch.path("overlay-folder.png");
    std::fs::create_dir_all(&dir_named_png).unwrap();
    let mut refused = 0;
    for (path, words) in [
        (scratch.path("overlay.jpg"), "use a .png file name"),
        (scratch.path("overlay.svg"), "use a .png file name"),
        (
            scratch.path("no-such-folder").join("overlay.png"),
            "no directory",
        ),
        (dir_named_png.clone(), "it is a directory"),
    ] {
        let path = path.to_str().unwrap();
        let (code, out, err) = tumble(&["read", "no-such-picture.png", "--overlay", path]);
        assert_eq!(code, 2, "{path}: {err}");
        assert!(out.is_empty(), "{out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(path) && err.contains(words), "{err}");
        assert!(!std::path::Path::new(path).is_file(), "{path} written");
        refused += 1;
    }
    assert_eq!(refused, 4);
}

#[test]
fn bad_pictures_are_one_line_errors_with_exit_code_2() {
    let scratch = Scratch::new("bad_pictures_are_one_line_errors_with_exit_code_2");
    let text = scratch.file("not-an-image.png", "GGGG,BBBB\n");
    let blank = scratch.path("blank.png");
    image::RgbImage::from_pixel(300, 500, image::Rgb([30, 30, 40]))
        .save(&blank)
        .unwrap();
    let (t, b) = (text.to_str().unwrap(), blank.to_str().unwrap());
    // pictures of formats the reader does not decode are named as such (a GIF of one
    // pixel, and a BMP's header)
    let gif = scratch.path("one-pixel.gif");
    std::fs::write(
        &gif,
        b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00,\x00\x00\x00\x00\
          \x01\x00\x01\x00\x00\x02\x02D\x01\x00;",
    )
    .unwrap();
    let bmp = scratch.path("header.bmp");
    std::fs::write(
        &bmp,
        b"BM\x3a\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00\x28\x00",
    )
    .unwrap();
    let (g, m) = (gif.to_str().unwrap(), bmp.to_str().unwrap());
    let cases: [(&[&str], &str); 10] = [
        (&["read", t], "not a readable image"),
        (&["read", g], "a GIF image: tumble reads PNG, JPEG or WebP"),
        (
            &["solve", "--image", m],
            "a BMP image: tumble reads PNG, JPEG or WebP",
        ),
        (&["read", "/no/such/picture.png"], "/no/such/picture.png"),
        (&["read", b, "--game", "former"], "7×9"),
        (&["solve", "--image", b], "grid"),
        (
            &["render", "AB,BA", "--game", "samegame", "-o", "/tmp/x.bmp"],
            "bmp",
        ),
        (
            &[
                "render",
                "AB,BA",
                "--game",
                "samegame",
                "-o",
                "/tmp/x.png",
                "--tile",
                "0",
            ],
            "--tile",
        ),
        (&["solve", "AB,BA", "--tile", "24"], "--render"),
        (
            &["solve", "AB,BA", "--render", "/tmp/x.png", "--tile", "600"],
            "--tile must be from 4 to 512 pixels",
        ),
    ];
    let mut checked = 0;
    for (args, needle) in cases {
        common::cli::assert_error(args, None, &[needle]);
        checked += 1;
    }
    assert_eq!(checked, 10);
}
