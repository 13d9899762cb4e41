//! `quads merge OUT SHARD_DIR...`: the shards of one tournament, checked, put together into
//! the files a single run writes (see `quads_results::merging`).

use std::path::PathBuf;

use crate::shown::Shown;

/// Arguments of `quads merge`.
#[derive(clap::Args)]
pub struct Args {
    /// The folder to write the whole tournament's files into.
    out: PathBuf,
    /// Every shard's folder (`quads tournament CONFIG --shard I/N --out DIR`), in any order.
    #[arg(required = true, value_name = "SHARD_DIR")]
    shards: Vec<PathBuf>,
    /// Judge the games with the solver afterwards, as `quads analyze` does (also when the
    /// config says `analyze = true`).
    #[arg(long)]
    analyze: bool,
    /// Print only the final tables.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: &Args) -> Result<(), String> {
    let mut shown = Shown::new(args.quiet, "results, standings and charts");
    quads_results::merging::merge_into(&args.out, &args.shards, args.analyze, &mut shown)
        .map_err(|e| e.to_string())
}
