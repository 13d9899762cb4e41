//! Games against an entrant's bot (crate::domain::play, `bot:NAME`): the bot's turns are
//! played by a worker, as a match is: by the server's own workers of turns, or by a remote
//! worker's slot (crate::domain::workers gives a slot a waiting turn before any match); either
//! way the version's own build, started in its box with the event's walls and limit per move,
//! exactly as on the ladder, so a hostile bot is no more dangerous here than there.
//!
//! Each turn is a job of its own: a worker claims it with a lease and plays it
//! (crate::ladder::turn: the bot started, set up, asked for one move, ended), so a person who
//! walks away mid-game holds no process and no worker. A bot that fails (no answer in time, a
//! crash, an illegal or unreadable move) loses the game, the referee's reason kept with it;
//! the person's move is never lost. A game whose version was replaced meanwhile goes on
//! against the entrant's newer one. The server plays `turn_workers` turns at once (one by
//! default): the most of its machine people's games against bots take from the ladder.

use std::time::Duration;

use quads_record::ForfeitReason;
use quads_rules::Move;

use super::play::{notation, replay, spent};
use super::play_bots::{bots, BOT};
use super::play_clock;
use super::{App, DomainError};
use crate::ladder::turn;
use crate::ladder::worker::LOCAL;
use crate::wire::{Side, Turn, TurnGame};

/// The holder name of the server's worker of bot turns number `n` (its turns are its own
/// again after a restart).
pub fn turn_worker(n: usize) -> String {
    format!("{LOCAL}turns-{n}")
}

/// How often an idle turn worker looks for a turn it was not told about (a lease run out).
const IDLE: Duration = Duration::from_secs(5);

/// Plays bots' turns as `holder` until the server stops.
pub async fn run(app: App, holder: String) {
    let mut changed = app.0.signals.changed.subscribe();
    loop {
        match turn_once(&app, &holder).await {
            Ok(true) => {}
            Ok(false) => {
                let _ = tokio::time::timeout(IDLE, changed.changed()).await;
            }
            Err(e) => {
                tracing::error!(error = %e, "the worker of bots' turns failed");
                let _ = tokio::time::timeout(IDLE, changed.changed()).await;
            }
        }
    }
}

/// Plays one waiting turn if there is one: whether it did.
async fn turn_once(app: &App, holder: &str) -> Result<bool, DomainError> {
    let Some(t) = claim(app, holder).await? else {
        return Ok(false);
    };
    // Offered only while the bench has it; gone since (paused, disabled): it waits.
    let Some(ready) = app.0.bench.get(t.side.version) else {
        return Ok(false);
    };
    let (spec, movetime, game) = (ready.bot.clone(), t.event.movetime.clone(), t.game.clone());
    let thought = tokio::task::spawn_blocking(move || turn::think(&spec, &movetime, &game))
        .await
        .map_err(DomainError::failed)?
        .map_err(DomainError::Failed)?;
    let outcome = thought.map_err(|f| turn::fault_line(&f));
    let kept = answer(app, &t.play, holder, t.game.moves.len(), outcome.clone()).await?;
    tracing::info!(play = %t.play, kept, fault = outcome.err().unwrap_or_default(), "a bot's turn played");
    Ok(true)
}

/// A waiting bot's turn for `holder` (the server's worker of turns, or a remote worker's
/// slot) to play within the lease, with what playing it needs, if one waits.
pub(super) async fn claim(app: &App, holder: &str) -> Result<Option<Turn>, DomainError> {
    let config = &app.0.config;
    let store = &app.0.store;
    // Looked for first: the bots ready are a longer read, and most wakes find no turn.
    if !store.turn_waits().await? {
        return Ok(None);
    }
    let ready = bots(app).await?;
    let modes: Vec<String> = ready
        .iter()
        .map(|(name, _)| format!("{BOT}{name}"))
        .collect();
    let Some(row) = store.claim_turn(holder, &modes, config.lease).await? else {
        return Ok(None);
    };
    let (_, game) = replay(&row)?;
    // The version the game began against; if it left the bench since (replaced by a newer
    // upload), the entrant's bot now carries on: `go` gives it the whole position.
    let entrant = row.mode.strip_prefix(BOT).unwrap_or_default();
    let version = row
        .bot
        .filter(|v| app.0.bench.get(*v).is_some())
        .or_else(|| ready.iter().find(|(n, _)| n == entrant).map(|(_, v)| *v));
    // Gone in between (paused, disabled): the turn waits for a bot of the entrant's again
    // (looked for at the next change, not at once: this turn would be claimed again).
    let Some(version) = version else {
        return Ok(None);
    };
    let Some((entrant, digest)) = store.version_side(version).await? else {
        return Ok(None);
    };
    let shown = play_clock::read(&row, &game, false, crate::store::now_ms());
    let left = |p: quads_rules::Player| {
        shown.as_ref().map(|c| match p {
            quads_rules::Player::First => c.first_ms,
            quads_rules::Player::Second => c.second_ms,
        })
    };
    let seat = game.to_move();
    Ok(Some(Turn {
        play: row.id,
        side: Side {
            version,
            entrant,
            digest,
        },
        game: TurnGame {
            rules: row.rules,
            start: row.start,
            moves: row.moves,
            seed: row.seed,
            clock: row.clock,
            time: left(seat),
            optime: left(seat.other()),
        },
        event: config.event(),
    }))
}

/// The bot's answer to game `play`'s turn that `holder` claimed after `after` moves: its move
/// and the milliseconds it took, or the referee's fault in one line (`crash: exited …`), by
/// which it loses the game. Whether it was kept (the holder still held the turn); a move that
/// is not legal there, or a fault that is not the referee's, is refused.
pub(super) async fn answer(
    app: &App,
    play: &str,
    holder: &str,
    after: usize,
    outcome: Result<(Move, f64), String>,
) -> Result<bool, DomainError> {
    let store = &app.0.store;
    let Some(row) = store.play(play).await? else {
        return Err(DomainError::NotFound("no such game".to_owned()));
    };
    if !row.waiting || row.moves.len() != after {
        return Ok(false);
    }
    let (_, mut game) = replay(&row)?;
    let forfeit = match outcome {
        Ok((mv, ms)) => {
            if !(ms.is_finite() && ms >= 0.0) {
                return Err(DomainError::Invalid(format!(
                    "a move's time is milliseconds, not {ms}"
                )));
            }
            game.play(mv, ms).map_err(|reason| {
                DomainError::Invalid(format!("the bot's answer {mv} is not legal here: {reason}"))
            })?;
            None
        }
        Err(fault) => {
            let word = fault.split_once(": ").map_or(fault.as_str(), |(w, _)| w);
            if word.parse::<ForfeitReason>().is_err()
                || fault.contains(['\n', '\r'])
                || fault.len() > turn::MAX_FAULT
            {
                return Err(DomainError::Invalid(
                    "a fault is the referee's reason and its detail in one line (`crash: …`)"
                        .to_owned(),
                ));
            }
            Some(fault)
        }
    };
    let kept = store
        .answer_turn(
            &row.id,
            holder,
            after,
            &notation(&game),
            &spent(&game),
            forfeit.as_deref(),
        )
        .await?;
    if kept {
        app.0.signals.bump();
    }
    Ok(kept)
}
