//! Judging one game: replay its record, ask the oracle for the value of every position from
//! the first with at most N empty squares to the end, and judge each move made from one of
//! them by the mover's value before and after it.
//!
//! A move is a whole turn, placement and give together (or a claim), as the solver sees it:
//! the value before is the mover's, with the piece in hand; the value after is the mover's in
//! the position the opponent then faces (the opponent's value there, negated), or the result
//! when the move ended the game. The opening give is never judged (it is made on the empty
//! board, which the window never reaches). Under `claim=announce` a claimable win is worth a
//! win to the player who may claim it, so a winning placement that does not announce is a win
//! thrown to a loss, and a player who places instead of claiming throws the win away.

use quads_record::replay::{replay, ReplayError, Replayed};
use quads_record::{EndReason, GameRecord, GameResult};
use quads_rules::{ClaimState, Outcome, Player};
use serde::Serialize;

use crate::oracle::Oracle;
use crate::value::{Value, Verdict};

/// One judged move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JudgedMove {
    /// Its place in the record's `moves`, from 0.
    pub index: usize,
    /// The move's number: the piece it places, 1 to 16 (move `n` is made with `17 - n` empty
    /// squares).
    #[serde(rename = "move")]
    pub number: u32,
    /// Who made it.
    pub seat: Player,
    /// The move, as the record writes it.
    pub played: String,
    /// The mover's value before the move.
    pub before: Value,
    /// The mover's value after it.
    pub after: Value,
    /// Kept or blunder.
    pub verdict: Verdict,
    /// The mover could win with this move (a winning placement, or a claim) and did not.
    pub missed_win: bool,
}

/// Which move decided a game: after it the value was the result the game ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "by", rename_all = "kebab-case")]
pub enum Decided {
    /// No move was judged: the game ended before a move was made with at most N empty
    /// squares.
    Unjudged,
    /// The first judged position's value was already the result; no judged move changed it.
    BeforeJudged,
    /// The last blunder, after which the value was the result.
    Blunder {
        /// The move's place in `moves`, from 0.
        index: usize,
        /// The move's number (the piece it places).
        #[serde(rename = "move")]
        number: u32,
        /// Who blundered.
        seat: Player,
    },
    /// A forfeit: the result is not the value of the position the game stopped in.
    Forfeit,
}

/// One game, judged.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameAnalysis {
    /// The file the record came from, as given.
    pub source: String,
    /// The record's game number.
    pub game: u32,
    /// The rules spec, as the record writes it.
    pub rules: String,
    /// The first player's name.
    pub first: String,
    /// The second player's name.
    pub second: String,
    /// The result.
    pub result: GameResult,
    /// How the game ended.
    pub reason: EndReason,
    /// Moves made with at most this many empty squares were judged.
    pub empty: u32,
    /// The judged moves, in order.
    pub moves: Vec<JudgedMove>,
    /// The move that decided the game.
    pub decided: Decided,
}

impl GameAnalysis {
    /// The bot in `seat`.
    pub fn bot(&self, seat: Player) -> &str {
        match seat {
            Player::First => &self.first,
            Player::Second => &self.second,
        }
    }
}

/// The result as a value for `p`.
fn result_for(result: GameResult, p: Player) -> Value {
    match result.winner() {
        None => Value::Draw,
        Some(s) if s == p => Value::Win,
        Some(_) => Value::Loss,
    }
}

/// Judges every move of `record` made with at most `empty` empty squares.
pub fn judge(
    record: &GameRecord,
    source: &str,
    empty: u32,
    oracle: &mut Oracle,
) -> Result<GameAnalysis, ReplayError> {
    let Replayed {
        rules, positions, ..
    } = replay(record).into_result()?;
    // The value for the first player of each position in the window (terminal positions by
    // their outcome), each found once.
    let values: Vec<Option<Value>> = positions
        .iter()
        .map(|pos| match pos.outcome(&rules) {
            Some(Outcome::Draw) => Some(Value::Draw),
            Some(Outcome::Win(w)) => Some(value_for_first(Value::Win, w)),
            None if pos.board().empty().len() > empty => None,
            None => oracle
                .value(pos, &rules)
                .map(|v| value_for_first(v, pos.to_move())),
        })
        .collect();
    let mut moves = Vec::new();
    // The value for the first player of the position after the last judged move.
    let mut first_value = None;
    for (index, pair) in positions.windows(2).enumerate() {
        let (pos, next) = (&pair[0], &pair[1]);
        let mover = pos.to_move();
        // Every position after one in the window is in it (or is the end).
        let (Some(hand), Some(before), Some(after)) =
            (pos.hand(), values[index], values[index + 1])
        else {
            continue;
        };
        let (before, after) = (
            value_for_first(before, mover),
            value_for_first(after, mover),
        );
        let could_win = pos.claim_state() == ClaimState::Claimable
            || !pos.board().threats(&rules).winning_squares(hand).is_empty();
        let won = next.outcome(&rules) == Some(Outcome::Win(mover));
        first_value = values[index + 1];
        moves.push(JudgedMove {
            index,
            number: pos.placed() + 1,
            seat: mover,
            played: record.moves[index].clone(),
            before,
            after,
            verdict: Verdict::judge(before, after),
            missed_win: could_win && !won,
        });
    }
    let decided = match first_value {
        None => Decided::Unjudged,
        Some(v) if v != result_for(record.result, Player::First) => Decided::Forfeit,
        Some(_) => match moves.iter().rev().find(|m| m.verdict != Verdict::Kept) {
            Some(m) => Decided::Blunder {
                index: m.index,
                number: m.number,
                seat: m.seat,
            },
            None => Decided::BeforeJudged,
        },
    };
    Ok(GameAnalysis {
        source: source.to_owned(),
        game: record.game,
        rules: record.rules.clone(),
        first: record.first.name.clone(),
        second: record.second.name.clone(),
        result: record.result,
        reason: record.reason,
        empty,
        moves,
        decided,
    })
}

/// A value for `p` as a value for the first player, and back: the same for the first
/// player, flipped for the second.
fn value_for_first(v: Value, p: Player) -> Value {
    match p {
        Player::First => v,
        Player::Second => v.flip(),
    }
}
