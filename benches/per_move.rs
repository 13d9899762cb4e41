//! The referee's cost per move against the floor of any line protocol (docs/performance.md).
//!
//! - The referee: `quads match` between two bots that answer at once (`first`, whose games last
//!   5 moves; `PER_MOVE_BOT=random` for games of about 14, whose start and end weigh less
//!   per move), kept alive,
//!   with the walls on and off, all on one core (`taskset -c 0`) and free on two. Read from
//!   its last line: the wall time per move (referee and bots together) and the referee's own
//!   CPU per move (its end of the run, ratings and report, included).
//! - The floor: a round trip on the pipes to a process that echoes each line (`cat`), a line
//!   the size of a `go` out and back, on one core and free on two. A move costs the referee at
//!   least one such round trip: a bot can answer no faster than its pipes carry the lines.
//!
//! - The round trips per move: a game kept alive is one round trip per move (`go`, answered
//!   by `move`) and four more per game (each bot is sent `newgame` and, at the end,
//!   `gameover` with `isready`, each answered by `readyok`). So with 5-move games a move costs
//!   at least 1.8 round trips, with 14-move games 1.29: the last column divides the
//!   referee's CPU by that many floors.
//!
//! Each round runs every configuration once, interleaved, so the machine's load falls on all
//! alike; the medians of the rounds are printed, with the ratio of each to its floor.
//!
//! `cargo build --release --workspace && cargo bench --bench per_move` (the bots are
//! quads-bot, named in configs/bots.toml); `PER_MOVE_GAMES=4000` games per match,
//! `PER_MOVE_TRIPS=20000` round trips per floor, `PER_MOVE_ROUNDS=5` rounds.
//! `PER_MOVE_BASELINE=/path/to/quads` also runs another build of `quads` (with its
//! quads-jail beside it) in every round, one core, walls on and off, interleaved with this
//! one: a change's before and after measured side by side, under the same load.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

/// Set in the environment of this program run again as the floor's pinger: the trips to make.
const PING: &str = "PER_MOVE_PING";

/// A line the size of a `go` in the middle of a game.
const LINE: &[u8] = b"go position BDRF..../.SQH..../..../...BLQF SLRH remaining BDQF BDQH BLRF BLRH SDRF SDRH SLQF SLQH last A4 SLRH time - optime - movetime 1000\n";

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Makes `trips` round trips to `cat` and prints the microseconds each took, on average.
fn ping(trips: usize) {
    let mut cat = Command::new("cat")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("cat starts");
    let mut to = cat.stdin.take().expect("its stdin");
    let mut from = BufReader::new(cat.stdout.take().expect("its stdout"));
    let mut back = String::new();
    let mut trip = |to: &mut std::process::ChildStdin| {
        to.write_all(LINE).expect("cat reads");
        back.clear();
        from.read_line(&mut back).expect("cat answers");
        assert_eq!(back.len(), LINE.len(), "cat echoed another line");
    };
    for _ in 0..trips / 10 {
        trip(&mut to);
    }
    let began = Instant::now();
    for _ in 0..trips {
        trip(&mut to);
    }
    let each = began.elapsed().as_secs_f64() * 1e6 / trips as f64;
    drop(to);
    let _ = cat.wait();
    println!("{each}");
}

/// `command`, on CPU 0 alone if `one_core`.
fn on(one_core: bool, program: &str) -> Command {
    if one_core {
        let mut c = Command::new("taskset");
        c.args(["-c", "0", program]);
        c
    } else {
        Command::new(program)
    }
}

/// The floor: microseconds per round trip.
fn floor(one_core: bool, trips: usize) -> f64 {
    let me = std::env::current_exe().expect("this bench's path");
    let out = on(one_core, &me.display().to_string())
        .env(PING, trips.to_string())
        .output()
        .expect("the pinger runs");
    assert!(out.status.success(), "the pinger failed: {out:?}");
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .expect("the pinger's figure")
}

/// The round trips a kept-alive game makes beside its moves: per bot, `newgame` and
/// `gameover` + `isready`, each answered by `readyok`.
const TRIPS_PER_GAME: f64 = 4.0;

/// One match of `quads` (this build's or another): (wall µs per move, the referee's own CPU
/// µs per move, round trips per move).
fn referee(
    quads: &str,
    bot: &str,
    one_core: bool,
    walls: &str,
    games: usize,
    out: &Path,
) -> (f64, f64, f64) {
    let _ = std::fs::remove_dir_all(out);
    let run = on(one_core, quads)
        .args(["match", "--bot", bot, "--bot", bot, "--games"])
        .arg(games.to_string())
        .args([
            "--movetime",
            "1s",
            "--quiet",
            "--keep-alive",
            "--sandbox",
            walls,
        ])
        .arg("--out")
        .arg(out)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("quads match runs");
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "quads match failed: {}{}",
        text,
        String::from_utf8_lossy(&run.stderr)
    );
    // `N games, M moves in T s (W µs per move, referee and bots together; the referee's own
    // CPU C µs per move); records in …`
    let line = text
        .lines()
        .find(|l| l.contains(" moves in "))
        .expect("the match's last line");
    let figure = |after: &str| -> f64 {
        let rest = &line[line.find(after).expect("a figure") + after.len()..];
        rest.split_whitespace()
            .next()
            .and_then(|n| n.parse().ok())
            .expect("a number")
    };
    let count = |before: &str| -> f64 {
        let head = &line[..line.find(before).expect("a count")];
        head.rsplit(|c: char| !c.is_ascii_digit())
            .find(|w| !w.is_empty())
            .and_then(|n| n.parse().ok())
            .expect("a number")
    };
    let (played, moves) = (count(" games,"), count(" moves in "));
    let trips = (moves + TRIPS_PER_GAME * played) / moves;
    (figure(" s ("), figure("own CPU "), trips)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    if let Ok(trips) = std::env::var(PING) {
        ping(trips.parse().expect("a number of trips"));
        return;
    }
    let games = env_or("PER_MOVE_GAMES", 4000);
    let trips = env_or("PER_MOVE_TRIPS", 20_000);
    let rounds = env_or("PER_MOVE_ROUNDS", 5).max(1);
    let player = std::env::var("PER_MOVE_BOT").unwrap_or_else(|_| "first".to_owned());
    let bot = Path::new(env!("CARGO_BIN_EXE_quads")).with_file_name("quads-bot");
    assert!(
        bot.exists(),
        "{} is missing: run `cargo build --release --workspace` first",
        bot.display()
    );
    assert!(
        Command::new("taskset").arg("-V").output().is_ok(),
        "taskset (util-linux) is needed to run on one core"
    );
    let dir = tempfile::tempdir().expect("a temporary folder");
    let this = env!("CARGO_BIN_EXE_quads").to_owned();
    let baseline = std::env::var("PER_MOVE_BASELINE").ok();
    if let Some(b) = &baseline {
        let jail = Path::new(b).with_file_name("quads-jail");
        assert!(
            jail.exists(),
            "{} is missing: the baseline's walls would be off",
            jail.display()
        );
    }
    // (label, binary, one core, walls)
    let mut configs: Vec<(&str, String, bool, &str)> = vec![
        ("", this.clone(), true, "on"),
        ("", this.clone(), true, "off"),
        ("", this.clone(), false, "on"),
        ("", this, false, "off"),
    ];
    if let Some(b) = &baseline {
        configs.push(("baseline, ", b.clone(), true, "on"));
        configs.push(("baseline, ", b.clone(), true, "off"));
    }
    let mut floors: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut runs: Vec<(Vec<f64>, Vec<f64>)> = vec![(Vec::new(), Vec::new()); configs.len()];
    let mut trips_per_move = Vec::new();
    for round in 1..=rounds {
        for (i, one_core) in [true, false].into_iter().enumerate() {
            floors[i].push(floor(one_core, trips));
        }
        for (k, (_, quads, one_core, walls)) in configs.iter().enumerate() {
            let (wall, cpu, trips) = referee(
                quads,
                &player,
                *one_core,
                walls,
                games,
                &dir.path().join("m"),
            );
            runs[k].0.push(wall);
            runs[k].1.push(cpu);
            trips_per_move.push(trips);
        }
        eprintln!(
            "round {round}: floors {:.1} / {:.1} µs; {}",
            floors[0][round - 1],
            floors[1][round - 1],
            configs
                .iter()
                .zip(&runs)
                .map(|((label, _, one, walls), (w, c))| format!(
                    "{label}{} walls {walls}: {:.1} µs wall, {:.1} µs CPU",
                    if *one { "one core" } else { "two cores" },
                    w[round - 1],
                    c[round - 1]
                ))
                .collect::<Vec<_>>()
                .join("; ")
        );
    }
    let floor_of = |one_core: bool| median(floors[usize::from(!one_core)].clone());
    let per_move = median(trips_per_move);
    println!(
        "\n`quads match --bot {player} --bot {player} --games {games} --keep-alive`, {rounds} rounds, medians; the floor: {trips} round trips of a {}-byte line to `cat`; the games make {per_move:.2} round trips per move\n",
        LINE.len()
    );
    println!("| cores | walls | per move (wall, referee and bots) | the referee's own CPU per move | the floor (round trip) | wall / floor | referee CPU / floor | referee CPU / the move's {per_move:.2} round trips |");
    println!("|---|---|---|---|---|---|---|---|");
    for ((label, _, one_core, walls), (wall, cpu)) in configs.iter().zip(&runs) {
        let (wall, cpu, f) = (
            median(wall.clone()),
            median(cpu.clone()),
            floor_of(*one_core),
        );
        println!(
            "| {label}{} | {walls} | {wall:.1} µs | {cpu:.1} µs | {f:.1} µs | {:.1}× | {:.1}× | {:.1}× |",
            if *one_core { "one" } else { "two" },
            wall / f,
            cpu / f,
            cpu / (f * per_move)
        );
    }
}
