//! `quads tournament`: play a config's schedule (resuming if it was stopped), then write
//! the results, standings and charts.

use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use quads_referee::{parse_duration, GameRecord};
use quads_reports::html::{Anchor, EventInfo};
use quads_tournament::{
    admit, cores, read_config, read_journal, run, schedule, select, Layout, Overrides, RunError,
    Scheduled, Shard, ShardInfo, Tournament,
};
use tokio::sync::watch;

/// Arguments of `quads tournament`.
#[derive(clap::Args)]
pub struct Args {
    /// The tournament config (TOML), e.g. configs/demo.toml.
    config: PathBuf,
    #[command(flatten)]
    run: RunOverrides,
    /// Replaces the config's game pairs per pairing.
    #[arg(long)]
    pairs: Option<u32>,
    /// Replaces the config's limit per move (say, a 60 s competition config tried with short
    /// moves); a clock in the config stays.
    #[arg(long, value_name = "DURATION", value_parser = parse_movetime)]
    movetime: Option<Duration>,
    /// No progress output; print only the final tables.
    #[arg(long, short)]
    quiet: bool,
    /// Judge the games with the solver afterwards, as `quads analyze` does (also
    /// `analyze = true` in the config).
    #[arg(long)]
    analyze: bool,
    /// Play only shard I of N of the schedule (I from 0, as Slurm's SLURM_ARRAY_TASK_ID), into
    /// a folder of its own; `quads merge` puts the shards together.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
}

/// Command-line replacements for a config's seed, concurrency and output folder (shared by
/// `quads tournament` and `quads ladder`).
#[derive(clap::Args)]
pub struct RunOverrides {
    /// Replaces the config's seed.
    #[arg(long)]
    seed: Option<u64>,
    /// Replaces the config's number of games at once.
    #[arg(long)]
    concurrency: Option<usize>,
    /// Replaces the config's output folder.
    #[arg(long)]
    out: Option<PathBuf>,
}

impl RunOverrides {
    /// The overrides for the config reader, with `pairs` if the command has it.
    pub fn with_pairs(&self, pairs: Option<u32>) -> Overrides {
        Overrides {
            seed: self.seed,
            concurrency: self.concurrency,
            out: self.out.clone(),
            pairs,
            movetime: None,
        }
    }
}

/// How a run ended, for the exit code.
pub enum Ended {
    Finished,
    Interrupted,
}

/// A limit per move: a duration above zero.
fn parse_movetime(text: &str) -> Result<Duration, String> {
    match parse_duration(text) {
        Ok(d) if d.is_zero() => Err("a time limit must be more than zero".into()),
        Ok(d) => Ok(d),
        Err(e) => Err(e.to_string()),
    }
}

pub fn run_cmd(args: &Args) -> Result<Ended, String> {
    let overrides = Overrides {
        movetime: args.movetime,
        ..args.run.with_pairs(args.pairs)
    };
    let mut t = read_config(&args.config, &overrides).map_err(|e| e.to_string())?;
    let mut walls: Vec<_> = t.bots.iter().map(|b| b.command.sandbox.clone()).collect();
    if t.entrants.is_some() {
        walls.push(t.sandbox.clone());
    }
    crate::sandbox_cmd::warn(&walls)?;
    if t.concurrency > cores() {
        eprintln!(
            "quads: warning: concurrency {} is more than the {} cores here; bots will share cores and think slower",
            t.concurrency,
            cores()
        );
    }
    std::fs::create_dir_all(&t.out)
        .map_err(|e| format!("cannot create {}: {e}", t.out.display()))?;
    let runtime = runtime(t.concurrency)?;
    let mut _staging = None;
    if let Some(folder) = t.entrants.clone() {
        let quiet = args.quiet;
        let admitted = runtime.block_on(async {
            let admit = admit(&t, &folder, |line| {
                if !quiet {
                    eprintln!("{line}");
                }
            });
            // Ctrl-C while building or checking drops the future, which kills the build's
            // process group or the bot being checked.
            tokio::select! {
                admitted = admit => Some(admitted),
                _ = tokio::signal::ctrl_c() => None,
            }
        });
        let Some(admitted) = admitted else {
            eprintln!("quads: interrupted while admitting the entrants; run the same command to start again");
            return Ok(Ended::Interrupted);
        };
        let admitted = admitted.map_err(|e| e.to_string())?;
        if !args.quiet {
            eprintln!("{}", admitted.summary);
        }
        t.bots.extend(admitted.bots);
        // The entrants run from their copies: kept until this command ends.
        _staging = admitted.staging;
        if t.bots.len() < 2 {
            return Err(format!(
                "{}: a tournament needs at least two bots, found {} with the admitted entrants (see {})",
                args.config.display(),
                t.bots.len(),
                t.out.join("entrants.md").display()
            ));
        }
    }
    crate::sandbox_cmd::record(&t.out, &t.bots)?;
    let games = games(&t, args.shard)?;
    let (cancel_tx, cancel_rx) = watch::channel(false);
    let journal = t.out.join("journal.jsonl");
    let progress = Progress::new(&t, games.len(), args.shard, args.quiet);
    let started = std::time::Instant::now();
    let outcome = runtime.block_on(async {
        tokio::spawn(async move {
            if stop_signal().await {
                eprintln!("\nquads: stopping: abandoning the games in flight");
                let _ = cancel_tx.send(true);
                // Exiting here would leave the idle bots running: the stop is bounded (each
                // bot gets `quit`, then SIGTERM, then SIGKILL), so a second Ctrl-C only says so.
                while stop_signal().await {
                    eprintln!(
                        "quads: still stopping: ending every bot first, a few seconds at most"
                    );
                }
            }
        });
        run(&t, &games, &journal, cancel_rx, |record, done| {
            progress.game(record, done)
        })
        .await
    });
    progress.finish();
    match outcome {
        Ok(()) => {}
        Err(RunError::Interrupted { done, total }) => {
            eprintln!("quads: interrupted: {done} of {total} games are in {}; run the same command to resume", journal.display());
            return Ok(Ended::Interrupted);
        }
        Err(e) => return Err(e.to_string()),
    }
    // Every game is in the journal: the run kept none of them in memory.
    let records = read_journal(&journal, &t, &games).map_err(|e| e.to_string())?;
    // Only the games played by this run count for speed; a resumed run skips the rest.
    let played = progress.played();
    let resumed = records.len() - played;
    let mut ordered: Vec<GameRecord> = records.into_values().collect();
    ordered.sort_by_key(|r| r.game);
    let report = finish(&t.out, event_of(&t), ordered)?;
    if !args.quiet {
        if resumed > 0 {
            eprintln!("{resumed} games were already in the journal");
        }
        eprintln!("{}", stats(played, started.elapsed()));
    }
    if args.analyze || t.analyze {
        crate::analyze_cmd::after_tournament(&t.out, args.quiet)?;
    }
    let page = crate::report_cmd::rebuild(&t.out, Some(report))?;
    crate::outln!("report in {}", page.display());
    Ok(Ended::Finished)
}

/// Ctrl-C or SIGTERM (what Slurm and Kubernetes send to stop a task); false if neither can be
/// listened to.
async fn stop_signal() -> bool {
    use tokio::signal::unix::{signal, SignalKind};
    let Ok(mut term) = signal(SignalKind::terminate()) else {
        return tokio::signal::ctrl_c().await.is_ok();
    };
    tokio::select! {
        int = tokio::signal::ctrl_c() => int.is_ok(),
        term = term.recv() => term.is_some(),
    }
}

/// The games this run plays: the whole schedule, or a shard of it. A shard's folder gets
/// `shard.json`, which says which shard of which tournament it holds; a folder never holds
/// both a shard and a whole run.
fn games(t: &Tournament, shard: Option<Shard>) -> Result<Vec<Scheduled>, String> {
    let all = schedule(t);
    let had = ShardInfo::read(&t.out)?;
    let Some(shard) = shard else {
        return match had {
            Some(old) => Err(format!(
                "{} holds shard {} of a tournament; play the whole tournament into another --out, or give --shard {}",
                t.out.display(),
                old.shard,
                old.shard
            )),
            None => Ok(all),
        };
    };
    let layout = Layout::of(t);
    layout.check(shard)?;
    if had.is_none() && t.out.join("journal.jsonl").exists() {
        return Err(format!(
            "{} holds games of a whole tournament, not of a shard; give each shard a folder of its own",
            t.out.display()
        ));
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
        anchor: t.anchor.as_ref().map(|(bot, elo)| Anchor {
            bot: bot.clone(),
            elo: *elo,
        }),
        machine: Some(crate::report_cmd::machine()),
        games: vec!["games.jsonl".to_owned()],
    }
}

/// Writes `records` (in schedule order) as games.jsonl, then every report file and
/// `event` as event.json (its bots in the ratings' order), and prints the tables; returns the
/// ratings report, for report.html.
pub fn finish(
    out: &Path,
    event: EventInfo,
    records: Vec<GameRecord>,
) -> Result<quads_reports::report::Report, String> {
    let text: String = records.iter().map(|r| r.to_json() + "\n").collect();
    write_atomic(&out.join("games.jsonl"), text.as_bytes())?;
    let anchor = event.anchor.as_ref().map(|a| (a.bot.as_str(), a.elo));
    let report = quads_reports::report::build(
        &event.name,
        records.into_iter().map(|r| (0, r)).collect(),
        &event.bots,
        event.seed.unwrap_or_default(),
        anchor,
    )
    .map_err(|e| e.to_string())?;
    quads_reports::export::write_all(&report, out)
        .map_err(|e| format!("cannot write reports into {}: {e}", out.display()))?;
    crate::report_cmd::write_event(
        out,
        &EventInfo {
            bots: report.bots.clone(),
            ..event
        },
    )?;
    crate::outp!("{}", quads_reports::export::table(&report));
    crate::outln!("results, standings and charts in {}", out.display());
    Ok(report)
}

pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// A progress bar on a terminal, plain lines otherwise, nothing with --quiet.
struct Progress {
    bar: Option<ProgressBar>,
    plain: bool,
    total: usize,
    points: std::sync::Mutex<HashMap<String, f64>>,
    played: std::sync::atomic::AtomicUsize,
}

impl Progress {
    fn new(t: &Tournament, total: usize, shard: Option<Shard>, quiet: bool) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let bar = (!quiet && terminal).then(|| {
            let bar = ProgressBar::new(total as u64);
            bar.set_style(
                ProgressStyle::with_template("{bar:30} {pos}/{len} games, ETA {eta} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        if !quiet {
            let part = shard.map_or(String::new(), |s| {
                format!(" (shard {s} of {})", Layout::of(t).games)
            });
            eprintln!(
                "{}: {} games{part}, {} at once, results in {}",
                t.name,
                total,
                t.concurrency,
                t.out.display()
            );
        }
        Progress {
            bar,
            plain: !quiet && !terminal,
            total,
            points: std::sync::Mutex::default(),
            played: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    /// Games played (not resumed) so far.
    fn played(&self) -> usize {
        self.played.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn game(&self, r: &GameRecord, done: usize) {
        self.played
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut points = self.points.lock().expect("points lock");
        let a = r.result.score_of_first();
        let b = 1.0 - a;
        *points.entry(r.first.name.clone()).or_default() += a;
        *points.entry(r.second.name.clone()).or_default() += b;
        let leader = points
            .iter()
            .max_by(|x, y| x.1.total_cmp(y.1).then_with(|| y.0.cmp(x.0)))
            .map(|(name, p)| format!("leader: {name} {p}"))
            .unwrap_or_default();
        if let Some(bar) = &self.bar {
            bar.set_position(done as u64);
            bar.set_message(leader);
        } else if self.plain {
            eprintln!(
                "game {} ({done}/{}): {} vs {} [{}]: {} {}; {leader}",
                r.game, self.total, r.first.name, r.second.name, r.rules, r.result, r.reason
            );
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Throughput and the referee's own cost: its CPU time against its bots' (reaped children),
/// and its peak memory.
fn stats(games: usize, elapsed: Duration) -> String {
    use nix::sys::resource::{getrusage, UsageWho};
    let cpu = |who| {
        getrusage(who)
            .map(|u| {
                let t =
                    |tv: nix::sys::time::TimeVal| tv.tv_sec() as f64 + tv.tv_usec() as f64 / 1e6;
                (t(u.user_time()) + t(u.system_time()), u.max_rss())
            })
            .unwrap_or((0.0, 0))
    };
    let (referee, rss_kib) = cpu(UsageWho::RUSAGE_SELF);
    let (bots, _) = cpu(UsageWho::RUSAGE_CHILDREN);
    let share = if bots > 0.0 {
        format!(" ({:.1}% of the bots')", 100.0 * referee / bots)
    } else {
        String::new()
    };
    format!(
        "{games} games in {:.2} s ({:.1} games/s); referee CPU {referee:.2} s{share}, bots CPU {bots:.2} s; referee peak memory {:.1} MiB",
        elapsed.as_secs_f64(),
        games as f64 / elapsed.as_secs_f64().max(1e-9),
        rss_kib as f64 / 1024.0
    )
}

/// The runtime that plays a tournament's games: one worker thread per game in flight, at most
/// one per core. Makes room for the open files of its bots first, or says why not.
pub fn runtime(concurrency: usize) -> Result<tokio::runtime::Runtime, String> {
    quads_referee::open_files::make_room(concurrency).map_err(|e| e.to_string())?;
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(cores().min(concurrency).max(1))
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))
}
