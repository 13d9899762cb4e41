//! The TOML of a config and of a bots file, as serde reads it: every key known, nothing
//! checked yet (`config.rs` checks it all before anything runs).

use std::collections::BTreeMap;
use std::path::PathBuf;

use quads_record::Anchor;
use serde::Deserialize;

#[derive(Deserialize, Default, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct TimeSection {
    pub(crate) movetime: Option<String>,
    pub(crate) clock: Option<String>,
    pub(crate) margin: Option<String>,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct BotEntry {
    pub(crate) name: String,
    pub(crate) command: String,
    #[serde(default)]
    pub(crate) shell: bool,
    pub(crate) dir: Option<PathBuf>,
    /// Set in the bot's environment, beyond its box's own variables.
    #[serde(default)]
    pub(crate) env: BTreeMap<String, String>,
    #[serde(default)]
    pub(crate) options: BTreeMap<String, toml::Value>,
    pub(crate) time: Option<TimeSection>,
    /// This bot's walls (a sandbox spec), replacing the config's.
    pub(crate) sandbox: Option<String>,
    /// Whether this bot may think on its opponent's time (default: yes).
    pub(crate) ponder: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BotsFile {
    #[serde(default)]
    pub(crate) bot: Vec<BotEntry>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct OpeningsSection {
    pub(crate) random_moves: Option<u32>,
    pub(crate) file: Option<PathBuf>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) enum FormatName {
    RoundRobin,
    Gauntlet,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ConfigFile {
    pub(crate) name: Option<String>,
    pub(crate) seed: Option<u64>,
    pub(crate) out: Option<PathBuf>,
    pub(crate) concurrency: Option<usize>,
    pub(crate) format: Option<FormatName>,
    #[serde(default)]
    pub(crate) gauntlet: Vec<String>,
    pub(crate) pairs: Option<u32>,
    pub(crate) variants: Option<Vec<String>>,
    pub(crate) keep_alive: Option<bool>,
    pub(crate) ponder: Option<bool>,
    pub(crate) openings: Option<OpeningsSection>,
    pub(crate) time: Option<TimeSection>,
    pub(crate) handshake_timeout: Option<String>,
    pub(crate) log_cap: Option<usize>,
    pub(crate) anchor: Option<Anchor>,
    pub(crate) sprt: Option<SprtSection>,
    pub(crate) entrants: Option<PathBuf>,
    pub(crate) entrants_ponder: Option<bool>,
    pub(crate) entrants_build_timeout: Option<String>,
    pub(crate) sandbox: Option<String>,
    pub(crate) analyze: Option<bool>,
    #[serde(default)]
    pub(crate) bot: Vec<BotEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SprtSection {
    pub(crate) elo0: f64,
    pub(crate) elo1: f64,
    pub(crate) alpha: Option<f64>,
    pub(crate) beta: Option<f64>,
    pub(crate) max_pairs: Option<u32>,
}
