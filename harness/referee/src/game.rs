//! One game between two bot processes: both seats set up, turns against the clock, the end,
//! and a record of all of it. Whatever a bot does wrong becomes a forfeit in the record. Each
//! seat's side of it (the handshake, a move, the result) is in `seat.rs`.

use std::time::SystemTime;

use quads_protocol::{Go, NewGame, ResultWord};
use quads_rules::{Move, Outcome, Player, Position};
use tokio::time::Instant;

use crate::fault::Fault;
use crate::process::Log;
use crate::seat::Seat;
use crate::settings::{MatchError, Settings};
use crate::time_control::{Clocks, Describe};
use quads_record::Seat as Side;
use quads_record::{Failure, GameRecord, GameResult, Reason, Timing};

/// What a game leaves behind besides its record.
pub struct Played {
    /// The record.
    pub record: GameRecord,
    /// Per seat (first, second): the log of stderr and `info` lines.
    pub logs: [Log; 2],
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

/// Plays one game: `first` makes the opening give (or moves first from `start`).
pub async fn play_game(
    first: &mut Seat,
    second: &mut Seat,
    settings: &Settings,
    game: u32,
    seed: u64,
    start: Position,
    keep_alive: bool,
) -> Result<Played, MatchError> {
    play_watched(first, second, settings, game, seed, start, keep_alive, None).await
}

/// [`play_game`], telling `watch` of each move as it is played.
#[expect(
    clippy::too_many_arguments,
    reason = "play_game's arguments and the watcher; a struct for them is issue 25's next step"
)]
pub async fn play_watched(
    first: &mut Seat,
    second: &mut Seat,
    settings: &Settings,
    game: u32,
    seed: u64,
    start: Position,
    keep_alive: bool,
    watch: Option<&tokio::sync::mpsc::UnboundedSender<Moved>>,
) -> Result<Played, MatchError> {
    let started_at = SystemTime::now();
    let clock_start = Instant::now();
    let times = [first.spec.time, second.spec.time].map(|t| t.unwrap_or(settings.time));
    let newgame = |seat| NewGame {
        rules: settings.rules,
        seat,
        seed,
        time: times[usize::from(seat == Player::Second)],
    };
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
    let mut failures: Vec<(usize, Fault, Instant)> = Vec::new();
    if let (Err(f), at) = a {
        failures.push((0, f, at));
    }
    if let (Err(f), at) = b {
        failures.push((1, f, at));
    }
    failures.sort_by_key(|(_, _, at)| *at);

    let mut seats: [&mut Seat; 2] = [first, second];
    let mut pos = start;
    let mut moves = Vec::new();
    let mut moves_ms = Vec::new();
    let mut last: Option<Move> = None;
    let mut clocks = Clocks::new(times);
    if failures.is_empty() {
        while pos.outcome(&settings.rules).is_none() {
            let seat = match pos.to_move() {
                Player::First => 0,
                Player::Second => 1,
            };
            let limit = clocks.limit(seat);
            let go = Go {
                position: pos,
                remaining: pos.remaining(),
                last,
                time: clocks.left(seat),
                optime: clocks.left(1 - seat),
                movetime: limit,
            };
            if !settings.ponder || !seats[1 - seat].spec.command.ponder {
                // Only the player to move runs.
                seats[1 - seat].pause().await;
            }
            match seats[seat].ask(&go, &settings.rules, settings.margin).await {
                Ok(answer) => {
                    let took_ms = answer.took.as_secs_f64() * 1000.0;
                    clocks.charge(seat, took_ms);
                    moves.push(answer.mv.to_string());
                    moves_ms.push((took_ms * 1000.0).round() / 1000.0);
                    if let Some(w) = watch {
                        let _ = w.send(Moved {
                            game,
                            ply: moves.len(),
                            by: pos.to_move(),
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
    for seat in &seats {
        seat.resume();
    }

    // The result, and telling both bots.
    let (result, reason, loser) = match failures.first() {
        Some((seat, f, _)) => (
            GameResult::loss_of(Side::from_index(*seat)),
            Reason::Forfeit(f.reason),
            Some(*seat),
        ),
        None => match pos.outcome(&settings.rules) {
            Some(Outcome::Win(Player::First)) => (GameResult::FirstWins, Reason::Normal, Some(1)),
            Some(Outcome::Win(Player::Second)) => (GameResult::SecondWins, Reason::Normal, Some(0)),
            _ => (GameResult::Draw, Reason::Draw, None),
        },
    };
    let detail = failures.first().map(|(_, f, _)| f.detail.clone());
    let faulted: Vec<usize> = failures.iter().map(|(s, _, _)| *s).collect();
    for (i, seat) in seats.iter_mut().enumerate() {
        if faulted.contains(&i) {
            continue;
        }
        let word = match loser {
            None => ResultWord::Draw,
            Some(l) if l == i => ResultWord::Loss,
            Some(_) => ResultWord::Win,
        };
        seat.tell_result(word, reason.to_string(), detail.clone())
            .await;
    }

    // Processes: stop the ones that failed, and all of them unless kept alive.
    let entries = seats.each_ref().map(|seat| seat.entry());
    let [first, second] = seats;
    let ((leaked0, log0), (leaked1, log1)) = tokio::join!(
        first.end_game(keep_alive && !faulted.contains(&0), settings),
        second.end_game(keep_alive && !faulted.contains(&1), settings)
    );
    let leaked = [leaked0, leaked1];
    let logs = [log0, log1];
    let [first_entry, second_entry] = entries;
    let record = GameRecord {
        game,
        round: None,
        pair: None,
        event: None,
        event_seed: None,
        rules: settings.rules.to_string(),
        seed,
        time_control: if times[0] == times[1] {
            Describe(&times[0]).to_string()
        } else {
            format!(
                "first {}, second {}",
                Describe(&times[0]),
                Describe(&times[1])
            )
        },
        start: start.to_string(),
        first: first_entry,
        second: second_entry,
        moves,
        end: pos.to_string(),
        result,
        reason,
        failures: failures
            .iter()
            .map(|(s, f, _)| Failure {
                seat: Side::from_index(*s),
                reason: f.reason,
                detail: f.detail.clone(),
            })
            .collect(),
        timing: Timing {
            started: humantime::format_rfc3339_millis(started_at).to_string(),
            duration_ms: (clock_start.elapsed().as_secs_f64() * 1_000_000.0).round() / 1000.0,
            moves_ms,
            leaked,
            log_bytes: [logs[0].kept.len() as u64, logs[1].kept.len() as u64],
            log_dropped: [logs[0].dropped, logs[1].dropped],
        },
    };
    Ok(Played { record, logs })
}
