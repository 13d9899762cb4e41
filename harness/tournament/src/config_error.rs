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
    /// Settings that cannot be written as a config file (a path that is not UTF-8).
    #[error("cannot write {} as TOML: {message}", path.display())]
    Write {
        /// The file the settings were to go to.
        path: PathBuf,
        /// Why, on one line.
        message: String,
    },
    /// A value that does not fit with the rest of the file.
    #[error("{}: {problem}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        problem: Problem,
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
    /// The openings file cannot be read. (Its path is the config's text, which may hold a line
    /// break: the message keeps to one line.)
    #[error("cannot read openings {}: {source}", one_line(&path.display().to_string()))]
    ReadOpenings {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A line of the openings file that is not a usable opening.
    #[error("{} line {line}: {problem}", one_line(&path.display().to_string()))]
    Opening {
        /// The openings file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        problem: OpeningProblem,
    },
    /// An openings file with none.
    #[error("{}: no openings", one_line(&.0.display().to_string()))]
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

/// A value of a config that does not fit with the rest. The names and paths quoted are on one
/// line.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Problem {
    /// Two bots with one name.
    #[error("bot `{0}` is named twice")]
    NamedTwice(String),
    /// Fewer than two bots and no entrants.
    #[error("a tournament needs at least two bots, found {0}")]
    TooFewBots(usize),
    /// The gauntlet names a bot that is not in the config.
    #[error("gauntlet names bot `{0}`, which is not among the bots")]
    UnknownGauntletBot(String),
    /// A gauntlet list with the round-robin format.
    #[error("`gauntlet` is set but the format is round-robin")]
    GauntletInRoundRobin,
    /// A gauntlet of no bot, or of every bot.
    #[error("a gauntlet names one or more bots, and not all of them")]
    GauntletSize,
    /// A variant that is not a rules spec.
    #[error("variant `{spec}`: {source}")]
    Variant {
        /// The spec as written.
        spec: String,
        /// What is wrong with it.
        #[source]
        source: quads_rules::ParseRulesError,
    },
    /// `variants = []`.
    #[error("`variants` is empty")]
    NoVariants,
    /// The anchor names a bot that is not in the config.
    #[error("the anchor names bot `{0}`, which is not among the bots")]
    UnknownAnchor(String),
    /// Both kinds of openings at once.
    #[error("openings take `random_moves` or `file`, not both")]
    OpeningsBoth,
    /// An entrants folder that is not there.
    #[error(
        "the entrants folder {0} does not exist (paths are relative to the folder quads runs in)"
    )]
    NoEntrantsFolder(String),
    /// No game pairs, or no game at a time.
    #[error("`pairs` and `concurrency` must be at least 1")]
    ZeroPairs,
}

/// What is wrong with a line of an openings file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OpeningProblem {
    /// Not a position.
    #[error("{0}")]
    Parse(#[from] quads_rules::ParsePositionError),
    /// A position that cannot arise under a variant of the config.
    #[error("under {rules}: {why}")]
    Impossible {
        /// The variant.
        rules: quads_rules::Rules,
        /// Why not.
        why: quads_rules::Impossible,
    },
    /// A position in which the game is over under a variant of the config.
    #[error("the game is already over under {0}")]
    Over(quads_rules::Rules),
}

/// A check of the config file `path` that failed.
pub(crate) fn invalid(path: &Path, problem: Problem) -> ConfigError {
    ConfigError::Invalid {
        path: path.to_owned(),
        problem,
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
