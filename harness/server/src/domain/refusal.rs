//! Why a move on the play page was not played (crate::domain::play): a leaf, so the domain's
//! error can carry it without taking the rest of the domain.

use quads_rules::{Move, Reason};

/// Why a person's move was not played, typed so each front end says it in its reader's words
/// (the API in English, as [`std::fmt::Display`] has it; the page in the visitor's language).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The text is not a move in the project's notation.
    #[error("`{text}`: {why}")]
    Unreadable { text: String, why: String },
    /// A move the rules refuse, with the rules core's reason.
    #[error("{0}: {1}")]
    Illegal(Move, Reason),
    /// Nothing was chosen.
    #[error("choose a square and a piece, or type the move")]
    NothingChosen,
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// The level or the solver is to move.
    #[error("it is not your move")]
    NotYours,
    /// The game has moved on since the person saw it (another tab, a request sent twice).
    #[error("the game has moved on since: look again")]
    MovedOn,
}
