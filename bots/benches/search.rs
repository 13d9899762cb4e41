//! Search speed: MCTS playouts per second and solver nodes per second, on fixed positions.
//! `cargo bench -p quads-bots --bench search` (one core, but for the two-thread solve; prints
//! one line per measurement).

use std::time::Instant;

use quads_bots::mcts;
use quads_bots::solver::{random_position, Solver};
use quads_rules::{Position, Rules};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn main() {
    for (name, rules) in [("quads", Rules::QUADS), ("classic", Rules::CLASSIC)] {
        // MCTS from an early position: two pieces placed.
        let early: Position = "..../..BDRF./.SLQH../.... BLRF".parse().expect("valid");
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let started = Instant::now();
        let (_, playouts) = mcts::search(
            early.board(),
            early.hand().expect("hand"),
            early.remaining(),
            &rules,
            50_000,
            None,
            &mut rng,
        );
        let secs = started.elapsed().as_secs_f64();
        println!(
            "{name}: mcts {playouts} playouts from 2 placed in {secs:.2} s: {:.0} playouts/s",
            f64::from(playouts) / secs
        );
        // The solver on the positions `quads solve-bench` makes (random squares, no completed
        // shape, a piece in hand that wins nowhere), two each with 5 and 4 pieces placed.
        for (placed, seed) in [(5, 1), (5, 2), (4, 1), (4, 2)] {
            let pos = random_position(&rules, placed, seed);
            let started = Instant::now();
            let mut solver = Solver::new(&rules, 64);
            let found = solver.solve(&pos, None, 0).expect("a move");
            let secs = started.elapsed().as_secs_f64();
            println!(
                "{name}: solver, {} placed: {} ({}), {} nodes in {secs:.3} s: {:.2} M nodes/s",
                pos.placed(),
                found.describe(),
                found.mv,
                solver.nodes(),
                solver.nodes() as f64 / secs / 1e6
            );
        }
        // Helper threads: one 3-placed position on one thread and on two, in the same run.
        let pos = random_position(&rules, 3, 1);
        let mut took = Vec::new();
        for threads in [1, 2] {
            let started = Instant::now();
            let mut solver = Solver::new(&rules, 256).with_threads(threads);
            solver.solve(&pos, None, 0).expect("a move");
            took.push(started.elapsed().as_secs_f64());
            println!(
                "{name}: solver, 3 placed, {threads} thread(s): {} nodes in {:.3} s",
                solver.nodes(),
                took[took.len() - 1]
            );
        }
        println!(
            "{name}: two threads took {:.2} times as long as one",
            took[1] / took[0]
        );
    }
}
