//! The play page's games under load (docs/play.md#load): one `quads serve` with no config (the
//! play page alone) on the loopback, and at once PLAY_LOAD_L3 games against level 3 and
//! PLAY_LOAD_L5 against level 5 (200 and 20 by default), each a client thread playing through
//! the API as the page does: start a game, then a move and wait for the level's answer, until
//! the game is over. The person is played by the greedy level (level 2: it takes a win and
//! never hands one over), seeded per game, so games last as a careful beginner's do rather
//! than a random mover's few moves.
//! Printed as Markdown, per level: the moves answered, the level's own thinking per answer
//! (`thought_ms`, which the server reports), and the time from a move to its answer beyond
//! that thinking (median, p99, max): the queue for a turn to think and the server's own work.
//! Then the run's wall time, and the server's CPU per game (its process: HTTP, database,
//! the levels' thinking).
//!
//! `cargo bench --bench play_load`; `PLAY_LOAD_L3=200 PLAY_LOAD_L5=20`.

use std::process::Command;
use std::time::Instant;

#[path = "../tests/server/harness.rs"]
#[allow(
    dead_code,
    reason = "the benchmark uses a part of what the server's tests share"
)]
mod harness;
#[path = "common/usage.rs"]
mod usage;

use quads_bots::Strategy;
use quads_protocol::Go;
use quads_rules::{Position, Rules};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use usage::usage;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One answered move: the level's thinking and the time beyond it, in ms.
#[derive(Clone, Copy)]
struct Answer {
    thought: f64,
    beyond: f64,
}

fn post(url: &str, body: Value) -> Value {
    match ureq::post(url).send_json(body) {
        Ok(r) => r.into_json().unwrap(),
        Err(e) => panic!("{url}: {e}"),
    }
}

/// Plays one game against `level` to its end: every answer's timings.
fn play(base: &str, level: usize, seed: u64) -> Vec<Answer> {
    let game = post(
        &format!("{base}/api/play"),
        json!({ "mode": format!("level-{level}") }),
    )["game"]
        .clone();
    let id = game["id"].as_str().unwrap().to_owned();
    let rules: Rules = game["rules"].as_str().unwrap().parse().unwrap();
    let mut pos: Position = game["position"].as_str().unwrap().parse().unwrap();
    let mut after = 0;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut answers = Vec::new();
    while pos.outcome(&rules).is_none() {
        let go = Go {
            position: pos,
            remaining: pos.remaining(),
            last: None,
            time: None,
            optime: None,
            movetime: 1000,
        };
        let mv = Strategy::Greedy.choose(
            &go,
            &rules,
            &mut rng,
            Instant::now() + std::time::Duration::from_secs(1),
            &mut None,
        );
        let sent = Instant::now();
        let game = post(
            &format!("{base}/api/play/{id}/moves"),
            json!({ "move": mv.to_string(), "after": after }),
        )["game"]
            .clone();
        let waited = sent.elapsed().as_secs_f64() * 1000.0;
        let thought = game["thought_ms"].as_f64().unwrap();
        if thought > 0.0 {
            answers.push(Answer {
                thought,
                beyond: waited - thought,
            });
        }
        after = game["moves"].as_array().unwrap().len();
        pos = game["position"].as_str().unwrap().parse().unwrap();
    }
    answers
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn main() {
    let l3: usize = env_or("PLAY_LOAD_L3", 200);
    let l5: usize = env_or("PLAY_LOAD_L5", 20);
    let data = tempfile::tempdir().unwrap();
    let (mut server, line) = harness::spawn_serve(
        Command::new(env!("CARGO_BIN_EXE_quads"))
            .args(["serve", "--log", "warn", "--data"])
            .arg(data.path()),
    );
    let base = line
        .trim()
        .rsplit_once(" at ")
        .and_then(|(_, url)| url.strip_suffix("/play"))
        .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
        .to_owned();
    let pid = server.id();
    let cpu_before = usage(pid).1;
    let started = Instant::now();
    let games: Vec<usize> = std::iter::repeat(3)
        .take(l3)
        .chain(std::iter::repeat(5).take(l5))
        .collect();
    let threads: Vec<_> = games
        .iter()
        .enumerate()
        .map(|(i, &level)| {
            let base = base.clone();
            std::thread::Builder::new()
                .stack_size(256 * 1024)
                .spawn(move || (level, play(&base, level, 0x5eed_0000 + i as u64)))
                .unwrap()
        })
        .collect();
    let results: Vec<(usize, Vec<Answer>)> =
        threads.into_iter().map(|t| t.join().unwrap()).collect();
    let wall = started.elapsed().as_secs_f64();
    let cpu = usage(pid).1 - cpu_before;
    let _ = server.kill();
    let _ = server.wait();
    println!(
        "{l3} games against level 3 and {l5} against level 5 at once, through the API, {} cores\n",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!("| level | games | answers | its thinking per answer: median, max | beyond it: median | p99 | max |");
    println!("|---|---|---|---|---|---|---|");
    for level in [3, 5] {
        let answers: Vec<Answer> = results
            .iter()
            .filter(|(l, _)| *l == level)
            .flat_map(|(_, a)| a.iter().copied())
            .collect();
        let n_games = results.iter().filter(|(l, _)| *l == level).count();
        let mut thought: Vec<f64> = answers.iter().map(|a| a.thought).collect();
        let mut beyond: Vec<f64> = answers.iter().map(|a| a.beyond).collect();
        thought.sort_by(f64::total_cmp);
        beyond.sort_by(f64::total_cmp);
        println!(
            "| {level} | {n_games} | {} | {:.1}, {:.0} ms | {:.0} ms | {:.0} ms | {:.0} ms |",
            answers.len(),
            quantile(&thought, 0.5),
            thought.last().copied().unwrap_or(f64::NAN),
            quantile(&beyond, 0.5),
            quantile(&beyond, 0.99),
            beyond.last().copied().unwrap_or(f64::NAN),
        );
    }
    let all_thought: f64 = results
        .iter()
        .flat_map(|(_, a)| a.iter().map(|x| x.thought))
        .sum::<f64>()
        / 1000.0;
    println!();
    println!("| figure | value |");
    println!("|---|---|");
    println!("| wall time of the run | {wall:.1} s |");
    println!("| the levels' thinking, summed | {all_thought:.1} s |");
    println!(
        "| the server's CPU per game (its HTTP, database and the levels' thinking) | {:.1} ms |",
        cpu * 1000.0 / games.len() as f64
    );
    println!(
        "| the server's CPU beyond the levels' thinking, per game | {:.1} ms |",
        (cpu - all_thought).max(0.0) * 1000.0 / games.len() as f64
    );
}
