//! The shipped books (`bots/book/*.book`): entries solved again on a sample, lookups of
//! positions the book does not hold, moves mapped back through the symmetries, and level 5
//! taking its opening moves from the book.

use quads_bots::book::canonical::Canonizer;
use quads_bots::book::{build, Book};
use quads_bots::solver::{random_position, Solver};
use quads_bots::{Limit, Strategy};
use quads_protocol::Go;
use quads_rules::{ClaimState, Move, Piece, Position, Rules, Square};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

const PRESETS: [Rules; 2] = [Rules::QUADS, Rules::CLASSIC];

fn book(rules: &Rules) -> &'static Book {
    Book::shipped(rules).expect("a shipped book")
}

#[test]
fn the_books_hold_every_level_and_the_empty_board_is_a_draw() {
    for rules in PRESETS {
        let b = book(&rules);
        let mut per = [0usize; 5];
        for (pos, _) in b.entries() {
            per[pos.placed() as usize] += 1;
        }
        assert_eq!(per[0], 1, "{rules}");
        assert!(per.iter().all(|&n| n > 0), "{rules}: {per:?}");
        let empty = Position::START
            .play(Move::Give(Piece::ALL[5]), &rules)
            .unwrap();
        let found = b.lookup(&empty).expect("the empty board after any give");
        assert_eq!(found.value, 0, "{rules}: the empty board is a draw");
    }
}

#[test]
fn every_sampled_entry_is_solved_again_and_agrees() {
    for rules in PRESETS {
        let mut entries: Vec<_> = book(&rules)
            .entries()
            .filter(|(p, _)| p.placed() >= 3)
            .collect();
        entries.sort_by_key(|(p, _)| p.to_string());
        let mut solver = Solver::new(&rules, 256);
        let sample: Vec<_> = entries.iter().step_by(entries.len() / 40 + 1).collect();
        assert!(sample.len() >= 30, "{rules}: a sample of {}", sample.len());
        for (pos, e) in sample {
            assert_eq!(
                build::check(&mut solver, &rules, pos, e),
                None,
                "{rules}: {pos}"
            );
        }
    }
}

/// A random symmetry of `pos`: a board automorphism, a complement and a trait permutation.
fn disguise(pos: &Position, rules: &Rules, rng: &mut ChaCha8Rng) -> Position {
    let autos = quads_bots::symmetry::automorphisms(rules);
    let perm = autos[(rng.next_u64() % autos.len() as u64) as usize];
    let flip = (rng.next_u64() % 16) as u8;
    let mut order = [0u8, 1, 2, 3];
    quads_bots::search::shuffle(&mut order, rng.next_u64());
    let piece = |p: Piece| {
        let q = p.bits() ^ flip;
        Piece::new((0..4).fold(0, |acc, j| acc | (((q >> order[j]) & 1) << j))).unwrap()
    };
    let mut board = quads_rules::Board::EMPTY;
    for sq in Square::ALL {
        if let Some(p) = pos.board().piece_at(sq) {
            board.place(Square::new(perm[sq.index()]).unwrap(), piece(p));
        }
    }
    Position::from_parts(board, pos.hand().map(piece), ClaimState::None)
}

#[test]
fn a_disguised_book_position_is_found_and_its_move_mapped_back() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for rules in PRESETS {
        let b = book(&rules);
        let canon = Canonizer::new(&rules);
        let mut entries: Vec<_> = b.entries().collect();
        entries.sort_by_key(|(p, _)| p.to_string());
        for (form, e) in entries.iter().step_by(17) {
            let seen = disguise(form, &rules, &mut rng);
            let found = b
                .lookup(&seen)
                .expect("a symmetric position is in the book");
            assert_eq!(found.value, e.value);
            let after = seen
                .play(found.mv, &rules)
                .expect("the mapped move is legal");
            let book_after = form.play(e.mv, &rules).unwrap();
            match (canon.canonical(&after), canon.canonical(&book_after)) {
                (Some(a), Some(b)) => assert_eq!(a.0, b.0, "{seen}: {}", found.mv),
                (a, b) => assert_eq!(a.is_none(), b.is_none()),
            }
        }
    }
}

#[test]
fn positions_outside_the_book_are_looked_up_without_harm() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for rules in PRESETS {
        let b = book(&rules);
        for placed in 0..=15 {
            for _ in 0..40 {
                let pos = random_position(&rules, placed, rng.next_u64());
                if let Some(found) = b.lookup(&pos) {
                    assert!(placed <= 4);
                    assert!(pos.validate(found.mv, &rules).is_ok(), "{pos}");
                }
                if placed >= 5 {
                    assert_eq!(b.lookup(&pos), None);
                }
            }
        }
        // No piece in hand, a claim pending: not looked up.
        assert_eq!(b.lookup(&Position::START), None);
        let claimable: Position = "..../..../..../BDRFBLRHBLQFBDQH SLQH claimable"
            .parse()
            .unwrap();
        assert_eq!(b.lookup(&claimable), None);
    }
    let colour: Rules = "quads,traits=color".parse().unwrap();
    assert!(Book::shipped(&colour).is_none());
    assert!(quads_bots::book::lookup(&random_position(&colour, 1, 1), &colour).is_none());
}

#[test]
fn level_5_plays_the_book_s_moves() {
    for rules in PRESETS {
        let b = book(&rules);
        let mut entries: Vec<_> = b.entries().collect();
        entries.sort_by_key(|(p, _)| p.to_string());
        for (pos, e) in entries.iter().step_by(97) {
            let go = Go {
                position: **pos,
                remaining: pos.remaining(),
                last: None,
                time: None,
                optime: None,
                movetime: 1000,
            };
            let mut rng = ChaCha8Rng::seed_from_u64(1);
            let mv = Strategy::Solver(10_000).choose_within(
                &go,
                &rules,
                &mut rng,
                Limit::Nodes(1),
                &mut None,
            );
            assert_eq!(mv, e.mv, "{rules} {pos}");
        }
    }
}
