//! `quads report DIR`: rebuilds `DIR/report.html` from the folder's records, `event.json`
//! and analysis files (see `quads_results::page`).

use std::path::PathBuf;

/// Arguments of `quads report`.
#[derive(clap::Args)]
pub struct Args {
    /// A tournament, match, ratings or analysis output folder (with event.json, or a
    /// games.jsonl).
    dir: PathBuf,
}

pub fn run(args: &Args) -> Result<(), String> {
    let path = quads_results::page::rebuild(&args.dir, None).map_err(|e| e.to_string())?;
    crate::outln!("report in {}", path.display());
    Ok(())
}
