//! Boards with proven optima: the boards the articles print and NRK Former boards from the
//! generator of `tumble::daily` (their optima proven once and kept as figures in
//! `common::data`). `tumble solve --json` proves each optimum, and its answer replays
//! through `tumble check` and the reference simulator to an empty board.

mod common;

use common::data::{article_boards, former};
use common::proofs::prove;

#[test]
fn dust_and_figure_boards_are_proven() {
    let boards = article_boards();
    assert!(boards.iter().any(|b| b.game == "dust") && boards.iter().any(|b| b.game == "figure"));
    for b in &boards {
        prove(b.game, &b.board, b.optimum, &b.source);
    }
}

#[test]
fn former_2024_11_24_is_proven() {
    let b = former("2024-11-24");
    prove(b.game, &b.board, b.optimum, &b.source);
}

#[test]
fn former_2024_11_26_is_proven() {
    let b = former("2024-11-26");
    prove(b.game, &b.board, b.optimum, &b.source);
}

#[test]
fn former_2024_11_30_is_proven() {
    let b = former("2024-11-30");
    prove(b.game, &b.board, b.optimum, &b.source);
}
