//! Perft: the number of move sequences of a given length, the standard check of a move
//! generator and the standard measure of its speed.
//!
//! [`perft`] is the fast count. It never builds a move list: it walks the tree on bitboards
//! and counts the last ply in bulk. A position with `e` empty squares, `r` pieces left to give
//! and a piece in hand that wins on `w` squares has `w + (e - w) * r` moves (a winning
//! placement gives nothing), or `e` moves when nothing is left to give. The threats of a board
//! are listed once per placement and shared by all the gives that follow it, so each position
//! one ply above the leaves costs one pass over those few threats. There is no caching of
//! positions and no symmetry reduction: every position is visited.
//!
//! [`perft_by_moves`] counts the slow, obvious way, through [`Position::legal_moves`] and
//! [`Position::play`]. It exists to check [`perft`] and the move generator against each other.

use std::fmt;

use crate::board::Board;
use crate::piece::Piece;
use crate::position::Position;
use crate::rules::{Claim, Rules};

/// Why perft was not counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PerftError {
    /// Under `claim=announce` a completed shape may be given past, claimed late or overlooked,
    /// so move sequences are not a count of game continuations; perft is defined only for
    /// automatic claims.
    Announce,
}

impl fmt::Display for PerftError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PerftError::Announce => f.write_str(
                "perft is not defined under claim=announce (claims and overlooked wins are not a \
                 fixed move tree); use claim=auto",
            ),
        }
    }
}

impl std::error::Error for PerftError {}

/// The number of move sequences of exactly `depth` moves from `pos`. A game that ends sooner
/// contributes nothing at greater depths; depth 0 counts 1.
pub fn perft(pos: &Position, rules: &Rules, depth: u32) -> Result<u64, PerftError> {
    if rules.claim == Claim::Announce {
        return Err(PerftError::Announce);
    }
    if depth == 0 {
        return Ok(1);
    }
    if pos.outcome(rules).is_some() {
        return Ok(0);
    }
    Ok(count(
        pos.board(),
        pos.hand(),
        pos.remaining().0,
        depth,
        rules,
    ))
}

/// Moves from a position with `empty` squares, a hand piece winning on `wins` of them and
/// `remaining` pieces to give afterwards.
#[inline(always)]
fn leaf_moves(empty: u32, wins: u32, remaining: u32) -> u64 {
    if remaining == 0 {
        u64::from(empty)
    } else {
        u64::from(wins + (empty - wins) * remaining)
    }
}

fn count(board: &Board, hand: Option<Piece>, remaining: u16, depth: u32, rules: &Rules) -> u64 {
    let Some(hand) = hand else {
        // The opening give.
        if depth == 1 {
            return u64::from(remaining.count_ones());
        }
        return pieces(remaining)
            .map(|p| {
                count(
                    board,
                    Some(p),
                    remaining & !(1 << p.index()),
                    depth - 1,
                    rules,
                )
            })
            .sum();
    };
    let empty = board.empty();
    let wins = board.threats(rules).winning_squares(hand);
    let left = remaining.count_ones();
    if depth == 1 {
        return leaf_moves(empty.len(), wins.len(), left);
    }
    if left == 0 {
        // Every placement fills the board and ends the game.
        return 0;
    }
    let mut total = 0;
    // Winning placements end the game, so only the others lead anywhere.
    for sq in (empty.0 & !wins.0).iter_bits() {
        let mut next = *board;
        next.place(sq, hand);
        if depth == 2 {
            let threats = next.threats(rules);
            let empty_after = empty.len() - 1;
            for p in pieces(remaining) {
                total += leaf_moves(empty_after, threats.winning_squares(p).len(), left - 1);
            }
        } else {
            for p in pieces(remaining) {
                total += count(
                    &next,
                    Some(p),
                    remaining & !(1 << p.index()),
                    depth - 1,
                    rules,
                );
            }
        }
    }
    total
}

fn pieces(mask: u16) -> impl Iterator<Item = Piece> {
    crate::piece::PieceSet(mask).iter()
}

trait IterBits {
    fn iter_bits(self) -> impl Iterator<Item = crate::square::Square>;
}

impl IterBits for u16 {
    fn iter_bits(self) -> impl Iterator<Item = crate::square::Square> {
        crate::square::Bitboard(self).iter()
    }
}

/// The same count as [`perft`], made the slow way: generate every legal move, play it,
/// recurse. Under `claim=announce` it counts move sequences as [`Position::legal_moves`]
/// defines them.
pub fn perft_by_moves(pos: &Position, rules: &Rules, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves(rules);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|mv| {
            let next = pos.play(mv, rules).expect("generated moves are legal");
            perft_by_moves(&next, rules, depth - 1)
        })
        .sum()
}
