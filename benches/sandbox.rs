//! What the walls cost (docs/sandbox.md): a bot's start and a round trip on its pipes, with
//! the default walls and with none, interleaved in one run so that the machine's load falls on
//! both alike.
//!
//! - Start: from spawning `quads-bot` to its `quadsok`, the referee's own `BotProcess` (the
//!   box built, the bot executed, the handshake read), then its end (`quit`, the box gone).
//! - Round trip: `isready` written and `readyok` read, again and again on one running bot:
//!   the part of every move the walls could touch (the pipes, the syscall filter).
//!
//! `cargo bench --bench sandbox`; `SANDBOX_STARTS=40` starts per round, `SANDBOX_TRIPS=5000`
//! round trips per round, `SANDBOX_ROUNDS=5` rounds; the medians of the rounds are printed,
//! with each round's figures.

use std::time::{Duration, Instant};

use quads_referee::sandbox::SandboxSpec;
use quads_referee::{BotCommand, BotProcess, Reply};

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn bot(spec: &str) -> BotCommand {
    let exe = std::path::Path::new(env!("CARGO_BIN_EXE_quads"))
        .parent()
        .expect("the target folder")
        .join("quads-bot");
    let mut c = BotCommand::new(vec![
        exe.display().to_string(),
        "--strategy".into(),
        "random".into(),
    ]);
    c.sandbox = spec.parse::<SandboxSpec>().expect("a spec");
    c
}

/// Sends `line`, reads lines until `want`.
async fn exchange(p: &mut BotProcess, line: &str, want: &str) {
    p.send(line).await.expect("the bot reads");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        match p.recv(deadline).await {
            Reply::Line(l) if l == want => return,
            Reply::Line(_) => continue,
            other => panic!("no `{want}`: {other:?}"),
        }
    }
}

/// Milliseconds from spawn to `quadsok`, for each of `n` starts (each bot then ended).
async fn starts(spec: &str, n: usize) -> Vec<f64> {
    let cmd = bot(spec);
    let mut out = Vec::new();
    for _ in 0..n {
        let began = Instant::now();
        let mut p = BotProcess::spawn(&cmd, 1 << 20)
            .await
            .expect("the bot starts");
        exchange(&mut p, "quads 1", "quadsok").await;
        out.push(began.elapsed().as_secs_f64() * 1000.0);
        p.shutdown(Duration::from_millis(500)).await;
    }
    out
}

/// Microseconds per `isready`/`readyok` round trip over `n` of them on one bot.
async fn trips(spec: &str, n: usize) -> f64 {
    let mut p = BotProcess::spawn(&bot(spec), 1 << 20)
        .await
        .expect("the bot starts");
    exchange(&mut p, "quads 1", "quadsok").await;
    let began = Instant::now();
    for _ in 0..n {
        exchange(&mut p, "isready", "readyok").await;
    }
    let us = began.elapsed().as_secs_f64() * 1e6 / n as f64;
    p.shutdown(Duration::from_millis(500)).await;
    us
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let (n_starts, n_trips, rounds) = (
        env_or("SANDBOX_STARTS", 40),
        env_or("SANDBOX_TRIPS", 5000),
        env_or("SANDBOX_ROUNDS", 5),
    );
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    // What this machine gives, asked once (as a run does) before anything is timed.
    println!(
        "{}",
        quads_referee::sandbox::enforce(&SandboxSpec::default())
            .expect("the walls")
            .0
    );
    let mut rows: Vec<[f64; 4]> = Vec::new();
    for round in 1..=rounds {
        let row = runtime.block_on(async {
            let on = median(starts("on", n_starts).await);
            let off = median(starts("off", n_starts).await);
            let trip_on = trips("on", n_trips).await;
            let trip_off = trips("off", n_trips).await;
            [on, off, trip_on, trip_off]
        });
        println!(
            "round {round}: start {:.2} ms walled, {:.2} ms bare; round trip {:.2} µs walled, {:.2} µs bare",
            row[0], row[1], row[2], row[3]
        );
        rows.push(row);
    }
    let col = |i: usize| median(rows.iter().map(|r| r[i]).collect());
    println!();
    println!("| | default walls | no walls | walls' cost |");
    println!("|---|---|---|---|");
    println!(
        "| bot start, spawn to `quadsok` (median of {rounds} medians of {n_starts}) | {:.2} ms | {:.2} ms | {:+.2} ms |",
        col(0),
        col(1),
        col(0) - col(1)
    );
    println!(
        "| `isready` round trip (median of {rounds} means of {n_trips}) | {:.2} µs | {:.2} µs | {:+.2} µs ({:.2}x) |",
        col(2),
        col(3),
        col(2) - col(3),
        col(2) / col(3)
    );
}
