//! `quads check`: one bot through scripted scenarios against the referee's own protocol code,
//! each failure explained in the bot author's terms with the exact lines exchanged.
//!
//! Every scenario starts a fresh process, so that one defect fails one scenario and not all
//! the ones after it. This is the first set of scenarios (see the module's tests and
//! `docs/referee.md`); each names what it checks.

use std::time::Duration;

use quads_protocol::{FromBot, Go, NewGame, ResultWord, TimeControl, ToBot, VERSION};
use quads_rules::{Move, Player, Position, Rules};
use tokio::time::Instant;

use crate::defaults;
use crate::process::{BotCommand, BotProcess, Reply, SpawnError};

/// Which way a line went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// The referee sent it.
    Sent,
    /// The bot wrote it.
    Received,
}

/// One line of a scenario's exchange.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Which way.
    pub direction: Direction,
    /// The line, without its newline.
    pub text: String,
}

/// A scenario's outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// What the scenario checks, in a few words.
    pub name: &'static str,
    /// `None` when it passed; otherwise what is wrong, in plain words.
    pub failure: Option<String>,
    /// Every line exchanged.
    pub exchange: Vec<Line>,
}

/// A scenario's conversation with its bot.
struct Talk {
    bot: BotProcess,
    exchange: Vec<Line>,
    limit: Duration,
}

/// Why a scenario stopped: the hint for the bot's author.
type Failed = String;

impl Talk {
    async fn send(&mut self, message: &ToBot) -> Result<(), Failed> {
        let text = message.to_string();
        self.exchange.push(Line {
            direction: Direction::Sent,
            text: text.clone(),
        });
        self.bot
            .send(&text)
            .await
            .map_err(|gone| describe(gone, "to read this line"))
    }

    /// The next line that is not `info`, within the limit.
    async fn receive(&mut self, waiting_for: &str) -> Result<String, Failed> {
        let deadline = Instant::now() + self.limit;
        loop {
            match self.bot.recv(deadline).await {
                Reply::Line(text) => {
                    self.exchange.push(Line {
                        direction: Direction::Received,
                        text: text.clone(),
                    });
                    if !text.trim_start().starts_with("info") {
                        return Ok(text);
                    }
                }
                other => return Err(describe(other, waiting_for)),
            }
        }
    }

    /// The handshake, up to `quadsok`; `id` and `option` lines are checked on the way.
    async fn handshake(&mut self) -> Result<(), Failed> {
        self.send(&ToBot::Quads { version: VERSION }).await?;
        loop {
            let line = self.receive("`quadsok`").await?;
            match line.parse::<FromBot>() {
                Ok(FromBot::QuadsOk) => return Ok(()),
                Ok(FromBot::Id { .. } | FromBot::Option(_)) => {}
                Ok(other) => {
                    return Err(format!(
                        "during the handshake only `id`, `option` and `info` lines may come before `quadsok`, not `{other}`"
                    ))
                }
                Err(e) => return Err(format!("`{line}` is not a handshake line: {e}")),
            }
        }
    }

    async fn ready(&mut self) -> Result<(), Failed> {
        self.send(&ToBot::IsReady).await?;
        match self.receive("`readyok`").await?.trim() {
            "readyok" => Ok(()),
            other => Err(format!(
                "the answer to `isready` is `readyok`, not `{other}`"
            )),
        }
    }

    /// `newgame` in `seat` under `rules`, then `isready`.
    async fn new_game(&mut self, rules: Rules, seat: Player, movetime: u64) -> Result<(), Failed> {
        self.send(&ToBot::NewGame(NewGame {
            rules,
            seat,
            seed: 1,
            time: TimeControl {
                movetime: Some(movetime),
                base: None,
                inc: 0,
            },
        }))
        .await?;
        self.ready().await
    }

    /// `go` from `position` after the opponent's `last` move; returns the move, checked
    /// against the rules.
    async fn go_after(
        &mut self,
        position: Position,
        last: Option<Move>,
        rules: &Rules,
        movetime: u64,
    ) -> Result<Move, Failed> {
        self.send(&ToBot::Go(Go {
            remaining: position.remaining(),
            position,
            last,
            time: None,
            optime: None,
            movetime,
        }))
        .await?;
        let line = self.receive("`move …`").await?;
        let Some(text) = line.trim().strip_prefix("move ") else {
            return Err(format!(
                "the answer to `go` is `move …`, e.g. `move D2 BLQF`, not `{line}`"
            ));
        };
        let mv: Move = text.trim().parse().map_err(|e| {
            format!("`{text}` is not a move: {e} (a move names the square first: `move D2 BLQF`)")
        })?;
        position
            .play(mv, rules)
            .map_err(|e| format!("`{text}` is not legal here: {}", e.reason))?;
        Ok(mv)
    }
}

impl Talk {
    /// `go` from `position` with no last move.
    async fn go(
        &mut self,
        position: Position,
        rules: &Rules,
        movetime: u64,
    ) -> Result<Move, Failed> {
        self.go_after(position, None, rules, movetime).await
    }
}

/// A bot that did not answer, in its author's terms.
fn describe(reply: Reply, waiting_for: &str) -> Failed {
    match reply {
        Reply::Timeout => {
            format!("nothing on stdout while waiting for {waiting_for}: did you flush?")
        }
        Reply::Exited(status) => format!(
            "the bot {} while the referee waited for {waiting_for}",
            crate::describe_exit(status)
        ),
        Reply::Closed => {
            format!("the bot closed stdout while the referee waited for {waiting_for}")
        }
        Reply::TooLong(_) => "a line longer than the protocol allows (64 KiB)".to_owned(),
        Reply::Line(text) => format!("`{text}` while the referee waited for {waiting_for}"),
    }
}

/// What a check runs with.
#[derive(Clone, Debug)]
pub struct CheckConfig {
    /// The bot.
    pub command: BotCommand,
    /// The limit for each answer.
    pub limit: Duration,
}

/// A position with three big pieces on row 1 and a big piece in hand: D1 wins.
const WIN_ON_D1: &str = "..../..../..../BDRFBLQHBLRF. BDQH";
/// A mid-game position: the opening give made, BDRF to place.
const AFTER_THE_GIVE: &str = "..../..../..../.... BDRF";

/// Runs every scenario, each on a fresh process of the bot.
pub async fn check(config: &CheckConfig) -> Result<Vec<Report>, SpawnError> {
    let ms = config.limit.as_millis() as u64;
    let mut reports = Vec::new();
    for name in SCENARIOS {
        let bot = BotProcess::spawn(&config.command, defaults::LOG_CAP)?;
        let mut talk = Talk {
            bot,
            exchange: Vec::new(),
            limit: config.limit,
        };
        let outcome = scenario(name, &mut talk, ms).await;
        if name != "quit ends the process" {
            let _ = talk.send(&ToBot::Quit).await;
        }
        let (ended, _) = talk.bot.shutdown(defaults::GRACE).await;
        let failure = match outcome {
            Err(hint) => Some(hint),
            Ok(()) if name == "quit ends the process" && (ended.terminated || ended.killed) => {
                Some(format!(
                    "the process was still running {} ms after `quit`: exit when you read it",
                    defaults::GRACE.as_millis()
                ))
            }
            Ok(()) => None,
        };
        reports.push(Report {
            name,
            failure,
            exchange: talk.exchange,
        });
    }
    Ok(reports)
}

/// The scenarios, in the order they run.
pub const SCENARIOS: [&str; 8] = [
    "handshake",
    "isready answered",
    "opening give",
    "placement and give",
    "winning placement gives nothing",
    "second seat",
    "a second game on one process",
    "quit ends the process",
];

async fn scenario(name: &str, talk: &mut Talk, ms: u64) -> Result<(), Failed> {
    let quads = Rules::QUADS;
    talk.handshake().await?;
    match name {
        "handshake" => Ok(()),
        "isready answered" => talk.ready().await,
        "opening give" => {
            talk.new_game(quads, Player::First, ms).await?;
            let mv = talk.go(Position::START, &quads, ms).await?;
            match mv {
                Move::Give(_) => Ok(()),
                _ => Err("the opening move only gives a piece: `move BDQF`".to_owned()),
            }
        }
        "placement and give" => {
            talk.new_game(quads, Player::First, ms).await?;
            let pos: Position = AFTER_THE_GIVE.parse().expect("a valid position");
            talk.go(pos, &quads, ms).await.map(|_| ())
        }
        "winning placement gives nothing" => {
            talk.new_game(quads, Player::First, ms).await?;
            let pos: Position = WIN_ON_D1.parse().expect("a valid position");
            talk.go(pos, &quads, ms).await.map(|_| ())
        }
        "second seat" => {
            // The opponent made the opening give; the bot places it and gives.
            talk.new_game(quads, Player::Second, ms).await?;
            let pos: Position = AFTER_THE_GIVE.parse().expect("a valid position");
            let give: Move = "BDRF".parse().expect("a valid move");
            talk.go_after(pos, Some(give), &quads, ms).await.map(|_| ())
        }
        "a second game on one process" => {
            talk.new_game(quads, Player::First, ms).await?;
            talk.go(Position::START, &quads, ms).await?;
            talk.send(&ToBot::GameOver {
                result: ResultWord::Draw,
                reason: "draw".to_owned(),
                detail: None,
            })
            .await?;
            talk.ready().await?;
            talk.new_game(Rules::CLASSIC, Player::First, ms).await?;
            let pos: Position = AFTER_THE_GIVE.parse().expect("a valid position");
            talk.go(pos, &Rules::CLASSIC, ms).await.map(|_| ())
        }
        "quit ends the process" => {
            talk.ready().await?;
            talk.send(&ToBot::Quit).await
        }
        _ => unreachable!("every scenario is listed"),
    }
}
