//! Properties every variant must satisfy, checked on random games under random rules.

use proptest::prelude::*;
use quads_rules::{
    perft, perft_by_moves, Claim, Move, Piece, Position, Reason, Rules, Square, Then, TraitSet,
};

fn any_rules() -> impl Strategy<Value = Rules> {
    (any::<bool>(), 1u8..16, any::<bool>()).prop_map(|(squares, traits, announce)| Rules {
        squares,
        traits: TraitSet::from_mask(traits),
        claim: if announce {
            Claim::Announce
        } else {
            Claim::Auto
        },
    })
}

/// Plays a game by picking, at each turn, the legal move `choices[i] % count`; returns every
/// position from the start to the end (or as far as the choices go).
fn play_out(rules: &Rules, choices: &[u16]) -> Vec<Position> {
    let mut positions = vec![Position::START];
    for &choice in choices {
        let pos = *positions.last().unwrap();
        let moves = pos.legal_moves(rules);
        if moves.is_empty() {
            break;
        }
        let mv = moves[usize::from(choice) % moves.len()];
        positions.push(pos.play(mv, rules).expect("generated moves are legal"));
    }
    positions
}

/// Every move that could be written down in a position: gives, placements with each ending,
/// and the claim.
fn every_candidate(pos: &Position) -> Vec<Move> {
    let mut all = vec![Move::Claim];
    all.extend(Piece::ALL.map(Move::Give));
    for to in Square::ALL {
        all.push(Move::Place {
            to,
            then: Then::Nothing,
        });
        all.push(Move::Place {
            to,
            then: Then::Quarto,
        });
        all.extend(Piece::ALL.map(|p| Move::Place {
            to,
            then: Then::Give(p),
        }));
    }
    let _ = pos;
    all
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn games_end_within_sixteen_placements(rules in any_rules(), choices in prop::collection::vec(any::<u16>(), 40)) {
        let positions = play_out(&rules, &choices);
        let last = positions.last().unwrap();
        // 16 placements, the opening give, and at most one late claim.
        prop_assert!(positions.len() <= 19, "{} positions", positions.len());
        prop_assert!(last.outcome(&rules).is_some(), "not over after {} moves: {last}", positions.len() - 1);
        prop_assert!(positions.iter().all(|p| p.placed() <= 16));
        prop_assert!(last.legal_moves(&rules).is_empty());
        for mv in every_candidate(last) {
            let err = last.play(mv, &rules).unwrap_err();
            prop_assert_eq!(err.reason, Reason::GameOver);
            prop_assert_eq!(err.position, *last);
        }
    }

    #[test]
    fn positions_round_trip_through_notation(rules in any_rules(), choices in prop::collection::vec(any::<u16>(), 40)) {
        for pos in play_out(&rules, &choices) {
            let text = pos.to_string();
            prop_assert_eq!(text.parse::<Position>().unwrap(), pos, "{}", text);
            prop_assert_eq!(text.to_lowercase().parse::<Position>().unwrap(), pos);
            prop_assert!(pos.check(&rules).is_ok(), "{} under {}: {:?}", text, rules, pos.check(&rules));
        }
    }

    #[test]
    fn a_move_is_legal_exactly_when_it_is_generated(rules in any_rules(), choices in prop::collection::vec(any::<u16>(), 0..18)) {
        let pos = *play_out(&rules, &choices).last().unwrap();
        let legal = pos.legal_moves(&rules);
        for mv in every_candidate(&pos) {
            match pos.play(mv, &rules) {
                Ok(_) => prop_assert!(legal.contains(&mv), "{mv} accepted but not generated in {pos}"),
                Err(e) => {
                    prop_assert!(!legal.contains(&mv), "{mv} generated but refused in {pos}: {}", e.reason);
                    prop_assert_eq!(e.position, pos);
                    prop_assert_eq!(e.mv, mv);
                }
            }
        }
        let mut unique = legal.clone();
        unique.sort_by_key(|m| m.to_string());
        unique.dedup();
        prop_assert_eq!(unique.len(), legal.len(), "duplicate moves in {}", pos);
    }

    #[test]
    fn moves_round_trip_through_their_text(rules in any_rules(), choices in prop::collection::vec(any::<u16>(), 0..18)) {
        let pos = *play_out(&rules, &choices).last().unwrap();
        for mv in pos.legal_moves(&rules) {
            prop_assert_eq!(mv.to_string().parse::<Move>().unwrap(), mv);
        }
    }

    #[test]
    fn threats_agree_with_placing_each_piece(rules in any_rules(), choices in prop::collection::vec(any::<u16>(), 0..18)) {
        let pos = *play_out(&rules, &choices).last().unwrap();
        let board = pos.board();
        let threats = board.threats(&rules);
        for p in board.pieces().complement().iter() {
            let wins = threats.winning_squares(p);
            for sq in board.empty().iter() {
                prop_assert_eq!(wins.contains(sq), board.completes(sq, p, &rules), "{} on {} in {}", p, sq, pos);
            }
            prop_assert_eq!(threats.winning_pieces().contains(p), !wins.is_empty());
        }
    }

    #[test]
    fn fast_perft_agrees_with_move_lists(squares in any::<bool>(), traits in 1u8..16, choices in prop::collection::vec(any::<u16>(), 3..16)) {
        let rules = Rules { squares, traits: TraitSet::from_mask(traits), claim: Claim::Auto };
        let pos = *play_out(&rules, &choices).last().unwrap();
        for depth in 0..=2 {
            prop_assert_eq!(perft(&pos, &rules, depth).unwrap(), perft_by_moves(&pos, &rules, depth), "{} depth {}", pos, depth);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// The parsers see text from bots and users: whatever it is, they answer, never panic,
    /// and what they accept prints back to something they accept the same way.
    #[test]
    fn parsers_never_panic(text in "\\PC{0,40}", notation in "[.BSDLRQFHbsdlrqfh/ A-D1-4é-]{0,60}") {
        for s in [&text, &notation] {
            if let Ok(p) = s.parse::<Position>() {
                prop_assert_eq!(p.to_string().parse::<Position>().unwrap(), p);
            }
            if let Ok(m) = s.parse::<Move>() {
                prop_assert_eq!(m.to_string().parse::<Move>().unwrap(), m);
            }
            if let Ok(r) = s.parse::<Rules>() {
                prop_assert_eq!(r.to_string().parse::<Rules>().unwrap(), r);
            }
            let _ = s.parse::<Piece>();
            let _ = s.parse::<Square>();
        }
    }
}
