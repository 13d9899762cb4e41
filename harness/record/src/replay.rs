//! The one replay of a record: its rules, its start, its moves played one by one with the
//! rules core, and its end checked against the record. The analysis judges the positions it
//! gives; the report draws the moves; `quads book games` audits them.

use quads_rules::{IllegalMove, Impossible, Move, ParseMoveError, ParsePositionError};
use quads_rules::{ParseRulesError, Position, Rules};

use crate::GameRecord;

/// A record that does not replay.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// The rules spec is not a variant.
    #[error("unknown variant `{spec}`: {source}")]
    Rules {
        /// The spec as written.
        spec: String,
        /// What is wrong with it.
        #[source]
        source: ParseRulesError,
    },
    /// The start position does not parse.
    #[error("bad start position: {0}")]
    Start(#[source] ParsePositionError),
    /// The start position cannot arise under the rules.
    #[error("start position `{position}` cannot arise under `{rules}`: {source}")]
    Impossible {
        /// The position as written.
        position: String,
        /// The rules spec.
        rules: String,
        /// Why not.
        #[source]
        source: Impossible,
    },
    /// A move does not parse.
    #[error("move {index}: {source}")]
    Move {
        /// Its place in `moves`, from 1.
        index: usize,
        /// What is wrong with it.
        #[source]
        source: ParseMoveError,
    },
    /// A move is not legal where it was played.
    #[error("move {index}: {source}")]
    Illegal {
        /// Its place in `moves`, from 1.
        index: usize,
        /// The move, its position and why.
        #[source]
        source: IllegalMove,
    },
    /// The moves lead somewhere other than the record's end position.
    #[error("the moves end in `{reached}`, the record says `{recorded}`")]
    End {
        /// Where the moves lead.
        reached: String,
        /// The record's `end`.
        recorded: String,
    },
}

/// A record played as far as it goes.
#[derive(Debug)]
pub struct Replay {
    /// The record's rules, if they parse.
    pub rules: Option<Rules>,
    /// The moves that replayed, in order.
    pub moves: Vec<Move>,
    /// The positions passed through: the start, then one after each move of `moves` (empty
    /// when the start does not parse).
    pub positions: Vec<Position>,
    /// Why the replay stopped before the record's end, or why the end differs.
    pub error: Option<ReplayError>,
}

/// A record replayed to its end, every check passed.
#[derive(Debug)]
pub struct Replayed {
    /// The record's rules.
    pub rules: Rules,
    /// Its moves.
    pub moves: Vec<Move>,
    /// The start, then the position after each move (one more than the moves).
    pub positions: Vec<Position>,
}

impl Replay {
    /// The replay if it reached the record's end, or what stopped it.
    pub fn into_result(self) -> Result<Replayed, ReplayError> {
        match (self.error, self.rules) {
            (Some(e), _) => Err(e),
            (None, Some(rules)) => Ok(Replayed {
                rules,
                moves: self.moves,
                positions: self.positions,
            }),
            (None, None) => unreachable!("a replay without rules has an error"),
        }
    }
}

/// Plays `record` as far as it goes: its rules parsed, its start checked against them, each
/// move played, and the position reached compared with the record's end.
pub fn replay(record: &GameRecord) -> Replay {
    let mut out = Replay {
        rules: None,
        moves: Vec::with_capacity(record.moves.len()),
        positions: Vec::with_capacity(record.moves.len() + 1),
        error: None,
    };
    out.error = play_out(record, &mut out).err();
    out
}

fn play_out(record: &GameRecord, out: &mut Replay) -> Result<(), ReplayError> {
    let rules: Rules = record.rules.parse().map_err(|source| ReplayError::Rules {
        spec: record.rules.clone(),
        source,
    })?;
    out.rules = Some(rules);
    let start: Position = record.start.parse().map_err(ReplayError::Start)?;
    out.positions.push(start);
    start
        .check(&rules)
        .map_err(|source| ReplayError::Impossible {
            position: record.start.clone(),
            rules: record.rules.clone(),
            source,
        })?;
    let mut pos = start;
    for (i, text) in record.moves.iter().enumerate() {
        let mv: Move = text.parse().map_err(|source| ReplayError::Move {
            index: i + 1,
            source,
        })?;
        pos = pos
            .play(mv, &rules)
            .map_err(|source| ReplayError::Illegal {
                index: i + 1,
                source,
            })?;
        out.moves.push(mv);
        out.positions.push(pos);
    }
    let reached = pos.to_string();
    if reached != record.end {
        return Err(ReplayError::End {
            reached,
            recorded: record.end.clone(),
        });
    }
    Ok(())
}
