//! The rules of Quads and classic Quarto, with no I/O and no dependencies, so that a bot
//! written in Rust can depend on this crate alone.
//!
//! The vocabulary, one module each: [`Piece`] and its [`Trait`]s, [`Square`] and
//! [`Bitboard`], the [`Board`], [`Rules`] (a variant, with the spec strings of the wire),
//! [`Move`], and [`Position`], which plays moves and reports the [`Outcome`]. An illegal move is
//! an [`IllegalMove`] value carrying the move, the unchanged position and the [`Reason`].
//!
//! ```
//! use quads_rules::{Move, Position, Rules};
//!
//! let rules: Rules = "classic,traits=color".parse().unwrap();
//! let pos = Position::START;
//! let pos = pos.play("SLQH".parse::<Move>().unwrap(), &rules).unwrap();
//! let pos = pos.play("B2 BDRF".parse().unwrap(), &rules).unwrap();
//! assert_eq!(pos.to_string(), "..../..../.SLQH../.... BDRF");
//! ```
//!
//! # The "Quarto!" rule (`claim=announce`)
//! A placement that completes a winning shape wins only if its move announces it
//! (`D2 quarto`). A placer who misses it must give as usual; the receiver may then claim the
//! win before placing (`quarto`) and wins. If the receiver places instead, the shape is
//! overlooked by both and never counts again, though a later placement that completes a
//! different shape still can. A claim with nothing to claim is illegal. If the board fills with
//! no announced win, the game is a draw.

mod board;
mod moves;
mod perft;
mod piece;
mod player;
mod position;
mod rules;
mod square;

pub use board::{Board, Threats};
pub use moves::{Move, ParseMoveError, Then};
pub use perft::{perft, perft_by_moves, PerftError};
pub use piece::{ParsePieceError, Piece, PieceSet, Trait, TraitSet};
pub use player::{ByPlayer, ParsePlayerError, Player};
pub use position::{
    ClaimState, IllegalMove, Impossible, Outcome, ParsePositionError, Position, Reason,
};
pub use rules::{Claim, ParseRulesError, Rules, SHAPES};
pub use square::{Bitboard, ParseSquareError, Square};
