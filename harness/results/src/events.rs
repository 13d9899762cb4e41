//! What a run tells its front end as it goes: typed events to a caller-supplied sink, so that
//! a progress bar, a live page or a Python callback can follow a run. This crate prints
//! nothing itself.

use std::path::Path;

use quads_record::GameRecord;
use quads_tournament::Shard;

/// One thing that happened in a run.
#[derive(Debug)]
#[non_exhaustive]
pub enum Event<'a> {
    /// A warning before any game: a wall this machine cannot give, more games at once than
    /// cores.
    Warning(&'a str),
    /// A step of the entrants' admission: a build or a check starting, or a verdict.
    Admission(&'a str),
    /// Who was admitted and who left out, in one line.
    Admitted(&'a str),
    /// The games start: this run's share of the schedule (all of it, or a shard's).
    Started {
        /// The event's name.
        name: &'a str,
        /// The games this run plays (those already in the journal included).
        games: usize,
        /// The shard, and the whole schedule's number of games, for a shard.
        shard: Option<(Shard, u32)>,
        /// Games at once.
        concurrency: usize,
        /// The results folder.
        out: &'a Path,
    },
    /// A game starts.
    GameStarted {
        /// Its number in the schedule.
        game: u32,
        /// Its variant.
        rules: quads_rules::Rules,
        /// The first mover.
        first: &'a str,
        /// The second.
        second: &'a str,
    },
    /// A move of a game in flight, with the time it took.
    MovePlayed(&'a quads_referee::Moved),
    /// A game ended and is in the journal; `done` games of this run are.
    GameFinished {
        /// Its record.
        record: &'a GameRecord,
        /// Games in the journal now.
        done: usize,
    },
    /// SIGINT or SIGTERM: the games in flight are being abandoned.
    Stopping,
    /// Another SIGINT or SIGTERM while stopping (the stop is bounded, so it only says so).
    StillStopping,
    /// The run was stopped before its end; the same command resumes it.
    Interrupted {
        /// Games in the journal.
        done: usize,
        /// Games of the run.
        total: usize,
        /// The journal.
        journal: &'a Path,
    },
    /// The run was stopped while the entrants were being admitted.
    InterruptedAdmitting,
    /// The standings, results, PGN and charts are written; `table` is the standings as text.
    Tables {
        /// standings.txt's text.
        table: &'a str,
        /// The folder.
        out: &'a Path,
        /// Games found in the journal from an earlier run (0 when none, or not a run).
        resumed: usize,
    },
    /// Shards were merged into one folder.
    Merged {
        /// Games merged.
        games: usize,
        /// Shards merged.
        shards: u32,
        /// The folder.
        out: &'a Path,
    },
    /// The analysis is written.
    Judged {
        /// Its table, as text.
        table: &'a str,
        /// The folder.
        out: &'a Path,
        /// The files written.
        files: &'a [&'static str],
        /// How long it took, in words (never in the files).
        speed: &'a str,
    },
    /// A ladder's rung starts: `upper` must be shown stronger than `lower`.
    Rung {
        /// From 2: the config's second bot is rung 2.
        number: usize,
        /// The bot that must be stronger.
        upper: &'a str,
        /// The bot below it.
        lower: &'a str,
    },
    /// One SPRT pair more: the test's state in one line.
    Pair(&'a str),
    /// report.html is written.
    Report(&'a Path),
}

/// Where a run's events go.
pub trait Sink {
    /// Takes one event.
    fn event(&mut self, event: Event<'_>);

    /// Whether this sink takes [`Event::MovePlayed`]. Each move is handed over from the task
    /// playing its game, a wake-up per move, so a sink that shows no moves says no. A closure
    /// takes them all.
    fn wants_moves(&self) -> bool {
        true
    }
}

impl<F: FnMut(Event<'_>)> Sink for F {
    fn event(&mut self, event: Event<'_>) {
        self(event);
    }
}
