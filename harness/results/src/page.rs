//! `report.html`: rebuilt from a folder's records, `event.json` and analysis files. The same
//! folder gives the same bytes: the page holds nothing of when or where it was rebuilt (the
//! machine it names is the one in `event.json`, where the games were played).

use std::path::{Path, PathBuf};

use quads_record::files::{read_games, GAMES};
use quads_record::GameRecord;
use quads_reports::html::{self, EventInfo, Page, REPORT_FILE};
use quads_reports::report::Report;

use crate::folder::{common, write};
use crate::ResultsError;

/// Rebuilds `DIR/report.html` and returns its path. `report`, when given, is the ratings
/// report of the folder's games (the caller just computed it), so it is not computed again.
pub fn rebuild(dir: &Path, report: Option<Report>) -> Result<PathBuf, ResultsError> {
    let read_event = EventInfo::read(dir)?;
    let files = read_event
        .as_ref()
        .map_or_else(|| vec![GAMES.to_owned()], |e| e.games.clone());
    let (report, event) = match (report, read_event) {
        // The caller built the report from this folder's games, and event.json says the rest:
        // the games are not read again (in a run's end that was a third of the reading).
        (Some(report), Some(event)) => (report, event),
        (report, read_event) => {
            let mut records: Vec<(usize, GameRecord)> = Vec::new();
            for (source, file) in files.iter().enumerate() {
                let read = read_games(&dir.join(file))?;
                records.extend(read.into_iter().map(|r| (source, r)));
            }
            if records.is_empty() {
                return Err(ResultsError::NoGames(dir.to_owned()));
            }
            let event = read_event.unwrap_or_else(|| guess_event(dir, &records));
            let report = match report {
                Some(report) => report,
                None => report_of(&event, records)?,
            };
            (report, event)
        }
    };
    if report.records.is_empty() {
        return Err(ResultsError::NoGames(dir.to_owned()));
    }
    let analysis = html::analysis::read(dir, &report.records)?;
    let log_bases: Vec<String> = files.iter().map(|f| log_base(f)).collect();
    let page = html::render(&Page {
        report: &report,
        event: &event,
        log_bases: &log_bases,
        analysis: analysis.as_ref(),
    });
    let path = dir.join(REPORT_FILE);
    write(&path, page.as_bytes())?;
    Ok(path)
}

/// The ratings report of `records` as `event` names them (its name, bots, seed and anchor):
/// what [`rebuild`] builds from a folder, and what a run that kept its games passes to it.
pub(crate) fn report_of(
    event: &EventInfo,
    records: Vec<(usize, GameRecord)>,
) -> Result<Report, ResultsError> {
    Ok(quads_reports::report::build(
        &event.name,
        records,
        &event.bots,
        event.seed.unwrap_or(1),
        event.anchor.as_ref(),
    )?)
}

/// The folder of a games file's `logs/`, as a link prefix from the report's folder.
fn log_base(games_file: &str) -> String {
    match Path::new(games_file).parent() {
        Some(p) if !p.as_os_str().is_empty() => format!("{}/", p.display()),
        _ => String::new(),
    }
}

/// The event of a folder written before `event.json` existed: the records' event name and
/// seed (as `quads ratings` takes them), and the bot order of its `standings.csv`.
fn guess_event(dir: &Path, records: &[(usize, GameRecord)]) -> EventInfo {
    let name = common(records, |r| r.event.clone()).unwrap_or_else(|| {
        dir.file_name()
            .map_or_else(|| "games".to_owned(), |n| n.to_string_lossy().into_owned())
    });
    EventInfo {
        name,
        seed: common(records, |r| r.event_seed),
        bots: standings_order(&dir.join("standings.csv")),
        anchor: None,
        machine: None,
        games: vec![GAMES.to_owned()],
    }
}

/// The bots of a `standings.csv`, in its order (the rows of all variants).
fn standings_order(path: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    text.lines()
        .skip(1)
        .filter_map(|l| l.strip_prefix("all,"))
        .filter_map(|rest| rest.split(',').next())
        .filter(|bot| !bot.starts_with('"'))
        .map(str::to_owned)
        .collect()
}
