//! `event.json`: what a report is made from besides the records, so that `quads report DIR`
//! rebuilds exactly the page the run wrote: the event's name, the ratings' seed, bot order
//! and anchor, the machine the games were played on, and the `games.jsonl` files.
//!
//! The commands that write results (`quads tournament`, `match`, `ratings`, `analyze`) write
//! it beside them. Every field but `name` may be missing: a folder written before the file
//! existed still gets a report, from what its records say.

use std::path::Path;

use quads_record::Anchor;
use serde::{Deserialize, Serialize};

/// The file's name in an output folder.
pub const EVENT_FILE: &str = "event.json";

/// The contents of `event.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventInfo {
    /// The event's name.
    pub name: String,
    /// The seed of the ratings' bootstrap (the tournament's or match's seed).
    #[serde(default)]
    pub seed: Option<u64>,
    /// The bots in report order (a tournament's config order); others follow as they appear.
    #[serde(default)]
    pub bots: Vec<String>,
    /// A bot pinned at a rating, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anchor: Option<Anchor>,
    /// The machine the games were played on, in a few words (`quads` writes the system, the
    /// cores, the processor and the memory), if known.
    #[serde(default)]
    pub machine: Option<String>,
    /// The `games.jsonl` files, relative to the folder holding `event.json` (or absolute);
    /// each file's bots' logs are in `logs/` beside it.
    #[serde(default = "default_games")]
    pub games: Vec<String>,
}

fn default_games() -> Vec<String> {
    vec![quads_record::files::GAMES.to_owned()]
}

/// Why `event.json` could not be read.
#[derive(Debug, thiserror::Error)]
pub enum EventError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The file is not an event description.
    #[error("{path}: not an event description: {source}")]
    Parse {
        /// The file.
        path: String,
        /// Why.
        #[source]
        source: serde_json::Error,
    },
}

impl EventInfo {
    /// Reads `DIR/event.json`; `Ok(None)` when there is none.
    pub fn read(dir: &Path) -> Result<Option<EventInfo>, EventError> {
        let path = dir.join(EVENT_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(EventError::Read {
                    path: path.display().to_string(),
                    source,
                })
            }
        };
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|source| EventError::Parse {
                path: path.display().to_string(),
                source,
            })
    }

    /// The file's text: pretty JSON, a newline at the end.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("an event always serializes") + "\n"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_name_is_needed() {
        let e: EventInfo = serde_json::from_str(r#"{"name": "x"}"#).unwrap();
        assert_eq!(e.games, ["games.jsonl"]);
        assert_eq!((e.seed, &e.machine, &e.anchor), (None, &None, &None));
        let back: EventInfo = serde_json::from_str(&e.to_json()).unwrap();
        assert_eq!(back, e);
    }
}
