//! What every game of a match or a tournament shares ([`Settings`]), and what stops one that
//! is the user's fault, not a bot's ([`MatchError`]). Both sit below `game.rs` and `bot.rs`,
//! which use them.

use std::time::Duration;

use quads_protocol::TimeControl;
use quads_rules::Rules;

use crate::defaults;
use crate::process::SpawnError;

/// Limits and sizes that apply to every game.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The rules.
    pub rules: Rules,
    /// The time control.
    pub time: TimeControl,
    /// Extra time allowed past each move's limit for scheduling delays.
    pub margin: Duration,
    /// The limit for the handshake, up to `readyok`.
    pub handshake_timeout: Duration,
    /// The limit for `newgame` set-up, up to `readyok`.
    pub setup_timeout: Duration,
    /// The grace after `quit`, and again after SIGTERM.
    pub grace: Duration,
    /// The most of a bot's stderr kept per game.
    pub log_cap: usize,
    /// Whether a bot may think while its opponent does. If not, its process group is stopped
    /// (SIGSTOP) from its move until its next turn (SIGCONT), so it cannot take CPU from the
    /// opponent.
    pub ponder: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            rules: Rules::QUADS,
            time: TimeControl {
                movetime: Some(defaults::MOVETIME.as_millis() as u64),
                base: None,
                inc: 0,
            },
            margin: defaults::MARGIN,
            handshake_timeout: defaults::HANDSHAKE,
            setup_timeout: defaults::SETUP,
            grace: defaults::GRACE,
            log_cap: defaults::LOG_CAP,
            ponder: true,
        }
    }
}

/// A problem that stops a match: the user's, not a bot's.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// A bot command cannot be started.
    #[error(transparent)]
    Spawn(#[from] SpawnError),
    /// A configured option does not exist.
    #[error("bot `{bot}`: {problem}")]
    Option {
        /// The bot.
        bot: String,
        /// What is wrong.
        problem: String,
    },
    /// A configured option's value does not fit its declared type.
    #[error("bot `{bot}`: {source}")]
    OptionValue {
        /// The bot.
        bot: String,
        /// What the option takes.
        #[source]
        source: quads_protocol::BadOptionValue,
    },
    /// The output could not be written.
    #[error("cannot write {path}: {source}")]
    Output {
        /// The file.
        path: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}
