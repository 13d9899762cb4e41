//! The board as bitboards, and the two questions every search asks of it: does this placement
//! win, and which pieces would win where?
//!
//! A board is five `u16`s: which squares are occupied, and for each trait which squares hold a
//! piece with the trait's second value (small, light, square, hollow). Four pieces on a shape
//! share a trait exactly when that trait's bitboard covers all of the shape or none of it.
//!
//! A shape with three pieces on it is a *threat*: the three agree on some traits, and any piece
//! that agrees on one of those (counting traits only) wins on the open square. [`Threats`]
//! lists them once per board, so that "which squares win for this piece?" and "which pieces are
//! safe to give?" cost a few instructions for every piece afterwards.

use crate::piece::{Piece, PieceSet, Trait};
use crate::rules::Rules;
use crate::square::{Bitboard, Square};

/// Pieces on squares, as bitboards.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Board {
    occupied: u16,
    /// `traits[i]`: squares holding a piece whose trait bit `i` is set.
    traits: [u16; 4],
    /// The pieces on the board.
    pieces: u16,
}

/// `WIN_PIECES[key]`: the pieces that agree with three pieces on a trait, where bit `i` of
/// `key` says "all three have trait bit `i` set" and bit `4 + i` "all three have it clear".
const WIN_PIECES: [PieceSet; 256] = {
    let mut table = [PieceSet(0); 256];
    let mut key = 0;
    while key < 256 {
        let mut set = 0u16;
        let mut i = 0;
        while i < 4 {
            let t = Trait::ALL[i];
            if key & (1 << i) != 0 {
                set |= PieceSet::with_trait(t, true).0;
            }
            if key & (1 << (4 + i)) != 0 {
                set |= PieceSet::with_trait(t, false).0;
            }
            i += 1;
        }
        table[key] = PieceSet(set);
        key += 1;
    }
    table
};

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board {
        occupied: 0,
        traits: [0; 4],
        pieces: 0,
    };

    /// The occupied squares.
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.occupied)
    }

    /// The empty squares.
    pub const fn empty(&self) -> Bitboard {
        Bitboard(!self.occupied)
    }

    /// The pieces on the board.
    pub const fn pieces(&self) -> PieceSet {
        PieceSet(self.pieces)
    }

    /// The squares holding a piece with trait bit `i` set (small, light, square, hollow for
    /// i = 0..4).
    pub const fn trait_squares(&self, i: usize) -> Bitboard {
        Bitboard(self.traits[i])
    }

    /// Whether all 16 squares are filled.
    pub const fn is_full(&self) -> bool {
        self.occupied == 0xffff
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        if !self.occupied().contains(sq) {
            return None;
        }
        let bits = (0..4).fold(0u8, |acc, i| {
            acc | (u8::from(self.traits[i] & sq.bb().0 != 0) << i)
        });
        Piece::new(bits)
    }

    /// Puts `p` on `sq`. The caller makes sure the square is empty and the piece unused.
    #[inline]
    pub fn place(&mut self, sq: Square, p: Piece) {
        debug_assert!(!self.occupied().contains(sq) && !self.pieces().contains(p));
        let bit = sq.bb().0;
        self.occupied |= bit;
        self.pieces |= 1 << p.index();
        for (i, t) in self.traits.iter_mut().enumerate() {
            if p.bits() & (1 << i) != 0 {
                *t |= bit;
            }
        }
    }

    /// Bits 0–3: the traits whose second value every square of `squares` holds; bits 4–7:
    /// those whose first value every square holds. `squares` must be occupied.
    #[inline(always)]
    fn agreement(&self, squares: u16) -> u8 {
        let mut key = 0;
        for i in 0..4 {
            let b = self.traits[i] & squares;
            key |= (u8::from(b == squares) << i) | (u8::from(b == 0) << (i + 4));
        }
        key
    }

    /// Whether a filled shape of these rules shares a counting trait: a completed win.
    pub fn has_win(&self, rules: &Rules) -> bool {
        let keep = key_mask(rules);
        rules
            .shapes()
            .iter()
            .any(|s| self.occupied & s.0 == s.0 && self.agreement(s.0) & keep != 0)
    }

    /// Every filled shape of these rules whose pieces share a counting trait, in the order of
    /// [`Rules::shapes`]: the shapes to show as won.
    pub fn winning_shapes(&self, rules: &Rules) -> Vec<Bitboard> {
        let keep = key_mask(rules);
        rules
            .shapes()
            .iter()
            .copied()
            .filter(|s| self.occupied & s.0 == s.0 && self.agreement(s.0) & keep != 0)
            .collect()
    }

    /// Whether putting `p` on the empty square `sq` completes a winning shape.
    pub fn completes(&self, sq: Square, p: Piece, rules: &Rules) -> bool {
        let mut after = *self;
        after.place(sq, p);
        let keep = key_mask(rules);
        rules.shapes().iter().any(|s| {
            s.0 & sq.bb().0 != 0 && after.occupied & s.0 == s.0 && after.agreement(s.0) & keep != 0
        })
    }

    /// Every shape with exactly three pieces that agree on a counting trait.
    #[inline]
    pub fn threats(&self, rules: &Rules) -> Threats {
        let keep = key_mask(rules);
        let mut threats = Threats::default();
        for shape in rules.shapes() {
            let on = shape.0 & self.occupied;
            if on.count_ones() != 3 {
                continue;
            }
            let key = self.agreement(on) & keep;
            if key != 0 {
                threats.items[threats.len as usize] =
                    (shape.0 & !self.occupied, WIN_PIECES[key as usize].0);
                threats.len += 1;
            }
        }
        threats
    }
}

/// The agreement bits that count under `rules`.
#[inline(always)]
fn key_mask(rules: &Rules) -> u8 {
    let t = rules.traits.mask();
    t | (t << 4)
}

/// The open square and winning pieces of every three-piece shape on a board
/// (see [`Board::threats`]).
#[derive(Copy, Clone, Debug, Default)]
pub struct Threats {
    len: u8,
    /// (open square as a one-bit mask, pieces that win there)
    items: [(u16, u16); 19],
}

impl Threats {
    /// The empty squares where `p` completes a winning shape.
    #[inline]
    pub fn winning_squares(&self, p: Piece) -> Bitboard {
        let bit = 1u16 << p.index();
        let mut squares = 0;
        for &(square, pieces) in &self.items[..self.len as usize] {
            if pieces & bit != 0 {
                squares |= square;
            }
        }
        Bitboard(squares)
    }

    /// The pieces that win somewhere on this board: never give one if you can help it.
    pub fn winning_pieces(&self) -> PieceSet {
        PieceSet(
            self.items[..self.len as usize]
                .iter()
                .fold(0, |acc, &(_, p)| acc | p),
        )
    }

    /// The number of three-piece shapes that threaten a win.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether no shape threatens a win.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(placements: &[(&str, &str)]) -> Board {
        let mut b = Board::EMPTY;
        for (sq, p) in placements {
            b.place(sq.parse().unwrap(), p.parse().unwrap());
        }
        b
    }

    #[test]
    fn pieces_read_back_from_the_bitboards() {
        let b = board(&[("A1", "BDRF"), ("D4", "SLQH"), ("B3", "SDQF")]);
        assert_eq!(
            b.piece_at("B3".parse().unwrap()),
            Some("SDQF".parse().unwrap())
        );
        assert_eq!(
            b.piece_at("D4".parse().unwrap()),
            Some("SLQH".parse().unwrap())
        );
        assert_eq!(b.piece_at("C3".parse().unwrap()), None);
        assert_eq!(b.pieces().len(), 3);
    }

    #[test]
    fn the_winning_shapes_are_the_filled_ones_that_share_a_counting_trait() {
        // Row 1 all big; the 2x2 block A1 B1 A2 B2 all dark.
        let b = board(&[
            ("A1", "BDRF"),
            ("B1", "BDQH"),
            ("C1", "BLRF"),
            ("D1", "BLQH"),
            ("A2", "SDRH"),
            ("B2", "SDQF"),
        ]);
        let row1 = Bitboard(0x000f);
        let block = Bitboard(0x0033);
        assert_eq!(b.winning_shapes(&Rules::CLASSIC), vec![row1]);
        assert_eq!(b.winning_shapes(&Rules::QUADS), vec![row1, block]);
        let colour: Rules = "quads,traits=color".parse().unwrap();
        assert_eq!(b.winning_shapes(&colour), vec![block]);
        assert_eq!(
            Board::EMPTY.winning_shapes(&Rules::QUADS),
            Vec::<Bitboard>::new()
        );
    }

    #[test]
    fn three_big_pieces_in_a_row_threaten_every_big_piece() {
        let b = board(&[("A1", "BDRF"), ("B1", "BLQH"), ("C1", "BLRF")]);
        let t = b.threats(&Rules::CLASSIC);
        assert_eq!(t.len(), 1);
        assert_eq!(t.winning_pieces(), PieceSet::with_trait(Trait::Size, false));
        let d1: Square = "D1".parse().unwrap();
        assert_eq!(t.winning_squares("BDQH".parse().unwrap()), d1.bb());
        assert!(t.winning_squares("SDQH".parse().unwrap()).is_empty());
        assert!(b.completes(d1, "BDQH".parse().unwrap(), &Rules::CLASSIC));
        assert!(!b.completes(d1, "SDQH".parse().unwrap(), &Rules::CLASSIC));
        // With only colour counting, the row has no common trait left.
        let colour: Rules = "classic,traits=color".parse().unwrap();
        assert!(b.threats(&colour).is_empty());
    }
}
