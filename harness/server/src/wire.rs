//! What the server and a remote worker (`quads worker`) say to each other over HTTP, typed once
//! for both sides (crate::http::workers answers, crate::remote asks). docs/server.md lists
//! the calls.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::Limits;

/// `POST /api/worker/claim`: a worker's slot asks for a match, waiting up to `wait` seconds
/// for one.
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

/// The answer to a claim.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claimed {
    /// The match, or none (nothing to play yet).
    #[serde(rename = "match")]
    pub job: Option<Assignment>,
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
