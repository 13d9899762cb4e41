//! Squares of the 4×4 board and sets of squares (bitboards).
//!
//! Win detection asks the same question of every winning shape: are its four squares filled,
//! and do the pieces on them agree on a trait? With one bit per square both halves are a mask
//! and a compare, so the board is kept as a handful of `u16`s.

use std::fmt;
use std::str::FromStr;

/// A square, `A1` to `D4`: a column letter A–D (A on the left) then a row number 1–4
/// (row 1 at the bottom when printed).
///
/// The square's index is `4 * (row - 1) + column`, so `A1` is 0, `D1` is 3 and `D4` is 15.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// All 16 squares, in index order (A1, B1, C1, D1, A2, …, D4).
    pub const ALL: [Square; 16] = {
        let mut all = [Square(0); 16];
        let mut i = 0;
        while i < 16 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square with this index (0..16).
    pub const fn new(index: u8) -> Option<Square> {
        if index < 16 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square in column `col` (0 = A) and row `row` (0 = row 1).
    pub const fn at(col: u8, row: u8) -> Option<Square> {
        if col < 4 && row < 4 {
            Some(Square(row * 4 + col))
        } else {
            None
        }
    }

    /// The index, 0..16.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The column, 0 (A) to 3 (D).
    pub const fn col(self) -> u8 {
        self.0 % 4
    }

    /// The row, 0 (row 1) to 3 (row 4).
    pub const fn row(self) -> u8 {
        self.0 / 4
    }

    /// The one-square bitboard.
    pub const fn bb(self) -> Bitboard {
        Bitboard(1 << self.0)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = [b'A' + self.col(), b'1' + self.row()];
        f.write_str(std::str::from_utf8(&text).expect("a square's name is ASCII"))
    }
}

/// Why a square did not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError(pub String);

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid square `{}` (expected A1 to D4)", self.0)
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match s.as_bytes() {
            [c, r] => {
                let col = c.to_ascii_uppercase().wrapping_sub(b'A');
                let row = r.wrapping_sub(b'1');
                Square::at(col, row).ok_or_else(|| ParseSquareError(s.to_owned()))
            }
            _ => Err(ParseSquareError(s.to_owned())),
        }
    }
}

/// The positions of the set bits of `mask`, lowest first: the one loop behind iterating
/// squares and pieces.
pub(crate) fn set_bits(mask: u16) -> impl Iterator<Item = u8> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        if rest == 0 {
            return None;
        }
        let i = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        Some(i)
    })
}

/// A set of squares: bit `i` stands for the square with index `i`.
///
/// Printed as the board is, row 4 at the top:
///
/// ```text
///   row 4 | 12 13 14 15      A B C D
///   row 3 |  8  9 10 11
///   row 2 |  4  5  6  7      e.g. row 1 = 0x000f, column A = 0x1111,
///   row 1 |  0  1  2  3           the A1–D4 diagonal = 0x8421
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u16);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 16 squares.
    pub const FULL: Bitboard = Bitboard(0xffff);

    /// Whether `sq` is in the set.
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.0) != 0
    }

    /// The number of squares in the set.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The squares in the set, in index order.
    pub fn iter(self) -> impl Iterator<Item = Square> {
        set_bits(self.0).map(Square)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip_and_match_the_diagram() {
        for sq in Square::ALL {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(sq.to_string().to_lowercase().parse::<Square>(), Ok(sq));
        }
        assert_eq!("A1".parse::<Square>().unwrap().index(), 0);
        assert_eq!("D1".parse::<Square>().unwrap().index(), 3);
        assert_eq!("a4".parse::<Square>().unwrap().index(), 12);
        assert_eq!("D4".parse::<Square>().unwrap().index(), 15);
        for bad in ["", "A", "A0", "E1", "A5", "1A", "A11", "é1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn bitboard_iteration_is_in_index_order() {
        let bb = Bitboard(0b1000_0000_0010_0001);
        let names: Vec<String> = bb.iter().map(|s| s.to_string()).collect();
        assert_eq!(names, ["A1", "B2", "D4"]);
        assert_eq!(bb.len(), 3);
    }
}
