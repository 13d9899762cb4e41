//! The analysis files `quads analyze` writes (`analysis.csv`, `analysis.jsonl`), read back
//! with types of their own: this crate does not depend on the analysis (which pulls in the
//! solver), only on the files' documented format (docs/analysis.md).
//!
//! A judged game is matched to its record by game number, players and rules, in order, and
//! kept only if every judged move is the move the record holds at that index and the result
//! is the same: a stale `analysis.jsonl` (say, of an earlier match into the same folder)
//! marks no game wrongly.

use std::collections::{HashMap, VecDeque};
use std::path::Path;

use quads_record::{EndReason, GameRecord, GameResult, Player};
use serde::Deserialize;

/// `analysis.csv`'s file name.
pub const SUMMARY_FILE: &str = "analysis.csv";
/// `analysis.jsonl`'s file name.
pub const GAMES_FILE: &str = "analysis.jsonl";

/// A position's value for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Value {
    /// The opponent can force a win.
    Loss,
    /// Neither can.
    Draw,
    /// This player can force a win.
    Win,
}

impl Value {
    /// 0 for a loss, 1 for a draw, 2 for a win.
    pub fn rank(self) -> u8 {
        match self {
            Value::Loss => 0,
            Value::Draw => 1,
            Value::Win => 2,
        }
    }
}

/// One row of `analysis.csv`: a bot in a variant (or `all`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct SummaryRow {
    /// The rules spec, or `all`.
    pub variant: String,
    /// The bot.
    pub bot: String,
    /// Moves made with at most this many empty squares were judged.
    pub empty: u32,
    /// Games played.
    pub games: u32,
    /// Games with a judged move.
    pub judged_games: u32,
    /// Moves judged.
    pub judged_moves: u32,
    /// Moves that kept the value.
    pub kept: u32,
    /// `kept / judged_moves`, if any move was judged.
    pub accuracy: Option<f64>,
    /// Blunders.
    pub blunders: u32,
    /// Blunders per judged game.
    pub blunders_per_game: Option<f64>,
    /// Wins thrown away (to a draw or a loss).
    pub wins_thrown: u32,
    /// Wins in one not taken.
    pub missed_wins: u32,
    /// Games with a blunder.
    pub games_with_blunder: u32,
    /// The average move number of the first blunder.
    pub first_blunder_move: Option<f64>,
    /// Blunders after which the game's value was its result.
    pub deciding_blunders: u32,
}

/// One judged move of `analysis.jsonl`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct JudgedMove {
    /// Its index in the record's `moves`.
    pub index: usize,
    /// Who made it.
    pub seat: Player,
    /// The move as the record writes it.
    pub played: String,
    /// The mover's value before it.
    pub before: Value,
    /// The mover's value after it.
    pub after: Value,
    /// A win in one was there and not taken.
    pub missed_win: bool,
}

/// The move that decided a game, as `analysis.jsonl` writes it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Decided {
    /// `unjudged`, `before-judged`, `blunder` or `forfeit`.
    pub by: String,
    /// The deciding blunder's index in `moves`.
    #[serde(default)]
    pub index: Option<usize>,
}

/// One line of `analysis.jsonl`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct JudgedGame {
    /// The record's game number.
    pub game: u32,
    /// Its rules spec.
    pub rules: String,
    /// The first player.
    pub first: String,
    /// The second player.
    pub second: String,
    /// The result.
    pub result: GameResult,
    /// How it ended.
    pub reason: EndReason,
    /// The window: moves made with at most this many empty squares.
    pub empty: u32,
    /// The judged moves.
    pub moves: Vec<JudgedMove>,
    /// The deciding move.
    pub decided: Decided,
}

/// The analysis of a folder, matched to the report's records.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Analysis {
    /// `analysis.csv`'s rows.
    pub summary: Vec<SummaryRow>,
    /// Per record of the report (same order), its judged game, if any matched.
    pub games: Vec<Option<JudgedGame>>,
    /// Moves judged from this many empty squares (from the first row).
    pub empty: Option<u32>,
}

impl Analysis {
    /// The records with a matching judged game.
    pub fn matched(&self) -> usize {
        self.games.iter().filter(|g| g.is_some()).count()
    }
}

/// Why the analysis files could not be read.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisFileError {
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A line or row is not in the format.
    #[error("{path}: {what}")]
    Format {
        /// The file.
        path: String,
        /// What is wrong.
        what: String,
    },
}

/// Reads `DIR/analysis.csv` and `DIR/analysis.jsonl` and matches the judged games to
/// `records`; `Ok(None)` when either file is missing or no game matched.
pub fn read(dir: &Path, records: &[GameRecord]) -> Result<Option<Analysis>, AnalysisFileError> {
    let (csv_path, jsonl_path) = (dir.join(SUMMARY_FILE), dir.join(GAMES_FILE));
    if !csv_path.exists() || !jsonl_path.exists() {
        return Ok(None);
    }
    let read = |p: &Path| {
        std::fs::read_to_string(p).map_err(|source| AnalysisFileError::Read {
            path: p.display().to_string(),
            source,
        })
    };
    let format = |p: &Path, what: String| AnalysisFileError::Format {
        path: p.display().to_string(),
        what,
    };
    let csv_text = read(&csv_path)?;
    let mut summary = Vec::new();
    for row in csv::Reader::from_reader(csv_text.as_bytes()).deserialize() {
        summary.push(row.map_err(|e| format(&csv_path, e.to_string()))?);
    }
    let mut judged = Vec::new();
    for (i, line) in read(&jsonl_path)?.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let game: JudgedGame = serde_json::from_str(line)
            .map_err(|e| format(&jsonl_path, format!("line {}: {e}", i + 1)))?;
        judged.push(game);
    }
    let games = matched(records, judged);
    let analysis = Analysis {
        empty: summary.first().map(|r: &SummaryRow| r.empty),
        summary,
        games,
    };
    Ok((analysis.matched() > 0).then_some(analysis))
}

/// Each record's judged game: the next unused one with its game number, players and rules,
/// if its moves and result agree with the record.
pub fn matched(records: &[GameRecord], judged: Vec<JudgedGame>) -> Vec<Option<JudgedGame>> {
    type Key = (u32, String, String, String);
    let mut by_key: HashMap<Key, VecDeque<JudgedGame>> = HashMap::new();
    for g in judged {
        let key = (g.game, g.first.clone(), g.second.clone(), g.rules.clone());
        by_key.entry(key).or_default().push_back(g);
    }
    records
        .iter()
        .map(|r| {
            let key = (
                r.game,
                r.first.name.clone(),
                r.second.name.clone(),
                r.rules.clone(),
            );
            let g = by_key.get_mut(&key)?.pop_front()?;
            let agrees = g.result == r.result
                && g.reason == r.reason
                && g.moves
                    .iter()
                    .all(|m| r.moves.get(m.index) == Some(&m.played));
            agrees.then_some(g)
        })
        .collect()
}
