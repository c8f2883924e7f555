//! A proof through the command line: `tumble solve --json` proves a board's optimum, and
//! its answer replays through `tumble check` and the reference simulator to an empty board.

use assert_cmd::Command;
use serde_json::Value;

use super::{replay, Cell, RefBoard};
use tumble::rules::Game;

/// Solves `board` of `game` and checks everything about the answer against `optimum`;
/// `what` names the board in failure messages.
pub fn prove(game: &str, board: &str, optimum: usize, what: &str) {
    let what = format!("{game} {board} ({what})");
    let out = Command::new(env!("CARGO_BIN_EXE_tumble"))
        .args(["solve", "--json", "--game", game, board])
        .output()
        .expect("tumble runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{what}: solve failed: {stderr}");
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{what}: stdout is not one JSON object: {e}"));
    assert_eq!(v["optimal"], true, "{what}: not proven optimal");
    assert_eq!(
        v["length"].as_u64().map(|n| n as usize),
        Some(optimum),
        "{what}: the proven optimum"
    );
    assert_eq!(v["board"], board);
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
    assert_eq!(clicks.len(), optimum);

    // the reference simulator replays it to an empty board
    let rules = game.parse::<Game>().unwrap().rules().unwrap();
    let (end, _) = replay(&RefBoard::from_inline(board), &rules, &clicks)
        .unwrap_or_else(|(k, why)| panic!("{what}: move {k} is illegal ({why})"));
    assert!(
        end.is_empty(),
        "{what}: the answer leaves {} tiles",
        end.tiles()
    );

    // and so does `tumble check`
    let moves: Vec<String> = clicks.iter().map(|(x, y)| format!("({x},{y})")).collect();
    let out = Command::new(env!("CARGO_BIN_EXE_tumble"))
        .args(["check", "--game", game, board, &moves.join(" ")])
        .output()
        .expect("tumble runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{what}: check failed: {stdout}");
    assert!(
        stdout.contains(&match optimum {
            1 => "cleared in 1 move\n".to_string(),
            n => format!("cleared in {n} moves\n"),
        }),
        "{what}: check does not clear it:\n{stdout}"
    );
}
