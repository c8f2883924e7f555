//! Published boards with proven optima (`../shared/boards/proven.txt`): `tumble solve --json`
//! proves the optimum of the file, and its answer replays through `tumble check` (and the
//! reference simulator) to an empty board. The data is read from the shared file, never
//! copied here; without it these tests fail.

mod common;

use assert_cmd::Command;
use serde_json::Value;

use common::{proven_boards, replay, Cell, ProvenBoard, RefBoard};
use tumble::rules::Game;

/// Solves one board of the file and checks everything about the answer.
fn prove(b: &ProvenBoard) {
    let what = format!(
        "{} {} ({})",
        b.game,
        b.board,
        b.date.as_deref().unwrap_or("-")
    );
    let out = Command::new(env!("CARGO_BIN_EXE_tumble"))
        .args(["solve", "--json", "--game", &b.game, &b.board])
        .output()
        .expect("tumble runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{what}: solve failed: {stderr}");
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{what}: stdout is not one JSON object: {e}"));
    assert_eq!(v["optimal"], true, "{what}: not proven optimal");
    assert_eq!(
        v["length"].as_u64().map(|n| n as usize),
        Some(b.optimum),
        "{what}: the proven optimum of the file"
    );
    assert_eq!(v["board"], b.board.as_str());
    let clicks: Vec<Cell> = v["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| {
            (
                m["x"].as_u64().unwrap() as usize,
                m["y"].as_u64().unwrap() as usize,
            )
        })
        .collect();
    assert_eq!(clicks.len(), b.optimum);

    // the reference simulator replays it to an empty board
    let rules = b.game.parse::<Game>().unwrap().rules().unwrap();
    let (end, _) = replay(&RefBoard::from_inline(&b.board), &rules, &clicks)
        .unwrap_or_else(|(k, why)| panic!("{what}: move {k} is illegal ({why})"));
    assert!(
        end.is_empty(),
        "{what}: the answer leaves {} tiles",
        end.tiles()
    );

    // and so does `tumble check`
    let moves: Vec<String> = clicks.iter().map(|(x, y)| format!("({x},{y})")).collect();
    let out = Command::new(env!("CARGO_BIN_EXE_tumble"))
        .args(["check", "--game", &b.game, &b.board, &moves.join(" ")])
        .output()
        .expect("tumble runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{what}: check failed: {stdout}");
    assert!(
        stdout.contains(&format!("cleared in {} moves", b.optimum)),
        "{what}: check does not clear it:\n{stdout}"
    );
}

#[test]
fn dust_and_figure_boards_are_proven() {
    let boards: Vec<ProvenBoard> = proven_boards()
        .into_iter()
        .filter(|b| b.game == "dust" || b.game == "figure")
        .collect();
    assert!(
        boards.iter().any(|b| b.game == "dust") && boards.iter().any(|b| b.game == "figure"),
        "the shared data should hold dust and figure boards"
    );
    for b in &boards {
        prove(b);
    }
}

#[test]
fn former_2024_11_22_is_proven() {
    prove(&common::former_of("2024-11-22"));
}

#[test]
fn former_2024_11_24_is_proven() {
    prove(&common::former_of("2024-11-24"));
}

#[test]
fn former_2024_11_26_is_proven() {
    prove(&common::former_of("2024-11-26"));
}
