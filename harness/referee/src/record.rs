//! The game record: one JSON object per game, one line each in `games.jsonl`.
//!
//! Everything measured at run time (dates, durations, move times, processes that had to be
//! killed, log sizes) sits under the `timing` key, so that records with `timing` removed are
//! byte-identical between runs with the same seed and deterministic bots.

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
}

/// A bot's failure.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Failure {
    /// `first` or `second`.
    pub seat: String,
    /// The forfeit reason: `timeout`, `illegal-move`, `malformed`, `crash`, `closed-output`,
    /// `handshake`, `unsupported-version`.
    pub reason: String,
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
    /// Per seat: processes that outlived the bot and had to be killed.
    pub leaked: [u32; 2],
    /// Per seat: bytes of stderr and `info` lines kept in the log, and bytes dropped past the cap.
    pub log_bytes: [u64; 2],
    /// Per seat: bytes dropped past the log cap.
    pub log_dropped: [u64; 2],
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
    /// The rules spec.
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
    /// `1-0` (the first player won), `0-1`, or `1/2-1/2`.
    pub result: String,
    /// `normal` (a win), `draw` (the board filled), or the loser's forfeit reason.
    pub reason: String,
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
}
