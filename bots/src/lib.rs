//! Bots that play over the protocol: a blocking read-eval-print driver ([`run`]) and the
//! strategies it can drive, from random play to an exact endgame solver, with five named
//! difficulty levels. Every random choice comes from the game's seed, so the same seed gives
//! the same game (given the same time to think, or the same [`Limit::Nodes`]).
//!
//! The strategies and their names are in `strategy.rs` ([`Strategy`]), the levels and the
//! time a move may take in [`levels`], the protocol loop in `protocol.rs` ([`run`]); the
//! searches they use in [`search`] (minimax), [`mcts`] and [`solver`].

pub mod book;
pub mod levels;
pub mod mcts;
mod protocol;
pub mod search;
pub mod solver;
mod strategy;
pub mod symmetry;

pub use levels::{Limit, LEVELS, SOLVER_TABLE_MIB, SOLVE_EMPTY, SOLVE_TRY};
pub use protocol::{run, Delay};
pub use strategy::Strategy;
