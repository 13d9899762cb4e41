//! The input: `games.jsonl` files, given as such or as the folders that hold them (a
//! tournament's or a match's output folder).

use std::path::{Path, PathBuf};

use quads_record::files::{read_games_numbered, GAMES};
use quads_record::GameRecord;

use crate::error::AnalysisError;

/// The records of one `games.jsonl`.
#[derive(Clone, Debug)]
pub struct Source {
    /// The file.
    pub path: PathBuf,
    /// Each record with its line, from 1.
    pub records: Vec<(usize, GameRecord)>,
}

/// The games file a path names: the path itself, or the `games.jsonl` in a folder.
pub fn games_file(path: &Path) -> Result<PathBuf, AnalysisError> {
    let meta = std::fs::metadata(path).map_err(|source| AnalysisError::Read {
        path: path.to_owned(),
        source,
    })?;
    if !meta.is_dir() {
        return Ok(path.to_owned());
    }
    let file = path.join(GAMES);
    if file.is_file() {
        Ok(file)
    } else {
        Err(AnalysisError::NoGames {
            path: path.to_owned(),
        })
    }
}

/// Reads one `games.jsonl` (a file, or a folder holding one), blank lines skipped.
pub fn read(path: &Path) -> Result<Source, AnalysisError> {
    let path = games_file(path)?;
    let records = read_games_numbered(&path)?;
    Ok(Source { path, records })
}
