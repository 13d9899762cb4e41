//! The symmetries of a variant, for data augmentation (the Python functions over them are in
//! `canonical.rs`).
//!
//! A symmetry is a board automorphism (a permutation of the squares that maps the winning
//! shapes onto themselves: 8 in Quads, 32 in classic Quarto; the bots crate's list) together
//! with a piece symmetry (complement any traits, then permute the traits that count among
//! themselves and those that do not among themselves: 384 when all four count). Every
//! symmetry keeps every win a win, so a state and its image have the same value, and the
//! image of a legal action is legal in the image.

use pyo3::prelude::*;
use quads_rules::{Board, Piece, Position, Rules, Square};

use crate::actions::GIVE;

/// One symmetry: square `i` goes to `squares[i]`, piece `j` to `pieces[j]`.
#[pyclass(module = "quads", name = "Symmetry", frozen, get_all, eq)]
#[derive(Clone, PartialEq, Eq)]
pub struct Symmetry {
    /// The image of each square index.
    pub squares: Vec<usize>,
    /// The image of each piece index.
    pub pieces: Vec<usize>,
}

#[pymethods]
impl Symmetry {
    /// The image of each of the 32 actions.
    #[getter]
    fn actions(&self) -> Vec<usize> {
        let mut out: Vec<usize> = self.squares.clone();
        out.extend(self.pieces.iter().map(|p| GIVE + p));
        out
    }

    fn __repr__(&self) -> String {
        format!(
            "Symmetry(squares={:?}, pieces={:?})",
            self.squares, self.pieces
        )
    }
}

/// Every trait permutation that keeps `counting` (a 4-bit mask) in place as a set.
fn trait_permutations(counting: u8) -> Vec<[u8; 4]> {
    let mut out = Vec::new();
    for a in 0..4u8 {
        for b in 0..4u8 {
            for c in 0..4u8 {
                for d in 0..4u8 {
                    let p = [a, b, c, d];
                    let distinct = (0..4).all(|i| (0..i).all(|j| p[i] != p[j]));
                    let keeps = (0..4).all(|i| (counting >> i) & 1 == (counting >> p[i]) & 1);
                    if distinct && keeps {
                        out.push(p);
                    }
                }
            }
        }
    }
    out
}

/// Every symmetry of `rules`, the identity first.
pub fn all(rules: &Rules) -> Vec<Symmetry> {
    let boards = quads_bots::symmetry::automorphisms(rules);
    let traits = trait_permutations(rules.traits.mask());
    let mut out = Vec::with_capacity(boards.len() * traits.len() * 16);
    for b in &boards {
        for flip in 0..16u8 {
            for t in &traits {
                let pieces = (0..16u8)
                    .map(|p| {
                        let q = p ^ flip;
                        (0..4).fold(0usize, |acc, i| acc | ((((q >> i) & 1) as usize) << t[i]))
                    })
                    .collect();
                out.push(Symmetry {
                    squares: b.iter().map(|&s| usize::from(s)).collect(),
                    pieces,
                });
            }
        }
    }
    out
}

fn square(sym: &Symmetry, sq: Square) -> Square {
    Square::new(sym.squares[sq.index()] as u8).expect("a square")
}

fn piece(sym: &Symmetry, p: Piece) -> Piece {
    Piece::new(sym.pieces[p.index()] as u8).expect("a piece")
}

/// The image of (`pos`, `pending`) under `sym`.
pub fn image(
    sym: &Symmetry,
    pos: &Position,
    pending: Option<Square>,
) -> (Position, Option<Square>) {
    let mut board = Board::EMPTY;
    for sq in Square::ALL {
        if let Some(p) = pos.board().piece_at(sq) {
            board.place(square(sym, sq), piece(sym, p));
        }
    }
    let hand = pos.hand().map(|p| piece(sym, p));
    (
        Position::from_parts(board, hand, pos.claim_state()),
        pending.map(|s| square(sym, s)),
    )
}

/// What orders images: the pieces square by square (0 for empty, else 1 + index), then the
/// hand and the pending square the same way.
pub type Key = ([u8; 16], u8, u8);

/// The key of an image.
pub fn key(pos: &Position, pending: Option<Square>) -> Key {
    let squares = std::array::from_fn(|i| {
        let sq = Square::new(i as u8).expect("a square");
        pos.board().piece_at(sq).map_or(0, |p| p.index() as u8 + 1)
    });
    (
        squares,
        pos.hand().map_or(0, |p| p.index() as u8 + 1),
        pending.map_or(0, |s| s.index() as u8 + 1),
    )
}
