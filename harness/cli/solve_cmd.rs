//! `quads solve`: the exact value of a position and a best move.

use std::time::{Duration, Instant};

use quads_bots::search::{describe, Search, Table};
use quads_rules::{Claim, Rules};

/// Arguments of `quads solve`.
#[derive(clap::Args)]
pub struct Args {
    /// The rules (claims are solved as automatic: a player who sees a win takes it).
    #[arg(long, default_value = "quads", value_parser = crate::perft_cmd::parse_rules)]
    rules: Rules,
    /// The transposition table's size, in MiB.
    #[arg(long, default_value_t = 256)]
    hash: usize,
    /// Give up after this long, e.g. 60s.
    #[arg(long, value_name = "DURATION")]
    time: Option<String>,
    /// The position, with a piece in hand.
    position: String,
}

pub fn run(args: &Args) -> Result<(), String> {
    let rules = Rules {
        claim: Claim::Auto,
        ..args.rules
    };
    let pos = crate::checked_position(&args.position, &rules)?;
    if pos.outcome(&rules).is_some() {
        return Err("the game is over in this position".into());
    }
    if pos.hand().is_none() {
        return Err("solve a position with a piece in hand (after the opening give)".into());
    }
    let deadline = match &args.time {
        Some(t) => Some(Instant::now() + quads_referee::parse_duration(t)?),
        None => None,
    };
    let mut table = Table::new(args.hash.max(1));
    let started = Instant::now();
    let mut search = Search::new(&rules, deadline, Some(&mut table));
    let found = search.best(&pos, None, 0);
    let (nodes, aborted) = (search.nodes(), search.aborted());
    let took = started.elapsed();
    let found = match found {
        Some(f) if !aborted => f,
        _ => {
            return Err(format!(
                "not solved within the time limit ({nodes} nodes in {:.1} s)",
                took.as_secs_f64()
            ))
        }
    };
    crate::outln!("value: {}", describe(found.value));
    crate::outln!("best move: {}", found.mv);
    crate::outln!(
        "nodes: {nodes} in {:.3} s ({:.2} M nodes/s)",
        took.as_secs_f64(),
        nodes as f64 / took.max(Duration::from_micros(1)).as_secs_f64() / 1e6
    );
    Ok(())
}
