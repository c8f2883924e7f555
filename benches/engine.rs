//! Micro-benchmarks of the click engine: move generation and the lower bound.
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use tumble::click::ClickGame;
use tumble::grid::Grid;
use tumble::puzzle::Puzzle;
use tumble::rules::Game;

fn engine(c: &mut Criterion) {
    for (game, board) in [
        (
            Game::Former,
            "GPPOGOG,OOOPOPB,GBPBPOP,PPGPGGB,OPBOOBP,POGOBOP,OOPPBPP,OBBOOPO,PPPGOBB",
        ),
        (
            Game::Dust,
            "GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG",
        ),
    ] {
        let grid: Grid = board.parse().unwrap();
        let (g, b) = ClickGame::<u64>::new(&grid, game.rules().unwrap()).unwrap();
        let mut out = Vec::new();
        c.bench_function(&format!("{game}: all children"), |bench| {
            bench.iter(|| {
                out.clear();
                g.successors(black_box(&b), &mut out);
                out.len()
            })
        });
        c.bench_function(&format!("{game}: lower bound"), |bench| {
            bench.iter(|| g.lower_bound(black_box(&b)))
        });
    }
}

criterion_group!(benches, engine);
criterion_main!(benches);
