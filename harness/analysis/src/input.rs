//! The input: `games.jsonl` files, given as such or as the folders that hold them (a
//! tournament's or a match's output folder).

use std::path::{Path, PathBuf};

use quads_record::{GameRecord, ParseError};

use crate::error::AnalysisError;

/// The file a folder's games are in.
pub const GAMES_FILE: &str = "games.jsonl";

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
    let file = path.join(GAMES_FILE);
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
    let text = std::fs::read_to_string(&path).map_err(|source| AnalysisError::Read {
        path: path.clone(),
        source,
    })?;
    let mut records = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let record = serde_json::from_str(line).map_err(|source| AnalysisError::Parse {
            path: path.clone(),
            source: ParseError {
                line: i + 1,
                source,
            },
        })?;
        records.push((i + 1, record));
    }
    Ok(Source { path, records })
}
