//! The whole event, exported: every counted ladder game as games.jsonl, rated as `quads ratings`
//! rates a file (standings, pairwise tables, charts, event.json and report.html, through
//! `quads_results::rating`), in `DATA/export`. Test matches are an entrant's own and stay out.

use std::collections::{BTreeMap, HashMap};

use quads_record::GameRecord;

use serde::Serialize;

use super::{App, DomainError};

/// The export's folder: `DATA/export`.
pub fn export_folder(app: &App) -> std::path::PathBuf {
    app.0.config.data.join("export")
}

/// The files of an export the host may download, with their content types.
pub const FILES: &[(&str, &str)] = &[
    (quads_record::files::GAMES, "application/x-ndjson"),
    (quads_reports::html::REPORT_FILE, "text/html; charset=utf-8"),
    ("standings.csv", "text/csv; charset=utf-8"),
    ("standings.txt", "text/plain; charset=utf-8"),
    ("pairwise.csv", "text/csv; charset=utf-8"),
    ("results.csv", "text/csv; charset=utf-8"),
    ("games.pgn", "text/plain; charset=utf-8"),
];

/// An export written: its games, its folder, and each file with the address it is downloaded
/// from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Exported {
    pub games: usize,
    pub folder: String,
    pub files: BTreeMap<String, String>,
}

/// Writes the export: the ladder's counted games in the order they were recorded, then their
/// ratings and report beside them. The bootstrap's seed is 1, as the leaderboard's, so the same
/// games give the same files.
pub async fn export(app: &App) -> Result<Exported, DomainError> {
    let store = &app.0.store;
    let records = store.ladder_records().await?;
    if records.is_empty() {
        return Err(DomainError::Conflict(
            "no ladder game has been played yet: nothing to export".to_owned(),
        ));
    }
    // Each match numbers its games from 1, so in one file the game pairs of different matches
    // would read as one (quads_record::GameRecord::pair_id): each game pair is numbered
    // across the event instead, as the leaderboard pairs them (by match and pair).
    let mut text = String::new();
    let mut pairs: HashMap<(i64, u32), u32> = HashMap::new();
    // Each bot also says which version played (`quads ratings --by-version`).
    for g in &records {
        let mut r: GameRecord = serde_json::from_str(&g.record).map_err(DomainError::failed)?;
        let next = pairs.len() as u32 + 1;
        r.pair = Some(*pairs.entry((g.match_id, r.pair_id())).or_insert(next));
        for bot in [&mut r.first, &mut r.second] {
            bot.version = g
                .versions
                .iter()
                .find(|(name, _)| *name == bot.name)
                .map(|(_, n)| *n as u32);
        }
        text.push_str(&r.to_json());
        text.push('\n');
    }
    let dir = export_folder(app);
    let name = app.0.config.name.clone();
    tokio::task::spawn_blocking({
        let dir = dir.clone();
        move || -> Result<(), String> {
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            let games = dir.join(quads_record::files::GAMES);
            quads_record::files::write_atomic(&games, text.as_bytes())
                .map_err(|e| format!("{}: {e}", games.display()))?;
            let rate = quads_results::rating::Rate {
                files: vec![games],
                out: dir.clone(),
                event: Some(name),
                seed: Some(1),
                anchor: None,
                by_version: false,
            };
            quads_results::rating::rate(&rate, &mut |_: quads_results::Event<'_>| {})
                .map_err(|e| e.to_string())
        }
    })
    .await
    .map_err(DomainError::failed)?
    .map_err(DomainError::failed)?;
    let files = FILES
        .iter()
        .filter(|(f, _)| dir.join(f).is_file())
        .map(|(f, _)| ((*f).to_owned(), format!("/api/admin/export/{f}")))
        .collect();
    Ok(Exported {
        games: records.len(),
        folder: dir.display().to_string(),
        files,
    })
}
