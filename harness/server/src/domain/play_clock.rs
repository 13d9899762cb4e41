//! A play game's clock (crate::domain::play), chosen at its start (`5m+2s`: each side's time,
//! and what each move adds), kept by the server: each move is charged what it took, a
//! person's from the server's own time (from when the side began to the move's arrival), a
//! level's or a bot's its thinking; the side to move's clock runs from `since` while nobody
//! looks, so a reload or a late move finds it as it is. A person whose clock runs out loses
//! on time, as the referee's `timeout` forfeit.

use quads_protocol::TimeControl;
use quads_record::game::Game;
use quads_referee::Clocks;
use quads_rules::{ByPlayer, Player};
use serde::Serialize;

use super::play_seats::{person_moves, seat};
use super::DomainError;
use crate::store::PlayRow;

/// A clock as asked (`5m+2s`, `90s`), or a one-line refusal.
pub fn control(spec: &str) -> Result<TimeControl, DomainError> {
    quads_referee::time_control(None, Some(spec))
        .map_err(|e| DomainError::Invalid(format!("clock `{spec}`: {e}")))
}

/// The clocks as the front ends show them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Shown {
    /// As asked: `5m+2s`.
    pub clock: String,
    /// Each side's time left, in milliseconds, now.
    pub first_ms: u64,
    pub second_ms: u64,
    /// The seat whose clock runs now (a person's, while the game goes on).
    pub running: Option<&'static str>,
    /// The seat whose time ran out, if one did: it lost.
    pub flagged: Option<&'static str>,
}

/// Both clocks after `game`'s moves, each charged what it took.
fn charged(tc: TimeControl, game: &Game) -> Clocks {
    let mut clocks = Clocks::new(ByPlayer {
        first: tc,
        second: tc,
    });
    let mut before = game.start();
    for made in game.moves() {
        clocks.charge(before.to_move(), made.took_ms);
        before = made.after;
    }
    clocks
}

/// The clocks of `row`'s game at `now_ms`, if it has one. `over` says the game has ended
/// otherwise (no clock runs then).
pub fn read(row: &PlayRow, game: &Game, over: bool, now_ms: i64) -> Option<Shown> {
    let spec = row.clock.as_ref()?;
    let tc = control(spec).ok()?;
    let clocks = charged(tc, game);
    let left = |p: Player| clocks.left(p).unwrap_or(0);
    let mut ms = ByPlayer {
        first: left(Player::First),
        second: left(Player::Second),
    };
    let to_move = game.to_move();
    let runs = !over && !row.waiting && person_moves(row, to_move);
    let mut flagged = None;
    if runs {
        let elapsed = (now_ms - row.since).max(0) as u64;
        if elapsed >= ms[to_move] {
            flagged = Some(seat(to_move));
        }
        ms[to_move] = ms[to_move].saturating_sub(elapsed);
    }
    Some(Shown {
        clock: spec.clone(),
        first_ms: ms.first,
        second_ms: ms.second,
        running: (runs && flagged.is_none()).then(|| seat(to_move)),
        flagged,
    })
}

/// The clock of the side to move in `row`'s game, in milliseconds left (none without a clock).
pub fn left_to_move(row: &PlayRow, game: &Game) -> Option<u64> {
    let tc = control(row.clock.as_ref()?).ok()?;
    charged(tc, game).left(game.to_move())
}
