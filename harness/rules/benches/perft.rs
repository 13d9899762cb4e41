//! Move generation speed: the fast perft against the obvious one, on the same positions.
//!
//! `cargo bench -p quads-rules --bench perft`. The headline figure (depth 5 from a piece in
//! hand on the empty board, 186 billion moves) is timed from outside with `quads perft`; see
//! the README.

use criterion::{criterion_group, criterion_main, Criterion};
use quads_rules::{perft, perft_by_moves, Position, Rules};

fn bench(c: &mut Criterion) {
    let start: Position = "..../..../..../.... BDQF".parse().expect("valid position");
    let midgame: Position = "BDRF.SLQH./.BLRH../..SDQF./.... BLQF"
        .parse()
        .expect("valid position");
    for (name, rules) in [("quads", Rules::QUADS), ("classic", Rules::CLASSIC)] {
        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        group.bench_function("fast perft 3, empty board", |b| {
            b.iter(|| perft(&start, &rules, 3).expect("auto claims"))
        });
        group.bench_function("move-list perft 3, empty board", |b| {
            b.iter(|| perft_by_moves(&start, &rules, 3))
        });
        group.bench_function("fast perft 3, four pieces placed", |b| {
            b.iter(|| perft(&midgame, &rules, 3).expect("auto claims"))
        });
        group.bench_function("move-list perft 3, four pieces placed", |b| {
            b.iter(|| perft_by_moves(&midgame, &rules, 3))
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
