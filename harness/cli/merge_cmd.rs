//! `quads merge OUT SHARD_DIR...`: the shards of one tournament, checked, put together into
//! the files a single run writes.

use std::path::{Path, PathBuf};

use quads_reports::html::{Anchor, EventInfo};
use quads_tournament::{merge, Merged};

use crate::tournament_cmd::{finish, write_atomic};

/// Arguments of `quads merge`.
#[derive(clap::Args)]
pub struct Args {
    /// The folder to write the whole tournament's files into.
    out: PathBuf,
    /// Every shard's folder (`quads tournament CONFIG --shard I/N --out DIR`), in any order.
    #[arg(required = true, value_name = "SHARD_DIR")]
    shards: Vec<PathBuf>,
    /// Judge the games with the solver afterwards, as `quads analyze` does (also when the
    /// config says `analyze = true`).
    #[arg(long)]
    analyze: bool,
    /// Print only the final tables.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: &Args) -> Result<(), String> {
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if let Some(shard) = args.shards.iter().find(|s| same(s, &args.out)) {
        return Err(format!(
            "{} is a shard's folder: merge into another folder",
            shard.display()
        ));
    }
    let merged = merge(&args.shards).map_err(|e| e.to_string())?;
    let out = &args.out;
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    // A run that finds every game in its journal only writes the files again: the merged
    // folder is a finished tournament's, in schedule order.
    let journal: String = merged.records.iter().map(|r| r.to_json() + "\n").collect();
    write_atomic(&out.join("journal.jsonl"), journal.as_bytes())?;
    copy_logs(&merged, out)?;
    copy_shared(&merged, out)?;
    let info = &merged.info;
    let event = EventInfo {
        name: info.name.clone(),
        seed: Some(info.seed),
        bots: info.bots.clone(),
        anchor: info.anchor.as_ref().map(|(bot, elo)| Anchor {
            bot: bot.clone(),
            elo: *elo,
        }),
        machine: Some(machines(&merged)?),
        games: vec!["games.jsonl".to_owned()],
    };
    let games = merged.records.len();
    let report = finish(out, event, merged.records)?;
    if !args.quiet {
        eprintln!(
            "{games} games from {} shards merged into {}",
            info.shard.count,
            out.display()
        );
    }
    if args.analyze || info.analyze {
        crate::analyze_cmd::after_tournament(out, args.quiet)?;
    }
    let page = crate::report_cmd::rebuild(out, Some(report))?;
    crate::outln!("report in {}", page.display());
    Ok(())
}

/// Every bot log of every shard, into `OUT/logs` (their names carry the game's number, so
/// shards never clash).
fn copy_logs(merged: &Merged, out: &Path) -> Result<(), String> {
    let to = out.join("logs");
    std::fs::create_dir_all(&to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    for shard in &merged.shards {
        let from = shard.dir.join("logs");
        let Ok(entries) = std::fs::read_dir(&from) else {
            continue;
        };
        for entry in entries {
            let entry = entry.map_err(|e| format!("cannot read {}: {e}", from.display()))?;
            let target = to.join(entry.file_name());
            std::fs::copy(entry.path(), &target).map_err(|e| {
                format!(
                    "cannot copy {} to {}: {e}",
                    entry.path().display(),
                    target.display()
                )
            })?;
        }
    }
    Ok(())
}

/// The files every shard writes alike (the walls each bot ran in; the entrants' admission):
/// the first shard's, or each shard's under a heading where they differ.
fn copy_shared(merged: &Merged, out: &Path) -> Result<(), String> {
    for name in ["sandbox.txt", "entrants.md", "entrants.json"] {
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
        write_atomic(&out.join(name), text.as_bytes())?;
    }
    Ok(())
}

/// The machines the shards ran on, as their event.json files say: one, or each once.
fn machines(merged: &Merged) -> Result<String, String> {
    let mut seen: Vec<String> = Vec::new();
    for shard in &merged.shards {
        let machine = EventInfo::read(&shard.dir)
            .map_err(|e| e.to_string())?
            .and_then(|e| e.machine)
            .unwrap_or_else(|| "unknown".to_owned());
        if !seen.contains(&machine) {
            seen.push(machine);
        }
    }
    Ok(seen.join("; "))
}
