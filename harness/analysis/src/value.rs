//! The words of a judgement: a position's [`Value`] for one player, and the [`Verdict`] on a
//! move, which compares the mover's value before the move with its value after.
//!
//! Values are the solver's, reduced to their sign: [`quads_bots::solver::Solution::value`]
//! counts the placements to the end, but whether a move kept the game-theoretic value does
//! not depend on how fast a win comes. A slower win is still a win here.

use serde::Serialize;

/// A position's value under perfect play, for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Value {
    /// The opponent can force a win.
    Loss,
    /// Neither can force a win.
    Draw,
    /// This player can force a win.
    Win,
}

impl Value {
    /// The same position's value for the opponent.
    pub fn flip(self) -> Value {
        match self {
            Value::Loss => Value::Win,
            Value::Draw => Value::Draw,
            Value::Win => Value::Loss,
        }
    }

    /// The value of a solver's score (`WIN - placements`, 0, or its negation).
    pub fn of_score(score: i32) -> Value {
        match score.signum() {
            1 => Value::Win,
            0 => Value::Draw,
            _ => Value::Loss,
        }
    }

    /// The word as written: `win`, `draw` or `loss`.
    pub fn as_str(self) -> &'static str {
        match self {
            Value::Loss => "loss",
            Value::Draw => "draw",
            Value::Win => "win",
        }
    }
}

/// What a move threw away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Blunder {
    /// A forced win became a draw.
    WinToDraw,
    /// A forced win became a forced loss.
    WinToLoss,
    /// A draw became a forced loss.
    DrawToLoss,
}

impl Blunder {
    /// Whether the mover had a forced win before the move.
    pub fn threw_a_win(self) -> bool {
        matches!(self, Blunder::WinToDraw | Blunder::WinToLoss)
    }
}

/// The judgement of one move: by the mover's value before and after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The value after the move is the value before: the move is as good as the best one.
    Kept,
    /// The value fell.
    Blunder(Blunder),
}

impl Verdict {
    /// The verdict on a move from `before` to `after`, both for the mover. Under perfect play
    /// the value before is the best value after any move, so `after` above `before` cannot
    /// happen; it would be the solver's error, and counts as kept.
    pub fn judge(before: Value, after: Value) -> Verdict {
        debug_assert!(after <= before, "a move cannot raise the value");
        match (before, after) {
            (Value::Win, Value::Draw) => Verdict::Blunder(Blunder::WinToDraw),
            (Value::Win, Value::Loss) => Verdict::Blunder(Blunder::WinToLoss),
            (Value::Draw, Value::Loss) => Verdict::Blunder(Blunder::DrawToLoss),
            _ => Verdict::Kept,
        }
    }

    /// The blunder, if it is one.
    pub fn blunder(self) -> Option<Blunder> {
        match self {
            Verdict::Kept => None,
            Verdict::Blunder(b) => Some(b),
        }
    }
}

impl Serialize for Verdict {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match self {
            Verdict::Kept => "kept",
            Verdict::Blunder(_) => "blunder",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fall_is_a_blunder_and_nothing_else_is() {
        use Value::*;
        let cases = [
            (Win, Win, Verdict::Kept),
            (Draw, Draw, Verdict::Kept),
            (Loss, Loss, Verdict::Kept),
            (Win, Draw, Verdict::Blunder(Blunder::WinToDraw)),
            (Win, Loss, Verdict::Blunder(Blunder::WinToLoss)),
            (Draw, Loss, Verdict::Blunder(Blunder::DrawToLoss)),
        ];
        for (before, after, verdict) in cases {
            assert_eq!(
                Verdict::judge(before, after),
                verdict,
                "{before:?} to {after:?}"
            );
        }
        assert!(Blunder::WinToDraw.threw_a_win() && Blunder::WinToLoss.threw_a_win());
        assert!(!Blunder::DrawToLoss.threw_a_win());
    }

    #[test]
    fn scores_and_flips() {
        assert_eq!(Value::of_score(1000), Value::Win);
        assert_eq!(Value::of_score(990), Value::Win);
        assert_eq!(Value::of_score(0), Value::Draw);
        assert_eq!(Value::of_score(-995), Value::Loss);
        assert_eq!(Value::Win.flip(), Value::Loss);
        assert_eq!(Value::Draw.flip(), Value::Draw);
    }
}
