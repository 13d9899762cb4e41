//! Tournaments: a config names bots, rule variants and a format; the schedule follows from it
//! and the seed alone; the runner plays it concurrently, appending each game to a journal so
//! that a stopped run resumes and ends with the same results as one that was never stopped.

mod admission;
pub mod config;
mod config_error;
mod config_file;
pub mod entrants;
mod entrants_report;
mod event;
mod journal;
mod merge;
mod run;
mod run_error;
mod schedule;
mod shard;

pub use admission::{admit, build_log, Admission};
pub use config::{
    check_sprt, command, cores, parse_config, read_bots_file, read_config, ConfigError, Format,
    Openings, Overrides, SprtSettings, Tournament,
};
pub use entrants::EntrantsError;
pub use entrants_report::{read as read_verdicts, Saved};
pub use event::{EntrantsEvent, EventTime};
pub use journal::{journal_records, read_journal, Journal};
pub use merge::{merge, MergeError, Merged, ShardDir};
pub use run::{run, run_watched, Progress, Watching};
pub use run_error::{RunError, Step};
pub use schedule::{pairings, random_opening, schedule, Scheduled};
pub use shard::{fingerprint, select, BadShard, Layout, Shard, ShardError, ShardInfo, SHARD_FILE};
