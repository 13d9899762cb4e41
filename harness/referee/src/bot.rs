//! One bot's side of a game: its process across games, the handshake, each game's set-up, a
//! move asked for against its limit, the result told, and the end of the process. The
//! referee's games ([`crate::play_game`]) drive two; `quads play` drives one against a
//! person, through the same calls, so a bot meets a person exactly as it meets a bot.

use std::fmt::Write as _;
use std::time::Duration;

use quads_protocol::{truncate, FromBot, Go, IdKey, NewGame, ToBot, VERSION};
use quads_rules::{Move, Position, Rules};
use tokio::time::Instant;

use crate::fault::{broken, fault, ms, Fault};
use crate::process::{BotCommand, BotProcess, Log, Reply};
use crate::settings::{MatchError, Settings};
use quads_protocol::TimeControl;
use quads_record::{BotEntry, ForfeitReason};

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

/// A bot across the games of a match: its process while alive, and whether it has shaken hands.
pub struct Bot {
    /// The configuration.
    pub spec: BotSpec,
    process: Option<BotProcess>,
    id: Option<String>,
    last_pgid: Option<i32>,
    /// The walls its records name, worked out once: they follow from the spec alone.
    walls: Option<String>,
}

impl Bot {
    /// A seat with no process yet.
    pub fn new(spec: BotSpec) -> Bot {
        let walls = crate::sandbox::enforce(&spec.command.sandbox)
            .ok()
            .map(|(walls, _)| walls.to_string());
        Bot {
            spec,
            process: None,
            id: None,
            last_pgid: None,
            walls,
        }
    }

    /// The process group id of the bot's latest process, running or not.
    pub fn last_pgid(&self) -> Option<i32> {
        self.last_pgid
    }

    /// Ends the process, if any.
    pub async fn stop(&mut self, grace: Duration) -> Option<(crate::process::Shutdown, Log)> {
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
async fn handshake(seat: &mut Bot, limit: Duration) -> Result<Result<(), Fault>, MatchError> {
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
    seat: &mut Bot,
    settings: &Settings,
    game: NewGame,
) -> Result<(Result<(), Fault>, Instant), MatchError> {
    if seat.process.is_none() {
        // The handshake's clock starts once this bot has its place among the bots starting.
        let place = crate::starting::enter().await;
        let process = BotProcess::spawn(&seat.spec.command, settings.log_cap).await?;
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

/// A move a seat made: the move, the position after it, and the time it took from `go`.
#[derive(Clone, Copy, Debug)]
pub struct Answer {
    /// The move.
    pub mv: Move,
    /// The position after it.
    pub next: Position,
    /// From writing `go` to reading the move.
    pub took: Duration,
}

impl Bot {
    /// Starts the bot if it is not running, shakes hands if it has not, and sets up a new game
    /// (`newgame`, `isready`). The bot's fault, if any, comes with when it was seen.
    pub async fn start_game(
        &mut self,
        settings: &Settings,
        game: NewGame,
    ) -> Result<(Result<(), Fault>, Instant), MatchError> {
        prepare(self, settings, game).await
    }

    /// Asks for a move in `go`'s position (`go.movetime` ms, plus `margin`) and checks it under
    /// `rules`. Continues the bot first, in case it was paused.
    pub async fn ask(&mut self, go: &Go, rules: &Rules, margin: Duration) -> Result<Answer, Fault> {
        let p = self
            .process
            .as_mut()
            .expect("a seat asked for a move was started");
        p.resume();
        let limit = go.movetime;
        let pos = go.position;
        let allowed = Duration::from_millis(limit) + margin;
        // Written only when a move is missing: not on every move.
        let limit_text = || format!("{limit} ms (+{} ms margin)", margin.as_millis());
        // Room for the longest `go` line at once, rather than growing the text as it is written.
        let mut line = String::with_capacity(256);
        let _ = write!(line, "{}", ToBot::Go(go.clone()));
        if let Err(gone) = p.send(&line).await {
            return Err(broken(gone, "a move", ForfeitReason::Timeout, limit_text()));
        }
        let sent = Instant::now();
        let reply = p.recv(sent + allowed).await;
        let took = sent.elapsed();
        match reply {
            Reply::Line(_) if took > allowed => Err(fault(
                ForfeitReason::Timeout,
                format!("no move within {}", limit_text()),
            )),
            Reply::Line(line) => match line.parse::<FromBot>() {
                Ok(FromBot::Move(mv)) => pos
                    .play(mv, rules)
                    .map(|next| Answer { mv, next, took })
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
            other => Err(broken(
                other,
                "a move",
                ForfeitReason::Timeout,
                limit_text(),
            )),
        }
    }

    /// Stops the bot and what it started (SIGSTOP) until it is asked for a move: no pondering.
    pub async fn pause(&self) {
        if let Some(p) = self.process.as_ref() {
            p.pause().await;
        }
    }

    /// Continues a paused bot.
    pub fn resume(&self) {
        if let Some(p) = self.process.as_ref() {
            p.resume();
        }
    }

    /// After a game: tells the bot how it ended (`told`, a `gameover`, if any), then keeps it
    /// alive when `keep` (and it is healthy), otherwise ends it. Returns the number of leaked
    /// processes that had to be killed, and the game's log.
    pub async fn end_game(
        &mut self,
        told: Option<ToBot>,
        keep: bool,
        settings: &Settings,
    ) -> (u32, Log) {
        finish(self, told, keep, settings.grace, settings.setup_timeout).await
    }

    /// The bot as a record names it: its name, command, id and walls.
    pub fn entry(&self) -> BotEntry {
        BotEntry {
            name: self.spec.name.clone(),
            command: self.spec.command.display(),
            id: self.id.clone(),
            sandbox: self.walls.clone(),
            ponder: (!self.spec.command.ponder).then_some(false),
            version: None,
        }
    }
}

/// After a game: keeps a healthy bot alive when asked to, otherwise ends it. Returns the number
/// of leaked processes that had to be killed, and the game's log.
async fn finish(
    seat: &mut Bot,
    told: Option<ToBot>,
    keep: bool,
    grace: Duration,
    sync: Duration,
) -> (u32, Log) {
    if keep {
        if let Some(p) = seat.process.as_mut() {
            if !p.has_exited() {
                // What the bot writes while it handles `gameover` belongs to this game's log:
                // once it answers `isready`, that is written, and read once its pipe is empty.
                // `gameover` and `isready` go in one write: one wake-up of the bot, not two.
                let lines = match &told {
                    Some(gameover) => format!("{gameover}\n{}", ToBot::IsReady),
                    None => ToBot::IsReady.to_string(),
                };
                if p.send(&lines).await.is_ok() {
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
    if let (Some(gameover), Some(p)) = (told, seat.process.as_mut()) {
        let _ = p.send(&gameover.to_string()).await;
    }
    match seat.stop(grace).await {
        Some((ended, log)) => (ended.leaked, log),
        None => (0, Log::default()),
    }
}
