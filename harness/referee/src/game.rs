//! One game between two bot processes: both set up, turns against the clock, the end, and a
//! record of all of it. Whatever a bot does wrong becomes a forfeit in the record. Each bot's
//! side of it (the handshake, a move, the result) is in `bot.rs`.

use std::time::SystemTime;

use quads_protocol::{Go, NewGame, ResultWord, ToBot};
use quads_record::{EndReason, Failure, GameRecord, GameResult, Timing};
use quads_rules::{ByPlayer, Move, Outcome, Player, Position};
use tokio::sync::mpsc::UnboundedSender;
use tokio::time::Instant;

use crate::bot::Bot;
use crate::fault::Fault;
use crate::process::Log;
use crate::settings::{MatchError, Settings};
use crate::time_control::{Clocks, Describe};

/// What a game leaves behind besides its record.
pub struct Played {
    /// The record.
    pub record: GameRecord,
    /// Each player's log of stderr and `info` lines.
    pub logs: ByPlayer<Log>,
}

/// A move as it is played, for whoever follows a game live.
#[derive(Clone, Debug, PartialEq)]
pub struct Moved {
    /// The game's number.
    pub game: u32,
    /// The move's place in the game, from 1.
    pub ply: usize,
    /// Who made it.
    pub by: Player,
    /// The move.
    pub mv: Move,
    /// The time it took, in milliseconds, as the record will say.
    pub ms: f64,
}

/// One game to play, besides its bots and the match's settings.
#[derive(Clone, Copy, Debug)]
pub struct GameSpec<'a> {
    /// The game's number in its match or tournament, from 1.
    pub number: u32,
    /// The seed sent to both bots.
    pub seed: u64,
    /// Where it starts.
    pub start: Position,
    /// Keep both processes for the next game (a bot that failed is stopped all the same).
    pub keep_alive: bool,
    /// Told of each move as it is played.
    pub watch: Option<&'a UnboundedSender<Moved>>,
}

impl GameSpec<'_> {
    /// Game `number` with `seed` from the start, the processes stopped after it, unwatched.
    pub fn new(number: u32, seed: u64) -> GameSpec<'static> {
        GameSpec {
            number,
            seed,
            start: Position::START,
            keep_alive: false,
            watch: None,
        }
    }
}

/// Plays one game: the first bot makes the opening give (or moves first from `start`).
pub async fn play_game(
    bots: ByPlayer<&mut Bot>,
    settings: &Settings,
    spec: GameSpec<'_>,
) -> Result<Played, MatchError> {
    let GameSpec {
        number: game,
        seed,
        start,
        keep_alive,
        watch,
    } = spec;
    let mut bots = bots;
    let started_at = SystemTime::now();
    let clock_start = Instant::now();
    let times = bots.as_ref().map(|b| b.spec.time.unwrap_or(settings.time));
    let newgame = |seat: Player| NewGame {
        rules: settings.rules,
        seat,
        seed,
        time: times[seat],
    };
    let ByPlayer { first, second } = bots.as_mut();
    let (a, b) = tokio::join!(
        first.start_game(settings, newgame(Player::First)),
        second.start_game(settings, newgame(Player::Second))
    );
    let (a, b) = match (a, b) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            first.stop(settings.grace).await;
            second.stop(settings.grace).await;
            return Err(e);
        }
    };
    let mut failures: Vec<(Player, Fault, Instant)> = Vec::new();
    if let (Err(f), at) = a {
        failures.push((Player::First, f, at));
    }
    if let (Err(f), at) = b {
        failures.push((Player::Second, f, at));
    }
    failures.sort_by_key(|(_, _, at)| *at);

    let mut pos = start;
    let mut moves = Vec::new();
    let mut moves_ms = Vec::new();
    let mut last: Option<Move> = None;
    let mut clocks = Clocks::new(times);
    if failures.is_empty() {
        while pos.outcome(&settings.rules).is_none() {
            let seat = pos.to_move();
            let go = Go {
                position: pos,
                remaining: pos.remaining(),
                last,
                time: clocks.left(seat),
                optime: clocks.left(seat.other()),
                movetime: clocks.limit(seat),
            };
            if !settings.ponder || !bots[seat.other()].spec.command.ponder {
                // Only the player to move runs.
                bots[seat.other()].pause().await;
            }
            match bots[seat].ask(&go, &settings.rules, settings.margin).await {
                Ok(answer) => {
                    let took_ms = answer.took.as_secs_f64() * 1000.0;
                    clocks.charge(seat, took_ms);
                    moves.push(answer.mv.to_string());
                    moves_ms.push((took_ms * 1000.0).round() / 1000.0);
                    if let Some(w) = watch {
                        let _ = w.send(Moved {
                            game,
                            ply: moves.len(),
                            by: seat,
                            mv: answer.mv,
                            ms: moves_ms[moves_ms.len() - 1],
                        });
                    }
                    last = Some(answer.mv);
                    pos = answer.next;
                }
                Err(f) => {
                    failures.push((seat, f, Instant::now()));
                    break;
                }
            }
        }
    }

    // Both run again, to hear the result and to end.
    for bot in bots.values() {
        bot.resume();
    }

    // The result, and telling both bots.
    let (result, reason, loser) = match failures.first() {
        Some((seat, f, _)) => (
            GameResult::loss_of(*seat),
            EndReason::Forfeit(f.reason),
            Some(*seat),
        ),
        None => match pos.outcome(&settings.rules) {
            Some(Outcome::Win(winner)) => (
                match winner {
                    Player::First => GameResult::FirstWins,
                    Player::Second => GameResult::SecondWins,
                },
                EndReason::Normal,
                Some(winner.other()),
            ),
            _ => (GameResult::Draw, EndReason::Draw, None),
        },
    };
    let detail = failures.first().map(|(_, f, _)| f.detail.clone());
    let faulted = |p: Player| failures.iter().any(|(s, _, _)| *s == p);
    // Each bot that did not fail is told how the game ended.
    let told = ByPlayer::new_with(|p| {
        (!faulted(p)).then(|| ToBot::GameOver {
            result: match loser {
                None => ResultWord::Draw,
                Some(l) if l == p => ResultWord::Loss,
                Some(_) => ResultWord::Win,
            },
            reason: reason.to_string(),
            detail: detail.clone(),
        })
    });

    // Processes: stop the ones that failed, and all of them unless kept alive.
    let entries = bots.as_ref().map(|bot| bot.entry());
    let keep = ByPlayer::new_with(|p| keep_alive && !faulted(p));
    let ByPlayer { first, second } = bots;
    let (ended_first, ended_second) = tokio::join!(
        first.end_game(told.first, keep.first, settings),
        second.end_game(told.second, keep.second, settings)
    );
    let ended = ByPlayer::from([ended_first, ended_second]);
    let leaked = ended.as_ref().map(|(leaked, _)| *leaked);
    let logs = ended.map(|(_, log)| log);
    let record = GameRecord {
        game,
        round: None,
        pair: None,
        event: None,
        event_seed: None,
        rules: settings.rules.to_string(),
        seed,
        time_control: if times.first == times.second {
            Describe(&times.first).to_string()
        } else {
            format!(
                "first {}, second {}",
                Describe(&times.first),
                Describe(&times.second)
            )
        },
        start: start.to_string(),
        first: entries.first,
        second: entries.second,
        moves,
        end: pos.to_string(),
        result,
        reason,
        failures: failures
            .iter()
            .map(|(s, f, _)| Failure {
                seat: *s,
                reason: f.reason,
                detail: f.detail.clone(),
            })
            .collect(),
        timing: Timing {
            started: humantime::format_rfc3339_millis(started_at).to_string(),
            duration_ms: (clock_start.elapsed().as_secs_f64() * 1_000_000.0).round() / 1000.0,
            moves_ms,
            leaked,
            log_bytes: logs.as_ref().map(|l| l.kept.len() as u64),
            log_dropped: logs.as_ref().map(|l| l.dropped),
        },
    };
    Ok(Played { record, logs })
}
