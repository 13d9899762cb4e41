//! The files a tournament reads from outside (configs, bots files, entrants' manifests, its own
//! journal after a crash) never make it panic: random text, and valid files mutated line by
//! line and character by character, 10,000 cases each (`QUADS_FUZZ_CASES` sets another count).
//! What is rejected is rejected in one line; a journal cut anywhere gives back exactly its
//! complete lines.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use quads_referee::{BotEntry, EndReason, GameRecord, GameResult, Timing};
use quads_tournament::{
    entrants::read_entrants, read_bots_file, read_config, read_journal, schedule, Overrides,
    Scheduled, Tournament,
};

/// Valid configs, between them every key a config can hold.
const CONFIGS: [&str; 3] = [
    r#"name = "fuzz"
seed = 7
out = "out/fuzz"
concurrency = 2
format = "round-robin"
pairs = 2
variants = ["quads", "classic,traits=size+color", "quads,claim=announce"]
keep_alive = true
ponder = false
openings = { random_moves = 2 }
time = { movetime = "100ms", margin = "20ms" }
handshake_timeout = "5s"
log_cap = 65536
anchor = { bot = "a", elo = 1500 }
sandbox = "memory=512MiB,processes=32,network=off"
analyze = true

[[bot]]
name = "a"
command = "bin/a --depth 2"
options = { depth = 3, fast = true, style = "calm" }
time = { clock = "1m+1s" }

[[bot]]
name = "b"
command = "exec bin/b 2>/dev/null"
shell = true
dir = "bots/b"
sandbox = "off"
"#,
    r#"format = "gauntlet"
gauntlet = ["new"]
openings = { file = "openings.txt" }
time = { clock = "5m+2s" }
sprt = { elo0 = 0, elo1 = 10, alpha = 0.05, beta = 0.05, max_pairs = 500 }

[[bot]]
name = "new"
command = "new"

[[bot]]
name = "old"
command = "old"
"#,
    r#"name = "competition"
entrants = "entrants"
variants = ["classic"]
time = { movetime = "1s" }
"#,
];

/// Valid bots files.
const BOTS: [&str; 1] = [r#"[[bot]]
name = "random"
command = "target/release/quads-bot --strategy random"
sandbox = "cpu=30m,file_size=off"

[[bot]]
name = "py"
command = "python3 bot.py"
dir = "kits/python"
options = { strategy = "greedy" }
time = { movetime = "2s" }
"#];

/// Valid entrants' manifests.
const MANIFESTS: [&str; 2] = [
    r#"name = "alice"
author = "Alice"
language = "Python"
command = "python3 bot.py"
"#,
    r#"name = "carol"
author = "Carol"
language = "C"
build = "cc -O2 -o bot bot.c"
build_timeout = "2m"
command = "./bot"
options = { depth = 4, greedy = false, name = "x" }
"#,
];

thread_local! {
    /// One folder per test thread, its files rewritten by each case: a new folder per case
    /// would spend most of the run creating and removing folders.
    static DIR: tempfile::TempDir = {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("openings.txt"), "..../..../..../.... BDRF\n")
            .expect("openings file");
        std::fs::create_dir(dir.path().join("entrants")).expect("entrants folder");
        std::fs::create_dir(dir.path().join("entrants/alice")).expect("entrant folder");
        dir
    };
    /// The journal tests' tournament and schedule, read once per thread.
    static TOURNAMENT: (Tournament, Vec<Scheduled>) = tournament();
}

/// The test thread's folder.
fn dir() -> PathBuf {
    DIR.with(|d| d.path().to_path_buf())
}

/// Writes `text` into `dir/name` and returns the path.
fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write a fuzz input");
    path
}

/// Rejections are one line that names the file.
fn one_line(error: &str, file: &Path) -> Result<(), TestCaseError> {
    prop_assert!(
        !error.contains('\n'),
        "a message of several lines: {error:?}"
    );
    prop_assert!(
        error.contains(&*file.display().to_string()),
        "the message does not name {}: {error}",
        file.display()
    );
    Ok(())
}

fn config_text(text: &str) -> Result<(), TestCaseError> {
    let path = write(&dir(), "config.toml", text);
    if let Err(e) = read_config(&path, &Overrides::default()) {
        one_line(&e.to_string(), &path)?;
    }
    Ok(())
}

fn bots_text(text: &str) -> Result<(), TestCaseError> {
    let path = write(&dir(), "bots.toml", text);
    if let Err(e) = read_bots_file(&path) {
        one_line(&e.to_string(), &path)?;
    }
    Ok(())
}

fn manifest_text(text: &str) -> Result<(), TestCaseError> {
    let folder = dir().join("entrants");
    let path = write(&folder.join("alice"), "bot.toml", text);
    let listed = read_entrants(&folder, &["taken".to_owned()])
        .map_err(|e| TestCaseError::fail(format!("the folder itself is readable: {e}")))?;
    prop_assert_eq!(listed.len(), 1);
    if let quads_tournament::entrants::Listed::Rejected(_, why) = &listed[0] {
        one_line(why, &path)?;
    }
    Ok(())
}

/// A tournament of two bots over two variants, and its schedule.
fn tournament() -> (Tournament, Vec<Scheduled>) {
    let path = write(
        &dir(),
        "config.toml",
        "seed = 3\npairs = 2\nvariants = [\"quads\", \"classic\"]\n\
         [[bot]]\nname = \"a\"\ncommand = \"a\"\n[[bot]]\nname = \"b\"\ncommand = \"b\"\n",
    );
    let t = read_config(&path, &Overrides::default()).expect("a valid config");
    let games = schedule(&t);
    (t, games)
}

/// The journal line a finished game `g` of the schedule would leave.
fn record(t: &Tournament, g: &Scheduled) -> String {
    let bot = |i: usize| BotEntry {
        name: t.bots[i].name.clone(),
        command: t.bots[i].name.clone(),
        id: None,
        sandbox: None,
        ponder: None,
        version: None,
    };
    GameRecord {
        game: g.number,
        round: Some(g.round),
        pair: Some(g.pair),
        event: Some(t.name.clone()),
        event_seed: Some(t.seed),
        rules: t.variants[g.variant].to_string(),
        seed: g.seed,
        time_control: "movetime 1000".into(),
        start: g.start.to_string(),
        first: bot(g.first),
        second: bot(g.second),
        moves: vec![],
        end: g.start.to_string(),
        result: GameResult::Draw,
        reason: EndReason::Draw,
        failures: vec![],
        timing: Timing::default(),
    }
    .to_json()
}

proptest! {
    #![proptest_config(quads_fuzzkit::config())]

    #[test]
    fn random_configs_never_panic(text in "(?s).{0,400}") {
        config_text(&text)?;
        bots_text(&text)?;
        manifest_text(&text)?;
    }

    #[test]
    fn mutated_configs_never_panic(text in quads_fuzzkit::mutated_lines(&CONFIGS, 6)) {
        config_text(&text)?;
    }

    #[test]
    fn mutated_bots_files_never_panic(text in quads_fuzzkit::mutated_lines(&BOTS, 6)) {
        bots_text(&text)?;
    }

    #[test]
    fn mutated_manifests_never_panic(text in quads_fuzzkit::mutated_lines(&MANIFESTS, 6)) {
        manifest_text(&text)?;
    }

    /// A crash may cut the journal anywhere: every complete line still counts, the torn one
    /// is dropped, and nothing else is lost.
    #[test]
    fn a_journal_cut_anywhere_keeps_its_complete_lines(kept in 0usize..8, cut in any::<prop::sample::Index>()) {
        let (text, path) = TOURNAMENT.with(|(t, games)| {
            let text: String = games.iter().take(kept).map(|g| record(t, g) + "\n").collect();
            (text, dir().join("journal.jsonl"))
        });
        let at = cut.index(text.len() + 1);
        std::fs::write(&path, &text.as_bytes()[..at]).expect("write the journal");
        let done = TOURNAMENT.with(|(t, games)| read_journal(&path, t, games))
            .map_err(|e| TestCaseError::fail(format!("a cut journal is not fatal: {e}")))?;
        let complete = text[..at].matches('\n').count();
        let mut numbers: Vec<u32> = done.keys().copied().collect();
        numbers.sort_unstable();
        prop_assert_eq!(numbers, (1..=complete as u32).collect::<Vec<_>>());
    }

    /// Garbled lines anywhere: read or refused with a message, never a panic.
    #[test]
    fn mutated_journals_never_panic(edits in prop::collection::vec((0..3u8, any::<prop::sample::Index>(), any::<u8>()), 0..8)) {
        let mut bytes: Vec<u8> = TOURNAMENT.with(|(t, games)| {
            games.iter().take(6).flat_map(|g| (record(t, g) + "\n").into_bytes()).collect()
        });
        for (kind, at, b) in edits {
            let i = at.index(bytes.len() + 1);
            match kind {
                0 if i < bytes.len() => { bytes.remove(i); }
                1 if i < bytes.len() => bytes[i] = b,
                _ => bytes.insert(i.min(bytes.len()), b),
            }
        }
        let path = dir().join("journal.jsonl");
        std::fs::write(&path, &bytes).expect("write the journal");
        if let Err(e) = TOURNAMENT.with(|(t, games)| read_journal(&path, t, games)) {
            one_line(&e.to_string(), &path)?;
        }
    }
}
