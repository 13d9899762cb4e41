//! The observation planes: a state as 20 planes of 4×4 bytes (0 or 1), laid out height ×
//! width × plane (`(4, 4, 20)`, row 1 first, column A first), for a network.
//!
//! | planes | what is 1 |
//! |---|---|
//! | 0–3 | squares holding a piece with trait bit t set (t: size, colour, shape, fill) |
//! | 4–7 | squares holding a piece with trait bit t clear |
//! | 8 | the square of a pending placement (its piece is already in planes 0–7) |
//! | 9–12 | everywhere, when the piece to place has trait bit t set |
//! | 13 | everywhere, when the next action places (a piece is in hand, none pending) |
//! | 14 | the square whose index is a piece that can be given now (piece i at square i); none once the game is over |
//! | 15 | everywhere, when 2×2 squares win (Quads) |
//! | 16–19 | everywhere, when trait t counts in this variant |

use quads_rules::{Board, Piece, Position, Rules, Square};

/// Planes per square.
pub const PLANES: usize = 20;
/// The bytes of one observation.
pub const BYTES: usize = 16 * PLANES;

/// Writes the observation of (`pos`, a pending placement on `pending`) into `out`.
pub fn write(pos: &Position, pending: Option<Square>, rules: &Rules, out: &mut [u8]) {
    debug_assert_eq!(out.len(), BYTES);
    out.fill(0);
    let mut board: Board = *pos.board();
    let hand = pos.hand();
    if let (Some(sq), Some(p)) = (pending, hand) {
        board.place(sq, p);
    }
    let mut set = |sq: usize, plane: usize| out[sq * PLANES + plane] = 1;
    for sq in Square::ALL {
        if let Some(p) = board.piece_at(sq) {
            for t in 0..4 {
                let on = p.bits() & (1 << t) != 0;
                set(sq.index(), if on { t } else { 4 + t });
            }
        }
    }
    if let Some(sq) = pending {
        set(sq.index(), 8);
    }
    let live = pos.outcome(rules).is_none();
    let placing = pending.is_none() && hand.is_some();
    let remaining = pos.remaining();
    for sq in 0..16 {
        if let Some(p) = hand.filter(|_| placing) {
            for t in 0..4 {
                if p.bits() & (1 << t) != 0 {
                    set(sq, 9 + t);
                }
            }
            set(sq, 13);
        }
        let piece = Piece::new(sq as u8).expect("16 pieces");
        if live && !placing && remaining.contains(piece) {
            set(sq, 14);
        }
        if rules.squares {
            set(sq, 15);
        }
        for t in 0..4 {
            if rules.traits.mask() & (1 << t) != 0 {
                set(sq, 16 + t);
            }
        }
    }
}
