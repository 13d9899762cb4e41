//! The checker's positions, each with the edge case its scenario needs, found by a seeded
//! search: the same rules always give the same position. A board is filled piece by piece
//! without ever completing a winning shape (under every trait and both kinds of shape), then
//! kept if it has the property asked for.

use quads_rules::{Board, ClaimState, Piece, Position, Rules, Square, TraitSet};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The seed of every search.
const SEED: u64 = 20261201;
/// Boards tried before a search gives up.
const TRIES: u32 = 20_000;

/// The strictest rules: every shape, every trait. A board with no win under these has none
/// under any variant.
const STRICTEST: Rules = Rules::QUADS;

/// A position with nothing won, `placed` pieces on the board and one in hand, that has
/// `property`; `None` if the search finds none.
fn search(placed: &[usize], property: impl Fn(&Position) -> bool) -> Option<Position> {
    placed.iter().find_map(|&placed| {
        let mut rng = ChaCha8Rng::seed_from_u64(SEED + placed as u64);
        (0..TRIES).find_map(|_| {
            let (board, hand) = quiet_board(&mut rng, placed)?;
            let pos = Position::from_parts(board, Some(hand), ClaimState::None);
            property(&pos).then_some(pos)
        })
    })
}

/// A board of `placed` pieces with no winning shape, and a piece left for the hand.
fn quiet_board(rng: &mut ChaCha8Rng, placed: usize) -> Option<(Board, Piece)> {
    let mut pieces = Piece::ALL;
    shuffle(rng, &mut pieces);
    let mut board = Board::EMPTY;
    for &piece in &pieces[..placed] {
        let mut squares: Vec<Square> = board.empty().iter().collect();
        shuffle(rng, &mut squares);
        let sq = squares
            .into_iter()
            .find(|&sq| !board.completes(sq, piece, &STRICTEST))?;
        board.place(sq, piece);
    }
    pieces.get(placed).map(|&hand| (board, hand))
}

fn shuffle<T>(rng: &mut ChaCha8Rng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

/// Whether the piece in hand wins on every empty square under `rules`.
fn wins_everywhere(pos: &Position, rules: &Rules) -> bool {
    let hand = pos.hand().expect("a piece in hand");
    pos.board()
        .empty()
        .iter()
        .all(|sq| pos.board().completes(sq, hand, rules))
}

/// Whether the piece in hand wins nowhere under `rules`.
fn wins_nowhere(pos: &Position, rules: &Rules) -> bool {
    let hand = pos.hand().expect("a piece in hand");
    !pos.board()
        .empty()
        .iter()
        .any(|sq| pos.board().completes(sq, hand, rules))
}

/// Three empty squares, and the piece in hand wins on each of them: whatever square the bot
/// picks, the placement ends the game (under `claim=announce`, if announced).
pub fn wins_on_every_square(rules: &Rules) -> Option<Position> {
    search(&[13, 14], |pos| wins_everywhere(pos, rules))
}

/// One empty square, where the piece in hand wins nothing: the placement fills the board and
/// gives nothing.
pub fn last_square(rules: &Rules) -> Option<Position> {
    search(&[15], |pos| wins_nowhere(pos, rules))
}

/// The piece in hand wins nowhere, and every give, after every placement, hands the opponent
/// a win at once: the bot must still give one.
pub fn every_give_loses(rules: &Rules) -> Option<Position> {
    search(&[11, 12, 13], |pos| {
        wins_nowhere(pos, rules)
            && pos.legal_moves(rules).into_iter().all(|mv| {
                let next = pos.play(mv, rules).expect("a legal move");
                !wins_nowhere(&next, rules)
            })
    })
}

/// The opponent completed a winning shape and did not announce it: `claimable`. The piece in
/// hand wins nowhere, so claiming is the only win.
pub fn overlooked_win(rules: &Rules) -> Option<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    (0..TRIES).find_map(|_| {
        let (mut board, hand) = quiet_board(&mut rng, 11)?;
        let completing = board.empty().iter().find_map(|sq| {
            Piece::ALL
                .into_iter()
                .filter(|&p| !board.pieces().contains(p) && p != hand)
                .find(|&p| board.completes(sq, p, rules))
                .map(|p| (sq, p))
        })?;
        board.place(completing.0, completing.1);
        let pos = Position::from_parts(board, Some(hand), ClaimState::Claimable);
        (pos.check(rules).is_ok() && wins_nowhere(&pos, rules)).then_some(pos)
    })
}

/// A winning shape lies on the board, overlooked by both players (it never counts again), and
/// the piece in hand wins nowhere: any claim is false.
pub fn passed_over_win(rules: &Rules) -> Option<Position> {
    overlooked_win(rules)
        .map(|pos| Position::from_parts(*pos.board(), pos.hand(), ClaimState::None))
}

/// The piece in hand completes a 2×2 block on every empty square and no row, column or
/// diagonal: it wins everywhere in Quads and nowhere in classic Quarto.
pub fn blocks_only() -> Option<Position> {
    search(&[13, 14], |pos| {
        wins_everywhere(pos, &Rules::QUADS) && wins_nowhere(pos, &Rules::CLASSIC)
    })
}

/// The rules with only `traits` counting (classic shapes, automatic wins).
pub fn classic_with(traits: TraitSet) -> Rules {
    Rules {
        traits,
        ..Rules::CLASSIC
    }
}

/// The piece in hand wins on every empty square by the trait `t` alone: everywhere when only
/// `t` counts, nowhere when every trait but `t` counts.
pub fn by_one_trait(t: quads_rules::Trait) -> Option<Position> {
    let only = classic_with(TraitSet::EMPTY.with(t));
    let others = classic_with(TraitSet::from_mask(TraitSet::ALL.mask() & !t.bit()));
    search(&[13, 14], |pos| {
        wins_everywhere(pos, &only) && wins_nowhere(pos, &others)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use quads_rules::{Claim, Trait};

    fn all_rules() -> Vec<Rules> {
        let mut out = Vec::new();
        for squares in [true, false] {
            for mask in 1..16 {
                for claim in [Claim::Auto, Claim::Announce] {
                    out.push(Rules {
                        squares,
                        traits: TraitSet::from_mask(mask),
                        claim,
                    });
                }
            }
        }
        out
    }

    #[test]
    fn every_variant_has_every_position_and_each_has_its_property() {
        for rules in all_rules() {
            let r = &rules;
            let wins = wins_on_every_square(r).unwrap_or_else(|| panic!("wins, {r}"));
            assert!(wins.board().empty().len() >= 2, "{r}");
            assert!(wins.check(r).is_ok() && wins_everywhere(&wins, r), "{r}");
            let last = last_square(r).unwrap_or_else(|| panic!("last, {r}"));
            assert_eq!(last.board().empty().len(), 1);
            assert!(last.check(r).is_ok() && wins_nowhere(&last, r), "{r}");
            let lose = every_give_loses(r).unwrap_or_else(|| panic!("lose, {r}"));
            assert!(lose.check(r).is_ok() && wins_nowhere(&lose, r), "{r}");
            for mv in lose.legal_moves(r) {
                assert!(!wins_nowhere(&lose.play(mv, r).unwrap(), r), "{r} {mv}");
            }
            if r.claim == Claim::Announce {
                let over = overlooked_win(r).unwrap_or_else(|| panic!("claimable, {r}"));
                assert_eq!(over.claim_state(), ClaimState::Claimable);
                assert!(over.check(r).is_ok() && over.board().has_win(r), "{r}");
                let passed = passed_over_win(r).unwrap();
                assert!(passed.check(r).is_ok() && wins_nowhere(&passed, r), "{r}");
                assert!(!passed.legal_moves(r).contains(&quads_rules::Move::Claim));
            }
        }
    }

    #[test]
    fn the_variant_positions_separate_the_variants() {
        let blocks = blocks_only().unwrap();
        assert!(wins_everywhere(&blocks, &Rules::QUADS));
        assert!(wins_nowhere(&blocks, &Rules::CLASSIC));
        for t in Trait::ALL {
            let pos = by_one_trait(t).unwrap_or_else(|| panic!("{t:?}"));
            assert!(wins_everywhere(
                &pos,
                &classic_with(TraitSet::EMPTY.with(t))
            ));
            for other in Trait::ALL.into_iter().filter(|&o| o != t) {
                assert!(wins_nowhere(
                    &pos,
                    &classic_with(TraitSet::EMPTY.with(other))
                ));
            }
        }
    }

    #[test]
    fn the_search_is_seeded() {
        assert_eq!(
            wins_on_every_square(&Rules::QUADS),
            wins_on_every_square(&Rules::QUADS)
        );
        assert_eq!(
            wins_on_every_square(&Rules::QUADS).unwrap().to_string(),
            "BDRF.BDRHBLRF/BDQHSLQHSLRH./BLQF.SDQHBLRH/SLQFBDQFSLRFBLQH SDRF"
        );
    }
}
