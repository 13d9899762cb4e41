//! The results folder's file names, defined once, its one way of writing a file and its one
//! reader of `games.jsonl`. Every crate that writes into a results folder (the tournament's
//! runner, the reports, the analysis, `quads-results`) goes through these.

use std::path::{Path, PathBuf};

use crate::{parse_jsonl_numbered, GameRecord, ParseError};

/// Every game of a run, one record per line, in schedule order (written when the run ends).
pub const GAMES: &str = "games.jsonl";
/// The games of a run as they end, appended; a resumed run reads it back.
pub const JOURNAL: &str = "journal.jsonl";
/// Each bot's standard error per game.
pub const LOGS: &str = "logs";
/// The walls each bot ran inside.
pub const SANDBOX: &str = "sandbox.txt";
/// The entrants' admission, for people.
pub const ENTRANTS_MD: &str = "entrants.md";
/// The entrants' admission, for programs (and for a resumed run).
pub const ENTRANTS_JSON: &str = "entrants.json";
/// Which shard of which tournament a folder holds.
pub const SHARD: &str = "shard.json";

/// Writes `bytes` to `path` through a hidden temporary file beside it and a rename, so that a
/// reader (or a run that crashes half-way) never sees half a file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let tmp = path.with_file_name(format!(".{name}.tmp"));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

/// Why a `games.jsonl` could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        #[source]
        source: std::io::Error,
    },
    /// A line is not a game record.
    #[error("{} {source}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// The line and what was wrong with it.
        #[source]
        source: ParseError,
    },
}

/// The records of the `games.jsonl` file at `path`, in its order, blank lines skipped.
pub fn read_games(path: &Path) -> Result<Vec<GameRecord>, ReadError> {
    read_games_numbered(path).map(|records| records.into_iter().map(|(_, r)| r).collect())
}

/// The records of the `games.jsonl` file at `path`, each with its line (from 1).
pub fn read_games_numbered(path: &Path) -> Result<Vec<(usize, GameRecord)>, ReadError> {
    let text = std::fs::read_to_string(path).map_err(|source| ReadError::Io {
        path: path.to_owned(),
        source,
    })?;
    parse_jsonl_numbered(&text).map_err(|source| ReadError::Parse {
        path: path.to_owned(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_atomic_write_leaves_only_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(GAMES);
        write_atomic(&path, b"one\n").unwrap();
        write_atomic(&path, b"two\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two\n");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names, [GAMES]);
    }

    #[test]
    fn a_bad_line_is_named_with_its_file_and_number() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(GAMES);
        std::fs::write(&path, "\nnot json\n").unwrap();
        let e = read_games(&path).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("{} line 2: not a game record: ", path.display())),
            "{e}"
        );
        let gone = read_games(&dir.path().join("none.jsonl")).unwrap_err();
        assert!(matches!(gone, ReadError::Io { .. }), "{gone}");
    }
}
