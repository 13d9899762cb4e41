//! The referee at scale: how many games at once one referee can run before it, not the bots,
//! sets the pace (docs/scale.md).
//!
//! Each bot is `quads-bot --strategy random --wait-ms W`: it sleeps W ms before each move and
//! uses next to no CPU, standing in for an engine that thinks on cores of its own. A game then
//! lasts its moves times W whatever the referee does, so that at C games at once the ideal
//! rate is C games per game length; what is left of the CPU and memory is the referee's own.
//! For each C, runs of `quads tournament` (four bots kept alive, every bot in the default
//! sandbox) are sampled every 100 ms, and the medians of the runs printed as a Markdown table:
//! - games/s in the steady part (from 20% to 80% of the games);
//! - the time a move took past the bot's wait, as the referee timed it (its records'
//!   `moves_ms`): the median and the 99th percentile over every move, the referee's and the
//!   machine's delay in passing a move on;
//! - the referee's CPU per game (user and system, up to its last game);
//! - its resident memory in flight (median of the steady part's samples), and per game;
//! - the bots' and launchers' proportional memory (PSS), summed once half-way;
//! - the referee's open files half-way;
//! - the time from the last game's record to the referee's exit (ending the bots);
//! - games lost by forfeit (must be 0).
//!
//! `cargo bench --bench scale`; `SCALE_AT=1,100,1000` (games at once), `SCALE_RUNS=3`,
//! `SCALE_WAIT_MS=100`, `SCALE_WAVES=6` (games per concurrency, over 1 game at once), and
//! `SCALE_START_MS=0` (CPU each bot burns before its handshake, an engine loading tables: the
//! start gate's test, docs/scale.md).

#[path = "../tests/common/mod.rs"]
#[allow(
    dead_code,
    reason = "the benchmark uses a part of what the tests share"
)]
mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One run's figures.
#[derive(Clone, Copy, Default)]
struct Figures {
    games: usize,
    rate: f64,
    delay_median_ms: f64,
    delay_p99_ms: f64,
    cpu_ms_per_game: f64,
    rss_mib: f64,
    pss_mib: f64,
    open_files: usize,
    stop_s: f64,
    forfeits: usize,
}

fn main() {
    let at: Vec<usize> = std::env::var("SCALE_AT")
        .unwrap_or_else(|_| "1,100,1000".into())
        .split(',')
        .map(|c| {
            c.trim()
                .parse()
                .expect("SCALE_AT: games at once, comma-separated")
        })
        .collect();
    let runs: usize = env_or("SCALE_RUNS", 3);
    let wait: u64 = env_or("SCALE_WAIT_MS", 100);
    let waves: usize = env_or("SCALE_WAVES", 6);
    let start: u64 = env_or("SCALE_START_MS", 0);
    println!(
        "bots wait {wait} ms a move and take {start} ms of CPU to start; {runs} runs each; medians; {} cores",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    println!();
    println!("| games at once | games | games/s, steady | delay per move, median | 99th percentile | referee CPU per game | referee RSS in flight | per game | bots + launchers PSS | open files | ending the bots | forfeits |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for &c in &at {
        let figures: Vec<Figures> = (0..runs).map(|_| run(c, wait, start, waves)).collect();
        let m = |f: fn(&Figures) -> f64| median(figures.iter().map(f).collect());
        let rss = m(|f| f.rss_mib);
        println!(
            "| {c} | {} | {:.1} | {:.2} ms | {:.2} ms | {:.2} ms | {:.1} MiB | {:.0} KiB | {:.0} MiB | {:.0} | {:.2} s | {} |",
            figures[0].games,
            m(|f| f.rate),
            m(|f| f.delay_median_ms),
            m(|f| f.delay_p99_ms),
            m(|f| f.cpu_ms_per_game),
            rss,
            rss * 1024.0 / c as f64,
            m(|f| f.pss_mib),
            m(|f| f.open_files as f64),
            m(|f| f.stop_s),
            figures.iter().map(|f| f.forfeits).max().unwrap_or(0),
        );
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The config: four bots, every pairing, enough pairs for `waves` games per game at once; and
/// the number of games it schedules (six pairings, two games a pair).
fn config(
    dir: &Path,
    c: usize,
    wait: u64,
    start: u64,
    waves: usize,
) -> (std::path::PathBuf, usize) {
    // Four bots make six pairings of two games a pair.
    let pairs = (c * waves).div_ceil(12).max(2);
    let bot = common::quads_bot().display().to_string();
    let mut text = format!(
        "name = \"scale-{c}\"\nseed = 1\nconcurrency = {c}\npairs = {pairs}\nvariants = [\"quads\"]\nkeep_alive = true\ntime = {{ movetime = \"10s\" }}\n"
    );
    for i in 1..=4 {
        text.push_str(&format!(
            "\n[[bot]]\nname = \"waiting-{i}\"\ncommand = \"{bot} --strategy random --wait-ms {wait} --start-ms {start}\"\n"
        ));
    }
    let path = dir.join("scale.toml");
    std::fs::write(&path, text).expect("write the config");
    (path, 12 * pairs)
}

fn run(c: usize, wait: u64, start: u64, waves: usize) -> Figures {
    let dir = tempfile::tempdir().expect("temporary folder");
    let (config, total) = config(dir.path(), c, wait, start, waves);
    let out = dir.path().join("out");
    let mut child = Command::new(env!("CARGO_BIN_EXE_quads"))
        .arg("tournament")
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .arg("--quiet")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("quads runs");
    let pid = child.id() as i32;
    let journal = out.join("journal.jsonl");
    let started = Instant::now();
    // (seconds, games, referee KiB, referee CPU ticks)
    let mut samples: Vec<(f64, usize, u64, u64)> = Vec::new();
    let (mut pss_kib, mut open_files) = (0, 0);
    let mut last_game_at = None;
    while child.try_wait().expect("wait for quads").is_none() {
        let games = lines(&journal);
        let now = started.elapsed().as_secs_f64();
        if let (Some(kib), Some(ticks)) = (resident_kib(pid), cpu_ticks(pid)) {
            samples.push((now, games, kib, ticks));
        }
        if pss_kib == 0 && games * 2 >= total {
            pss_kib = descendants_pss_kib(pid);
            open_files = std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |d| d.count());
        }
        if games >= total && last_game_at.is_none() {
            last_game_at = Some(now);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let ended = started.elapsed().as_secs_f64();
    let status = child.wait().expect("wait for quads");
    assert!(status.success(), "the scale tournament failed: {status}");
    let records = common::games(&out.join("games.jsonl"));
    let games = records.len();
    assert_eq!(games, total, "every scheduled game is recorded");
    let forfeits = records
        .iter()
        .filter(|r| r["failures"].as_array().is_some_and(|f| !f.is_empty()))
        .count();
    let mut delays: Vec<f64> = records
        .iter()
        .flat_map(|r| {
            r["timing"]["moves_ms"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .filter_map(|ms| ms.as_f64())
        .map(|ms| ms - wait as f64)
        .collect();
    delays.sort_by(f64::total_cmp);
    let percentile = |p: f64| delays[((delays.len() - 1) as f64 * p) as usize];
    let at = |share: f64| {
        samples
            .iter()
            .find(|s| s.1 as f64 >= share * games as f64)
            .copied()
            .unwrap_or(*samples.last().expect("samples"))
    };
    let (from, to) = (at(0.2), at(0.8));
    let rate = (to.1 - from.1) as f64 / (to.0 - from.0).max(1e-9);
    let mut in_flight: Vec<f64> = samples
        .iter()
        .filter(|s| s.0 >= from.0 && s.0 <= to.0)
        .map(|s| s.2 as f64 / 1024.0)
        .collect();
    if in_flight.is_empty() {
        in_flight.push(from.2 as f64 / 1024.0);
    }
    let last = last_game_at.unwrap_or(ended);
    let ticks_at_last = samples
        .iter()
        .filter(|s| s.0 <= last)
        .map(|s| s.3)
        .max()
        .unwrap_or(0);
    let hz = clock_ticks_per_second();
    Figures {
        games,
        rate,
        delay_median_ms: percentile(0.5),
        delay_p99_ms: percentile(0.99),
        cpu_ms_per_game: ticks_at_last as f64 * 1000.0 / hz / games as f64,
        rss_mib: median(in_flight),
        pss_mib: pss_kib as f64 / 1024.0,
        open_files,
        stop_s: ended - last,
        forfeits,
    }
}

/// Complete lines in `path` so far.
fn lines(path: &Path) -> usize {
    std::fs::read(path).map_or(0, |b| b.iter().filter(|&&x| x == b'\n').count())
}

/// VmRSS of `pid`, in KiB.
fn resident_kib(pid: i32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// User and system CPU of `pid` so far, in clock ticks (fields 14 and 15 of stat(5)).
fn cpu_ticks(pid: i32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

fn clock_ticks_per_second() -> f64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(100.0)
}

/// The summed PSS of every process below `root` (the bots and their sandbox launchers).
fn descendants_pss_kib(root: i32) -> u64 {
    let mut parent_of = std::collections::HashMap::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let Some(close) = stat.rfind(')') else {
            continue;
        };
        if let Some(ppid) = stat[close + 1..]
            .split_whitespace()
            .nth(1)
            .and_then(|p| p.parse::<i32>().ok())
        {
            parent_of.insert(pid, ppid);
        }
    }
    let below = |mut pid: i32| {
        while let Some(&ppid) = parent_of.get(&pid) {
            if ppid == root {
                return true;
            }
            pid = ppid;
        }
        false
    };
    parent_of
        .keys()
        .filter(|&&pid| below(pid))
        .filter_map(|pid| {
            let rollup = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).ok()?;
            let line = rollup.lines().find(|l| l.starts_with("Pss:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .sum()
}
