//! The standings of a folder's games: `games.jsonl` in schedule order, then standings,
//! results, pairwise tables, PGN and charts, and `event.json`; and `quads ratings`, the same
//! from games.jsonl files of other folders.

use std::path::{Path, PathBuf};

use quads_record::files::{read_games, GAMES};
use quads_record::Anchor;
use quads_record::GameRecord;
use quads_reports::html::EventInfo;
use quads_reports::report::Report;

use crate::folder::{common, relative, write, write_event};
use crate::{page, Event, ResultsError, Sink};

/// Writes `records` (in schedule order) as games.jsonl (`jsonl`, when the caller has their
/// lines as written already), then every report file, and `event` as event.json (its bots in
/// the ratings' order); tells `sink` (resumed: games that were in the journal before this
/// run). Returns the ratings report, for report.html.
pub fn write_results(
    out: &Path,
    event: EventInfo,
    records: Vec<GameRecord>,
    jsonl: Option<String>,
    resumed: usize,
    sink: &mut dyn Sink,
) -> Result<Report, ResultsError> {
    let text = jsonl.unwrap_or_else(|| records.iter().map(|r| r.to_json() + "\n").collect());
    write(&out.join(GAMES), text.as_bytes())?;
    let anchor = event.anchor.as_ref();
    let report = quads_reports::report::build(
        &event.name,
        records.into_iter().map(|r| (0, r)).collect(),
        &event.bots,
        event.seed.unwrap_or_default(),
        anchor,
    )?;
    quads_reports::export::write_all(&report, out).map_err(|source| ResultsError::Reports {
        dir: out.to_owned(),
        source,
    })?;
    write_event(
        out,
        &EventInfo {
            bots: report.bots.clone(),
            ..event
        },
    )?;
    sink.event(Event::Tables {
        table: &quads_reports::export::table(&report),
        out,
        resumed,
    });
    Ok(report)
}

/// What `quads ratings` rates.
#[derive(Clone, Debug)]
pub struct Rate {
    /// games.jsonl files, rated together.
    pub files: Vec<PathBuf>,
    /// The folder to write into.
    pub out: PathBuf,
    /// The event's name [default: the records', else `ratings`].
    pub event: Option<String>,
    /// The bootstrap's seed [default: the records' tournament seed, else 1].
    pub seed: Option<u64>,
    /// A bot pinned at a rating.
    pub anchor: Option<Anchor>,
    /// Each version a player of its own (`NAME vN`), where a record says which version played
    /// (a server's export does).
    pub by_version: bool,
}

/// Rates the games of `rate.files` together into `rate.out`: standings, charts, event.json
/// and report.html.
pub fn rate(rate: &Rate, sink: &mut dyn Sink) -> Result<(), ResultsError> {
    let mut records = Vec::new();
    for (source, path) in rate.files.iter().enumerate() {
        records.extend(read_games(path)?.into_iter().map(|r| (source, r)));
    }
    if records.is_empty() {
        return Err(ResultsError::NoGamesGiven);
    }
    if rate.by_version {
        for (_, r) in &mut records {
            for bot in [&mut r.first, &mut r.second] {
                bot.name = bot.versioned_name();
            }
        }
    }
    let anchor = rate.anchor.as_ref();
    // Records of one tournament carry its event name and seed: the same intervals as it gave.
    let event = rate
        .event
        .clone()
        .or_else(|| common(&records, |r| r.event.clone()))
        .unwrap_or_else(|| "ratings".to_owned());
    let seed = rate
        .seed
        .or_else(|| common(&records, |r| r.event_seed))
        .unwrap_or(1);
    let report = quads_reports::report::build(&event, records, &[], seed, anchor)?;
    quads_reports::export::write_all(&report, &rate.out).map_err(|source| {
        ResultsError::Ratings {
            dir: rate.out.clone(),
            source,
        }
    })?;
    write_event(
        &rate.out,
        &EventInfo {
            name: event,
            seed: Some(seed),
            bots: report.bots.clone(),
            anchor: rate.anchor.clone(),
            machine: machine_of(&rate.files),
            games: rate.files.iter().map(|f| relative(&rate.out, f)).collect(),
        },
    )?;
    sink.event(Event::Tables {
        table: &quads_reports::export::table(&report),
        out: &rate.out,
        resumed: 0,
    });
    let page = page::rebuild(&rate.out, Some(report))?;
    sink.event(Event::Report(&page));
    Ok(())
}

/// The machine the games were played on, if every file's folder names the same one in its
/// event.json.
fn machine_of(files: &[PathBuf]) -> Option<String> {
    let machines: Vec<Option<String>> = files
        .iter()
        .map(|f| {
            let dir = f.parent().unwrap_or(Path::new("."));
            EventInfo::read(dir).ok().flatten().and_then(|e| e.machine)
        })
        .collect();
    let first = machines.first()?.clone()?;
    machines
        .iter()
        .all(|m| m.as_ref() == Some(&first))
        .then_some(first)
}
