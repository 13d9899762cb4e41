//! What the server and a remote worker (`quads worker`) say to each other over HTTP, typed once
//! for both sides (crate::http::workers answers, crate::remote asks). docs/server.md lists
//! the calls.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::Limits;

/// `POST /api/worker/claim`: a worker's slot asks for work (a bot's turn in a person's game,
/// or a match), waiting up to `wait` seconds for some.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// Which of the worker's matches at once this is: a name for the process and the slot's
    /// number in it (`node7-3f9c1a2b-1`), so that processes sharing a token (a job array's
    /// tasks) never share a slot. 1 to 48 letters, digits, `-`, `_` or `.`.
    pub slot: String,
    /// How long to wait for a match, in seconds (at most the server's long-poll bound).
    #[serde(default)]
    pub wait: u64,
}

/// The most matches one worker process plays at once.
pub const MAX_SLOTS: u32 = 64;

/// Whether `slot` is a slot's name as [`Claim::slot`] describes it.
pub fn is_slot(slot: &str) -> bool {
    (1..=48).contains(&slot.len())
        && slot
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// The answer to a claim: a turn, a match, or neither (nothing to play yet).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claimed {
    /// The match.
    #[serde(rename = "match")]
    pub job: Option<Assignment>,
    /// A bot's turn in a game a person plays on the play page (given before any match: a
    /// person is waiting).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<Turn>,
}

/// A bot's turn in a person's game on the play page: the bot is started in its box, set up for
/// the game (`newgame`), asked for one move in the position (`go`), and ended. The answer goes
/// to `POST /api/worker/turns/PLAY/answer`. It is one move's work, so it has no heartbeat:
/// it is answered within the lease, or given again.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Turn {
    /// The game's id (its address is `/play/PLAY`).
    pub play: String,
    /// The bot's version.
    pub side: Side,
    /// The game so far.
    pub game: TurnGame,
    /// The event (its limit per move, and how a version is built and checked).
    pub event: Event,
}

/// A person's game as a bot's turn needs it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TurnGame {
    /// The variant, as a rules spec.
    pub rules: String,
    /// The starting position, in the project's notation.
    pub start: String,
    /// The moves so far, in the project's notation (the answer counts only over these).
    pub moves: Vec<String>,
    /// The game's seed (given to the bot in `newgame`).
    pub seed: u64,
    /// The game's clock as asked (`5m+2s`), if it has one.
    #[serde(default)]
    pub clock: Option<String>,
    /// With a clock: the bot's time left, in milliseconds.
    #[serde(default)]
    pub time: Option<u64>,
    /// With a clock: the person's time left, in milliseconds.
    #[serde(default)]
    pub optime: Option<u64>,
}

/// `POST /api/worker/turns/PLAY/answer`: the bot's move, or the referee's fault by which it
/// lost the game.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    /// The slot that claimed the turn.
    pub slot: String,
    /// How many moves the game had when the turn was claimed.
    pub after: usize,
    /// The bot's move, in the project's notation.
    #[serde(default, rename = "move", skip_serializing_if = "Option::is_none")]
    pub mv: Option<String>,
    /// The time the bot took for it, in milliseconds.
    #[serde(default)]
    pub took_ms: f64,
    /// Or the fault, in one line (`crash: exited with status 3 …`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<String>,
}

/// A match given to a worker, with what it needs to build both versions and play it as the
/// server would.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Assignment {
    /// The match (also the name of its folder on the server).
    pub id: i64,
    /// The version in the first seat of game 1.
    pub first: Side,
    /// The other.
    pub second: Side,
    /// The variant, as a rules spec.
    pub rules: String,
    /// The match's seed (the games' seeds come from it, as `quads match --seed` makes them).
    pub seed: u64,
    /// The lease in seconds: heartbeat well within it (a quarter is what the server's own
    /// workers do).
    pub lease: i64,
    /// The event, as the server's pipeline admits versions under it.
    pub event: Event,
}

/// One seat's version.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Side {
    /// The version's row.
    pub version: i64,
    /// Its entrant's name (the bot's name in the games).
    pub entrant: String,
    /// Its pack's SHA-256 (`GET /api/worker/packs/DIGEST`).
    pub digest: String,
}

/// The event's rules for building and checking a version.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Event {
    /// The event's name.
    pub name: String,
    /// What a version is checked under, as rules specs.
    pub variants: Vec<String>,
    /// The limit per move, as the config writes it (`1s`).
    pub movetime: String,
    /// The most a version's build may take, as the config writes it (`5m`).
    pub build_timeout: String,
    /// The bounds of an upload (a pack unpacks within them).
    pub limits: Limits,
}

/// `POST /api/worker/matches/ID/heartbeat`, `.../fail` (with `reason`).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hold {
    /// The slot that holds the match.
    pub slot: String,
    /// With `fail`: why the match cannot be played, in one line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// The answer to a heartbeat, a finish or a failure: whether the worker still held the match
/// (for a finish: whether its games were counted).
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Held {
    /// Whether the slot held it.
    pub held: bool,
}

/// `POST /api/worker/matches/ID/finish`: the match's games, and the bots' logs by file name
/// (as the referee names them).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Finish {
    /// The slot that holds the match.
    pub slot: String,
    /// The records, one game each, in the order played.
    pub games: Vec<serde_json::Value>,
    /// Each bot's standard error in a game, by the referee's file name for it.
    #[serde(default)]
    pub logs: BTreeMap<String, String>,
}

/// What a worker's token is shown as: its name, and its slot's holder name in the matches.
pub fn holder(worker: &str, slot: &str) -> String {
    format!("{worker}/{slot}")
}

/// What a match being played tells its watchers: a move as it is played, a game's end. The
/// server's own workers give it to crate::ladder::live directly; a remote worker posts it
/// while it holds the match ([`LiveNews`]).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum News {
    /// A move of game `game` (from 1), in notation.
    Moved {
        /// The game's number in the match.
        game: u32,
        /// The move.
        mv: String,
    },
    /// Game `game` ended: its record's result, why, and all its moves (the record's own, so
    /// a watcher that missed a move is put right).
    Ended {
        /// The game's number in the match.
        game: u32,
        /// `1-0`, `0-1` or `1/2-1/2`.
        result: String,
        /// How it ended, as the record says.
        reason: String,
        /// The game's moves, in notation.
        moves: Vec<String>,
    },
}

/// `POST /api/worker/matches/{id}/live`: what the slot's match did since its last post; kept
/// only while the slot holds the match (and it renews the lease, as a heartbeat does).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LiveNews {
    /// The slot (as in [`Claim::slot`]).
    pub slot: String,
    /// In the order they happened, at most [`MAX_NEWS`].
    pub news: Vec<News>,
}

/// The most news one post carries: a worker posts what it has every moment, so a post holds a
/// fraction of a second of a match.
pub const MAX_NEWS: usize = 4096;
