//! What can go wrong in an analysis: input that cannot be read, a line that is not a game
//! record, or a record that does not replay. Each is one line naming the file and the game.

use std::path::PathBuf;

/// Why a record cannot be judged: it does not describe a game of its rules.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The rules spec is not a variant.
    #[error("unknown variant `{spec}`: {source}")]
    Rules {
        /// The spec as written.
        spec: String,
        /// What is wrong with it.
        #[source]
        source: quads_rules::ParseRulesError,
    },
    /// The start position does not parse.
    #[error("bad start position: {0}")]
    Start(#[source] quads_rules::ParsePositionError),
    /// The start position cannot arise under the rules.
    #[error("start position `{position}` cannot arise under `{rules}`: {source}")]
    Impossible {
        /// The position as written.
        position: String,
        /// The rules spec.
        rules: String,
        /// Why not.
        #[source]
        source: quads_rules::Impossible,
    },
    /// A move does not parse.
    #[error("move {index}: {source}")]
    Move {
        /// Its place in `moves`, from 1.
        index: usize,
        /// What is wrong with it.
        #[source]
        source: quads_rules::ParseMoveError,
    },
    /// A move is not legal where it was played.
    #[error("move {index}: {source}")]
    Illegal {
        /// Its place in `moves`, from 1.
        index: usize,
        /// The move, its position and why.
        #[source]
        source: quads_rules::IllegalMove,
    },
    /// The moves lead somewhere other than the record's end position.
    #[error("the moves end in `{reached}`, the record says `{recorded}`")]
    End {
        /// Where the moves lead.
        reached: String,
        /// The record's `end`.
        recorded: String,
    },
}

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
    /// A line of a `games.jsonl` is not a game record.
    #[error("{path} {source}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// The line and what is wrong with it.
        #[source]
        source: quads_record::ParseError,
    },
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
        source: RecordError,
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
