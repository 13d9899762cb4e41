//! A scenario's conversation with its bot: every line kept for the report, every answer
//! checked against the protocol and the rules, every move judged for warnings.

use std::time::Duration;

use quads_protocol::{FromBot, Go, NewGame, ResultWord, TimeControl, ToBot, VERSION};
use quads_rules::{Move, Player, Position, Rules};
use tokio::time::Instant;

use super::{judge, CheckConfig, Direction, Line, Scenario, ScenarioReport};
use crate::defaults;
use crate::process::{BotProcess, Reply};

/// Why a scenario stopped: the hint for the bot's author.
pub(super) type Failed = String;

pub(super) struct Talk {
    bot: BotProcess,
    exchange: Vec<Line>,
    warnings: Vec<String>,
    /// The limit for each move.
    pub(super) movetime: Duration,
    handshake: Duration,
    /// Options the bot declared in its handshake.
    pub(super) options: Vec<quads_protocol::OptionDecl>,
    /// Whether the scenario sent `quit` itself.
    quit_sent: bool,
    /// The rules the check was asked for (empty: the defaults).
    pub(super) rules: Vec<Rules>,
}

impl Talk {
    pub(super) fn new(bot: BotProcess, config: &CheckConfig) -> Talk {
        Talk {
            bot,
            exchange: Vec::new(),
            warnings: Vec::new(),
            movetime: config.movetime,
            handshake: config.handshake,
            options: Vec::new(),
            quit_sent: false,
            rules: config.rules.clone(),
        }
    }

    pub(super) fn ms(&self) -> u64 {
        self.movetime.as_millis() as u64
    }

    pub(super) async fn send(&mut self, message: &ToBot) -> Result<(), Failed> {
        let text = message.to_string();
        self.quit_sent |= matches!(message, ToBot::Quit);
        self.exchange.push(Line {
            direction: Direction::Sent,
            text: text.clone(),
        });
        self.bot
            .send(&text)
            .await
            .map_err(|gone| unsent(gone, &text))
    }

    /// The next line that is not `info`, within `limit`.
    async fn receive(&mut self, waiting_for: &str, limit: Duration) -> Result<String, Failed> {
        let deadline = Instant::now() + limit;
        match self.bot.recv(deadline).await {
            Reply::Line(text) => {
                self.exchange.push(Line {
                    direction: Direction::Received,
                    text: text.clone(),
                });
                Ok(text)
            }
            other => Err(describe(other, waiting_for)),
        }
    }

    /// The handshake, up to `quadsok`; `id` and `option` lines are checked on the way and the
    /// options kept.
    pub(super) async fn handshake(&mut self) -> Result<(), Failed> {
        self.send(&ToBot::Quads { version: VERSION }).await?;
        loop {
            let line = self.receive("`quadsok`", self.handshake).await?;
            match line.parse::<FromBot>() {
                Ok(FromBot::QuadsOk) => return Ok(()),
                Ok(FromBot::Id { .. }) => {}
                Ok(FromBot::Option(decl)) => {
                    if self.options.iter().any(|o| o.name == decl.name) {
                        return Err(format!(
                            "option `{}` is declared twice: declare each option once",
                            decl.name
                        ));
                    }
                    self.options.push(decl);
                }
                Ok(FromBot::Unsupported) => {
                    return Err("the bot answered `unsupported` to `quads 1`: it must speak version 1".to_owned())
                }
                Ok(other) => {
                    return Err(format!(
                        "during the handshake only `id`, `option` and `info` lines may come before `quadsok`, not `{other}`"
                    ))
                }
                Err(e) if line.trim_start().starts_with("option") => {
                    return Err(format!(
                        "`{line}` is not a valid option: {} (e.g. `option name depth type spin default 3 min 1 max 8`, `option name fast type check default false`)",
                        e.problem
                    ))
                }
                Err(e) => return Err(format!("`{line}` is not a handshake line: {}", e.problem)),
            }
        }
    }

    pub(super) async fn ready(&mut self) -> Result<(), Failed> {
        self.send(&ToBot::IsReady).await?;
        let line = self.receive("`readyok`", self.handshake).await?;
        match line.trim() {
            "readyok" => Ok(()),
            other if other.starts_with("move") => Err(format!(
                "`{other}` came where `readyok` was due: one reply per request, and only `info` lines besides (log to stderr)"
            )),
            other => Err(format!(
                "the answer to `isready` is `readyok`, not `{other}` (stdout carries protocol lines only; log to stderr or with `info `)"
            )),
        }
    }

    /// `gameover` with this result.
    pub(super) async fn game_over(&mut self, result: ResultWord) -> Result<(), Failed> {
        let reason = match result {
            ResultWord::Draw => "draw",
            _ => "normal",
        };
        self.send(&ToBot::GameOver {
            result,
            reason: reason.to_owned(),
            detail: None,
        })
        .await
    }

    /// `newgame` in `seat` under `rules` with a per-move limit, then `isready`.
    pub(super) async fn new_game(&mut self, rules: Rules, seat: Player) -> Result<(), Failed> {
        let time = TimeControl {
            movetime: Some(self.ms()),
            base: None,
            inc: 0,
        };
        self.new_game_timed(rules, seat, time).await
    }

    /// `newgame` with the time control given, then `isready`.
    pub(super) async fn new_game_timed(
        &mut self,
        rules: Rules,
        seat: Player,
        time: TimeControl,
    ) -> Result<(), Failed> {
        self.send(&ToBot::NewGame(NewGame {
            rules,
            seat,
            seed: 1,
            time,
        }))
        .await?;
        self.ready().await
    }

    /// `go` from `position` after the opponent's `last` move; returns the move, checked
    /// against the rules and judged for warnings.
    pub(super) async fn go_after(
        &mut self,
        position: Position,
        last: Option<Move>,
        rules: &Rules,
    ) -> Result<Move, Failed> {
        let ms = self.ms();
        self.go_full(
            Go {
                remaining: position.remaining(),
                position,
                last,
                time: None,
                optime: None,
                movetime: ms,
            },
            rules,
        )
        .await
    }

    /// `go` from `position` with no last move.
    pub(super) async fn go(&mut self, position: Position, rules: &Rules) -> Result<Move, Failed> {
        self.go_after(position, None, rules).await
    }

    /// Sends `go` as given; returns the bot's move once checked and judged.
    pub(super) async fn go_full(&mut self, go: Go, rules: &Rules) -> Result<Move, Failed> {
        let position = go.position;
        let limit = Duration::from_millis(go.movetime);
        self.send(&ToBot::Go(go)).await?;
        let asked = Instant::now();
        let line = self.receive("`move …`", limit + defaults::MARGIN).await?;
        let took = asked.elapsed();
        let mv = read_move(&line)?;
        position
            .play(mv, rules)
            .map_err(|e| format!("`{mv}` is not legal here: {}", e.reason))?;
        self.warnings
            .extend(judge::judge(&position, mv, rules, took, limit));
        Ok(mv)
    }

    /// The report, once the bot is shut down: a bot still running after `quit` fails the
    /// scenario that sent it, and standard error past the log cap is a warning.
    pub(super) async fn finish(
        mut self,
        scenario: Scenario,
        outcome: Result<(), Failed>,
    ) -> ScenarioReport {
        let quit_sent = self.quit_sent;
        if !quit_sent {
            let _ = self.send(&ToBot::Quit).await;
        }
        let (ended, log) = self.bot.shutdown(defaults::GRACE).await;
        let failure = match outcome {
            Err(hint) => Some(hint),
            Ok(()) if quit_sent && (ended.terminated || ended.killed) => Some(format!(
                "the process was still running {} ms after `quit`: exit when you read it",
                defaults::GRACE.as_millis()
            )),
            Ok(()) => None,
        };
        if log.dropped > 0 {
            self.warnings.push(format!(
                "{} bytes of stderr in one short scenario: a game keeps the first {} and drops the rest",
                log.kept.len() as u64 + log.dropped,
                defaults::LOG_CAP
            ));
        }
        let mut warnings = self.warnings;
        if warnings.len() > MAX_WARNINGS {
            let more = warnings.len() - MAX_WARNINGS;
            warnings.truncate(MAX_WARNINGS);
            warnings.push(format!("and {more} more in this scenario"));
        }
        ScenarioReport {
            name: scenario.name(),
            failure,
            warnings,
            exchange: self.exchange,
            run: true,
        }
    }
}

/// Warnings shown per scenario; the rest are counted.
const MAX_WARNINGS: usize = 3;

/// The move in a reply to `go`, or a hint about its form.
fn read_move(line: &str) -> Result<Move, Failed> {
    let Some(text) = line.trim().strip_prefix("move ") else {
        if line.trim_start().to_ascii_lowercase().starts_with("info") {
            return Err(format!(
                "`{line}` is not an `info` line: it starts with the word `info` in lower case at the very start of the line, then a space"
            ));
        }
        return Err(format!(
            "the answer to `go` is `move …`, e.g. `move D2 BLQF`, not `{line}`"
        ));
    };
    text.trim().parse().map_err(|e| {
        format!("`{text}` is not a move: {e} (a move names the square first: `move D2 BLQF`)")
    })
}

/// A bot that did not answer, in its author's terms.
/// Why a line could not be sent: the bot was gone before it could read it.
fn unsent(gone: Reply, line: &str) -> Failed {
    match gone {
        Reply::Exited(exit) => format!(
            "the bot {} before the referee could send `{line}`{}",
            crate::describe_exit(exit.status),
            if line.starts_with("quads ") { crate::fault::last_words(&exit) } else { String::new() }
        ),
        _ => format!(
            "the bot stopped reading its stdin (closed it, or left it full for 5 s) before the referee could send `{line}`"
        ),
    }
}

fn describe(reply: Reply, waiting_for: &str) -> Failed {
    match reply {
        Reply::Timeout => {
            format!("nothing on stdout while waiting for {waiting_for}: did you flush?")
        }
        // Gone before its handshake: what it said last, and what it could read, tell why.
        Reply::Exited(exit) => format!(
            "the bot {} while the referee waited for {waiting_for}{}",
            crate::describe_exit(exit.status),
            if waiting_for.contains("quadsok") {
                crate::fault::last_words(&exit)
            } else {
                String::new()
            }
        ),
        Reply::Closed => {
            format!("the bot closed stdout while the referee waited for {waiting_for}")
        }
        Reply::TooLong(_) => "a line longer than the protocol allows (64 KiB)".to_owned(),
        Reply::Line(text) => format!("`{text}` while the referee waited for {waiting_for}"),
    }
}
