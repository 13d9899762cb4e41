//! Reading a run's journal back (`journal.jsonl`, written by [`crate::run`]): its finished
//! games, checked against the schedule, and the lines they were written as.

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::path::Path;

use quads_referee::GameRecord;

use crate::config::Tournament;
use crate::run_error::{RunError, Step};
use crate::schedule::Scheduled;

/// A record, and where its line is in the journal's text.
type Line = (GameRecord, Range<usize>);

/// A journal's text and its records: each complete line that is a record, with where it is
/// in the text, in the order they were written.
fn journal_lines(path: &Path) -> Result<(String, Vec<Line>), RunError> {
    let mut bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((String::new(), vec![])),
        Err(source) => {
            return Err(RunError::Journal {
                step: Step::Read,
                path: path.to_owned(),
                source,
            })
        }
    };
    bytes.truncate(bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1));
    let text = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    let mut records = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let whole = at..at + line.len();
        at = whole.end;
        if let Ok(record) = serde_json::from_str::<GameRecord>(line.trim_end()) {
            records.push((record, whole));
        }
    }
    Ok((text, records))
}

/// The records of a journal's complete lines, in the order they were written. A line a crash
/// cut short does not count, nor does a line that is not a record.
pub fn journal_records(path: &Path) -> Result<Vec<GameRecord>, RunError> {
    Ok(journal_lines(path)?.1.into_iter().map(|(r, _)| r).collect())
}

/// Reads the finished games of a journal, checking each against the schedule (the whole
/// schedule, or a shard's part of it, in schedule order).
pub fn read_journal(
    path: &Path,
    t: &Tournament,
    schedule: &[Scheduled],
) -> Result<HashMap<u32, GameRecord>, RunError> {
    Ok(Journal::read(path, t, schedule)?
        .games
        .into_iter()
        .map(|(game, (record, _))| (game, record))
        .collect())
}

/// A journal's finished games, checked against the schedule, with the text of their lines.
pub struct Journal {
    text: String,
    games: BTreeMap<u32, Line>,
}

impl Journal {
    /// Reads the journal at `path` (none yet is an empty one), checking each game against the
    /// schedule (the whole schedule, or a shard's part of it, in schedule order).
    pub fn read(path: &Path, t: &Tournament, schedule: &[Scheduled]) -> Result<Journal, RunError> {
        let (text, lines) = journal_lines(path)?;
        let mut games = BTreeMap::new();
        for (record, line) in lines {
            let Ok(at) = schedule.binary_search_by_key(&record.game, |g| g.number) else {
                return Err(mismatch(path, record.game));
            };
            let game = &schedule[at];
            let rules = t.variants[game.variant].to_string();
            let same = record.rules == rules
                && record.seed == game.seed
                && record.start == game.start.to_string()
                && record.first.name == t.bots[game.first].name
                && record.second.name == t.bots[game.second].name;
            if !same {
                return Err(mismatch(path, record.game));
            }
            games.insert(record.game, (record, line));
        }
        Ok(Journal { text, games })
    }

    /// Finished games.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether no game is finished.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The records in game order, and the text of games.jsonl for them: their journal lines
    /// as written, in that order (the same bytes as writing each record again, without
    /// serialising it again).
    pub fn into_ordered(self) -> (Vec<GameRecord>, String) {
        let mut jsonl = String::with_capacity(self.text.len());
        let mut records = Vec::with_capacity(self.games.len());
        for (record, line) in self.games.into_values() {
            jsonl.push_str(&self.text[line]);
            records.push(record);
        }
        (records, jsonl)
    }
}

fn mismatch(path: &Path, game: u32) -> RunError {
    RunError::Mismatch {
        path: path.to_owned(),
        game,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A finished record of game `game`, as the run writes it.
    fn record(game: u32) -> GameRecord {
        let text = format!(
            r#"{{"game":{game},"rules":"quads","seed":{game},"time_control":"movetime 1000","start":"..../..../..../.... -","first":{{"name":"a","command":"x","id":null}},"second":{{"name":"b","command":"y","id":null}},"moves":["BDRF","A1 BLRF","A4 SDRF","B1 SLRF","B4 BDQF","C1 SLQF","C4 SDQF","D1"],"end":"BLRFSLRFSLQF./..../..../BDRFSDRFBDQFSDQF -","result":"0-1","reason":"normal","failures":[],"timing":{{"started":"2026-01-02T03:04:05.678Z","duration_ms":1.25,"moves_ms":[0.1,0.025,3.0],"leaked":[0,0],"log_bytes":[10,0],"log_dropped":[0,0]}}}}"#
        );
        serde_json::from_str(&text).unwrap()
    }

    #[test]
    fn games_jsonl_from_the_journal_lines_is_the_records_written_again_in_game_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        // Finished out of order, a line that is no record, and a line a crash cut short.
        let mut text = String::new();
        for game in [3, 1, 2] {
            text += &(record(game).to_json() + "\n");
        }
        text += "not a record\n";
        text += &record(4).to_json()[..40];
        std::fs::write(&path, &text).unwrap();

        let (read, lines) = journal_lines(&path).unwrap();
        let games: Vec<u32> = lines.iter().map(|(r, _)| r.game).collect();
        assert_eq!(games, [3, 1, 2]);
        for (r, line) in &lines {
            assert_eq!(&read[line.clone()], record(r.game).to_json() + "\n");
        }

        let journal = Journal {
            text: read,
            games: lines.into_iter().map(|(r, l)| (r.game, (r, l))).collect(),
        };
        assert_eq!(journal.len(), 3);
        let (records, jsonl) = journal.into_ordered();
        let again: String = records.iter().map(|r| r.to_json() + "\n").collect();
        assert_eq!(jsonl, again);
        assert_eq!(
            records.iter().map(|r| r.game).collect::<Vec<_>>(),
            [1, 2, 3]
        );
        assert_eq!(journal_records(&path).unwrap().len(), 3);
        assert!(journal_records(&dir.path().join("none.jsonl"))
            .unwrap()
            .is_empty());
    }
}
