//! What can go wrong in an analysis: input that cannot be read, a line that is not a game
//! record, or a record that does not replay. Each is one line naming the file and the game.

use std::path::PathBuf;

use quads_record::replay::ReplayError;

/// An analysis that could not be made.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// A file or folder could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The path given.
        path: PathBuf,
        /// The system's reason.
        #[source]
        source: std::io::Error,
    },
    /// A folder with no `games.jsonl`.
    #[error("{path}: no games.jsonl in this folder")]
    NoGames {
        /// The folder.
        path: PathBuf,
    },
    /// A `games.jsonl` that cannot be read, or a line of it that is not a game record.
    #[error(transparent)]
    Games(#[from] quads_record::files::ReadError),
    /// A record does not replay.
    #[error("{path} line {line} (game {game}): {source}")]
    Record {
        /// The file.
        path: PathBuf,
        /// The record's line, from 1.
        line: usize,
        /// The record's game number.
        game: u32,
        /// What is wrong.
        #[source]
        source: ReplayError,
    },
    /// No game in any of the inputs.
    #[error("no games in the files given")]
    Empty,
    /// An output file could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        #[source]
        source: std::io::Error,
    },
}
