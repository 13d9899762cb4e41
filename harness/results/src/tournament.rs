//! `quads tournament`: admit the entrants, play a config's schedule (or a shard of it) into
//! its folder, resuming if it was stopped, then write the results, the analysis if asked for,
//! and the report.

use std::cell::RefCell;
use std::path::Path;

use quads_record::files::{ENTRANTS_MD, GAMES, JOURNAL};
use quads_reports::html::EventInfo;
use quads_tournament::{
    admit, cores, run_watched, schedule, select, Journal, Layout, Progress, RunError, Scheduled,
    Shard, ShardError, ShardInfo, Tournament, Watching,
};
use tokio::sync::watch;

use crate::folder::{create, machine};
use crate::rating::write_results;
use crate::signals::{stop_signal, watch_stops, Stop};
use crate::{judge, page, walls, Event, ResultsError, Sink};

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Every game is played and every file written.
    Finished,
    /// Stopped by a signal; the same command resumes it.
    Interrupted,
}

/// What a tournament run plays besides its config.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Only this shard of the schedule, into a folder of its own.
    pub shard: Option<Shard>,
    /// Judge the games with the solver afterwards (also when the config says so).
    pub analyze: bool,
}

/// What to warn of before a run: walls this machine cannot give, more games at once than
/// cores. An error for a wall asked for by name that cannot be had.
pub fn warnings(t: &Tournament) -> Result<Vec<String>, ResultsError> {
    let mut specs: Vec<_> = t.bots.iter().map(|b| b.command.sandbox.clone()).collect();
    if t.entrants.is_some() {
        specs.push(t.sandbox.clone());
    }
    let mut all = walls::warnings(&specs)?;
    if t.concurrency > cores() {
        all.push(format!(
            "concurrency {} is more than the {} cores here; bots will share cores and think slower",
            t.concurrency,
            cores()
        ));
    }
    Ok(all)
}

/// Plays tournament `t` (read from `config`) into its folder and writes every file of it.
pub fn play(
    config: &Path,
    mut t: Tournament,
    options: Options,
    sink: &mut dyn Sink,
) -> Result<Ended, ResultsError> {
    create(&t.out)?;
    let runtime = runtime(t.concurrency)?;
    let mut _staging = None;
    if let Some(folder) = t.entrants.clone() {
        let admitted = runtime.block_on(async {
            let admit = admit(&t, &folder, |line| sink.event(Event::Admission(line)));
            // A stop while building or checking drops the future, which kills the build's
            // process group or the bot being checked.
            tokio::select! {
                admitted = admit => Some(admitted),
                _ = stop_signal() => None,
            }
        });
        let Some(admitted) = admitted else {
            sink.event(Event::InterruptedAdmitting);
            return Ok(Ended::Interrupted);
        };
        let admitted = admitted?;
        sink.event(Event::Admitted(&admitted.summary));
        t.bots.extend(admitted.bots);
        // The entrants run from their copies: kept until the run ends.
        _staging = admitted.staging;
        if t.bots.len() < 2 {
            return Err(ResultsError::TooFewBots {
                config: config.to_owned(),
                found: t.bots.len(),
                entrants: t.out.join(ENTRANTS_MD),
            });
        }
    }
    walls::record(&t.out, &t.bots)?;
    let games = games(&t, options.shard)?;
    let journal = t.out.join(JOURNAL);
    sink.event(Event::Started {
        name: &t.name,
        games: games.len(),
        shard: options.shard.map(|s| (s, Layout::of(&t).games)),
        concurrency: t.concurrency,
        out: &t.out,
    });
    let (cancel_tx, cancel_rx) = watch::channel(false);
    let played = std::cell::Cell::new(0usize);
    let sink = RefCell::new(sink);
    let outcome = runtime.block_on(async {
        let stops = watch_stops(&cancel_tx, |stop| {
            sink.borrow_mut().event(match stop {
                Stop::First => Event::Stopping,
                Stop::Again => Event::StillStopping,
            });
        });
        let watching = if sink.borrow().wants_moves() {
            Watching::Moves
        } else {
            Watching::Games
        };
        let games = run_watched(&t, &games, &journal, cancel_rx, watching, |progress| {
            let mut sink = sink.borrow_mut();
            match progress {
                Progress::Started {
                    game,
                    first,
                    second,
                } => sink.event(Event::GameStarted {
                    game: game.number,
                    rules: t.variants[game.variant],
                    first,
                    second,
                }),
                Progress::Moved(moved) => sink.event(Event::MovePlayed(&moved)),
                Progress::Finished { record, done } => {
                    played.set(played.get() + 1);
                    sink.event(Event::GameFinished { record, done });
                }
                _ => {}
            }
        });
        tokio::select! {
            outcome = games => outcome,
            () = stops => unreachable!("watch_stops never returns"),
        }
    });
    let sink = sink.into_inner();
    match outcome {
        Ok(()) => {}
        Err(RunError::Interrupted { done, total }) => {
            sink.event(Event::Interrupted {
                done,
                total,
                journal: &journal,
            });
            return Ok(Ended::Interrupted);
        }
        Err(e) => return Err(e.into()),
    }
    // Every game is in the journal: the run kept none of them in memory.
    let journal = Journal::read(&journal, &t, &games)?;
    let resumed = journal.len() - played.get();
    let (ordered, jsonl) = journal.into_ordered();
    let report = write_results(&t.out, event_of(&t), ordered, Some(jsonl), resumed, sink)?;
    if options.analyze || t.analyze {
        judge::judge_run(&t.out, sink)?;
    }
    let page = page::rebuild(&t.out, Some(report))?;
    sink.event(Event::Report(&page));
    Ok(Ended::Finished)
}

/// The games this run plays: the whole schedule, or a shard of it. A shard's folder gets
/// `shard.json`, which says which shard of which tournament it holds; a folder never holds
/// both a shard and a whole run.
fn games(t: &Tournament, shard: Option<Shard>) -> Result<Vec<Scheduled>, ResultsError> {
    let all = schedule(t);
    let had = ShardInfo::read(&t.out)?;
    let Some(shard) = shard else {
        return match had {
            Some(old) => Err(ShardError::HoldsShard {
                dir: t.out.clone(),
                shard: old.shard,
            }
            .into()),
            None => Ok(all),
        };
    };
    let layout = Layout::of(t);
    layout.check(shard)?;
    if had.is_none() && t.out.join(JOURNAL).exists() {
        return Err(ShardError::HoldsWholeRun { dir: t.out.clone() }.into());
    }
    ShardInfo::new(t, &all, shard).claim(&t.out)?;
    Ok(select(&all, &layout, shard))
}

/// A tournament's event.json, before the ratings order its bots.
fn event_of(t: &Tournament) -> EventInfo {
    EventInfo {
        name: t.name.clone(),
        seed: Some(t.seed),
        bots: t.bots.iter().map(|b| b.name.clone()).collect(),
        anchor: t.anchor.clone(),
        machine: Some(machine()),
        games: vec![GAMES.to_owned()],
    }
}

/// Games in flight that one of the runtime's worker threads serves.
///
/// A referee's move is a few microseconds of work around a wait on a bot, so one thread keeps
/// many games going. A second thread costs more than it gives while it has little to do: the
/// threads share one poller, and a reply read on one wakes the other. On 2 cores, two worker
/// threads cost 27% more CPU per move than one at 2 games at once and 19% more at 4, for no
/// shorter run (docs/performance.md).
const GAMES_PER_WORKER: usize = 8;

/// The runtime that plays a run's games: a worker thread per [`GAMES_PER_WORKER`] games in
/// flight, at most one per core. Makes room for the open files of its bots first, or says why
/// not.
pub fn runtime(concurrency: usize) -> Result<tokio::runtime::Runtime, ResultsError> {
    quads_referee::open_files::make_room(concurrency)
        .map_err(|e| ResultsError::OpenFiles(e.to_string()))?;
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(concurrency.div_ceil(GAMES_PER_WORKER).clamp(1, cores()))
        .enable_all()
        .build()
        .map_err(ResultsError::Runtime)
}
