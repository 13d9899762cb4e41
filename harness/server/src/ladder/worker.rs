//! A worker: takes a match whose two versions are on its bench (test matches first), holds it
//! with a lease its heartbeat renews, plays it with the referee as `quads match` would, and
//! hands in its games; a match it loses hold of (the lease ran out, the host cancelled it)
//! keeps none of its games. After each match, a version that lost its last `crash_streak`
//! games by faults of its own (a crash, a timeout, an illegal move…) is paused with the reason.
//! `quads serve` runs `workers` of these in the server; a worker on another machine (`quads
//! worker`, crate::remote) takes the same queue and lease over HTTP (crate::http::workers).

use std::sync::Arc;
use std::time::Duration;

use quads_record::{files, ByPlayer, GameRecord, Player};
use quads_referee::{run_match_watched, BotSpec, MatchConfig, Moved, Settings};
use tokio::sync::mpsc::{unbounded_channel, UnboundedSender};

use super::live::Live;
use super::{fill, Bench, LADDER_PAUSED};
use crate::domain::error::DomainError;
use crate::hooks::{self, Word};
use crate::signals::Signals;
use crate::store::retry::until_answered;
use crate::store::{MatchJob, Store};
use crate::wire::News;
use crate::ServerConfig;

/// How often an idle worker looks for work it was not told about (a lease run out), at most.
const IDLE: Duration = Duration::from_secs(5);
/// The names of the server's own workers start so: at start, their matches were cut off.
pub const LOCAL: &str = "local-";

/// How often a worker renews a lease of `lease` seconds: four times within it.
pub fn heartbeat_every(lease: i64) -> Duration {
    Duration::from_millis(lease.max(1) as u64 * 250)
}

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
    live: Arc<Live>,
) {
    let mut changed = signals.changed.subscribe();
    loop {
        match work_once(&name, &config, &store, &bench, &signals, &live).await {
            Ok(true) => signals.bump(),
            Ok(false) => {
                let _ = tokio::time::timeout(IDLE, changed.changed()).await;
            }
            Err(e) => {
                tracing::error!(worker = %name, error = %e, "a worker of the server's failed");
                let _ = tokio::time::timeout(IDLE, changed.changed()).await;
            }
        }
    }
}

/// The next match for `holder` (a worker of the server's, or a remote worker's slot), if
/// there is one: leases run out are reaped first, and the ladder is topped up.
pub async fn next_match(
    config: &ServerConfig,
    store: &Store,
    bench: &Bench,
    holder: &str,
) -> Result<Option<MatchJob>, DomainError> {
    let reaped = store.reap(None).await?;
    if reaped > 0 {
        tracing::warn!(
            matches = reaped,
            "a worker's lease ran out: its match is queued again"
        );
    }
    // A paused ladder plays the test matches entrants ask for, and nothing else.
    let ladder = !store.switch(LADDER_PAUSED).await?;
    if ladder {
        fill(config, store, bench).await?;
    }
    store
        .claim_match(holder, &bench.versions(), ladder, config.lease)
        .await
        .map_err(Into::into)
}

/// Counts a match's games if `holder` still holds it, then pauses a version that keeps
/// losing by its own faults: whether the games were counted. With `patient` (the server's
/// own workers) the count is tried again while the database fails, so a blink of it does not
/// cost the match; a remote worker's request answers 500 instead and the worker tries again.
/// Either way, once the games are counted the pauses are written whatever the wait: a worker
/// told its games were not counted when they were would be told wrong.
pub async fn hand_in(
    config: &ServerConfig,
    store: &Store,
    job: &MatchJob,
    holder: &str,
    records: &[GameRecord],
    patient: bool,
) -> Result<bool, DomainError> {
    let lines: Vec<String> = records.iter().map(GameRecord::to_json).collect();
    // Safe to repeat: a match counted is no longer `running`, so a second count finds nothing.
    let count = || store.finish_match(job.id, holder, &lines);
    let counted = if patient {
        until_answered("a match's games", count).await?
    } else {
        count().await?
    };
    if !counted {
        return Ok(false);
    }
    for (version, entrant) in [(job.first, &job.first_name), (job.second, &job.second_name)] {
        streak(config, store, version, entrant).await?;
    }
    // A test match is over: word to the entrant who asked for it (its first).
    if let Ok(Some(row)) = store.match_row(job.id).await {
        if row.kind == "test" {
            let word = Word::TestMatch {
                entrant: job.first_name.clone(),
                opponent: job.second_name.clone(),
                id: job.id,
                results: records.iter().map(|r| r.result.to_string()).collect(),
            };
            hooks::tell(config, store, word).await;
        }
    }
    Ok(true)
}

/// Plays one match if there is one to play: whether it did.
async fn work_once(
    name: &str,
    config: &ServerConfig,
    store: &Store,
    bench: &Bench,
    signals: &Signals,
    live: &Arc<Live>,
) -> Result<bool, DomainError> {
    let Some(job) = next_match(config, store, bench, name).await? else {
        return Ok(false);
    };
    signals.bump(); // it runs
    let (Some(a), Some(b)) = (bench.get(job.first), bench.get(job.second)) else {
        until_answered("a failed match", || {
            store.fail_match(job.id, name, "a version left the bench")
        })
        .await?;
        return Ok(true);
    };
    let heartbeat = tokio::spawn({
        let (store, name, id, lease) = (store.clone(), name.to_owned(), job.id, config.lease);
        async move {
            let mut every = tokio::time::interval(heartbeat_every(lease));
            loop {
                every.tick().await;
                // A database that fails is asked again at the next beat; only losing the
                // lease ends the beat.
                if let Ok(false) = store.heartbeat(id, &name, lease).await {
                    return;
                }
            }
        }
    });
    let out = folder(config, job.id);
    let names = [job.first_name.as_str(), job.second_name.as_str()];
    live.begin(job.id, name, names, &job.rules, GAMES);
    let (news, mut told) = unbounded_channel();
    let shown = tokio::spawn({
        let (live, name, id) = (live.clone(), name.to_owned(), job.id);
        async move {
            while let Some(n) = told.recv().await {
                live.news(id, &name, n);
            }
        }
    });
    let mut played = play(&config.movetime, &job, &a.bot, &b.bot, out.clone(), news).await;
    let _ = shown.await; // every move shown before the match's end
    if let (Ok(records), true) = (&played, config.analysis) {
        // Judged while the lease is held: the games and their marks come together.
        if let Err(why) = judge(out, records.clone()).await {
            played = Err(why);
        }
    }
    heartbeat.abort();
    match played {
        Ok(records) => {
            if hand_in(config, store, &job, name, &records, true).await? {
                // The database has the games now: the referee's copy goes, so they are kept
                // once (a match not counted leaves its folder to whoever holds it now).
                let _ = std::fs::remove_file(folder(config, job.id).join(files::GAMES));
            }
            tracing::info!(r#match = job.id, worker = %name, games = records.len(), "match played");
        }
        Err(why) => {
            tracing::warn!(r#match = job.id, worker = %name, error = %why, "match failed");
            until_answered("a failed match", || store.fail_match(job.id, name, &why)).await?;
        }
    }
    ended(store, live, job.id, name).await;
    Ok(true)
}

/// Match `id` is no longer played by `holder`: its watchers are told its state as the database
/// has it now (`done`, `failed`, `cancelled`, or `queued` again).
pub async fn ended(store: &Store, live: &Live, id: i64, holder: &str) {
    let state = match store.match_row(id).await {
        Ok(Some(row)) => row.state,
        _ => "done".to_owned(),
    };
    live.end(id, Some(holder), &state);
}

/// The match's games, played by the referee in a runtime of its own (also a remote worker's,
/// crate::remote), into `out`: games.jsonl and the bots' logs. `news` is told of each move as
/// it is played and of each game's end (the match shown live, crate::ladder::live).
pub async fn play(
    movetime: &str,
    job: &MatchJob,
    a: &BotSpec,
    b: &BotSpec,
    out: std::path::PathBuf,
    news: UnboundedSender<News>,
) -> Result<Vec<GameRecord>, String> {
    let named = |bot: &BotSpec, name: &str| BotSpec {
        name: name.to_owned(),
        ..bot.clone()
    };
    let time =
        quads_referee::time_control(Some(movetime), None).map_err(|e| format!("movetime: {e}"))?;
    let rules = job
        .rules
        .parse()
        .map_err(|e| format!("variant `{}`: {e}", job.rules))?;
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
        let (moved, mut moves) = unbounded_channel::<Moved>();
        let told = |r: &GameRecord| {
            let _ = news.send(News::Ended {
                game: r.game,
                result: r.result.to_string(),
                reason: r.reason.to_string(),
                moves: r.moves.clone(),
            });
        };
        let played = runtime.block_on(async {
            let run = run_match_watched(&match_config, Some(&moved), |r| {
                told(r);
                records.push(r.clone());
            });
            // A move's news goes as it is played; a game's end carries its moves all the same.
            // (`moved` outlives the match, so this ends only with it.)
            let forward = async {
                while let Some(m) = moves.recv().await {
                    let mv = m.mv.to_string();
                    let _ = news.send(News::Moved { game: m.game, mv });
                }
                std::future::pending().await
            };
            tokio::select! {
                biased;
                played = run => played,
                never = forward => never,
            }
        });
        played.map_err(|e| e.to_string())?;
        Ok(records)
    })
    .await
    .map_err(|e| e.to_string())?
}

/// Every move of a match's games judged by the exact solver, into its folder's analysis.csv
/// and analysis.jsonl (as `quads analyze` writes them; the match page reads them). One thread
/// and a small table: the workers' matches go on beside it.
pub(crate) async fn judge(out: std::path::PathBuf, records: Vec<GameRecord>) -> Result<(), String> {
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

/// Pauses `version` if its last `crash_streak` games were all lost by faults of its own,
/// asking the database again while it fails (both steps are safe to repeat).
async fn streak(
    config: &ServerConfig,
    store: &Store,
    version: i64,
    entrant: &str,
) -> Result<(), DomainError> {
    let n = config.crash_streak;
    if n == 0 {
        return Ok(());
    }
    let recent = until_answered("a version's last games", || {
        store.recent_games(version, i64::from(n))
    })
    .await?;
    if let Some(reason) = paused_why(n, &recent, entrant)? {
        let paused = until_answered("a version's pause", || {
            store.pause_version(version, &reason)
        })
        .await?;
        if paused {
            if let Ok(number) = store.version_number(version).await {
                let word = Word::Paused {
                    entrant: entrant.to_owned(),
                    version: number,
                    reason,
                };
                hooks::tell(config, store, word).await;
            }
        }
    }
    Ok(())
}

/// Why a version is paused, if its last `n` games (`recent`, newest first) were all lost by
/// faults of `entrant`'s own.
fn paused_why(n: u32, recent: &[String], entrant: &str) -> Result<Option<String>, DomainError> {
    if recent.len() < n as usize {
        return Ok(None);
    }
    let mut last = None;
    for text in recent {
        let r: GameRecord = serde_json::from_str(text).map_err(DomainError::failed)?;
        let seat = if r.first.name == entrant {
            Player::First
        } else {
            Player::Second
        };
        let Some(fault) = r.failures.iter().find(|f| f.seat == seat) else {
            return Ok(None);
        };
        if last.is_none() {
            last = Some(format!(
                "{}: {}",
                fault.reason,
                fault.detail.replace('\n', " ")
            ));
        }
    }
    Ok(Some(format!(
        "paused: its last {n} games were lost by faults of its own (the last: {}); upload a new version",
        last.unwrap_or_default()
    )))
}
