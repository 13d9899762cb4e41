//! What can be wrong with a config or a bots file, each on one line naming the file.

use std::path::{Path, PathBuf};

use quads_referee::TimeError;

/// A problem with a config or bots file: one line saying what and where. Every text quoted
/// from the file (or from the toml crate) is put on one line when the error is made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// The file cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Not TOML, or a key or value its section does not take.
    #[error("{}{}: {message}", path.display(), line.map_or(String::new(), |l| format!(" (line {l})")))]
    Syntax {
        /// The file (or the name a config given as text goes by).
        path: PathBuf,
        /// The line, from 1, when the toml crate says.
        line: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// A value that does not fit with the rest of the file.
    #[error("{}: {problem}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        problem: String,
    },
    /// A problem found in a part of the file (a time section, the openings, the SPRT).
    #[error("{}: {source}", path.display())]
    Within {
        /// The file.
        path: PathBuf,
        /// The problem.
        #[source]
        source: Box<ConfigError>,
    },
    /// A problem with one `[[bot]]` table.
    #[error("{}: bot `{bot}`: {source}", path.display())]
    Bot {
        /// The file.
        path: PathBuf,
        /// The bot's name.
        bot: String,
        /// The problem.
        #[source]
        source: Box<ConfigError>,
    },
    /// A sandbox spec that does not parse.
    #[error("{}: {source}", path.display())]
    Sandbox {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        #[source]
        source: quads_referee::sandbox::SandboxSpecError,
    },
    /// A time control that does not parse or fit.
    #[error(transparent)]
    Time(#[from] TimeError),
    /// A bot command with unbalanced quotes.
    #[error("cannot split bot command `{0}` (unbalanced quotes?)")]
    Unsplittable(String),
    /// An empty bot command.
    #[error("empty bot command")]
    EmptyCommand,
    /// The openings file cannot be read.
    #[error("cannot read openings {}: {source}", path.display())]
    ReadOpenings {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A line of the openings file that is not a usable opening.
    #[error("{} line {line}: {problem}", path.display())]
    Opening {
        /// The openings file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        problem: String,
    },
    /// An openings file with none.
    #[error("{}: no openings", .0.display())]
    NoOpenings(PathBuf),
    /// SPRT hypotheses the wrong way round.
    #[error("sprt: elo0 ({elo0}) must be below elo1 ({elo1})")]
    SprtBounds {
        /// Elo under H0.
        elo0: f64,
        /// Elo under H1.
        elo1: f64,
    },
    /// An SPRT error rate that cannot be.
    #[error("sprt: {name} must be between 0 and 0.5, not {value}")]
    SprtRate {
        /// `alpha` or `beta`.
        name: &'static str,
        /// As given.
        value: f64,
    },
    /// An SPRT with no pairs to play.
    #[error("sprt: max_pairs must be at least 1")]
    SprtPairs,
}

/// A check of the config file `path` that failed, on one line.
pub(crate) fn invalid(path: &Path, problem: impl std::fmt::Display) -> ConfigError {
    ConfigError::Invalid {
        path: path.to_owned(),
        problem: one_line(&problem.to_string()),
    }
}

/// `source`, found in a part of the file `path`.
pub(crate) fn within(path: &Path, source: impl Into<ConfigError>) -> ConfigError {
    ConfigError::Within {
        path: path.to_owned(),
        source: Box::new(source.into()),
    }
}

/// A message on one line: the toml crate's messages may span several, and names and commands
/// quoted from a file may hold line breaks.
pub(crate) fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
