//! `quads report DIR`: rebuilds `DIR/report.html` from the folder's records, `event.json`
//! and analysis files; and the hook every command that writes results calls, so that each
//! output folder has its report.
//!
//! The same folder gives the same bytes: the page holds nothing of when or where it was
//! rebuilt (the machine it names is the one in `event.json`, where the games were played).

use std::path::{Path, PathBuf};

use quads_record::GameRecord;
use quads_reports::html::{self, EventInfo, Page, EVENT_FILE, REPORT_FILE};
use quads_reports::report::Report;

/// Arguments of `quads report`.
#[derive(clap::Args)]
pub struct Args {
    /// A tournament, match, ratings or analysis output folder (with event.json, or a
    /// games.jsonl).
    dir: PathBuf,
}

pub fn run(args: &Args) -> Result<(), String> {
    let path = rebuild(&args.dir, None)?;
    crate::outln!("report in {}", path.display());
    Ok(())
}

/// Writes `DIR/event.json`.
pub fn write_event(dir: &Path, event: &EventInfo) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    crate::tournament_cmd::write_atomic(&dir.join(EVENT_FILE), event.to_json().as_bytes())
}

/// Rebuilds `DIR/report.html` and returns its path. `report`, when given, is the ratings
/// report of the folder's games (the caller just computed it), so it is not computed again.
pub fn rebuild(dir: &Path, report: Option<Report>) -> Result<PathBuf, String> {
    let read_event = EventInfo::read(dir).map_err(|e| e.to_string())?;
    let files = read_event
        .as_ref()
        .map_or_else(|| vec!["games.jsonl".to_owned()], |e| e.games.clone());
    let mut records: Vec<(usize, GameRecord)> = Vec::new();
    for (source, file) in files.iter().enumerate() {
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let read =
            quads_record::parse_jsonl(&text).map_err(|e| format!("{} {e}", path.display()))?;
        records.extend(read.into_iter().map(|r| (source, r)));
    }
    if records.is_empty() {
        return Err(format!("no games in {}", dir.display()));
    }
    let event = read_event.unwrap_or_else(|| guess_event(dir, &records));
    let report = match report {
        Some(report) => report,
        None => {
            let anchor = event.anchor.as_ref().map(|a| (a.bot.as_str(), a.elo));
            quads_reports::report::build(
                &event.name,
                records,
                &event.bots,
                event.seed.unwrap_or(1),
                anchor,
            )
            .map_err(|e| e.to_string())?
        }
    };
    let analysis = html::analysis::read(dir, &report.records).map_err(|e| e.to_string())?;
    let log_bases: Vec<String> = files.iter().map(|f| log_base(f)).collect();
    let page = html::render(&Page {
        report: &report,
        event: &event,
        log_bases: &log_bases,
        analysis: analysis.as_ref(),
    });
    let path = dir.join(REPORT_FILE);
    crate::tournament_cmd::write_atomic(&path, page.as_bytes())?;
    Ok(path)
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
        games: vec!["games.jsonl".to_owned()],
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

/// The value every record has, if they all have the same one.
pub fn common<T: PartialEq>(
    records: &[(usize, GameRecord)],
    get: impl Fn(&GameRecord) -> Option<T>,
) -> Option<T> {
    let mut values = records.iter().map(|(_, r)| get(r));
    let first = values.next()??;
    values.all(|v| v.as_ref() == Some(&first)).then_some(first)
}

/// `to` relative to the folder `from` (both made absolute first), for links and
/// `event.json`; `to` as given when that fails.
pub fn relative(from: &Path, to: &Path) -> String {
    let absolute = |p: &Path| std::path::absolute(p).ok();
    let (Some(from), Some(to_abs)) = (absolute(from), absolute(to)) else {
        return to.display().to_string();
    };
    let a: Vec<_> = from.components().collect();
    let b: Vec<_> = to_abs.components().collect();
    let same = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = vec!["..".to_owned(); a.len() - same];
    parts.extend(
        b[same..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

/// The machine in a few words: the system, the cores, the processor and the memory.
pub fn machine() -> String {
    let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
    let cpuinfo = read("/proc/cpuinfo");
    let cpu = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .and_then(|l| l.split(':').nth(1))
        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "));
    let memory = read("/proc/meminfo")
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|l| l.split_whitespace().next()?.parse::<f64>().ok())
        .map(|kib| format!("{:.1} GiB memory", kib / 1024.0 / 1024.0));
    let system = match read("/proc/sys/kernel/osrelease").trim() {
        "" => std::env::consts::OS.to_owned(),
        release => format!("{} {release}", read("/proc/sys/kernel/ostype").trim()),
    };
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let mut parts = vec![system, format!("{cores} cores")];
    parts.extend(cpu);
    parts.extend(memory);
    parts.join(", ")
}
