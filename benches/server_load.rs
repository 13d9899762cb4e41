//! The competition server under load (docs/server.md#load): one `quads serve` on the loopback
//! with its own workers, many entrants (each the C starter kit, built and checked by the
//! server's pipeline), the ladder playing until a number of games is recorded. Printed as
//! Markdown:
//! - the time to admit every entrant (uploads, builds and checks, one job at a time);
//! - the games the server recorded per second from then on, and its CPU per game (the
//!   server's process: its HTTP, database and referees; the bots are processes of their own);
//! - page latencies under `wrk` (2 threads, 4 connections, SERVER_LOAD_PROBE_S seconds each,
//!   a request timed out after 30 s)
//!   while the ladder plays, at half the games and at all of them: a static file (the floor:
//!   what any answer costs on this machine under this load), the leaderboard (with and without
//!   its pairs), the home page, an
//!   entrant's page, a match's page with its replay;
//! - the database's size per 10,000 games; the server's resident memory over the run;
//! - what the same bots do with no server: kept alive under `quads tournament`, and a
//!   `quads match` of two games at a time as the ladder plays them (`SERVER_LOAD_BOTS_ONLY=1`:
//!   only these).
//!
//! `cargo bench --bench server_load`; `SERVER_LOAD_ENTRANTS=200`, `SERVER_LOAD_GAMES=20000`,
//! `SERVER_LOAD_WORKERS=4`, `SERVER_LOAD_PROBE_S=10`. On PostgreSQL:
//! `QUADS_TEST_BACKEND=postgres QUADS_TEST_POSTGRES=postgres://postgres@127.0.0.1:PORT` (as the
//! tests take it: `tests/postgres/up.sh DIR` starts one), a database of its own made there.
//! Needs `wrk` and a C compiler.

#[path = "../tests/server/harness.rs"]
#[allow(
    dead_code,
    reason = "the benchmark uses a part of what the server's tests share"
)]
mod harness;
#[path = "common/usage.rs"]
mod usage;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use harness::*;
use usage::usage;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The games recorded so far and the games the ratings are fitted on (the leaderboard's).
fn games(server: &Server) -> (u64, u64) {
    let board = server.get("/api/leaderboard", None).1;
    let n = |k: &str| board[k].as_u64().unwrap_or(0);
    (n("games"), n("rated"))
}

/// What wrk measured of a page.
struct Probe {
    p50: f64,
    p99: f64,
    rate: f64,
    /// Requests that timed out (30 s), failed or were answered other than 2xx or 3xx.
    errors: u64,
}

/// wrk's median and 99th percentile for `path`, in ms, its requests per second and errors.
fn probe(server: &Server, path: &str, seconds: u64) -> Probe {
    let out = Command::new("wrk")
        .args([
            "-t2",
            "-c4",
            &format!("-d{seconds}s"),
            "--latency",
            "--timeout",
            "30s",
        ])
        .arg(format!("{}{path}", server.url))
        .output()
        .expect("wrk runs (apt-get install wrk)");
    let text = String::from_utf8_lossy(&out.stdout);
    let ms = |v: &str| -> f64 {
        let (n, unit) = v.split_at(v.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(v.len()));
        let n: f64 = n.parse().unwrap_or(f64::NAN);
        match unit {
            "us" => n / 1000.0,
            "ms" => n,
            "s" => n * 1000.0,
            "m" => n * 60_000.0,
            _ => f64::NAN,
        }
    };
    let at = |p: &str| {
        text.lines()
            .find_map(|l| l.trim().strip_prefix(p).map(|v| ms(v.trim())))
            .unwrap_or(f64::NAN)
    };
    let rate = text
        .lines()
        .find_map(|l| l.strip_prefix("Requests/sec:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(f64::NAN);
    // "Socket errors: connect 0, read 0, write 0, timeout 3" and "Non-2xx or 3xx responses: 2".
    let errors = text
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            if let Some(v) = l.strip_prefix("Socket errors:") {
                Some(
                    v.split(',')
                        .filter_map(|p| p.split_whitespace().last()?.parse::<u64>().ok())
                        .sum(),
                )
            } else {
                l.strip_prefix("Non-2xx or 3xx responses:")
                    .and_then(|v| v.trim().parse::<u64>().ok())
            }
        })
        .sum();
    Probe {
        p50: at("50%"),
        p99: at("99%"),
        rate,
        errors,
    }
}

/// The database's size in bytes: SQLite's file and its log, or PostgreSQL's database.
fn database_bytes(dir: &Path, config: &Path) -> u64 {
    let text = std::fs::read_to_string(config).unwrap();
    if let Some(url) = text
        .lines()
        .find_map(|l| l.strip_prefix("database = \""))
        .map(|u| u.trim_end_matches('"'))
    {
        let out = Command::new("psql")
            .arg(url)
            .args(["-Atc", "SELECT pg_database_size(current_database())"])
            .output()
            .expect("psql runs");
        return String::from_utf8_lossy(&out.stdout)
            .trim()
            .parse()
            .unwrap_or(0);
    }
    ["quads.db", "quads.db-wal"]
        .iter()
        .filter_map(|f| std::fs::metadata(dir.join("data").join(f)).ok())
        .map(|m| m.len())
        .sum()
}

/// What the bots and the referee allow on this machine with no server, for the server's rate
/// to be read against: games per second of the C starter kit against itself in its sandbox,
/// with the event's movetime and `lanes` games at once, (1) under `quads tournament`, the bots
/// kept alive across all `games`, and (2) as the ladder plays them, a `quads match` of two games
/// at a time per lane (the bots started for each match, as the server starts them), `matches`
/// games in all.
fn bots_alone(dir: &Path, kit: &Path, lanes: usize, games: u64, matches: u64) -> (f64, f64) {
    let folder = dir.join("alone");
    std::fs::create_dir_all(&folder).unwrap();
    let built = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(folder.join("bot"))
        .arg(kit)
        .status()
        .expect("cc runs");
    assert!(built.success(), "the C kit builds");
    let bot = folder.join("bot").display().to_string();
    let config = folder.join("alone.toml");
    std::fs::write(
        &config,
        format!(
            "name = \"alone\"\nseed = 1\npairs = {}\nvariants = [\"quads\"]\nconcurrency = {lanes}\n\
             time = {{ movetime = \"1s\" }}\n\n[[bot]]\nname = \"a\"\ncommand = \"{bot}\"\n\n\
             [[bot]]\nname = \"b\"\ncommand = \"{bot}\"\n",
            games / 2
        ),
    )
    .unwrap();
    let begun = Instant::now();
    let status = Command::new(env!("CARGO_BIN_EXE_quads"))
        .arg("tournament")
        .arg(&config)
        .arg("--out")
        .arg(folder.join("out"))
        .arg("--quiet")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("quads runs");
    assert!(status.success(), "the bots' own tournament");
    let kept = (games / 2 * 2) as f64 / begun.elapsed().as_secs_f64();
    let per_lane = (matches / 2 / lanes as u64).max(1);
    let begun = Instant::now();
    std::thread::scope(|scope| {
        for lane in 0..lanes {
            let (bot, folder) = (&bot, &folder);
            scope.spawn(move || {
                for i in 0..per_lane {
                    let status = Command::new(env!("CARGO_BIN_EXE_quads"))
                        .args(["match", "--bot", bot, "--bot", bot, "--games", "2"])
                        .args(["--keep-alive", "--movetime", "1s", "--quiet", "--seed"])
                        .arg((i + 1).to_string())
                        .arg("--out")
                        .arg(folder.join(format!("match-{lane}")))
                        .stdout(std::process::Stdio::null())
                        .stderr(std::process::Stdio::null())
                        .status()
                        .expect("quads runs");
                    assert!(status.success(), "a match of the bots alone");
                }
            });
        }
    });
    let one_by_one = (per_lane * lanes as u64 * 2) as f64 / begun.elapsed().as_secs_f64();
    (kept, one_by_one)
}

/// [`bots_alone`] with the bench's settings.
fn alone(dir: &Path, lanes: usize) -> (f64, f64) {
    let kit = Path::new(env!("CARGO_MANIFEST_DIR")).join("bots/starter/c/bot.c");
    bots_alone(
        dir,
        &kit,
        lanes,
        env_or("SERVER_LOAD_ALONE_GAMES", 4000),
        env_or("SERVER_LOAD_MATCH_GAMES", 800),
    )
}

fn print_alone(lanes: usize, kept: f64, one_by_one: f64) {
    println!(
        "| no server: the same bot against itself, {lanes} games at once, bots kept alive (`quads tournament`): games per second | {kept:.1} |"
    );
    println!(
        "| no server: the same, a `quads match` of 2 games at a time per lane, bots started per match as the ladder starts them: games per second | {one_by_one:.1} |"
    );
}

fn main() {
    let entrants: usize = env_or("SERVER_LOAD_ENTRANTS", 200);
    let target: u64 = env_or("SERVER_LOAD_GAMES", 20_000);
    let workers: usize = env_or("SERVER_LOAD_WORKERS", 4);
    // `SERVER_LOAD_BOTS_ONLY=1`: only the two figures of the bots without a server.
    if std::env::var_os("SERVER_LOAD_BOTS_ONLY").is_some() {
        let dir = tempfile::tempdir().unwrap();
        let (kept, one_by_one) = alone(dir.path(), workers);
        println!("| figure | value |");
        println!("|---|---|");
        print_alone(workers, kept, one_by_one);
        return;
    }
    let seconds: u64 = env_or("SERVER_LOAD_PROBE_S", 10);
    let backend = std::env::var(BACKEND).unwrap_or_else(|_| "sqlite".into());
    let dir = tempfile::tempdir().unwrap();
    let config = write_config_with(
        dir.path(),
        &format!("workers = {workers}\nmovetime = \"1s\"\ncrash_streak = 0\n"),
    );
    let server = start(&config);
    let pid = server.child.id();
    let kit = Path::new(env!("CARGO_MANIFEST_DIR")).join("bots/starter/c/bot.c");
    let begun = Instant::now();
    let mut tokens = Vec::new();
    for i in 0..entrants {
        let name = format!("e{i:03}");
        let folder = dir.path().join("bots").join(&name);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::copy(&kit, folder.join("bot.c")).unwrap();
        std::fs::write(
            folder.join("bot.toml"),
            format!("name = \"{name}\"\nauthor = \"load\"\nbuild = \"cc -O2 -o bot bot.c\"\ncommand = \"./bot\"\n"),
        )
        .unwrap();
        let token = server.entrant(&name);
        let (code, out, err) = server.submit(&token, &folder);
        assert_eq!(code, 0, "{name}: {out}{err}");
        tokens.push(token);
    }
    for (i, token) in tokens.iter().enumerate() {
        loop {
            let v = server.wait(token, 1, None);
            match v["status"].as_str() {
                Some("admitted") => break,
                Some("queued" | "checking") => continue,
                other => panic!("e{i:03}: {other:?}: {v}"),
            }
        }
    }
    let admitted = begun.elapsed();
    let (_, cpu0) = usage(pid);
    let (from, _) = games(&server);
    let steady = Instant::now();
    let mut rss = Vec::new();
    let mut probes = Vec::new();
    let mut half_done = false;
    loop {
        let (n, rated) = games(&server);
        rss.push((n, usage(pid).0));
        if !half_done && n >= target / 2 || n >= target {
            let at = n;
            let pages = [
                // What any answer costs on this machine under this load: the floor.
                ("a static file (the floor)", "/assets/site.css"),
                ("leaderboard", "/api/leaderboard"),
                ("leaderboard with its pairs", "/api/leaderboard?pairs=true"),
                ("home page", "/"),
                ("an entrant's page", "/entrants/e000"),
                ("a match's page", "/matches/1"),
            ];
            for (what, path) in pages {
                probes.push((at, rated, what, probe(&server, path, seconds)));
            }
            if half_done {
                break;
            }
            half_done = true;
        }
        // Every 5 s: the count is a leaderboard fit, as a viewer's page would ask for.
        std::thread::sleep(Duration::from_secs(5));
    }
    let (end, _) = games(&server);
    let elapsed = steady.elapsed().as_secs_f64();
    let (rss_end, cpu1) = usage(pid);
    let bytes = database_bytes(dir.path(), &config);
    drop(server);
    let (kept, one_by_one) = alone(dir.path(), workers);
    println!(
        "{backend}, {entrants} entrants (the C starter kit), {workers} workers of the server's own, {} cores",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    println!();
    println!("| figure | value |");
    println!("|---|---|");
    println!(
        "| every entrant uploaded, built and admitted | {:.0} s |",
        admitted.as_secs_f64()
    );
    println!(
        "| games recorded per second (from {from} to {end} games, probes running part of the time) | {:.1} |",
        (end - from) as f64 / elapsed
    );
    println!(
        "| the server's CPU per game | {:.1} ms |",
        (cpu1 - cpu0) * 1000.0 / (end - from).max(1) as f64
    );
    println!(
        "| database size per 10,000 games | {:.1} MiB |",
        bytes as f64 / (1024.0 * 1024.0) / end.max(1) as f64 * 10_000.0
    );
    let first = rss.first().map_or(0.0, |r| r.1);
    let peak = rss.iter().map(|r| r.1).fold(0.0, f64::max);
    println!(
        "| the server's resident memory: at {from} games, at its peak, at {end} | {first:.0}, {peak:.0}, {rss_end:.0} MiB |"
    );
    print_alone(workers, kept, one_by_one);
    println!();
    println!("| page | games recorded (rated) | p50 | p99 | requests/s | errors |");
    println!("|---|---|---|---|---|---|");
    for (at, rated, what, p) in probes {
        println!(
            "| {what} | {at} ({rated}) | {:.1} ms | {:.1} ms | {:.0} | {} |",
            p.p50, p.p99, p.rate, p.errors
        );
    }
}
