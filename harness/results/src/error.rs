//! What can go wrong with a run or its folder, each with the file it concerns. The messages
//! are the ones the `quads` binary prints on its one error line.

use std::path::PathBuf;

/// An error of a run or of its results folder.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ResultsError {
    /// A folder could not be made.
    #[error("cannot create {}: {source}", path.display())]
    Create {
        /// The folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A file could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The standings, CSV files and charts could not be written.
    #[error("cannot write reports into {}: {source}", dir.display())]
    Reports {
        /// The folder.
        dir: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The ratings' files could not be written.
    #[error("cannot write into {}: {source}", dir.display())]
    Ratings {
        /// The folder.
        dir: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A file could not be removed.
    #[error("cannot reset {}: {source}", path.display())]
    Reset {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A shard's file could not be copied.
    #[error("cannot copy {} to {}: {source}", from.display(), to.display())]
    Copy {
        /// From.
        from: PathBuf,
        /// To.
        to: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A folder could not be listed.
    #[error("cannot read {}: {source}", path.display())]
    List {
        /// The folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A `games.jsonl` could not be read.
    #[error(transparent)]
    Games(#[from] quads_record::files::ReadError),
    /// A folder holds no games.
    #[error("no games in {}", .0.display())]
    NoGames(PathBuf),
    /// The files given hold no games.
    #[error("no games in the files given")]
    NoGamesGiven,
    /// The ratings could not be computed (say, an anchor on a bot that played no game).
    #[error(transparent)]
    Rating(#[from] quads_reports::report::ReportError),
    /// A folder's `event.json` is not readable.
    #[error(transparent)]
    Event(#[from] quads_reports::html::EventError),
    /// A folder's analysis files are not readable.
    #[error(transparent)]
    AnalysisFile(#[from] quads_reports::html::analysis::AnalysisFileError),
    /// The analysis failed.
    #[error(transparent)]
    Analysis(#[from] quads_analysis::AnalysisError),
    /// A config is not valid.
    #[error(transparent)]
    Config(#[from] quads_tournament::ConfigError),
    /// The runner failed (its journal, a bot that cannot start).
    #[error(transparent)]
    Run(#[from] quads_tournament::RunError),
    /// A match could not be played (a bot that cannot start, its folder).
    #[error(transparent)]
    Match(#[from] quads_referee::MatchError),
    /// Shards that cannot be merged.
    #[error(transparent)]
    Merge(#[from] quads_tournament::MergeError),
    /// The entrants could not be admitted.
    #[error(transparent)]
    Entrants(#[from] quads_tournament::EntrantsError),
    /// The sandbox cannot give a wall asked for by name.
    #[error(transparent)]
    Sandbox(#[from] quads_referee::sandbox::WallError),
    /// A shard that does not fit the folder or the schedule.
    #[error(transparent)]
    Shard(#[from] quads_tournament::ShardError),
    /// A runtime for the games could not be made.
    #[error("cannot start the runtime: {0}")]
    Runtime(std::io::Error),
    /// The open-file limit leaves no room for the bots.
    #[error("{0}")]
    OpenFiles(String),
    /// A merge into one of the shards' own folders.
    #[error("{} is a shard's folder: merge into another folder", .0.display())]
    MergeIntoShard(PathBuf),
    /// Too few bots are left to play once the entrants are admitted.
    #[error("{}: a tournament needs at least two bots, found {found} with the admitted entrants (see {})", config.display(), entrants.display())]
    TooFewBots {
        /// The config.
        config: PathBuf,
        /// How many bots there are.
        found: usize,
        /// Its entrants.md.
        entrants: PathBuf,
    },
    /// A ladder config without what a ladder needs.
    #[error("{}: {why}", config.display())]
    Ladder {
        /// The config.
        config: PathBuf,
        /// What it lacks.
        why: &'static str,
    },
    /// An SPRT or a ladder stopped by a signal before it decided.
    #[error("interrupted")]
    Interrupted,
    /// A ladder config that lists its openings.
    #[error("a ladder draws random openings; use openings = {{ random_moves = N }}")]
    LadderOpenings,
}
