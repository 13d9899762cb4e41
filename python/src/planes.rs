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

/// Byte `k` of `BYTE_BITS[n]` is bit `k` of `n`: eight planes (or actions) in one store.
pub const BYTE_BITS: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut n = 0;
    while n < 256 {
        let mut k = 0;
        while k < 8 {
            table[n][k] = ((n >> k) & 1) as u8;
            k += 1;
        }
        n += 1;
    }
    table
};

/// The same bytes as [`write`], square by square from bit masks (the batched environment's
/// inner loop; `python/tests/test_vector.py` checks that the two agree).
/// `live` says whether the game goes on (the caller knows it).
pub fn write_fast(
    pos: &Position,
    pending: Option<Square>,
    live: bool,
    rules: &Rules,
    out: &mut [u8],
) {
    debug_assert_eq!(out.len(), BYTES);
    let board = pos.board();
    let hand = pos.hand();
    let placing = pending.is_none() && hand.is_some();
    // The planes that are the same on every square.
    let mut common: u32 = u32::from(rules.squares) << 15 | u32::from(rules.traits.mask()) << 16;
    if let (true, Some(p)) = (placing, hand) {
        common |= u32::from(p.bits()) << 9 | 1 << 13;
    }
    let givable = if !placing && live {
        pos.remaining().0
    } else {
        0
    };
    let mut occupied = board.occupied().0;
    let mut traits = [0u16; 4];
    for (t, bits) in traits.iter_mut().enumerate() {
        *bits = board.trait_squares(t).0;
    }
    if let (Some(sq), Some(p)) = (pending, hand) {
        let bit = 1u16 << sq.index();
        occupied |= bit;
        for (t, bits) in traits.iter_mut().enumerate() {
            if p.bits() & (1 << t) != 0 {
                *bits |= bit;
            }
        }
    }
    let pending_bit = pending.map_or(0, |sq| 1u16 << sq.index());
    for (sq, cell) in out.chunks_exact_mut(PLANES).enumerate() {
        let mut word = common;
        let b = 1u16 << sq;
        if occupied & b != 0 {
            let set = (0..4).fold(0u32, |acc, t| acc | u32::from(traits[t] & b != 0) << t);
            word |= set | (!set & 0xf) << 4;
        }
        word |= u32::from(pending_bit & b != 0) << 8 | u32::from(givable & b != 0) << 14;
        cell[0..8].copy_from_slice(&BYTE_BITS[(word & 0xff) as usize]);
        cell[8..16].copy_from_slice(&BYTE_BITS[((word >> 8) & 0xff) as usize]);
        cell[16..20].copy_from_slice(&BYTE_BITS[((word >> 16) & 0xf) as usize][..4]);
    }
}
