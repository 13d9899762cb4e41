//! Moves: a whole turn, place then give, and the text form bots and people write.
//!
//! | text        | move |
//! |-------------|------|
//! | `BLQF`      | the opening give: hand `BLQF` to the opponent |
//! | `D2 BLQF`   | place the piece in hand on D2, then give `BLQF` |
//! | `D2`        | place on D2 and give nothing: the placement wins, or fills the board |
//! | `D2 quarto` | under `claim=announce`: place on D2 and announce the win it completes |
//! | `quarto`    | under `claim=announce`: before placing, claim the win the opponent overlooked |
//!
//! Squares, pieces and the word `quarto` are read in any case.

use std::fmt;
use std::str::FromStr;

use crate::piece::Piece;
use crate::square::Square;

/// What follows a placement.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Then {
    /// Give this piece to the opponent.
    Give(Piece),
    /// Give nothing: the placement wins (automatic claims) or fills the board.
    Nothing,
    /// Announce "Quarto!": the placement completes a winning shape (`claim=announce` only).
    Quarto,
}

/// A whole turn.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// The first move of the game: hand a piece over without placing.
    Give(Piece),
    /// Place the piece in hand, then give, claim, or do nothing.
    Place {
        /// The empty square the piece in hand goes to.
        to: Square,
        /// What follows the placement.
        then: Then,
    },
    /// Claim, before placing, the win the opponent completed and did not announce
    /// (`claim=announce` only).
    Claim,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Give(p) => write!(f, "{p}"),
            Move::Place { to, then } => match then {
                Then::Give(p) => write!(f, "{to} {p}"),
                Then::Nothing => write!(f, "{to}"),
                Then::Quarto => write!(f, "{to} quarto"),
            },
            Move::Claim => f.write_str("quarto"),
        }
    }
}

/// Why a move did not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError(pub String);

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid move `{}` (expected PIECE, SQUARE, SQUARE PIECE, SQUARE quarto or quarto)",
            self.0
        )
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let err = || ParseMoveError(s.to_owned());
        let words: Vec<&str> = s.split_ascii_whitespace().collect();
        match words[..] {
            [w] if w.eq_ignore_ascii_case("quarto") => Ok(Move::Claim),
            [w] if w.len() == 4 => w.parse().map(Move::Give).map_err(|_| err()),
            [w] => Ok(Move::Place {
                to: w.parse().map_err(|_| err())?,
                then: Then::Nothing,
            }),
            [sq, next] => {
                let to = sq.parse().map_err(|_| err())?;
                let then = if next.eq_ignore_ascii_case("quarto") {
                    Then::Quarto
                } else {
                    Then::Give(next.parse().map_err(|_| err())?)
                };
                Ok(Move::Place { to, then })
            }
            _ => Err(err()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_round_trips() {
        for text in ["BLQF", "D2 BLQF", "D2", "D2 quarto", "quarto", "A1 SLQH"] {
            let mv: Move = text.parse().unwrap();
            assert_eq!(mv.to_string(), text);
        }
        assert_eq!("d2  blqf".parse::<Move>().unwrap().to_string(), "D2 BLQF");
        assert_eq!("QUARTO".parse::<Move>(), Ok(Move::Claim));
        assert_eq!(
            "b3 Quarto".parse::<Move>().unwrap().to_string(),
            "B3 quarto"
        );
    }

    #[test]
    fn malformed_moves_are_rejected() {
        for bad in [
            "",
            "E2",
            "D2 BLQ",
            "D2 BLQF BLQF",
            "BLQX",
            "quarto D2",
            "D2 D3",
        ] {
            let err = bad.parse::<Move>().unwrap_err();
            assert_eq!(err.0, bad);
        }
    }
}
