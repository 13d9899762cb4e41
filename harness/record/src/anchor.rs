//! Where a rating scale is pinned: one bot at one rating.

use serde::{Deserialize, Serialize};

/// A bot pinned at a rating: the config's `[anchor]`, `quads ratings --anchor BOT=ELO`, and
/// `event.json`'s `anchor` are this one type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Anchor {
    /// The bot.
    pub bot: String,
    /// Its rating.
    pub elo: f64,
}
