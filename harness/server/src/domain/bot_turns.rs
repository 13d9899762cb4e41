//! Games against an entrant's bot (crate::domain::play, `bot:NAME`): the bot's turns are
//! played by a worker of the server's, as a match is: the version's own build from the bench,
//! started in its box with the event's walls and limit per move, exactly as on the ladder, so
//! a hostile bot is no more dangerous here than there.
//!
//! Each turn is a job of its own: the worker claims it with a lease, starts the bot, shakes
//! hands, sets up the game (`newgame`), asks for one move in the position (`go` carries the
//! whole position, so nothing else is needed), and ends the process. A person who walks away
//! mid-game holds no process and no worker. A bot that fails (no answer in time, a crash, an
//! illegal or unreadable move) loses the game, the referee's reason kept with it; the
//! person's move is never lost. A game whose version was replaced meanwhile goes on against
//! the entrant's newer one. One turn is played at a time ([`TURN_WORKER`]): the most of
//! the machine people's games against bots take from the ladder.

use std::time::Duration;

use quads_protocol::NewGame;
use quads_record::game::Game;
use quads_referee::{Bot, BotSpec, Fault, Settings};
use quads_rules::{Move, Player, Position, Rules};

use super::play::{notation, replay};
use super::play_bots::{bots, BOT};
use super::play_clock;
use super::{App, DomainError};
use crate::store::PlayRow;

/// The holder name of the server's worker of bot turns (its turns are its own again after a
/// restart).
pub const TURN_WORKER: &str = "local-turns";

/// How often an idle turn worker looks for a turn it was not told about (a lease run out).
const IDLE: Duration = Duration::from_secs(5);

/// Plays bots' turns until the server stops.
pub async fn run(app: App) {
    let mut changed = app.0.signals.changed.subscribe();
    loop {
        match turn_once(&app).await {
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
async fn turn_once(app: &App) -> Result<bool, DomainError> {
    let config = &app.0.config;
    let store = &app.0.store;
    let ready = bots(app).await?;
    let modes: Vec<String> = ready
        .iter()
        .map(|(name, _)| format!("{BOT}{name}"))
        .collect();
    let Some(row) = store.claim_turn(TURN_WORKER, &modes, config.lease).await? else {
        return Ok(false);
    };
    let (_, mut game) = replay(&row)?;
    let after = game.moves().len();
    // The version the game began against; if it left the bench since (replaced by a newer
    // upload), the entrant's bot now carries on: `go` gives it the whole position.
    let entrant = row.mode.strip_prefix(BOT).unwrap_or_default();
    let version = Some(row.bot.unwrap_or_default())
        .filter(|v| app.0.bench.get(*v).is_some())
        .or_else(|| ready.iter().find(|(n, _)| n == entrant).map(|(_, v)| *v));
    // Gone in between (paused, disabled): the turn waits for a bot of the entrant's again
    // (looked for at the next change, not at once: this turn would be claimed again).
    let Some(ready) = version.and_then(|v| app.0.bench.get(v)) else {
        return Ok(false);
    };
    let forfeit = match think(&ready.bot, &config.movetime, &row, &game).await? {
        Ok((mv, ms)) => {
            game.play(mv, ms).map_err(|reason| {
                DomainError::failed(format!("the bot's answer {mv}: {reason}"))
            })?;
            None
        }
        Err(fault) => Some(format!(
            "{}: {}",
            fault.reason,
            fault.detail.replace('\n', " ")
        )),
    };
    let kept = store
        .answer_turn(
            &row.id,
            TURN_WORKER,
            after,
            &notation(&game),
            &game.moves().iter().map(|m| m.took_ms).collect::<Vec<_>>(),
            forfeit.as_deref(),
        )
        .await?;
    if kept {
        app.0.signals.bump();
    }
    tracing::info!(play = %row.id, kept, forfeit = forfeit.as_deref().unwrap_or(""), "a bot's turn played");
    Ok(true)
}

/// The bot's move in `game`'s position and the time it took in ms, or the referee's fault by
/// which it lost the game; an error only if the bot could not be run at all here.
async fn think(
    spec: &BotSpec,
    movetime: &str,
    row: &PlayRow,
    game: &Game,
) -> Result<Result<(Move, f64), Fault>, DomainError> {
    // The event's limit per move, and the game's clock if it has one (as `quads match
    // --movetime --clock` would give both).
    let time = quads_referee::time_control(Some(movetime), row.clock.as_deref())
        .map_err(DomainError::failed)?;
    let rules: Rules = *game.rules();
    let pos: Position = game.position();
    let seat: Player = pos.to_move();
    let settings = Settings {
        rules,
        time,
        ..Settings::default()
    };
    let shown = play_clock::read(row, game, false, crate::store::now_ms());
    let left = |p: Player| {
        shown.as_ref().map(|c| match p {
            Player::First => c.first_ms,
            Player::Second => c.second_ms,
        })
    };
    let go = quads_protocol::Go {
        position: pos,
        remaining: pos.remaining(),
        last: game.last(),
        time: left(seat),
        optime: left(seat.other()),
        movetime: time
            .movetime
            .unwrap_or(u64::MAX)
            .min(left(seat).unwrap_or(u64::MAX)),
    };
    let new = NewGame {
        rules,
        seat,
        seed: row.seed,
        time,
    };
    let spec = spec.clone();
    // In a runtime of its own, as the workers play matches (crate::ladder::worker::play).
    tokio::task::spawn_blocking(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(DomainError::failed)?;
        runtime.block_on(async {
            let mut bot = Bot::new(spec);
            let (ready, _) = bot
                .start_game(&settings, new)
                .await
                .map_err(DomainError::failed)?;
            let answer = match ready {
                Ok(()) => bot.ask(&go, &rules, settings.margin).await,
                Err(f) => Err(f),
            };
            bot.end_game(false, &settings).await;
            Ok(answer.map(|a| (a.mv, a.took.as_secs_f64() * 1000.0)))
        })
    })
    .await
    .map_err(DomainError::failed)?
}
