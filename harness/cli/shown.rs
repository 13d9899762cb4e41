//! How the `quads` binary shows a run's events: a progress bar on a terminal (plain lines
//! otherwise, nothing with --quiet), the tables on stdout, the rest on stderr.

use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use quads_record::GameRecord;
use quads_results::{Event, Sink};

/// The terminal's side of a run.
pub struct Shown {
    quiet: bool,
    /// What follows the folder's name once the tables are written.
    tables: &'static str,
    /// Put before each SPRT pair's line: the ladder's rung.
    label: String,
    bar: Option<ProgressBar>,
    plain: bool,
    total: usize,
    points: HashMap<String, f64>,
    played: usize,
    started: Instant,
}

impl Shown {
    /// Shows a run; `tables` says what the folder holds once its tables are written.
    pub fn new(quiet: bool, tables: &'static str) -> Shown {
        Shown {
            quiet,
            tables,
            label: String::new(),
            bar: None,
            plain: false,
            total: 0,
            points: HashMap::new(),
            played: 0,
            started: Instant::now(),
        }
    }

    fn game(&mut self, r: &GameRecord, done: usize) {
        self.played += 1;
        let a = r.result.score_of_first();
        *self.points.entry(r.first.name.clone()).or_default() += a;
        *self.points.entry(r.second.name.clone()).or_default() += 1.0 - a;
        let leader = self
            .points
            .iter()
            .max_by(|x, y| x.1.total_cmp(y.1).then_with(|| y.0.cmp(x.0)))
            .map(|(name, p)| format!("leader: {name} {p}"))
            .unwrap_or_default();
        if let Some(bar) = &self.bar {
            bar.set_position(done as u64);
            bar.set_message(leader);
        } else if self.plain {
            // Formatted first and written at once: stderr is unbuffered, and `eprintln!` made
            // a system call per piece of the line, 19 per game.
            let line = format!(
                "game {} ({done}/{}): {} vs {} [{}]: {} {}; {leader}\n",
                r.game, self.total, r.first.name, r.second.name, r.rules, r.result, r.reason
            );
            let _ = std::io::stderr().write_all(line.as_bytes());
        }
    }

    fn end_bar(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

impl Sink for Shown {
    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Warning(w) => eprintln!("quads: warning: {w}"),
            Event::Admission(line) | Event::Admitted(line) if !self.quiet => eprintln!("{line}"),
            Event::Started {
                name,
                games,
                shard,
                concurrency,
                out,
            } => {
                self.total = games;
                self.started = Instant::now();
                let terminal = std::io::stderr().is_terminal();
                self.plain = !self.quiet && !terminal;
                if self.quiet {
                    return;
                }
                if terminal {
                    let bar = ProgressBar::new(games as u64);
                    bar.set_style(
                        ProgressStyle::with_template("{bar:30} {pos}/{len} games, ETA {eta} {msg}")
                            .unwrap_or_else(|_| ProgressStyle::default_bar()),
                    );
                    bar.enable_steady_tick(Duration::from_millis(200));
                    self.bar = Some(bar);
                }
                let part = shard.map_or(String::new(), |(s, all)| format!(" (shard {s} of {all})"));
                eprintln!(
                    "{name}: {games} games{part}, {concurrency} at once, results in {}",
                    out.display()
                );
            }
            Event::GameFinished { record, done } => self.game(record, done),
            Event::Stopping => eprintln!("\nquads: stopping: abandoning the games in flight"),
            Event::StillStopping => {
                eprintln!("quads: still stopping: ending every bot first, a few seconds at most")
            }
            Event::Interrupted {
                done,
                total,
                journal,
            } => {
                self.end_bar();
                eprintln!(
                    "quads: interrupted: {done} of {total} games are in {}; run the same command to resume",
                    journal.display()
                );
            }
            Event::InterruptedAdmitting => eprintln!(
                "quads: interrupted while admitting the entrants; run the same command to start again"
            ),
            Event::Tables {
                table,
                out,
                resumed,
            } => {
                self.end_bar();
                crate::outp!("{table}");
                crate::outln!("{} in {}", self.tables, out.display());
                if !self.quiet && self.total > 0 {
                    if resumed > 0 {
                        eprintln!("{resumed} games were already in the journal");
                    }
                    eprintln!("{}", stats(self.played, self.started.elapsed()));
                }
            }
            Event::Merged { games, shards, out } if !self.quiet => eprintln!(
                "{games} games from {shards} shards merged into {}",
                out.display()
            ),
            Event::Judged {
                table,
                out,
                files,
                speed,
            } => {
                crate::outp!("{table}");
                crate::outln!("analysis in {} ({})", out.display(), files.join(", "));
                if !self.quiet {
                    eprintln!("{speed}");
                }
            }
            Event::Rung { upper, lower, .. } => self.label = format!("{upper} over {lower}: "),
            Event::Pair(line) if !self.quiet => eprintln!("{}{line}", self.label),
            Event::Report(page) => crate::outln!("report in {}", page.display()),
            _ => {}
        }
    }

    /// The terminal shows games, never moves.
    fn wants_moves(&self) -> bool {
        false
    }
}

/// CPU time (user and system, in seconds) and peak memory (KiB) of this process
/// (`RUSAGE_SELF`: the referee, every thread) or of its reaped children (`RUSAGE_CHILDREN`:
/// the bots).
pub(crate) fn cpu(who: nix::sys::resource::UsageWho) -> (f64, i64) {
    nix::sys::resource::getrusage(who)
        .map(|u| {
            let t = |tv: nix::sys::time::TimeVal| tv.tv_sec() as f64 + tv.tv_usec() as f64 / 1e6;
            (t(u.user_time()) + t(u.system_time()), u.max_rss())
        })
        .unwrap_or((0.0, 0))
}

/// Throughput and the referee's own cost: its CPU time against its bots' (reaped children),
/// and its peak memory.
fn stats(games: usize, elapsed: Duration) -> String {
    use nix::sys::resource::UsageWho;
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
