//! One game between two bot processes: handshakes, set-up, turns against the clock, the end,
//! and a record of all of it. Whatever a bot does wrong becomes a forfeit in the record.

use std::time::{Duration, SystemTime};

use quads_protocol::{
    truncate, FromBot, Go, IdKey, NewGame, ResultWord, TimeControl, ToBot, VERSION,
};
use quads_rules::{Move, Outcome, Player, Position, Rules};
use tokio::time::Instant;

use crate::defaults;
use crate::fault::{broken, fault, ms, Fault};
use crate::process::{BotCommand, BotProcess, Log, Reply, SpawnError};
use crate::time_control::{Clocks, Describe};
use quads_record::Seat as Side;
use quads_record::{BotEntry, Failure, ForfeitReason, GameRecord, GameResult, Reason, Timing};

/// A bot as configured: a name, how to start it, and the options to set.
#[derive(Clone, Debug)]
pub struct BotSpec {
    /// The name used in results.
    pub name: String,
    /// How to start it.
    pub command: BotCommand,
    /// Options to set after the handshake, by name.
    pub options: Vec<(String, String)>,
    /// A time control of its own, instead of the match's.
    pub time: Option<TimeControl>,
}

/// Limits and sizes that apply to every game.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The rules.
    pub rules: Rules,
    /// The time control.
    pub time: TimeControl,
    /// Extra time allowed past each move's limit for scheduling delays.
    pub margin: Duration,
    /// The limit for the handshake, up to `readyok`.
    pub handshake_timeout: Duration,
    /// The limit for `newgame` set-up, up to `readyok`.
    pub setup_timeout: Duration,
    /// The grace after `quit`, and again after SIGTERM.
    pub grace: Duration,
    /// The most of a bot's stderr kept per game.
    pub log_cap: usize,
    /// Whether a bot may think while its opponent does. If not, its process group is stopped
    /// (SIGSTOP) from its move until its next turn (SIGCONT), so it cannot take CPU from the
    /// opponent.
    pub ponder: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            rules: Rules::QUADS,
            time: TimeControl {
                movetime: Some(defaults::MOVETIME.as_millis() as u64),
                base: None,
                inc: 0,
            },
            margin: defaults::MARGIN,
            handshake_timeout: defaults::HANDSHAKE,
            setup_timeout: defaults::SETUP,
            grace: defaults::GRACE,
            log_cap: defaults::LOG_CAP,
            ponder: true,
        }
    }
}

/// A problem that stops a match: the user's, not a bot's.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// A bot command cannot be started.
    #[error(transparent)]
    Spawn(#[from] SpawnError),
    /// A configured option does not exist.
    #[error("bot `{bot}`: {problem}")]
    Option {
        /// The bot.
        bot: String,
        /// What is wrong.
        problem: String,
    },
    /// A configured option's value does not fit its declared type.
    #[error("bot `{bot}`: {source}")]
    OptionValue {
        /// The bot.
        bot: String,
        /// What the option takes.
        #[source]
        source: quads_protocol::BadOptionValue,
    },
    /// The output could not be written.
    #[error("cannot write {path}: {source}")]
    Output {
        /// The file.
        path: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}

/// A bot across the games of a match: its process while alive, and whether it has shaken hands.
pub struct Seat {
    /// The configuration.
    pub spec: BotSpec,
    process: Option<BotProcess>,
    id: Option<String>,
    last_pgid: Option<i32>,
}

impl Seat {
    /// A seat with no process yet.
    pub fn new(spec: BotSpec) -> Seat {
        Seat {
            spec,
            process: None,
            id: None,
            last_pgid: None,
        }
    }

    /// The process group id of the bot's latest process, running or not.
    pub fn last_pgid(&self) -> Option<i32> {
        self.last_pgid
    }

    /// Ends the process, if any.
    pub async fn stop(&mut self, grace: Duration) -> Option<(crate::process::Ended, Log)> {
        let process = self.process.take()?;
        self.id = None;
        Some(process.shutdown(grace).await)
    }
}

/// Waits for `want` (`quadsok` or `readyok`), skipping `info`; returns the other lines that
/// `accept` takes, or a fault.
async fn expect(
    p: &mut BotProcess,
    deadline: Instant,
    limit: Duration,
    want: &FromBot,
    mut accept: impl FnMut(&FromBot) -> Result<bool, Fault>,
) -> Result<(), Fault> {
    let name = want.to_string();
    loop {
        match p.recv(deadline).await {
            Reply::Line(line) => match line.parse::<FromBot>() {
                Ok(msg) if &msg == want => return Ok(()),
                Ok(msg) => {
                    if !accept(&msg)? {
                        return Err(fault(
                            ForfeitReason::Handshake,
                            format!(
                                "unexpected `{}` while waiting for {name}",
                                truncate(&line, 200)
                            ),
                        ));
                    }
                }
                Err(e) => {
                    return Err(fault(
                        ForfeitReason::Handshake,
                        format!("{e} while waiting for {name}"),
                    ))
                }
            },
            other => return Err(broken(other, &name, ForfeitReason::Handshake, ms(limit))),
        }
    }
}

/// The handshake: `quads 1` … `quadsok`, options, `isready` … `readyok`.
async fn handshake(seat: &mut Seat, limit: Duration) -> Result<Result<(), Fault>, MatchError> {
    let p = seat.process.as_mut().expect("spawned");
    let deadline = Instant::now() + limit;
    if let Err(gone) = p.send(&ToBot::Quads { version: VERSION }.to_string()).await {
        return Ok(Err(broken(
            gone,
            "quadsok",
            ForfeitReason::Handshake,
            ms(limit),
        )));
    }
    let mut id = None;
    let mut declared = Vec::new();
    let answer = expect(p, deadline, limit, &FromBot::QuadsOk, |msg| match msg {
        FromBot::Id {
            key: IdKey::Name,
            value,
        } => {
            id = Some(value.clone());
            Ok(true)
        }
        FromBot::Id { .. } => Ok(true),
        FromBot::Option(decl) => {
            declared.push(decl.clone());
            Ok(true)
        }
        FromBot::Unsupported => Err(fault(
            ForfeitReason::UnsupportedVersion,
            format!("the bot does not speak protocol version {VERSION}"),
        )),
        _ => Ok(false),
    })
    .await;
    if let Err(f) = answer {
        return Ok(Err(f));
    }
    for (name, value) in &seat.spec.options {
        let Some(decl) = declared.iter().find(|d| &d.name == name) else {
            let names: Vec<&str> = declared.iter().map(|d| d.name.as_str()).collect();
            return Err(MatchError::Option {
                bot: seat.spec.name.clone(),
                problem: format!(
                    "no option `{name}` (the bot declares: {})",
                    if names.is_empty() {
                        "none".to_owned()
                    } else {
                        names.join(", ")
                    }
                ),
            });
        };
        decl.check(value)
            .map_err(|source| MatchError::OptionValue {
                bot: seat.spec.name.clone(),
                source,
            })?;
        let line = ToBot::SetOption {
            name: name.clone(),
            value: value.clone(),
        }
        .to_string();
        if let Err(gone) = p.send(&line).await {
            return Ok(Err(broken(
                gone,
                "readyok",
                ForfeitReason::Handshake,
                ms(limit),
            )));
        }
    }
    seat.id = id;
    Ok(ready(p, deadline, limit).await)
}

async fn ready(p: &mut BotProcess, deadline: Instant, limit: Duration) -> Result<(), Fault> {
    if let Err(gone) = p.send(&ToBot::IsReady.to_string()).await {
        return Err(broken(gone, "readyok", ForfeitReason::Handshake, ms(limit)));
    }
    expect(p, deadline, limit, &FromBot::ReadyOk, |_| Ok(false)).await
}

/// Starts (if needed), shakes hands (if needed) and sets up a new game for one seat.
async fn prepare(
    seat: &mut Seat,
    settings: &Settings,
    game: NewGame,
) -> Result<(Result<(), Fault>, Instant), MatchError> {
    if seat.process.is_none() {
        // The handshake's clock starts once this bot has its place among the bots starting.
        let place = crate::starting::enter().await;
        let process = BotProcess::spawn(&seat.spec.command, settings.log_cap)?;
        seat.last_pgid = Some(process.pgid());
        seat.process = Some(process);
        let shaken = handshake(seat, settings.handshake_timeout).await?;
        drop(place);
        if let Err(f) = shaken {
            return Ok((Err(f), Instant::now()));
        }
    }
    let p = seat.process.as_mut().expect("spawned");
    let limit = settings.setup_timeout;
    let deadline = Instant::now() + limit;
    // `newgame` and `isready` in one write: one wake-up of the bot instead of two.
    let lines = format!("{}\n{}", ToBot::NewGame(game), ToBot::IsReady);
    if let Err(gone) = p.send(&lines).await {
        return Ok((
            Err(broken(gone, "readyok", ForfeitReason::Handshake, ms(limit))),
            Instant::now(),
        ));
    }
    let result = expect(p, deadline, limit, &FromBot::ReadyOk, |_| Ok(false)).await;
    Ok((result, Instant::now()))
}

/// What a game leaves behind besides its record.
pub struct Played {
    /// The record.
    pub record: GameRecord,
    /// Per seat (first, second): the log of stderr and `info` lines.
    pub logs: [Log; 2],
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
        prepare(first, settings, newgame(Player::First)),
        prepare(second, settings, newgame(Player::Second))
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
            let go = ToBot::Go(Go {
                position: pos,
                remaining: pos.remaining(),
                last,
                time: clocks.left(seat),
                optime: clocks.left(1 - seat),
                movetime: limit,
            });
            if !settings.ponder {
                // Only the player to move runs.
                if let Some(other) = seats[1 - seat].process.as_ref() {
                    other.pause().await;
                }
            }
            let p = seats[seat].process.as_mut().expect("prepared");
            p.resume();
            let allowed = Duration::from_millis(limit) + settings.margin;
            let limit_text = format!("{limit} ms (+{} ms margin)", settings.margin.as_millis());
            if let Err(gone) = p.send(&go.to_string()).await {
                failures.push((
                    seat,
                    broken(gone, "a move", ForfeitReason::Timeout, limit_text),
                    Instant::now(),
                ));
                break;
            }
            let sent = Instant::now();
            let reply = p.recv(sent + allowed).await;
            let took = sent.elapsed();
            let outcome = match reply {
                Reply::Line(_) if took > allowed => Err(fault(
                    ForfeitReason::Timeout,
                    format!("no move within {limit_text}"),
                )),
                Reply::Line(line) => match line.parse::<FromBot>() {
                    Ok(FromBot::Move(mv)) => pos
                        .play(mv, &settings.rules)
                        .map(|next| (mv, next))
                        .map_err(|e| {
                            fault(
                                ForfeitReason::IllegalMove,
                                format!("`{mv}` in `{pos}`: {}", e.reason),
                            )
                        }),
                    Ok(_) => Err(fault(
                        ForfeitReason::Malformed,
                        format!("`{}` while waiting for a move", truncate(&line, 200)),
                    )),
                    Err(e) => Err(fault(ForfeitReason::Malformed, e.to_string())),
                },
                other => Err(broken(other, "a move", ForfeitReason::Timeout, limit_text)),
            };
            match outcome {
                Ok((mv, next)) => {
                    let took_ms = took.as_secs_f64() * 1000.0;
                    clocks.charge(seat, took_ms);
                    moves.push(mv.to_string());
                    moves_ms.push((took_ms * 1000.0).round() / 1000.0);
                    last = Some(mv);
                    pos = next;
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
        if let Some(p) = seat.process.as_ref() {
            p.resume();
        }
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
        let msg = ToBot::GameOver {
            result: word,
            reason: reason.to_string(),
            detail: detail.clone(),
        };
        if let Some(p) = seat.process.as_mut() {
            let _ = p.send(&msg.to_string()).await;
        }
    }

    // Processes: stop the ones that failed, and all of them unless kept alive.
    let entries = seats.each_ref().map(|seat| BotEntry {
        name: seat.spec.name.clone(),
        command: seat.spec.command.display(),
        id: seat.id.clone(),
        sandbox: crate::sandbox::enforce(&seat.spec.command.sandbox)
            .ok()
            .map(|(walls, _)| walls.to_string()),
    });
    let [first, second] = seats;
    let ((leaked0, log0), (leaked1, log1)) = tokio::join!(
        finish(
            first,
            keep_alive && !faulted.contains(&0),
            settings.grace,
            settings.setup_timeout
        ),
        finish(
            second,
            keep_alive && !faulted.contains(&1),
            settings.grace,
            settings.setup_timeout
        )
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

/// After a game: keeps a healthy bot alive when asked to, otherwise ends it. Returns the number
/// of leaked processes that had to be killed, and the game's log.
async fn finish(seat: &mut Seat, keep: bool, grace: Duration, sync: Duration) -> (u32, Log) {
    if keep {
        if let Some(p) = seat.process.as_mut() {
            if !p.has_exited() {
                // What the bot writes while it handles `gameover` belongs to this game's log:
                // once it answers `isready`, that is written, and read once its pipe is empty.
                if p.send(&ToBot::IsReady.to_string()).await.is_ok() {
                    let deadline = Instant::now() + sync;
                    while let Reply::Line(line) = p.recv(deadline).await {
                        if line.trim() == "readyok" {
                            break;
                        }
                    }
                }
                p.settle_log().await;
                return (0, p.take_log());
            }
        }
    }
    match seat.stop(grace).await {
        Some((ended, log)) => (ended.leaked, log),
        None => (0, Log::default()),
    }
}
