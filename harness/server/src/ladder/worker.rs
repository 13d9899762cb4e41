//! A worker: takes a match whose two versions are on its bench (test matches first), holds it
//! with a lease its heartbeat renews, plays it with the referee as `quads match` would, and
//! hands in its games; a match it loses hold of (the lease ran out, the host cancelled it)
//! keeps none of its games. After each match, a version that lost its last `crash_streak`
//! games by faults of its own (a crash, a timeout, an illegal move…) is paused with the reason.
//! `quads serve` runs `workers` of these in the server; the queue and the lease are what a
//! worker on another machine will use too (issue 28).

use std::sync::Arc;
use std::time::Duration;

use quads_record::{ByPlayer, GameRecord, Player};
use quads_referee::{run_match, BotSpec, MatchConfig, Settings};

use super::{fill, Bench, Ready, LADDER_PAUSED};
use crate::pipeline::Signals;
use crate::store::{MatchJob, Store};
use crate::{ApiError, ServerConfig};

/// How long a lease lasts, in seconds; the heartbeat renews it four times as often.
pub const LEASE: i64 = 60;
/// How often an idle worker looks for work it was not told about (a lease run out), at most.
const IDLE: Duration = Duration::from_secs(5);
/// The names of the server's own workers start so: at start, their matches were cut off.
pub const LOCAL: &str = "local-";

/// The folder of a match's logs: `DATA/matches/ID`.
pub fn folder(config: &ServerConfig, id: i64) -> std::path::PathBuf {
    config.data.join("matches").join(id.to_string())
}

/// Works until the server stops.
pub async fn run(
    name: String,
    config: ServerConfig,
    store: Store,
    bench: Arc<Bench>,
    signals: Arc<Signals>,
) {
    let mut changed = signals.changed.subscribe();
    loop {
        match work_once(&name, &config, &store, &bench, &signals).await {
            Ok(true) => signals.changed.send_modify(|n| *n += 1),
            Ok(false) => {
                let _ = tokio::time::timeout(IDLE, changed.changed()).await;
            }
            Err(e) => {
                eprintln!("quads serve: worker {name}: {}", e.message);
                let _ = tokio::time::timeout(IDLE, changed.changed()).await;
            }
        }
    }
}

/// Plays one match if there is one to play: whether it did.
async fn work_once(
    name: &str,
    config: &ServerConfig,
    store: &Store,
    bench: &Bench,
    signals: &Signals,
) -> Result<bool, ApiError> {
    if store.reap(None).await? > 0 {
        eprintln!("quads serve: a worker's lease ran out: its match is queued again");
    }
    // A paused ladder plays the test matches entrants ask for, and nothing else.
    let ladder = !store.switch(LADDER_PAUSED).await?;
    if ladder {
        fill(config, store, bench).await?;
    }
    let Some(job) = store
        .claim_match(name, &bench.versions(), ladder, LEASE)
        .await?
    else {
        return Ok(false);
    };
    signals.changed.send_modify(|n| *n += 1); // it runs
    let (Some(a), Some(b)) = (bench.get(job.first), bench.get(job.second)) else {
        store
            .fail_match(job.id, name, "a version left the bench")
            .await?;
        return Ok(true);
    };
    let heartbeat = tokio::spawn({
        let (store, name, id) = (store.clone(), name.to_owned(), job.id);
        async move {
            let mut every = tokio::time::interval(Duration::from_secs(LEASE as u64 / 4));
            loop {
                every.tick().await;
                if !matches!(store.heartbeat(id, &name, LEASE).await, Ok(true)) {
                    return;
                }
            }
        }
    });
    let mut played = play(config, &job, &a, &b).await;
    if let (Ok(records), true) = (&played, config.analysis) {
        // Judged while the lease is held: the games and their marks come together.
        if let Err(why) = judge(folder(config, job.id), records.clone()).await {
            played = Err(why);
        }
    }
    heartbeat.abort();
    match played {
        Ok(records) => {
            let lines: Vec<String> = records.iter().map(GameRecord::to_json).collect();
            if store.finish_match(job.id, name, &lines).await? {
                for (version, entrant) in
                    [(job.first, &job.first_name), (job.second, &job.second_name)]
                {
                    streak(config, store, version, entrant).await?;
                }
            }
        }
        Err(why) => {
            eprintln!("quads serve: match {}: {why}", job.id);
            store.fail_match(job.id, name, &why).await?;
        }
    }
    Ok(true)
}

/// The match's games, played by the referee in a runtime of its own.
async fn play(
    config: &ServerConfig,
    job: &MatchJob,
    a: &Ready,
    b: &Ready,
) -> Result<Vec<GameRecord>, String> {
    let named = |r: &Ready, name: &str| BotSpec {
        name: name.to_owned(),
        ..r.bot.clone()
    };
    let time = quads_referee::time_control(Some(&config.movetime), None)
        .map_err(|e| format!("movetime: {e}"))?;
    let rules = job
        .rules
        .parse()
        .map_err(|e| format!("variant `{}`: {e}", job.rules))?;
    let out = folder(config, job.id);
    let _ = std::fs::remove_dir_all(&out); // a match played again starts clean
    let match_config = MatchConfig {
        bots: ByPlayer {
            first: named(a, &job.first_name),
            second: named(b, &job.second_name),
        },
        settings: Settings {
            rules,
            time,
            ..Settings::default()
        },
        games: GAMES,
        seed: job.seed,
        keep_alive: true,
        out,
    };
    tokio::task::spawn_blocking(move || -> Result<Vec<GameRecord>, String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        let mut records = Vec::new();
        runtime
            .block_on(run_match(&match_config, |r| records.push(r.clone())))
            .map_err(|e| e.to_string())?;
        Ok(records)
    })
    .await
    .map_err(|e| e.to_string())?
}

/// Every move of a match's games judged by the exact solver, into its folder's analysis.csv
/// and analysis.jsonl (as `quads analyze` writes them; the match page reads them). One thread
/// and a small table: the workers' matches go on beside it.
async fn judge(out: std::path::PathBuf, records: Vec<GameRecord>) -> Result<(), String> {
    tokio::task::spawn_blocking(move || {
        let source = quads_analysis::input::Source {
            path: out.join(quads_record::files::GAMES),
            records: records
                .into_iter()
                .enumerate()
                .map(|(i, r)| (i + 1, r))
                .collect(),
        };
        let settings = quads_analysis::Settings {
            threads: 1,
            hash_mib: ANALYSIS_HASH_MIB,
            ..quads_analysis::Settings::default()
        };
        let analysis = quads_analysis::analyze(&[source], settings, |_, _| {})
            .map_err(|e| format!("analysis: {e}"))?;
        quads_analysis::export::write_all(&analysis, &out).map_err(|e| format!("analysis: {e}"))
    })
    .await
    .map_err(|e| e.to_string())?
}

/// The solver's table for a match's analysis, in MiB.
const ANALYSIS_HASH_MIB: usize = 64;

/// Games in a match: a pair, the seats swapped.
pub const GAMES: u32 = 2;

/// The one line that plays a match again on one's own machine (the two bots given as their
/// folders' commands, as `quads match` takes them).
pub fn replay_command(
    config: &ServerConfig,
    first: &str,
    second: &str,
    rules: &str,
    seed: i64,
) -> String {
    format!(
        "quads match --bot {first} --bot {second} --rules {rules} --movetime {} --games {GAMES} --seed {seed} --keep-alive",
        config.movetime
    )
}

/// Pauses `version` if its last `crash_streak` games were all lost by faults of its own.
async fn streak(
    config: &ServerConfig,
    store: &Store,
    version: i64,
    entrant: &str,
) -> Result<(), ApiError> {
    let n = config.crash_streak;
    if n == 0 {
        return Ok(());
    }
    let recent = store.recent_games(version, i64::from(n)).await?;
    if recent.len() < n as usize {
        return Ok(());
    }
    let mut last = None;
    for text in &recent {
        let r: GameRecord = serde_json::from_str(text).map_err(ApiError::internal)?;
        let seat = if r.first.name == entrant {
            Player::First
        } else {
            Player::Second
        };
        let Some(fault) = r.failures.iter().find(|f| f.seat == seat) else {
            return Ok(());
        };
        if last.is_none() {
            last = Some(format!(
                "{}: {}",
                fault.reason,
                fault.detail.replace('\n', " ")
            ));
        }
    }
    let reason = format!(
        "paused: its last {n} games were lost by faults of its own (the last: {}); upload a new version",
        last.unwrap_or_default()
    );
    store.pause_version(version, &reason).await
}
