//! Level 5 with its book against level 5 without it, in both presets and both seats: the side
//! with the book plays the book's move in every position the book holds, keeps the game's
//! value with every move the solver can judge (from 11 empty squares on), and never loses.
//!
//! One test in its own binary: the book is switched on and off for the whole process. The
//! side without the book searches with a node budget (the same moves on any machine); the run
//! at 60 s a move, with real processes, is in docs/levels.md.

use quads_bots::book::{self, Book};
use quads_bots::solver::Solver;
use quads_bots::{Limit, Strategy, SOLVE_EMPTY};
use quads_protocol::Go;
use quads_rules::{ByPlayer, Move, Outcome, Piece, Player, Position, Rules};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

#[test]
fn level_5_with_the_book_is_never_behind_level_5_without_it() {
    let level_5 = Strategy::Solver(10_000);
    for rules in [Rules::QUADS, Rules::CLASSIC] {
        let shipped = Book::shipped(&rules).expect("a book");
        let mut judge = Solver::new(&rules, 256);
        for (game, book_side) in [
            (1u64, Player::First),
            (2, Player::Second),
            (3, Player::First),
            (4, Player::Second),
        ] {
            let mut pos = Position::START;
            let mut rngs = ByPlayer {
                first: ChaCha8Rng::seed_from_u64(game),
                second: ChaCha8Rng::seed_from_u64(game + 100),
            };
            let mut solvers: ByPlayer<Option<Solver>> = ByPlayer::default();
            let mut last = None;
            let mut book_moves = 0;
            while pos.outcome(&rules).is_none() {
                let side = pos.to_move();
                let ours = pos.to_move() == book_side;
                book::set_enabled(ours);
                let go = Go {
                    position: pos,
                    remaining: pos.remaining(),
                    last,
                    time: None,
                    optime: None,
                    movetime: 60_000,
                };
                let mv = if pos.hand().is_none() {
                    Move::Give(Piece::ALL[(game % 16) as usize])
                } else {
                    level_5.choose_within(
                        &go,
                        &rules,
                        &mut rngs[side],
                        Limit::Nodes(2_000_000),
                        &mut solvers[side],
                    )
                };
                let next = pos.play(mv, &rules).expect("a legal move");
                if ours && pos.hand().is_some() {
                    if let Some(found) = shipped.lookup(&pos) {
                        assert_eq!(mv, found.mv, "{rules} game {game}: {pos}");
                        book_moves += 1;
                    } else if pos.board().empty().len() <= SOLVE_EMPTY {
                        let before = judge.solve(&pos, None, 0).unwrap().value.signum();
                        let after = match next.outcome(&rules) {
                            Some(Outcome::Win(_)) => 1,
                            Some(Outcome::Draw) => 0,
                            None => -judge.solve(&next, None, 0).unwrap().value.signum(),
                        };
                        assert!(
                            after >= before,
                            "{rules} game {game}: {mv} in {pos} gave the value away"
                        );
                    } else {
                        panic!("{rules} game {game}: {pos} is neither in the book nor small enough to judge");
                    }
                }
                last = Some(mv);
                pos = next;
            }
            book::set_enabled(true);
            assert!(
                book_moves >= 2,
                "{rules} game {game}: {book_moves} book moves"
            );
            if let Some(Outcome::Win(winner)) = pos.outcome(&rules) {
                assert_eq!(
                    winner, book_side,
                    "{rules} game {game}: the side with the book lost"
                );
            }
        }
    }
}
