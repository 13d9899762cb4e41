//! The soak run (configs/soak.toml, docs/soak.md): its config made runnable from anywhere, a
//! run that can sample the referee's memory, and the promises it checks. Shared by the CI test
//! (tests/soak.rs, 540 games) and the benchmark (benches/soak.rs, 9,990 games).
//!
//! A check returns the promises broken, one line each: the test asserts there are none, the
//! benchmark prints them.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The fair bots: they must never lose a game to the harness.
pub const FAIR: [&str; 4] = ["random", "greedy", "first", "python-starter"];

/// The bots that fail at their first move, with the reason they must lose by.
pub const FAIL_AT_FIRST_MOVE: [(&str, &str); 3] = [
    ("hang", "timeout"),
    ("crash", "crash"),
    ("garbage", "malformed"),
];

/// The bots that attack during the handshake and then play legal moves: they must never lose
/// by forfeit either (the walls stop the attack; the bot plays on).
pub const ATTACK_EARLY: [&str; 3] = ["flood", "fork-bomb", "hog"];

/// configs/soak.toml written into `dir` with its programs' paths made absolute.
pub fn config(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(Path::new(ROOT).join("configs/soak.toml"))
        .expect("configs/soak.toml");
    let text = text
        .replace(
            "target/release/quads-bot",
            &crate::common::quads_bot().display().to_string(),
        )
        .replace("python3 bots/", &format!("python3 {ROOT}/bots/"))
        .replace("python3 harness/", &format!("python3 {ROOT}/harness/"));
    let path = dir.join("soak.toml");
    std::fs::write(&path, text).expect("write the soak config");
    path
}

/// What one run left.
pub struct Run {
    /// The output folder.
    pub out: PathBuf,
    /// The referee's pid: every bot's token starts with it.
    pub pid: u32,
    /// What `quads tournament` printed on stdout.
    pub printed: String,
    /// Samples of the referee's resident memory: (games recorded, KiB).
    #[allow(dead_code, reason = "only the benchmark samples the memory")]
    pub memory: Vec<(usize, u64)>,
}

/// Runs `quads tournament CONFIG --out OUT EXTRA...` to its end (it must succeed). With
/// `sample`, reads the referee's resident memory and the journal's length every 100 ms.
pub fn run(config: &Path, out: &Path, extra: &[&str], sample: bool) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_quads"))
        .arg("tournament")
        .arg(config)
        .arg("--out")
        .arg(out)
        .arg("--quiet")
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("quads runs");
    let pid = child.id();
    let mut memory = Vec::new();
    if sample {
        let journal = out.join("journal.jsonl");
        let mut games = 0;
        let mut read = 0;
        while child.try_wait().expect("wait for quads").is_none() {
            if let Some(kib) = resident_kib(pid) {
                (games, read) = count_lines(&journal, games, read);
                memory.push((games, kib));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    let mut printed = String::new();
    if let Some(stdout) = child.stdout.take() {
        for line in BufReader::new(stdout).lines() {
            printed.push_str(&line.expect("quads prints text"));
            printed.push('\n');
        }
    }
    let status = child.wait().expect("wait for quads");
    assert!(status.success(), "the soak tournament failed: {status}");
    Run {
        out: out.to_path_buf(),
        pid,
        printed,
        memory,
    }
}

/// VmRSS of `pid`, in KiB.
fn resident_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The lines of `path` so far, reading only what was appended since byte `from`.
fn count_lines(path: &Path, lines: usize, from: u64) -> (usize, u64) {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut file) = std::fs::File::open(path) else {
        return (lines, from);
    };
    let mut tail = Vec::new();
    if file.seek(SeekFrom::Start(from)).is_err() || file.read_to_end(&mut tail).is_err() {
        return (lines, from);
    }
    let added = tail.iter().filter(|&&b| b == b'\n').count();
    let complete = tail.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    (lines + added, from + complete as u64)
}

/// Every game ended as the bots in it dictate: a game with a bot that fails at its first move
/// is lost by the first of them to move (the first seat moves first after the two-move
/// openings) with its reason, and no other game has a forfeit at all.
pub fn broken_games(out: &Path) -> Vec<String> {
    let mut broken = Vec::new();
    let fails = |name: &str| {
        FAIL_AT_FIRST_MOVE
            .iter()
            .find(|(bot, _)| *bot == name)
            .map(|(_, reason)| *reason)
    };
    let known = |name: &str| {
        FAIR.contains(&name)
            || ATTACK_EARLY.contains(&name)
            || FAIL_AT_FIRST_MOVE.iter().any(|(bot, _)| *bot == name)
    };
    for g in crate::common::games(&out.join("games.jsonl")) {
        let name = |seat: &str| g[seat]["name"].as_str().unwrap_or("?").to_owned();
        let (first, second) = (name("first"), name("second"));
        for bot in [&first, &second] {
            if !known(bot) {
                broken.push(format!(
                    "game {}: bot `{bot}` is not one the soak knows",
                    g["game"]
                ));
            }
        }
        let failures: Vec<(String, String)> = g["failures"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|f| {
                        let seat = f["seat"].as_str().unwrap_or("?");
                        (name(seat), f["reason"].as_str().unwrap_or("?").to_owned())
                    })
                    .collect()
            })
            .unwrap_or_default();
        let expected: Vec<(String, String)> = match (fails(&first), fails(&second)) {
            (Some(reason), _) => vec![(first.clone(), reason.to_owned())],
            (None, Some(reason)) => vec![(second.clone(), reason.to_owned())],
            (None, None) => vec![],
        };
        if failures != expected {
            broken.push(format!(
                "game {} ({first} v {second}): forfeits {failures:?}, expected {expected:?}",
                g["game"]
            ));
        }
    }
    broken
}

/// The walls held against the early attacks: every attack the bots' logs report failed (no
/// allocation past the memory limit, fewer than 64 processes), and both attacks were made.
pub fn broken_attacks(out: &Path) -> Vec<String> {
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    let mut broken = Vec::new();
    let logs = std::fs::read_dir(out.join("logs")).expect("the logs folder");
    for entry in logs.flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        for report in text.lines().filter_map(|l| l.strip_prefix("attack: ")) {
            let held = if report == "failed: MemoryError" {
                *seen.entry("hog").or_default() += 1;
                true
            } else if let Some(n) = report
                .strip_prefix("started ")
                .and_then(|r| r.strip_suffix(" processes"))
                .and_then(|n| n.parse::<u32>().ok())
            {
                *seen.entry("fork-bomb").or_default() += 1;
                n < 64
            } else {
                false
            };
            if !held {
                broken.push(format!(
                    "{}: the walls did not hold: {report}",
                    entry.path().display()
                ));
            }
        }
    }
    for attack in ["hog", "fork-bomb"] {
        if !seen.contains_key(attack) {
            broken.push(format!("no log reports the {attack}'s attack"));
        }
    }
    broken
}
