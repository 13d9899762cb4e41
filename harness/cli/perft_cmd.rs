//! `quads perft`: move-sequence counts per depth.

use quads_rules::{perft, Rules};

/// Arguments of `quads perft`.
#[derive(clap::Args)]
pub struct Args {
    /// The rules spec, e.g. `quads`, `classic,traits=color`.
    #[arg(long, default_value = "quads", value_parser = crate::args::parse_rules)]
    rules: Rules,
    /// The position to count from, in the project's notation.
    #[arg(long, default_value = "..../..../..../.... -")]
    position: String,
    /// Count move sequences of every length from 1 to DEPTH.
    #[arg(value_parser = clap::value_parser!(u32).range(1..=17))]
    depth: u32,
}

pub fn run(args: &Args) -> Result<(), String> {
    let pos = crate::args::checked_position(&args.position, &args.rules)?;
    for depth in 1..=args.depth {
        let count = perft(&pos, &args.rules, depth).map_err(|e| e.to_string())?;
        // One line per depth, flushed as it comes: deep counts take a while.
        crate::outln!("{depth} {count}");
    }
    Ok(())
}
