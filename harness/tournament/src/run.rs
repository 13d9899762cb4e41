//! Running a schedule: games at once up to the concurrency, each record appended to the
//! journal as it ends, so that an interrupted run resumes where it stopped.
//!
//! The journal (`journal.jsonl`) gets one complete line per finished game, written with one
//! `write` and flushed; a line cut short by a crash is cut off on resume, so the next record
//! starts a line of its own. Games in flight when
//! the run stops are simply played again.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex};

use quads_referee::{play_game, write_logs, Bot, GameRecord, GameSpec, Log, MatchError, Settings};
use quads_rules::ByPlayer;
use tokio::sync::{watch, Semaphore};
use tokio::task::JoinSet;

use crate::config::Tournament;
use crate::journal::read_journal;
use crate::run_error::{RunError, Step};
use crate::schedule::Scheduled;

/// Settings of one variant.
fn settings(t: &Tournament, variant: usize) -> Settings {
    Settings {
        rules: t.variants[variant],
        time: t.time,
        margin: t.margin,
        handshake_timeout: t.handshake_timeout,
        ponder: t.ponder,
        log_cap: t.log_cap,
        ..Settings::default()
    }
}

/// Idle bot processes, per bot, for reuse across games.
type Pools = Arc<Mutex<HashMap<usize, Vec<Bot>>>>;

fn take_seat(pools: &Pools, t: &Tournament, bot: usize) -> Bot {
    let reused = pools
        .lock()
        .expect("pool lock")
        .get_mut(&bot)
        .and_then(Vec::pop);
    reused.unwrap_or_else(|| Bot::new(t.bots[bot].clone()))
}

/// Plays every game of `schedule` not in the journal, appending each to it. Calls `done` for
/// each game as it ends (in the order they end). Once every game is in the journal, read them
/// with [`read_journal`].
///
/// The records are not kept in memory: a long tournament's referee stays the same size from
/// its first game to its last (the soak run measures it, docs/soak.md).
pub async fn run(
    t: &Tournament,
    schedule: &[Scheduled],
    journal: &Path,
    cancel: watch::Receiver<bool>,
    mut done: impl FnMut(&GameRecord, usize),
) -> Result<(), RunError> {
    run_watched(t, schedule, journal, cancel, Watching::Games, |p| {
        if let Progress::Finished { record, done: n } = p {
            done(record, n);
        }
    })
    .await
}

/// What a run tells whoever follows it live.
#[derive(Debug)]
#[non_exhaustive]
pub enum Progress<'a> {
    /// A game starts.
    Started {
        /// It, as scheduled.
        game: &'a Scheduled,
        /// The first mover's name.
        first: &'a str,
        /// The second's.
        second: &'a str,
    },
    /// A move of a game in flight was played.
    Moved(quads_referee::Moved),
    /// A game ended and is in the journal, which now holds `done` games.
    Finished {
        /// Its record.
        record: &'a GameRecord,
        /// Games in the journal.
        done: usize,
    },
}

/// What a caller of [`run_watched`] follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Watching {
    /// Each game's start and end.
    Games,
    /// Each move too ([`Progress::Moved`]). Each one crosses from the game's task to the
    /// caller's, a wake-up per move that a caller not showing moves should not pay for.
    Moves,
}

/// [`run`], telling `progress` of each game started, each game finished and, when `watching`
/// says so, each move played.
pub async fn run_watched(
    t: &Tournament,
    schedule: &[Scheduled],
    journal: &Path,
    mut cancel: watch::Receiver<bool>,
    watching: Watching,
    mut progress: impl FnMut(Progress<'_>),
) -> Result<(), RunError> {
    let (moved_tx, mut moved_rx) = tokio::sync::mpsc::unbounded_channel();
    let moved_tx = (watching == Watching::Moves).then_some(moved_tx);
    let mut recorded: HashSet<u32> = read_journal(journal, t, schedule)?.into_keys().collect();
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(journal)
        .map_err(|source| RunError::Journal {
            step: Step::Open,
            path: journal.to_owned(),
            source,
        })?;
    // A line cut short by a crash goes, so that the next record starts a line of its own.
    let torn = |source: std::io::Error| RunError::Journal {
        step: Step::CutTornEnd,
        path: journal.to_owned(),
        source,
    };
    let bytes = std::fs::read(journal).map_err(torn)?;
    let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if whole < bytes.len() {
        file.set_len(whole as u64).map_err(torn)?;
    }
    // Each bot's stderr per game, beside the journal.
    let logs_dir = &journal
        .parent()
        .unwrap_or(Path::new("."))
        .join(quads_record::files::LOGS);
    std::fs::create_dir_all(logs_dir).map_err(|source| RunError::Journal {
        step: Step::Create,
        path: logs_dir.clone(),
        source,
    })?;
    let pools: Pools = Arc::default();
    let permits = Arc::new(Semaphore::new(t.concurrency));
    type Done = (
        Result<(GameRecord, ByPlayer<Log>), MatchError>,
        Bot,
        Bot,
        usize,
        usize,
        tokio::sync::OwnedSemaphorePermit,
    );
    let mut tasks: JoinSet<Done> = JoinSet::new();
    let todo: Vec<&Scheduled> = schedule
        .iter()
        .filter(|g| !recorded.contains(&g.number))
        .collect();
    let mut pending = todo.into_iter();
    let mut outcome = Ok(());
    let mut exhausted = false;
    loop {
        // Start games while permits last.
        while !exhausted && outcome.is_ok() && !*cancel.borrow() {
            let Ok(permit) = Arc::clone(&permits).try_acquire_owned() else {
                break;
            };
            let Some(game) = pending.next() else {
                exhausted = true;
                break;
            };
            let (mut first, mut second) = (
                take_seat(&pools, t, game.first),
                take_seat(&pools, t, game.second),
            );
            let settings = settings(t, game.variant);
            progress(Progress::Started {
                game,
                first: &t.bots[game.first].name,
                second: &t.bots[game.second].name,
            });
            let (keep, game, event) = (t.keep_alive, game.clone(), t.name.clone());
            let event_seed = t.seed;
            let moved = moved_tx.clone();
            tasks.spawn(async move {
                let bots = ByPlayer {
                    first: &mut first,
                    second: &mut second,
                };
                let spec = GameSpec {
                    number: game.number,
                    seed: game.seed,
                    start: game.start,
                    keep_alive: keep,
                    watch: moved.as_ref(),
                };
                let played = play_game(bots, &settings, spec).await;
                let record = played.map(|p| {
                    let record = GameRecord {
                        round: Some(game.round),
                        pair: Some(game.pair),
                        event: Some(event),
                        event_seed: Some(event_seed),
                        ..p.record
                    };
                    (record, p.logs)
                });
                // The permit goes back with the seats, once they are in the pool again, so
                // that the next game reuses these processes instead of starting new ones.
                (record, first, second, game.first, game.second, permit)
            });
        }
        if tasks.is_empty() {
            break;
        }
        let joined = tokio::select! {
            biased;
            Some(moved) = moved_rx.recv() => {
                progress(Progress::Moved(moved));
                continue;
            }
            joined = tasks.join_next() => joined,
            changed = cancel.changed() => {
                if changed.is_ok() && *cancel.borrow() {
                    // Abandon the games in flight: dropping them kills their bots' groups.
                    tasks.abort_all();
                    while tasks.join_next().await.is_some() {}
                    break;
                }
                continue;
            }
        };
        let Some(Ok((played, first, second, a, b, permit))) = joined else {
            continue;
        };
        match played {
            Ok((record, logs)) => {
                if let Err((path, e)) = write_logs(logs_dir, &record, &logs) {
                    outcome = Err(RunError::Journal {
                        step: Step::Write,
                        path,
                        source: e,
                    });
                }
                let line = record.to_json() + "\n";
                if let Err(e) = file.write_all(line.as_bytes()).and_then(|()| file.flush()) {
                    outcome = Err(RunError::Journal {
                        step: Step::Append,
                        path: journal.to_owned(),
                        source: e,
                    });
                }
                // Moves of this game still queued come before its end.
                while let Ok(moved) = moved_rx.try_recv() {
                    progress(Progress::Moved(moved));
                }
                recorded.insert(record.game);
                progress(Progress::Finished {
                    record: &record,
                    done: recorded.len(),
                });
                let mut pools = pools.lock().expect("pool lock");
                pools.entry(a).or_default().push(first);
                pools.entry(b).or_default().push(second);
                drop(permit);
            }
            Err(e) => {
                if outcome.is_ok() {
                    outcome = Err(e.into());
                }
            }
        }
    }
    let idle: Vec<Bot> = pools
        .lock()
        .expect("pool lock")
        .drain()
        .flat_map(|(_, seats)| seats)
        .collect();
    // All at once, so that their looks at /proc are shared: one by one, each stop scanned the
    // machine's processes on its own, and ending 2,000 kept-alive bots took minutes.
    let mut stops = JoinSet::new();
    for mut seat in idle {
        stops.spawn(async move {
            seat.stop(quads_referee::defaults::GRACE).await;
        });
    }
    while stops.join_next().await.is_some() {}
    outcome?;
    if recorded.len() < schedule.len() {
        return Err(RunError::Interrupted {
            done: recorded.len(),
            total: schedule.len(),
        });
    }
    Ok(())
}
