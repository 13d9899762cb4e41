//! The benchmark's positions: random but seeded, so that `quads solve-bench`, the bench
//! binary and the tests solve the same positions on every run.

use quads_rules::{Piece, Position, Rules, Square};

/// A random position with `placed` pieces on the board, none of them completing a winning
/// shape, and a piece in hand that wins nowhere: the test positions of the solver's
/// benchmark (`quads solve-bench`). The same seed gives the same position.
pub fn random_position(rules: &Rules, placed: u32, seed: u64) -> Position {
    use rand_chacha::rand_core::{RngCore, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let placed = placed.min(15) as usize;
    loop {
        let mut squares: Vec<Square> = Square::ALL.to_vec();
        let mut pieces: Vec<Piece> = Piece::ALL.to_vec();
        crate::search::shuffle(&mut squares, rng.next_u64());
        crate::search::shuffle(&mut pieces, rng.next_u64());
        let mut board = quads_rules::Board::EMPTY;
        for (sq, p) in squares.iter().zip(&pieces).take(placed) {
            board.place(*sq, *p);
        }
        let hand = pieces[placed];
        let pos = Position::from_parts(board, Some(hand), quads_rules::ClaimState::None);
        if !board.has_win(rules) && board.threats(rules).winning_squares(hand).is_empty() {
            return pos;
        }
    }
}
