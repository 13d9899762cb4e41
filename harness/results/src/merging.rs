//! `quads merge`: the shards of one tournament, checked, put together into the files a single
//! run writes.

use std::path::{Path, PathBuf};

use quads_record::files::{ENTRANTS_JSON, ENTRANTS_MD, GAMES, JOURNAL, LOGS, SANDBOX};
use quads_reports::html::EventInfo;
use quads_tournament::{merge, Merged};

use crate::folder::{create, write};
use crate::rating::write_results;
use crate::{judge, page, Event, ResultsError, Sink};

/// Merges the shards in `shards` into `out` (judging the games when `analyze` or the config
/// says so), with every file one run would have written.
pub fn merge_into(
    out: &Path,
    shards: &[PathBuf],
    analyze: bool,
    sink: &mut dyn Sink,
) -> Result<(), ResultsError> {
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if let Some(shard) = shards.iter().find(|s| same(s, out)) {
        return Err(ResultsError::MergeIntoShard(shard.clone()));
    }
    let merged = merge(shards)?;
    create(out)?;
    // A run that finds every game in its journal only writes the files again: the merged
    // folder is a finished tournament's, in schedule order.
    let journal: String = merged.records.iter().map(|r| r.to_json() + "\n").collect();
    write(&out.join(JOURNAL), journal.as_bytes())?;
    copy_logs(&merged, out)?;
    copy_shared(&merged, out)?;
    let info = &merged.info;
    let event = EventInfo {
        name: info.name.clone(),
        seed: Some(info.seed),
        bots: info.bots.clone(),
        anchor: info.anchor.clone(),
        machine: Some(machines(&merged)?),
        games: vec![GAMES.to_owned()],
    };
    let games = merged.records.len();
    let (count, analyze) = (info.shard.count, analyze || info.analyze);
    let report = write_results(out, event, merged.records, Some(journal), 0, sink)?;
    sink.event(Event::Merged {
        games,
        shards: count,
        out,
    });
    if analyze {
        judge::judge_run(out, sink)?;
    }
    let page = page::rebuild(out, Some(report))?;
    sink.event(Event::Report(&page));
    Ok(())
}

/// Every bot log of every shard, into `OUT/logs` (their names carry the game's number, so
/// shards never clash).
fn copy_logs(merged: &Merged, out: &Path) -> Result<(), ResultsError> {
    let to = out.join(LOGS);
    create(&to)?;
    for shard in &merged.shards {
        let from = shard.dir.join(LOGS);
        let Ok(entries) = std::fs::read_dir(&from) else {
            continue;
        };
        for entry in entries {
            let entry = entry.map_err(|source| ResultsError::List {
                path: from.clone(),
                source,
            })?;
            let target = to.join(entry.file_name());
            std::fs::copy(entry.path(), &target).map_err(|source| ResultsError::Copy {
                from: entry.path(),
                to: target.clone(),
                source,
            })?;
        }
    }
    Ok(())
}

/// The files every shard writes alike (the walls each bot ran in; the entrants' admission):
/// the first shard's, or each shard's under a heading where they differ.
fn copy_shared(merged: &Merged, out: &Path) -> Result<(), ResultsError> {
    for name in [SANDBOX, ENTRANTS_MD, ENTRANTS_JSON] {
        let texts: Vec<(String, String)> = merged
            .shards
            .iter()
            .filter_map(|s| {
                let text = std::fs::read_to_string(s.dir.join(name)).ok()?;
                Some((format!("{} ({})", s.info.shard, s.dir.display()), text))
            })
            .collect();
        let Some((_, first)) = texts.first() else {
            continue;
        };
        let text = if texts.iter().all(|(_, t)| t == first) || name.ends_with(".json") {
            first.clone()
        } else {
            texts
                .iter()
                .map(|(shard, text)| format!("# shard {shard}\n{text}"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        write(&out.join(name), text.as_bytes())?;
    }
    Ok(())
}

/// The machines the shards ran on, as their event.json files say: one, or each once.
fn machines(merged: &Merged) -> Result<String, ResultsError> {
    let mut seen: Vec<String> = Vec::new();
    for shard in &merged.shards {
        let machine = EventInfo::read(&shard.dir)?
            .and_then(|e| e.machine)
            .unwrap_or_else(|| "unknown".to_owned());
        if !seen.contains(&machine) {
            seen.push(machine);
        }
    }
    Ok(seen.join("; "))
}
