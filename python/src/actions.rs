//! The fixed action space for learning: one decision per half-move. Actions 0–15 place the
//! piece in hand on square A1, B1, C1, D1, A2, …, D4; actions 16–31 give piece 0–15 (the index
//! of `quads_rules::Piece`, whose text is its four letters).

use pyo3::prelude::*;
use quads_rules::{Piece, Square};

use crate::QuadsError;

/// How many actions there are.
pub const NUM_ACTIONS: usize = 32;
/// The first give action.
pub const GIVE: usize = 16;

/// One action, read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Place the piece in hand here.
    Place(Square),
    /// Give this piece.
    Give(Piece),
}

impl Action {
    /// The action numbered `a`, or a `QuadsError` for a number outside 0–31.
    pub fn from_index(a: i64) -> PyResult<Action> {
        usize::try_from(a).ok().and_then(Action::of).ok_or_else(|| {
            QuadsError::new_err(format!(
                "action {a} is out of range (0–15 place on a square, 16–31 give a piece)"
            ))
        })
    }

    /// The action numbered `i`, if it is one (below 32).
    pub fn of(i: usize) -> Option<Action> {
        match i {
            _ if i < GIVE => Square::new(i as u8).map(Action::Place),
            _ if i < NUM_ACTIONS => Piece::new((i - GIVE) as u8).map(Action::Give),
            _ => None,
        }
    }

    /// Its number.
    pub fn index(self) -> usize {
        match self {
            Action::Place(sq) => sq.index(),
            Action::Give(p) => GIVE + p.index(),
        }
    }
}

impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Action::Place(sq) => write!(f, "{sq}"),
            Action::Give(p) => write!(f, "{p}"),
        }
    }
}

/// The text of action `a`: its square (`D2`) or its piece (`BLQF`).
#[pyfunction]
pub fn action_to_str(a: i64) -> PyResult<String> {
    Action::from_index(a).map(|x| x.to_string())
}

/// The action a square (`D2`) or a piece (`BLQF`) names, in any case.
#[pyfunction]
pub fn parse_action(text: &str) -> PyResult<usize> {
    let t = text.trim();
    if let Ok(sq) = t.parse::<Square>() {
        return Ok(Action::Place(sq).index());
    }
    t.parse::<Piece>()
        .map(|p| Action::Give(p).index())
        .map_err(|_| {
            QuadsError::new_err(format!(
                "`{text}` is neither a square (A1–D4) nor a piece (four letters, e.g. BLQF)"
            ))
        })
}
