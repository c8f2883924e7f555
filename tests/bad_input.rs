//! Bad input never crashes: the board parser, the move-list parser of `check`, the
//! board-set reader of `bench`, the date parser and the screenshot reader take random and
//! mangled bytes and answer with a value or a one-line error, never a panic.

use proptest::prelude::*;

use tumble::daily::{Date, DateRange};
use tumble::grid::Grid;
use tumble::input::{parse_clicks, setup_from};
use tumble::picture::{read, ReadOptions};
use tumble::rules::RuleChoices;

/// Text that looks a little like our inputs: board letters, separators, digits, brackets,
/// pipes, dates, and now and then any character at all.
fn texty() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        8 => prop::sample::select(vec![
            "A", "B", "GG", "OPGB", ".", ",", "\n", "\r\n", " ", "|", "(", ")", "1", "0,0",
            "(3,1)", "-", "2024-11-23", "..", "..=", "problem 01", "former|", "#", "\t", "9999",
        ])
        .prop_map(str::to_string),
        1 => any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

/// Every error message is one line.
fn one_line(e: impl std::fmt::Display) -> Result<(), TestCaseError> {
    let m = e.to_string();
    prop_assert!(!m.is_empty() && !m.contains('\n'), "message {m:?}");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn text_inputs_give_a_value_or_a_one_line_error(text in texty()) {
        match Grid::parse(&text) {
            Ok(g) => prop_assert!(g.width() * g.height() > 0),
            Err(e) => one_line(e)?,
        }
        if let Err(e) = setup_from(&text, &RuleChoices::default()) {
            one_line(e)?;
        }
        if let Err(e) = parse_clicks(&text) {
            one_line(e)?;
        }
        for entry in tumble::boardset::parse(&text) {
            prop_assert!(!entry.name.is_empty());
        }
        if let Err(e) = text.parse::<Date>() {
            one_line(e)?;
        }
        if let Err(e) = DateRange::parse(&text) {
            one_line(e)?;
        }
    }

    #[test]
    fn random_bytes_are_no_board(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        let text = String::from_utf8_lossy(&bytes);
        if let Err(e) = Grid::parse(&text) {
            one_line(e)?;
        }
        prop_assert!(read(&bytes, &ReadOptions::default()).is_err());
    }
}

/// A real picture, cut short or with bytes flipped, is read or refused, never a panic.
#[test]
fn damaged_pictures_are_refused_or_read() {
    let grid: Grid = "OPGB\nBGPO\nOOPP".parse().unwrap();
    let style = tumble::picture::Style {
        tile: 24,
        ..Default::default()
    };
    let img = tumble::picture::render(&grid, None, &style);
    let mut png = Vec::new();
    img.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let mut rng = fastrand::Rng::with_seed(23);
    let mut cases = 0;
    for cut in (0..png.len()).step_by(png.len() / 40 + 1) {
        if let Err(e) = read(&png[..cut], &ReadOptions::default()) {
            assert!(!e.to_string().contains('\n'));
        }
        cases += 1;
    }
    for _ in 0..40 {
        let mut bad = png.clone();
        for _ in 0..4 {
            let i = rng.usize(..bad.len());
            bad[i] ^= 1 << rng.u8(..8);
        }
        if let Err(e) = read(&bad, &ReadOptions::default()) {
            assert!(!e.to_string().contains('\n'));
        }
        cases += 1;
    }
    assert!(cases >= 70, "{cases} cases");
}

/// The fuzz targets' entry points ([`tumble::fuzzing`]) on random bytes and on bytes that
/// look like our inputs: each returns, never panics. Counts the inputs of each kind.
#[test]
fn fuzz_entry_points_take_random_bytes() {
    use tumble::fuzzing;
    let mut rng = fastrand::Rng::with_seed(2323);
    let pieces: &[&[u8]] = &[
        b"A",
        b"B",
        b"GG",
        b"OPGB",
        b".",
        b",",
        b"\n",
        b" ",
        b"|",
        b"(",
        b")",
        b"1",
        b"0,0",
        b"(3,1)",
        b"-",
        b"\0",
        b"former|",
        b"floodit|",
        b"problem 01\n",
        b"#",
        b"\xff",
        b"\x89PNG\r\n\x1a\n",
        b"RIFF",
        b"\xff\xd8\xff",
        b"{\"board\":\"",
        b"\",\"game\":\"dust\"",
        b"\"moves\":[{\"x\":0,\"y\":0}]",
        b"}",
        b"game=samegame&width=",
        b"2024-12-07",
    ];
    let mut cases = [0usize; 5];
    for round in 0..3000 {
        let data: Vec<u8> = if round % 2 == 0 {
            (0..rng.usize(0..300)).map(|_| rng.u8(..)).collect()
        } else {
            let mut d = vec![rng.u8(..)];
            for _ in 0..rng.usize(0..30) {
                d.extend_from_slice(pieces[rng.usize(..pieces.len())]);
            }
            d
        };
        fuzzing::board_text(&data);
        cases[0] += 1;
        fuzzing::check_moves(&data);
        cases[1] += 1;
        fuzzing::boardset(&data);
        cases[2] += 1;
        fuzzing::screenshot(&data);
        cases[3] += 1;
        fuzzing::api_json(&data);
        cases[4] += 1;
    }
    assert_eq!(cases, [3000; 5]);
}

/// Every input a fuzzer found to crash an entry point (tests/fuzz_regressions/, named
/// `<target>-<what>`) now passes it.
#[test]
fn fuzz_regressions_pass() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    let mut cases = 0;
    for entry in std::fs::read_dir(&dir).expect("the regression directory") {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let data = std::fs::read(&path).unwrap();
        let target = name.split('-').next().unwrap();
        match target {
            "board_text" => tumble::fuzzing::board_text(&data),
            "check_moves" => tumble::fuzzing::check_moves(&data),
            "boardset" => tumble::fuzzing::boardset(&data),
            "screenshot" => tumble::fuzzing::screenshot(&data),
            "api_json" => tumble::fuzzing::api_json(&data),
            _ => panic!("{name}: no fuzz target {target}"),
        }
        cases += 1;
    }
    assert!(cases >= 1, "no regression inputs in {}", dir.display());
}
