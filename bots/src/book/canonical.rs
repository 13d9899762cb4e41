//! A position's canonical form and the symmetry that takes it there, so that a book can keep one
//! entry for every position equivalent to it and map its move back.
//!
//! The form: complement every piece by the piece in hand (the hand becomes `BDRF`), then, of
//! every board automorphism followed by the trait permutation that sorts the trait bitboards,
//! keep the result whose occupancy, then trait bitboards, are smallest. It is the form of
//! [`crate::symmetry::Symmetries::key`], kept as a position instead of hashed. Only variants in
//! which every trait counts: a permutation may then send any trait anywhere.

use quads_rules::{Board, ClaimState, Move, Piece, Position, Rules, Square, Then, TraitSet};

use crate::symmetry::{apply, automorphisms};

/// The symmetry taking a position to its canonical form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transform {
    /// Square `i` goes to square `squares[i]`.
    squares: [u8; 16],
    /// Trait bit `j` of a canonical piece is trait bit `slots[j]` of the piece it came from
    /// (after `flip`).
    slots: [u8; 4],
    /// The bits every piece is complemented by first: the piece in hand's.
    flip: u8,
}

impl Transform {
    /// A square's image.
    pub fn square(&self, sq: Square) -> Square {
        Square::new(self.squares[sq.index()]).expect("a square")
    }

    /// The square whose image is `sq`.
    pub fn square_back(&self, sq: Square) -> Square {
        let i = self
            .squares
            .iter()
            .position(|&t| usize::from(t) == sq.index())
            .expect("a permutation");
        Square::new(i as u8).expect("a square")
    }

    /// A piece's image.
    pub fn piece(&self, p: Piece) -> Piece {
        let q = p.bits() ^ self.flip;
        let bits = (0..4).fold(0u8, |acc, j| acc | (((q >> self.slots[j]) & 1) << j));
        Piece::new(bits).expect("four bits")
    }

    /// The piece whose image is `p`.
    pub fn piece_back(&self, p: Piece) -> Piece {
        let mut q = 0u8;
        for j in 0..4 {
            q |= ((p.bits() >> j) & 1) << self.slots[j];
        }
        Piece::new(q ^ self.flip).expect("four bits")
    }

    /// The move in the original position that a move in the canonical form stands for.
    pub fn move_back(&self, mv: Move) -> Move {
        match mv {
            Move::Give(p) => Move::Give(self.piece_back(p)),
            Move::Claim => Move::Claim,
            Move::Place { to, then } => Move::Place {
                to: self.square_back(to),
                then: match then {
                    Then::Give(p) => Then::Give(self.piece_back(p)),
                    other => other,
                },
            },
        }
    }
}

/// The canonical forms of one variant's positions.
pub struct Canonizer {
    automorphisms: Vec<[u8; 16]>,
}

impl Canonizer {
    /// For `rules`, in which every trait must count.
    pub fn new(rules: &Rules) -> Canonizer {
        assert_eq!(
            rules.traits,
            TraitSet::ALL,
            "canonical forms need every trait counting"
        );
        Canonizer {
            automorphisms: automorphisms(rules),
        }
    }

    /// The canonical form of `pos` (which has a piece in hand) and the symmetry to it; `None`
    /// without a piece in hand.
    pub fn canonical(&self, pos: &Position) -> Option<(Position, Transform)> {
        let hand = pos.hand()?;
        let board = pos.board();
        let occupied = board.occupied().0;
        let flipped: [u16; 4] = std::array::from_fn(|i| {
            let t = board.trait_squares(i).0;
            if hand.bits() & (1 << i) != 0 {
                occupied & !t
            } else {
                t
            }
        });
        let mut best: Option<((u16, [u16; 4]), Transform)> = None;
        for perm in &self.automorphisms {
            let occ = apply(perm, occupied);
            let moved: [u16; 4] = std::array::from_fn(|i| apply(perm, flipped[i]));
            let mut slots = [0u8, 1, 2, 3];
            slots.sort_by_key(|&i| moved[usize::from(i)]);
            let form = (occ, slots.map(|i| moved[usize::from(i)]));
            if best.as_ref().map_or(true, |(b, _)| form < *b) {
                best = Some((
                    form,
                    Transform {
                        squares: *perm,
                        slots,
                        flip: hand.bits(),
                    },
                ));
            }
        }
        let ((occ, traits), transform) = best.expect("the identity is an automorphism");
        let mut canonical = Board::EMPTY;
        for sq in Square::ALL {
            if occ & sq.bb().0 != 0 {
                let bits = (0..4).fold(0u8, |acc, j| {
                    acc | (u8::from(traits[j] & sq.bb().0 != 0) << j)
                });
                canonical.place(sq, Piece::new(bits).expect("four bits"));
            }
        }
        let form = Position::from_parts(canonical, Some(Piece::ALL[0]), ClaimState::None);
        Some((form, transform))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(s: &str) -> Position {
        s.parse().unwrap()
    }

    #[test]
    fn equivalent_positions_share_a_form_and_moves_map_back_to_equivalent_ones() {
        let rules = Rules::QUADS;
        let c = Canonizer::new(&rules);
        let base = pos("..../..BDQF./.SDQH../BDRF... SDRH");
        let (form, t) = c.canonical(&base).unwrap();
        assert_eq!(form.hand(), Some(Piece::ALL[0]));
        for other in [
            "..../.BDQF../..SDQH./...BDRF SDRH",
            "..../..SDQF./.BDQH../SDRF... BDRH",
            "..../..BDQF./.SLQF../BDRF... SLRF",
        ] {
            assert_eq!(c.canonical(&pos(other)).unwrap().0, form, "{other}");
        }
        assert_ne!(
            c.canonical(&pos("..../..BDQF./.SDQH../.BDRF.. SDRH"))
                .unwrap()
                .0,
            form
        );
        // Every move of the form maps back to a legal move of the position, and the two
        // positions after them are equivalent.
        for mv in form.legal_moves(&rules) {
            let back = t.move_back(mv);
            let after = base.play(back, &rules).expect("a legal move");
            let after_form = form.play(mv, &rules).unwrap();
            if let (Some(a), Some(b)) = (c.canonical(&after), c.canonical(&after_form)) {
                assert_eq!(a.0, b.0, "{mv} / {back}");
            }
        }
        for p in Piece::ALL {
            assert_eq!(t.piece_back(t.piece(p)), p);
        }
        for sq in Square::ALL {
            assert_eq!(t.square_back(t.square(sq)), sq);
        }
    }
}
