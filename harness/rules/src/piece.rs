//! Pieces, their four traits, and sets of pieces.
//!
//! Every one of the 16 pieces is a different combination of four two-valued traits, so a piece
//! *is* a 4-bit number. Keeping it that way makes "do these pieces share a trait?" a couple of
//! bitwise operations, which is what win detection runs on.

use std::fmt;
use std::str::FromStr;

/// One of the four traits of a piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Trait {
    /// Big (`B`) or small (`S`).
    Size,
    /// Dark (`D`) or light (`L`).
    Color,
    /// Round (`R`) or square (`Q`).
    Shape,
    /// Solid (`F`, "filled") or hollow (`H`).
    Fill,
}

impl Trait {
    /// All four traits, in notation order.
    pub const ALL: [Trait; 4] = [Trait::Size, Trait::Color, Trait::Shape, Trait::Fill];

    /// The bit of a piece's number that holds this trait.
    pub const fn bit(self) -> u8 {
        1 << (self as u8)
    }

    /// The name used in rules specs (`size`, `color`, `shape`, `fill`).
    pub const fn name(self) -> &'static str {
        match self {
            Trait::Size => "size",
            Trait::Color => "color",
            Trait::Shape => "shape",
            Trait::Fill => "fill",
        }
    }

    /// The two notation letters: the value with the bit clear, then the value with it set.
    pub const fn letters(self) -> [u8; 2] {
        match self {
            Trait::Size => *b"BS",
            Trait::Color => *b"DL",
            Trait::Shape => *b"RQ",
            Trait::Fill => *b"FH",
        }
    }

    /// Parses a trait name as used in rules specs.
    pub fn from_name(name: &str) -> Option<Trait> {
        Trait::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// A set of traits, as a 4-bit mask (bit `t.bit()` for trait `t`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TraitSet(u8);

impl TraitSet {
    /// All four traits: the normal game.
    pub const ALL: TraitSet = TraitSet(0b1111);
    /// No trait at all.
    pub const EMPTY: TraitSet = TraitSet(0);

    /// The set from its 4-bit mask; higher bits are dropped.
    pub const fn from_mask(mask: u8) -> TraitSet {
        TraitSet(mask & 0b1111)
    }

    /// The 4-bit mask.
    pub const fn mask(self) -> u8 {
        self.0
    }

    /// Whether the set holds `t`.
    pub const fn contains(self, t: Trait) -> bool {
        self.0 & t.bit() != 0
    }

    /// The set with `t` added.
    pub const fn with(self, t: Trait) -> TraitSet {
        TraitSet(self.0 | t.bit())
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The traits in the set, in notation order.
    pub fn iter(self) -> impl Iterator<Item = Trait> {
        Trait::ALL.into_iter().filter(move |t| self.contains(*t))
    }
}

/// One of the 16 pieces.
///
/// The piece's number holds one bit per trait: bit 0 size (0 big, 1 small), bit 1 color
/// (0 dark, 1 light), bit 2 shape (0 round, 1 square), bit 3 fill (0 solid, 1 hollow).
/// So `BDRF` is piece 0 and `SLQH` is piece 15.
///
/// Notation: four letters, one per trait in the order size, color, shape, fill:
/// `B`/`S`, `D`/`L`, `R`/`Q`, `F`/`H`. `BDQF` is big dark square solid. Parsing ignores case.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece(u8);

impl Piece {
    /// All 16 pieces, in number order.
    pub const ALL: [Piece; 16] = {
        let mut all = [Piece(0); 16];
        let mut i = 0;
        while i < 16 {
            all[i] = Piece(i as u8);
            i += 1;
        }
        all
    };

    /// The piece with this number (0..16).
    pub const fn new(index: u8) -> Option<Piece> {
        if index < 16 {
            Some(Piece(index))
        } else {
            None
        }
    }

    /// The piece's number, 0..16.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The piece's four trait bits.
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Whether the piece has the second value of `t` (small, light, square, hollow).
    pub const fn has(self, t: Trait) -> bool {
        self.0 & t.bit() != 0
    }
}

impl Piece {
    /// The piece's four letters (`BDQF` …), as its `Display` writes them: for text built
    /// without the formatter's machinery, one piece after another.
    pub fn letters(self) -> [u8; 4] {
        let mut text = [0u8; 4];
        for (slot, t) in text.iter_mut().zip(Trait::ALL) {
            *slot = t.letters()[usize::from(self.has(t))];
        }
        text
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(std::str::from_utf8(&self.letters()).expect("letters are ASCII"))
    }
}

/// Why a piece did not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePieceError(pub String);

impl fmt::Display for ParsePieceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid piece `{}` (expected four letters: B/S, D/L, R/Q, F/H, e.g. BDQF)",
            self.0
        )
    }
}

impl std::error::Error for ParsePieceError {}

impl FromStr for Piece {
    type Err = ParsePieceError;

    fn from_str(s: &str) -> Result<Piece, ParsePieceError> {
        let bytes = s.as_bytes();
        if bytes.len() != 4 {
            return Err(ParsePieceError(s.to_owned()));
        }
        let mut index = 0;
        for (byte, t) in bytes.iter().zip(Trait::ALL) {
            let letter = byte.to_ascii_uppercase();
            match t.letters().iter().position(|&l| l == letter) {
                Some(value) => index |= (value as u8) << (t as u8),
                None => return Err(ParsePieceError(s.to_owned())),
            }
        }
        Ok(Piece(index))
    }
}

/// A set of pieces, as a 16-bit mask with bit `p.index()` for piece `p`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct PieceSet(pub u16);

impl PieceSet {
    /// No pieces.
    pub const EMPTY: PieceSet = PieceSet(0);
    /// All 16 pieces.
    pub const FULL: PieceSet = PieceSet(0xffff);

    /// The set holding only `p`.
    pub const fn single(p: Piece) -> PieceSet {
        PieceSet(1 << p.0)
    }

    /// The pieces that have value `second` of trait `t` (`false`: big, dark, round, solid).
    pub const fn with_trait(t: Trait, second: bool) -> PieceSet {
        let mut mask = 0u16;
        let mut i = 0;
        while i < 16 {
            if ((i as u8) & t.bit() != 0) == second {
                mask |= 1 << i;
            }
            i += 1;
        }
        PieceSet(mask)
    }

    /// Whether `p` is in the set.
    pub const fn contains(self, p: Piece) -> bool {
        self.0 & (1 << p.0) != 0
    }

    /// The set with `p` added.
    #[must_use]
    pub const fn with(self, p: Piece) -> PieceSet {
        PieceSet(self.0 | (1 << p.0))
    }

    /// The set with `p` removed.
    #[must_use]
    pub const fn without(self, p: Piece) -> PieceSet {
        PieceSet(self.0 & !(1 << p.0))
    }

    /// The number of pieces in the set.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The pieces not in the set.
    #[must_use]
    pub const fn complement(self) -> PieceSet {
        PieceSet(!self.0)
    }

    /// The pieces in both sets.
    #[must_use]
    pub const fn intersect(self, other: PieceSet) -> PieceSet {
        PieceSet(self.0 & other.0)
    }

    /// The pieces in the set, in number order.
    pub fn iter(self) -> impl Iterator<Item = Piece> {
        crate::square::set_bits(self.0).map(Piece)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_piece_round_trips_through_its_letters() {
        for p in Piece::ALL {
            assert_eq!(p.to_string().parse::<Piece>(), Ok(p));
            assert_eq!(p.to_string().to_lowercase().parse::<Piece>(), Ok(p));
        }
        assert_eq!("BDRF".parse::<Piece>().unwrap().index(), 0);
        assert_eq!("SLQH".parse::<Piece>().unwrap().index(), 15);
        assert_eq!("bdQf".parse::<Piece>().unwrap().to_string(), "BDQF");
    }

    #[test]
    fn bad_pieces_are_rejected() {
        for bad in ["", "BDQ", "BDQFF", "DBQF", "XDQF", "BDQ1", "ßDQ"] {
            assert!(bad.parse::<Piece>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn trait_sets_hold_half_the_pieces() {
        for t in Trait::ALL {
            let small = PieceSet::with_trait(t, true);
            let big = PieceSet::with_trait(t, false);
            assert_eq!(small.len(), 8);
            assert_eq!(small.0 | big.0, 0xffff);
            assert!(small.iter().all(|p| p.has(t)));
        }
    }
}
