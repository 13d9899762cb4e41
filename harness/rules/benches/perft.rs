//! Move generation speed: three perft designs on the same positions, in one run.
//!
//! - `fast`: [`quads_rules::perft`], bulk counting from threats shared across gives.
//! - `straightforward`: bitboards and bulk counting at the last ply, each position above the
//!   leaves testing every empty square for a win on its own (the design issue #2 quotes at
//!   about 1.3 G leaf moves/s).
//! - `move-list`: [`quads_rules::perft_by_moves`], generate, play, recurse.
//!
//! `cargo bench -p quads-rules --bench perft`. The headline figure (depth 5 from a piece in
//! hand on the empty board, 186 billion moves) is timed from outside with `quads perft`; see
//! the README.
#![expect(
    missing_docs,
    reason = "criterion_group! generates an undocumented function"
)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use quads_rules::{perft, perft_by_moves, Board, Piece, PieceSet, Position, Rules};

fn straightforward(board: &Board, hand: Piece, left: PieceSet, depth: u32, rules: &Rules) -> u64 {
    let empty = board.empty();
    let n = u64::from(empty.len());
    if depth == 1 {
        if left.is_empty() {
            return n;
        }
        let wins = empty
            .iter()
            .filter(|&sq| board.completes(sq, hand, rules))
            .count() as u64;
        return wins + (n - wins) * u64::from(left.len());
    }
    let mut total = 0;
    for sq in empty.iter() {
        if left.is_empty() || board.completes(sq, hand, rules) {
            continue;
        }
        let mut next = *board;
        next.place(sq, hand);
        for p in left.iter() {
            total += straightforward(&next, p, left.without(p), depth - 1, rules);
        }
    }
    total
}

fn straightforward_from(pos: &Position, rules: &Rules, depth: u32) -> u64 {
    let hand = pos.hand().expect("a piece in hand");
    straightforward(pos.board(), hand, pos.remaining(), depth, rules)
}

fn bench(c: &mut Criterion) {
    let positions: [(&str, Position); 2] = [
        (
            "empty board",
            "..../..../..../.... BDQF".parse().expect("valid"),
        ),
        (
            "four placed",
            "BDRF.SLQH./.BLRH../..SDQF./.... BLQF"
                .parse()
                .expect("valid"),
        ),
    ];
    for (name, rules) in [("quads", Rules::QUADS), ("classic", Rules::CLASSIC)] {
        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        for (label, pos) in &positions {
            let expected = perft(pos, &rules, 3).expect("auto claims");
            assert_eq!(straightforward_from(pos, &rules, 3), expected);
            group.bench_function(format!("fast perft 3, {label}"), |b| {
                b.iter(|| perft(black_box(pos), black_box(&rules), 3).expect("auto claims"))
            });
            group.bench_function(format!("straightforward perft 3, {label}"), |b| {
                b.iter(|| straightforward_from(black_box(pos), black_box(&rules), 3))
            });
            group.bench_function(format!("move-list perft 3, {label}"), |b| {
                b.iter(|| perft_by_moves(black_box(pos), black_box(&rules), 3))
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default();
    targets = bench
}
criterion_main!(benches);
