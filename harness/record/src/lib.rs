//! The game record: one JSON object per game, one line each in `games.jsonl`, and the words it
//! is written in.
//!
//! The referee writes records, the tournament resumes from them, and the reports read them:
//! this crate is what they share, so that a result, a seat or a forfeit reason is parsed in
//! one place and an unknown word is an error, never silently a draw. The JSON written is the
//! same as before these types existed; old files read.
//!
//! Everything measured at run time (dates, durations, move times, processes that had to be
//! killed, log sizes) sits under the `timing` key, so that records with `timing` removed are
//! byte-identical between runs with the same seed and deterministic bots.

mod anchor;
pub mod files;
pub mod game;
pub mod replay;
mod words;

pub use anchor::Anchor;
pub use quads_rules::{ByPlayer, Player};
pub use words::{EndReason, ForfeitReason, GameResult, UnknownWord};

use serde::{Deserialize, Serialize};

/// A bot as the record names it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct BotEntry {
    /// The name the user gave it.
    pub name: String,
    /// The command that started it.
    pub command: String,
    /// The name it gave in its handshake, if it got that far.
    pub id: Option<String>,
    /// The walls it ran in, as a canonical sandbox spec: `off`, or every protection with its
    /// value (`memory=1GiB,processes=64,...`), after what the machine could not enforce was
    /// turned off. Absent in records written before the sandbox existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<String>,
    /// `false` when the bot was stopped on its opponent's time (its own setting, as for a
    /// competition's entrants); absent when it could think then (or the whole match stopped
    /// every bot, which the match's settings say).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ponder: Option<bool>,
    /// Which of its entrant's uploads played (1 for the first), in a server's export; absent
    /// elsewhere. `quads ratings --by-version` rates each version as a player of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u32>,
}

impl BotEntry {
    /// Its name as a player of its own per version: `NAME vN` when the record says which
    /// version played, else its name.
    pub fn versioned_name(&self) -> String {
        match self.version {
            Some(v) => version_name(&self.name, v),
            None => self.name.clone(),
        }
    }
}

/// An entrant's version as a player of its own: `NAME vN`.
pub fn version_name(name: &str, version: u32) -> String {
    format!("{name} v{version}")
}

/// A bot's failure.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Failure {
    /// The bot that failed.
    pub seat: Player,
    /// Why it forfeits.
    pub reason: ForfeitReason,
    /// What exactly happened.
    pub detail: String,
}

/// Measurements of one game.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct Timing {
    /// When the game started (RFC 3339, UTC).
    pub started: String,
    /// Wall time of the whole game, handshakes and shutdown included, in milliseconds.
    pub duration_ms: f64,
    /// The time each move took, in milliseconds, in the order of `moves`.
    pub moves_ms: Vec<f64>,
    /// Per seat: processes that outlived the bot (or left its process group) and had to be
    /// killed.
    pub leaked: ByPlayer<u32>,
    /// Per seat: bytes of stderr and `info` lines kept in the log.
    pub log_bytes: ByPlayer<u64>,
    /// Per seat: bytes dropped past the log cap.
    pub log_dropped: ByPlayer<u64>,
}

/// One game.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GameRecord {
    /// The game's number in its match or tournament, from 1.
    pub game: u32,
    /// The tournament round, from 1 (tournaments only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// The game pair, from 1: two games from one opening with the seats swapped
    /// (tournaments only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair: Option<u32>,
    /// The tournament's event name (tournaments only): `quads ratings` reports under it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// The tournament's seed (tournaments only): `quads ratings` seeds its bootstrap with it,
    /// so that it gives the tournament's own intervals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_seed: Option<u64>,
    /// The rules spec, canonical.
    pub rules: String,
    /// The game's seed, as sent to both bots.
    pub seed: u64,
    /// The time control (`movetime MS`, `base MS inc MS`).
    pub time_control: String,
    /// The position the game started from.
    pub start: String,
    /// The first player (makes the opening give).
    pub first: BotEntry,
    /// The second player.
    pub second: BotEntry,
    /// Every move, in the protocol's notation.
    pub moves: Vec<String>,
    /// The position at the end.
    pub end: String,
    /// The result.
    pub result: GameResult,
    /// How the game ended: a win on the board, a draw, or the loser's forfeit reason.
    pub reason: EndReason,
    /// Every failure, the one that decided the game first (two when both bots failed).
    pub failures: Vec<Failure>,
    /// Measurements: the only part that differs between identical runs.
    pub timing: Timing,
}

impl GameRecord {
    /// The record as one JSON line (without the newline).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a record always serializes")
    }

    /// The bot in `seat`.
    pub fn bot(&self, seat: Player) -> &BotEntry {
        match seat {
            Player::First => &self.first,
            Player::Second => &self.second,
        }
    }

    /// The pair this game belongs to: its own, or in a match consecutive games two by two.
    pub fn pair_id(&self) -> u32 {
        self.pair.unwrap_or(self.game.div_ceil(2))
    }

    /// The name of the log the bot in `seat` left for this game in the `logs/` folder beside
    /// the records, if it left one (a bot that wrote nothing gets no file).
    pub fn log_file(&self, seat: Player) -> Option<String> {
        (self.timing.log_bytes[seat] > 0 || self.timing.log_dropped[seat] > 0)
            .then(|| log_file_name(self.game, seat, &self.bot(seat).name))
    }
}

/// The name of a bot's log of one game: `game-NNNN-SEAT-NAME.log`, `NAME` being
/// [`file_safe`]. The referee writes logs under this name and the reports link to them by it.
pub fn log_file_name(game: u32, seat: Player, bot: &str) -> String {
    format!("game-{game:04}-{seat}-{}.log", file_safe(bot))
}

/// A bot's name made safe for a file name: letters, digits, `-` and `_` stay, anything else
/// becomes `_`, at most 40 characters, `bot` if nothing is left.
pub fn file_safe(bot: &str) -> String {
    let safe: String = bot
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    if safe.is_empty() {
        "bot".to_owned()
    } else {
        safe
    }
}

/// A line of `games.jsonl` that is not a game record.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: not a game record: {source}")]
pub struct ParseError {
    /// The line, from 1.
    pub line: usize,
    /// What was wrong.
    #[source]
    pub source: serde_json::Error,
}

/// Reads the records of a `games.jsonl` text, skipping blank lines.
pub fn parse_jsonl(text: &str) -> Result<Vec<GameRecord>, ParseError> {
    parse_jsonl_numbered(text).map(|records| records.into_iter().map(|(_, r)| r).collect())
}

/// Reads the records of a `games.jsonl` text, each with its line (from 1), skipping blank
/// lines: the one reader of the format.
pub fn parse_jsonl_numbered(text: &str) -> Result<Vec<(usize, GameRecord)>, ParseError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l)
                .map(|r| (i + 1, r))
                .map_err(|source| ParseError {
                    line: i + 1,
                    source,
                })
        })
        .collect()
}

#[cfg(test)]
mod tests;
