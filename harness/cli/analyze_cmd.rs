//! `quads analyze`: every move of recorded games judged by the exact solver, per bot (see
//! `quads_results::judge`).

use std::path::{Path, PathBuf};

use quads_analysis::Settings;

use crate::shown::Shown;

/// Where the analysis of several inputs goes unless `--out` says otherwise.
const DEFAULT_OUT: &str = "out/analysis";

/// Arguments of `quads analyze`.
#[derive(clap::Args)]
pub struct Args {
    /// Tournament or match folders (each holding a games.jsonl), or games.jsonl files;
    /// judged together, with one solver table.
    #[arg(required = true, value_name = "DIR|games.jsonl")]
    inputs: Vec<PathBuf>,
    /// Judge every move made with at most this many empty squares.
    #[arg(long, value_name = "N", default_value_t = quads_analysis::DEFAULT_EMPTY,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(quads_analysis::MAX_EMPTY)))]
    empty: u32,
    /// Each solver table's size, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = quads_analysis::DEFAULT_HASH_MIB)]
    hash: usize,
    /// Threads per search; the answers are the same on any number [default: one per core].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    /// Where to write analysis.csv and analysis.jsonl [default: the folder analysed (of a
    /// single input), else out/analysis].
    #[arg(long)]
    out: Option<PathBuf>,
}

pub fn run(args: &Args) -> Result<(), String> {
    let settings = Settings {
        empty: args.empty,
        hash_mib: args.hash.max(1),
        threads: args
            .threads
            .map_or_else(quads_analysis::default_threads, usize::from),
    };
    let out = match (&args.out, &args.inputs[..]) {
        (Some(out), _) => out.clone(),
        (None, [one]) if one.is_dir() => one.clone(),
        (None, [one]) => one
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_owned),
        (None, _) => PathBuf::from(DEFAULT_OUT),
    };
    let mut shown = Shown::new(false, "analysis");
    quads_results::judge::judge(&args.inputs, settings, &out, &mut shown).map_err(|e| e.to_string())
}
