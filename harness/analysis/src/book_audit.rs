//! `quads book games`: a bot's moves in positions level 5's opening book holds, against the
//! book's (up to the symmetries, and a winning placement announced or not).

use quads_bots::book::Book;
use quads_record::replay::{replay, ReplayError};
use quads_record::GameRecord;
use quads_rules::{Claim, Move, Player, Position, Rules, Then};

/// A move that is not the book's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OffBook {
    /// The game's number.
    pub game: u32,
    /// The move's place in the game, from 1.
    pub index: usize,
    /// The move played.
    pub played: Move,
    /// Where.
    pub position: Position,
    /// The book's move.
    pub book: Move,
}

/// How a bot's moves compare with the book.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Audit {
    /// Games read.
    pub games: usize,
    /// Its moves in positions the book holds.
    pub in_book: usize,
    /// Its moves with 4 or fewer pieces placed in positions the book does not hold.
    pub unknown: usize,
    /// Its moves that are not the book's.
    pub off: Vec<OffBook>,
}

/// A record that does not replay, with its game's number.
#[derive(Debug, thiserror::Error)]
#[error("game {game}: {source}")]
pub struct AuditError {
    /// The game.
    pub game: u32,
    /// Why.
    #[source]
    pub source: ReplayError,
}

/// Compares `bot`'s moves in `records` with the shipped books (games of variants without a
/// book are passed over).
pub fn audit(records: &[GameRecord], bot: &str) -> Result<Audit, AuditError> {
    let mut audit = Audit {
        games: records.len(),
        ..Audit::default()
    };
    for record in records {
        let fail = |source| AuditError {
            game: record.game,
            source,
        };
        let rules: Rules = record.rules.parse().map_err(|source| {
            fail(ReplayError::Rules {
                spec: record.rules.clone(),
                source,
            })
        })?;
        let Some(book) = Book::shipped(&rules) else {
            continue;
        };
        let replayed = replay(record).into_result().map_err(fail)?;
        let played = replayed.positions.iter().zip(&replayed.moves);
        for (i, (pos, &mv)) in played.enumerate() {
            let mover = match pos.to_move() {
                Player::First => &record.first.name,
                Player::Second => &record.second.name,
            };
            if mover != bot || pos.hand().is_none() {
                continue;
            }
            match book.lookup(pos) {
                Some(found) => {
                    audit.in_book += 1;
                    if !same_move(book, pos, mv, found.mv, &rules) {
                        audit.off.push(OffBook {
                            game: record.game,
                            index: i + 1,
                            played: mv,
                            position: *pos,
                            book: found.mv,
                        });
                    }
                }
                None if pos.placed() <= 4 => audit.unknown += 1,
                None => {}
            }
        }
    }
    Ok(audit)
}

/// Whether moves `a` and `b` in `pos` lead to the same position up to the symmetries (a
/// winning placement announced or not).
fn same_move(book: &Book, pos: &Position, a: Move, b: Move, rules: &Rules) -> bool {
    let auto = Rules {
        claim: Claim::Auto,
        ..*rules
    };
    let plain = |m: Move| match m {
        Move::Place {
            to,
            then: Then::Quarto,
        } => Move::Place {
            to,
            then: Then::Nothing,
        },
        m => m,
    };
    let after = |m: Move| {
        pos.play(plain(m), &auto)
            .ok()
            .map(|x| book.canonical(&x).map_or(x, |(form, _)| form))
    };
    after(a).is_some() && after(a) == after(b)
}
