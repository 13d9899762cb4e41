//! `quads tournament`: play a config's schedule (resuming if it was stopped), then write
//! the results, standings and charts.

use std::path::PathBuf;
use std::time::Duration;

use quads_referee::parse_duration;
pub use quads_results::tournament::Ended;
use quads_results::tournament::{play, warnings, Options};
use quads_results::{Event, Sink};
use quads_tournament::{read_config, Overrides, Shard};

use crate::shown::Shown;

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
    let t = read_config(&args.config, &overrides).map_err(|e| e.to_string())?;
    let mut shown = Shown::new(args.quiet, "results, standings and charts");
    for warning in warnings(&t).map_err(|e| e.to_string())? {
        shown.event(Event::Warning(&warning));
    }
    let options = Options {
        shard: args.shard,
        analyze: args.analyze,
    };
    play(&args.config, t, options, &mut shown).map_err(|e| e.to_string())
}
