//! The referee's own CPU per move beside fastchess's, a widely used match runner for chess
//! engines, in the same rounds (docs/performance.md, "Against fastchess").
//!
//! - This referee: `quads tournament` between two `quads-bot --strategy random` (they answer
//!   at once), kept alive, walls on (the default).
//! - fastchess: between two copies of benches/chess-random, a UCI engine that answers at once
//!   with a random legal move.
//!
//! Each harness's CPU, user and system, is read from /proc when it has exited and before it is
//! reaped, so its children (the bots, the engines) are not in it, and divided by the moves its
//! run played (games.jsonl; the PGN's PlyCount tags). Every set-up runs once per round,
//! interleaved: everything on one core (`taskset -c 0`, one game at a time), then free on the
//! machine's cores at each concurrency asked for. The medians of the rounds are printed.
//!
//! ```text
//! cargo build --release --workspace
//! cargo build --release --manifest-path benches/chess-random/Cargo.toml
//! FASTCHESS=/path/to/fastchess cargo bench --bench fastchess
//! ```
//! `FASTCHESS_ROUNDS=5` rounds, `FASTCHESS_CONCURRENCY=1,2` games at once, `FASTCHESS_PAIRS=1000`
//! game pairs for this referee (Quads games of random bots last about 14 moves) and
//! `FASTCHESS_GAME_PAIRS=100` for fastchess (random chess games last about 300 plies).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use nix::sys::wait::{waitid, Id, WaitPidFlag};
use nix::unistd::Pid;

#[path = "common/usage.rs"]
mod usage;

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs `command` to its end and returns its own CPU time (user, system) in seconds, read
/// before it is reaped.
fn own_cpu(mut command: Command) -> (f64, f64) {
    let mut child = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the harness starts");
    let pid = Pid::from_raw(child.id() as i32);
    waitid(Id::Pid(pid), WaitPidFlag::WEXITED | WaitPidFlag::WNOWAIT).expect("it exits");
    let cpu = usage::cpu_split(child.id());
    let status = child.wait().expect("it is reaped");
    assert!(status.success(), "{command:?} failed: {status}");
    cpu
}

/// `program`, on CPU 0 alone if `one_core`.
fn on(one_core: bool, program: &Path) -> Command {
    if one_core {
        let mut c = Command::new("taskset");
        c.args(["-c", "0"]).arg(program);
        c
    } else {
        Command::new(program)
    }
}

/// Moves in a quads results folder.
fn quads_moves(out: &Path) -> usize {
    let text = std::fs::read_to_string(out.join("games.jsonl")).expect("games.jsonl");
    text.lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("a record");
            v["moves"].as_array().map_or(0, Vec::len)
        })
        .sum()
}

/// Plies in a PGN file.
fn pgn_plies(pgn: &Path) -> usize {
    let text = std::fs::read_to_string(pgn).expect("fastchess's PGN");
    text.lines()
        .filter_map(|l| l.strip_prefix("[PlyCount \""))
        .filter_map(|l| l.trim_end_matches("\"]").parse::<usize>().ok())
        .sum()
}

struct Setup {
    label: String,
    one_core: bool,
    concurrency: usize,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let Some(fastchess) = std::env::var_os("FASTCHESS").map(PathBuf::from) else {
        eprintln!("fastchess bench: set FASTCHESS to a fastchess binary (its repository builds one with `make`)");
        std::process::exit(2);
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let engine = root.join("benches/chess-random/target/release/chess-random");
    let quads = PathBuf::from(env!("CARGO_BIN_EXE_quads"));
    let bot = quads.with_file_name("quads-bot");
    for (file, how) in [
        (
            &engine,
            "cargo build --release --manifest-path benches/chess-random/Cargo.toml",
        ),
        (&bot, "cargo build --release --workspace"),
    ] {
        if !file.exists() {
            eprintln!(
                "fastchess bench: {} is missing: run `{how}`",
                file.display()
            );
            std::process::exit(2);
        }
    }
    let rounds = env_or("FASTCHESS_ROUNDS", 5).max(1);
    let pairs = env_or("FASTCHESS_PAIRS", 1000);
    let game_pairs = env_or("FASTCHESS_GAME_PAIRS", 100);
    let concurrency: Vec<usize> = std::env::var("FASTCHESS_CONCURRENCY")
        .unwrap_or_else(|_| "1,2".into())
        .split(',')
        .filter_map(|c| c.trim().parse().ok())
        .collect();
    let mut setups = vec![Setup {
        label: "one core".into(),
        one_core: true,
        concurrency: 1,
    }];
    setups.extend(concurrency.into_iter().map(|c| Setup {
        label: format!("{c} at once"),
        one_core: false,
        concurrency: c,
    }));
    let dir = tempfile::tempdir().expect("a temporary folder");
    let config = dir.path().join("random.toml");
    std::fs::write(
        &config,
        format!(
            "name = \"beside-fastchess\"\nseed = 1\npairs = {pairs}\nvariants = [\"quads\"]\nkeep_alive = true\ntime = {{ movetime = \"10s\" }}\n\n[[bot]]\nname = \"random-1\"\ncommand = \"{bot} --strategy random\"\n\n[[bot]]\nname = \"random-2\"\ncommand = \"{bot} --strategy random\"\n",
            bot = bot.display()
        ),
    )
    .expect("the config is written");
    // Per set-up: (quads, fastchess) CPU per move in µs, (user, system) each.
    let mut runs: Vec<[Vec<(f64, f64)>; 2]> = setups.iter().map(|_| [vec![], vec![]]).collect();
    for round in 1..=rounds {
        for (s, setup) in setups.iter().enumerate() {
            let out = dir.path().join("q");
            let _ = std::fs::remove_dir_all(&out);
            let mut q = on(setup.one_core, &quads);
            q.arg("tournament")
                .arg(&config)
                .args(["--concurrency", &setup.concurrency.to_string()])
                .arg("--out")
                .arg(&out);
            let (u, sy) = own_cpu(q);
            let moves = quads_moves(&out) as f64;
            runs[s][0].push((u * 1e6 / moves, sy * 1e6 / moves));

            let pgn = dir.path().join("f.pgn");
            let _ = std::fs::remove_file(&pgn);
            let mut f = on(setup.one_core, &fastchess);
            for name in ["a", "b"] {
                f.arg("-engine")
                    .arg(format!("cmd={}", engine.display()))
                    .arg(format!("name={name}"));
            }
            f.args(["-each", "tc=60+1", "proto=uci", "-rounds"])
                .arg(game_pairs.to_string())
                .args(["-games", "2", "-concurrency"])
                .arg(setup.concurrency.to_string())
                // It refuses more games at once than cores without this; quads does not.
                .arg("-force-concurrency")
                .arg("-pgnout")
                .arg(format!("file={}", pgn.display()))
                .current_dir(dir.path());
            let (u, sy) = own_cpu(f);
            let plies = pgn_plies(&pgn) as f64;
            runs[s][1].push((u * 1e6 / plies, sy * 1e6 / plies));
            let [q, f] = &runs[s];
            let (q, f) = (q[round - 1], f[round - 1]);
            eprintln!(
                "round {round}, {}: quads {:.1} µs, fastchess {:.1} µs CPU per move",
                setup.label,
                q.0 + q.1,
                f.0 + f.1
            );
        }
    }
    println!(
        "\n{rounds} rounds, medians; quads: `quads tournament` of 2 random bots, {pairs} game pairs, walls on; fastchess: {game_pairs} game pairs of chess-random\n"
    );
    println!(
        "| set-up | this referee's CPU per move (user + system) | fastchess's | fastchess / this |"
    );
    println!("|---|---|---|---|");
    for (setup, [q, f]) in setups.iter().zip(&runs) {
        let total = |v: &Vec<(f64, f64)>| median(v.iter().map(|x| x.0 + x.1).collect());
        let part = |v: &Vec<(f64, f64)>, sys: bool| {
            median(v.iter().map(|x| if sys { x.1 } else { x.0 }).collect())
        };
        let (qt, ft) = (total(q), total(f));
        println!(
            "| {} | {qt:.1} µs ({:.1} + {:.1}) | {ft:.1} µs ({:.1} + {:.1}) | {:.2}× |",
            setup.label,
            part(q, false),
            part(q, true),
            part(f, false),
            part(f, true),
            ft / qt
        );
    }
}
