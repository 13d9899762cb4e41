//! A scenario's conversation with its bot: every line kept for the report, every answer
//! checked against the protocol and the rules, every move judged for warnings.

use std::time::Duration;

use quads_protocol::{FromBot, Go, NewGame, ResultWord, TimeControl, ToBot, VERSION};
use quads_rules::{Move, Player, Position, Rules};
use tokio::time::Instant;

use super::{judge, CheckConfig, Direction, Line, Scenario, ScenarioReport};
use crate::defaults;
use crate::process::{BotProcess, Reply};

/// Why a scenario stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Failed {
    /// The hint for the bot's author, quoting what the bot said or wrote where it helps.
    pub(super) hint: String,
    /// What failed in the referee's own words, never a byte of the bot's output: what anyone
    /// may be shown (a competition's public pages).
    pub(super) kind: String,
}

impl Failed {
    pub(super) fn new(hint: String, kind: impl Into<String>) -> Failed {
        Failed {
            hint,
            kind: kind.into(),
        }
    }
}

/// The kind of an illegal move's failure (a scenario adds what the position needed).
pub(super) const ILLEGAL: &str = "an illegal move";

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
        match self.bot.send(&text).await {
            Ok(()) => Ok(()),
            // An exit is told by the next answer awaited ("… while the referee waited for
            // `readyok`"), the same words whether the write lost the race with the exit or
            // not: a bot that exits on reading `newgame` gets one verdict, not two by timing.
            Err(Reply::Exited(_)) => Ok(()),
            Err(_) => Err(unsent(&text)),
        }
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
                        return Err(Failed::new(
                            format!(
                                "option `{}` is declared twice: declare each option once",
                                decl.name
                            ),
                            "an option declared twice at the handshake",
                        ));
                    }
                    self.options.push(decl);
                }
                Ok(FromBot::Unsupported) => {
                    return Err(Failed::new("the bot answered `unsupported` to `quads 1`: it must speak version 1".to_owned(), "`unsupported` answered to `quads 1` at the handshake"))
                }
                Ok(other) => {
                    return Err(Failed::new(format!(
                        "during the handshake only `id`, `option` and `info` lines may come before `quadsok`, not `{other}`"
                    ), "a line that does not belong in the handshake"))
                }
                Err(e) if line.trim_start().starts_with("option") => {
                    return Err(Failed::new(format!(
                        "`{line}` is not a valid option: {} (e.g. `option name depth type spin default 3 min 1 max 8`, `option name fast type check default false`)",
                        e.problem
                    ), "an option line that is not valid at the handshake"))
                }
                Err(e) => {
                    return Err(Failed::new(
                        format!("`{line}` is not a handshake line: {}", e.problem),
                        "a line that is not a handshake line",
                    ))
                }
            }
        }
    }

    pub(super) async fn ready(&mut self) -> Result<(), Failed> {
        self.send(&ToBot::IsReady).await?;
        let line = self.receive("`readyok`", self.handshake).await?;
        match line.trim() {
            "readyok" => Ok(()),
            other if other.starts_with("move") => Err(Failed::new(format!(
                "`{other}` came where `readyok` was due: one reply per request, and only `info` lines besides (log to stderr)"
            ), "a move where `readyok` was due")),
            other => Err(Failed::new(format!(
                "the answer to `isready` is `readyok`, not `{other}` (stdout carries protocol lines only; log to stderr or with `info `)"
            ), "an answer to `isready` that is not `readyok`")),
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
            .map_err(|e| Failed::new(format!("`{mv}` is not legal here: {}", e.reason), ILLEGAL))?;
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
        let (ended, log) = self.bot.shutdown(defaults::CHECK_QUIT).await;
        let failure = match outcome {
            Err(failed) => Some(failed),
            Ok(()) if quit_sent && (ended.terminated || ended.killed) => Some(Failed::new(
                format!(
                    "the process was still running {} ms after `quit`: exit when you read it",
                    defaults::CHECK_QUIT.as_millis()
                ),
                format!(
                    "the process was still running {} ms after `quit`",
                    defaults::CHECK_QUIT.as_millis()
                ),
            )),
            Ok(()) => None,
        };
        let (failure, failure_kind) = match failure {
            Some(f) => (Some(f.hint), Some(f.kind)),
            None => (None, None),
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
            failure_kind,
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
            return Err(Failed::new(format!(
                "`{line}` is not an `info` line: it starts with the word `info` in lower case at the very start of the line, then a space"
            ), "a line that is neither a move nor an `info` line"));
        }
        return Err(Failed::new(
            format!("the answer to `go` is `move …`, e.g. `move D2 BLQF`, not `{line}`"),
            "an answer to `go` that is not `move …`",
        ));
    };
    text.trim().parse().map_err(|e| {
        Failed::new(
            format!("`{text}` is not a move: {e} (a move names the square first: `move D2 BLQF`)"),
            "an answer to `go` that is not a move",
        )
    })
}

/// Why a line could not be sent to a bot still running: it closed its stdin, or stopped
/// reading it. (A bot that exited is told by the answer awaited next: see `Talk::send`.)
fn unsent(line: &str) -> Failed {
    // The referee's own line, by its first word: never anything of the bot's.
    let word = line.split_whitespace().next().unwrap_or_default();
    Failed::new(
        format!(
            "the bot stopped reading its stdin (closed it, or left it full for 5 s) before the referee could send `{line}`"
        ),
        format!("the bot stopped reading its stdin before the referee could send `{word}`"),
    )
}

fn describe(reply: Reply, waiting_for: &str) -> Failed {
    match reply {
        Reply::Timeout => Failed::new(
            format!("nothing on stdout while waiting for {waiting_for}: did you flush?"),
            format!("no answer in time while the referee waited for {waiting_for}"),
        ),
        // Gone before its handshake: what it said last, and what it could read, tell why.
        Reply::Exited(exit) => Failed::new(
            format!(
                "the bot {} while the referee waited for {waiting_for}{}",
                crate::describe_exit(exit.status),
                if waiting_for.contains("quadsok") {
                    crate::fault::last_words(&exit)
                } else {
                    String::new()
                }
            ),
            format!(
                "the bot {} while the referee waited for {waiting_for}",
                crate::describe_exit(exit.status)
            ),
        ),
        Reply::Closed => {
            let why = format!("the bot closed stdout while the referee waited for {waiting_for}");
            Failed::new(why.clone(), why)
        }
        Reply::TooLong(_) => {
            let why = "a line longer than the protocol allows (64 KiB)";
            Failed::new(why.to_owned(), why)
        }
        Reply::Line(text) => Failed::new(
            format!("`{text}` while the referee waited for {waiting_for}"),
            format!("an unexpected line while the referee waited for {waiting_for}"),
        ),
    }
}
