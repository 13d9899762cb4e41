//! `quads check`: one bot through scripted scenarios against the referee's own protocol code,
//! each failure explained in the bot author's terms with the exact lines exchanged, and
//! warnings (slow answers, missed wins, gifts, a flooded log) kept apart from failures.
//!
//! Every scenario starts a fresh process, so that one defect fails the scenarios that need
//! the broken part and not all the ones after it. The positions come from
//! [`positions`](self::positions): a seeded search, so the same rules always give the same
//! positions, each with the edge case its scenario needs.

mod judge;
pub mod positions;
pub mod render;
mod scenarios;
mod talk;

use std::time::Duration;

use quads_rules::Rules;

use crate::defaults;
use crate::process::{BotCommand, BotProcess, SpawnError};
pub use scenarios::{list as scenarios, Scenario};
use talk::Talk;

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
pub struct ScenarioReport {
    /// What the scenario checks, in a few words, with its rules where it has some.
    pub name: String,
    /// `None` when it passed; otherwise what is wrong, in plain words, quoting the bot's lines
    /// and its last words on stderr where they help its author.
    pub failure: Option<String>,
    /// `None` when it passed; otherwise the kind of failure in the referee's own words
    /// (`the bot exited with status 1 while the referee waited for `quadsok``), never a byte
    /// of the bot's output: what a competition may show anyone.
    pub failure_kind: Option<String>,
    /// Things that are legal but cost games: slow answers, a missed win in one, a give that
    /// loses at once when a safe one existed, standard error past the log cap.
    pub warnings: Vec<String>,
    /// Every line exchanged (`info` lines go to the log, as in a game, and are not shown).
    pub exchange: Vec<Line>,
    /// Whether it was played: after a failed handshake the others are not (each would wait for
    /// the same handshake, and fail it the same way).
    pub run: bool,
}

/// Why a scenario was not played.
pub const NOT_RUN: &str = "not run: the handshake failed";

/// What a check runs with.
#[derive(Clone, Debug)]
pub struct CheckConfig {
    /// The bot.
    pub command: BotCommand,
    /// The limit for each answer to `go` (the `movetime` the bot is told).
    pub movetime: Duration,
    /// The limit for the handshake and each game's set-up (`readyok`).
    pub handshake: Duration,
    /// The rules the game scenarios are played under; empty for the defaults
    /// ([`DEFAULT_RULES`]) and the rule-variant scenarios (2×2 blocks, trait subsets).
    pub rules: Vec<Rules>,
}

impl CheckConfig {
    /// A check of `command` with the default limits and rules.
    pub fn new(command: BotCommand) -> CheckConfig {
        CheckConfig {
            command,
            movetime: DEFAULT_MOVETIME,
            handshake: defaults::HANDSHAKE,
            rules: Vec::new(),
        }
    }
}

/// The limit per answer when none is given: short, since every scenario's move is easy.
pub const DEFAULT_MOVETIME: Duration = Duration::from_secs(2);

/// The rules of the game scenarios when none are given: both presets, and Quads under the
/// "Quarto!" announcement rule.
pub const DEFAULT_RULES: [&str; 3] = ["quads", "classic", "quads,claim=announce"];

/// Whether every scenario passed (warnings do not count).
pub fn passed(reports: &[ScenarioReport]) -> bool {
    reports.iter().all(|r| r.failure.is_none())
}

/// Runs every scenario, each on a fresh process of the bot; when the first, the handshake,
/// fails, the others are marked not run (the author learns it at once, not after every
/// scenario has waited for the same handshake). Fails only when the bot cannot be started at
/// all.
pub async fn check(config: &CheckConfig) -> Result<Vec<ScenarioReport>, SpawnError> {
    let mut reports: Vec<ScenarioReport> = Vec::new();
    for scenario in scenarios(&config.rules) {
        if reports.first().is_some_and(|r| r.failure.is_some()) {
            reports.push(ScenarioReport {
                name: scenario.name(),
                failure: Some(NOT_RUN.to_owned()),
                failure_kind: Some(NOT_RUN.to_owned()),
                warnings: Vec::new(),
                exchange: Vec::new(),
                run: false,
            });
            continue;
        }
        let bot = BotProcess::spawn(&config.command, defaults::LOG_CAP).await?;
        let mut talk = Talk::new(bot, config);
        let outcome = scenario.run(&mut talk).await;
        reports.push(talk.finish(scenario, outcome).await);
    }
    Ok(reports)
}
