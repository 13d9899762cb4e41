//! Every command's output files hold the bytes they held when this test was blessed: the demo
//! tournament, the competition example, a merge of shards, an analysis, a ratings run and a
//! match, each file's digest against `tests/outputs.digests`.
//!
//! The measured parts are taken out first (each record's `timing`, results.csv's durations,
//! the report's dates of play, the machine's name, the temporary folder's path, the journal's
//! order of finishing), so what
//! is compared is everything the seed and the code decide. A change to the code that moves one
//! byte of a results folder fails here, naming the file; when the change is meant, bless the
//! new bytes with `QUADS_BLESS=1 cargo test --release --test outputs` and say why in the commit.

#[allow(
    dead_code,
    reason = "this test runs quads itself, from the project root"
)]
mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const DIGESTS: &str = "tests/outputs.digests";

/// `quads` run from the project's root (the configs name their bots from there).
fn quads(args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_quads"))
        .args(args)
        .current_dir(ROOT)
        .output()
        .expect("quads runs");
    assert!(
        out.status.success(),
        "quads {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// FNV-1a, 64 bits: a digest that never changes with the toolchain.
fn digest(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The machine's name as the results write it (event.json's `machine`).
fn machine_of(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("event.json")).ok()?;
    let event: serde_json::Value = serde_json::from_str(&text).ok()?;
    event["machine"].as_str().map(str::to_owned)
}

/// A file's bytes with what is measured, or where it ran, taken out.
fn normalized(path: &Path, tmp: &Path, machine: Option<&str>) -> Vec<u8> {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let bytes = std::fs::read(path).unwrap();
    if name.ends_with(".png") {
        return bytes;
    }
    let mut text = String::from_utf8(bytes).unwrap();
    if let Some(m) = machine {
        text = text.replace(m, "MACHINE");
    }
    text = text.replace(&tmp.display().to_string(), "TMP");
    // The report says when the games were played, from the records' timing.
    let fact = "<dd data-fact=\"played\">";
    if let Some(start) = text.find(fact).map(|i| i + fact.len()) {
        if let Some(end) = text[start..].find("</dd>") {
            text.replace_range(start..start + end, "PLAYED");
        }
    }
    if name == "games.jsonl" || name == "journal.jsonl" {
        let mut lines: Vec<String> = text
            .lines()
            .map(|l| {
                let mut g: serde_json::Value = serde_json::from_str(l).unwrap();
                g.as_object_mut().unwrap().remove("timing");
                g.to_string()
            })
            .collect();
        if name == "journal.jsonl" {
            // Appended as games end: in the order they finished.
            lines.sort();
        }
        text = lines.join("\n");
    } else if name == "results.csv" {
        // Each row ends with the game's duration.
        text = text
            .lines()
            .map(|l| l.rsplit_once(',').map_or(l, |(row, _)| row).to_owned())
            .collect::<Vec<_>>()
            .join("\n");
    }
    text.into_bytes()
}

/// Every file under `dir`, by its path from `tmp`.
fn files(dir: &Path, tmp: &Path, found: &mut BTreeMap<String, PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, tmp, found);
        } else {
            let key = path.strip_prefix(tmp).unwrap().display().to_string();
            found.insert(key, path);
        }
    }
}

#[test]
fn every_commands_files_hold_the_bytes_they_held() {
    if !common::needs(&["node", "cc"]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let at = |name: &str| tmp.path().join(name).display().to_string();
    quads(&[
        "tournament",
        "configs/demo.toml",
        "--quiet",
        "--out",
        &at("demo"),
    ]);
    for shard in ["0/3", "1/3", "2/3"] {
        let dir = at(&format!("shard-{}", &shard[..1]));
        quads(&[
            "tournament",
            "configs/demo.toml",
            "--quiet",
            "--shard",
            shard,
            "--out",
            &dir,
        ]);
    }
    quads(&[
        "merge",
        &at("merged"),
        &at("shard-0"),
        &at("shard-1"),
        &at("shard-2"),
        "--quiet",
    ]);
    quads(&["analyze", &at("demo")]);
    quads(&[
        "ratings",
        &at("demo/games.jsonl"),
        &at("merged/games.jsonl"),
        "--out",
        &at("rated"),
    ]);
    quads(&[
        "match",
        "--bot",
        "greedy",
        "--bot",
        "random",
        "--games",
        "4",
        "--movetime",
        "1s",
        "--quiet",
        "--out",
        &at("match"),
    ]);
    quads(&[
        "tournament",
        "configs/competition.toml",
        "--movetime",
        "500ms",
        "--pairs",
        "1",
        "--quiet",
        "--out",
        &at("cup"),
    ]);

    let mut found = BTreeMap::new();
    files(tmp.path(), tmp.path(), &mut found);
    let lines: Vec<String> = found
        .iter()
        .map(|(key, path)| {
            let top = tmp.path().join(key.split('/').next().unwrap());
            let machine = machine_of(&top);
            format!(
                "{} {key}",
                digest(&normalized(path, tmp.path(), machine.as_deref()))
            )
        })
        .collect();
    let now = lines.join("\n") + "\n";
    let path = Path::new(ROOT).join(DIGESTS);
    if std::env::var_os("QUADS_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &now).unwrap();
        return;
    }
    let then = std::fs::read_to_string(&path).unwrap_or_default();
    let differ: Vec<String> = {
        let old: BTreeMap<&str, &str> = then
            .lines()
            .filter_map(|l| l.split_once(' ').map(|(d, k)| (k, d)))
            .collect();
        let new: BTreeMap<&str, &str> = now
            .lines()
            .filter_map(|l| l.split_once(' ').map(|(d, k)| (k, d)))
            .collect();
        let mut keys: Vec<&str> = old.keys().chain(new.keys()).copied().collect();
        keys.sort_unstable();
        keys.dedup();
        keys.into_iter()
            .filter(|k| old.get(k) != new.get(k))
            .map(|k| match (old.get(k), new.get(k)) {
                (Some(_), None) => format!("{k}: no longer written"),
                (None, Some(_)) => format!("{k}: new"),
                _ => format!("{k}: other bytes"),
            })
            .collect()
    };
    assert!(
        differ.is_empty(),
        "{} files differ from {DIGESTS}:\n{}",
        differ.len(),
        differ.join("\n")
    );
}
