//! `quads solve`: the exact value of a position and a best move; `quads solve-bench`: the
//! solver's speed on random positions.

use std::time::{Duration, Instant};

use quads_bots::solver::{random_position, Solver};
use quads_rules::{Claim, Rules};

/// Arguments of `quads solve`.
#[derive(clap::Args)]
pub struct Args {
    /// The rules (claims are solved as automatic: a player who sees a win takes it).
    #[arg(long, default_value = "quads", value_parser = crate::args::parse_rules)]
    rules: Rules,
    /// The transposition table's size, in MiB.
    #[arg(long, default_value_t = 256)]
    hash: usize,
    /// Give up after this long, e.g. 60s.
    #[arg(long, value_name = "DURATION")]
    time: Option<String>,
    /// Search on this many threads, sharing the table (the answer is the same; the node
    /// count varies from run to run above one thread).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Put the book's entries (every position of level 5's opening book but this one) into
    /// the table first, as exact values; a search then takes a book position's value instead
    /// of searching it. Quads and classic only.
    #[arg(long)]
    book: bool,
    /// The position, with a piece in hand.
    position: String,
}

fn auto(rules: &Rules) -> Rules {
    Rules {
        claim: Claim::Auto,
        ..*rules
    }
}

fn rate(nodes: u64, took: Duration) -> f64 {
    nodes as f64 / took.max(Duration::from_micros(1)).as_secs_f64() / 1e6
}

pub fn run(args: &Args) -> Result<(), String> {
    let rules = auto(&args.rules);
    let pos = crate::args::checked_position(&args.position, &rules)?;
    if pos.outcome(&rules).is_some() {
        return Err("the game is over in this position".into());
    }
    if pos.hand().is_none() {
        return Err("solve a position with a piece in hand (after the opening give)".into());
    }
    let deadline = match &args.time {
        Some(t) => {
            Some(Instant::now() + quads_referee::parse_duration(t).map_err(|e| e.to_string())?)
        }
        None => None,
    };
    let started = Instant::now();
    let mut solver = Solver::new(&rules, args.hash.max(1)).with_threads(args.threads.into());
    if args.book {
        let book = quads_bots::book::Book::shipped(&rules).ok_or_else(|| {
            format!("--book: the book covers variants in which every trait counts, not `{rules}`")
        })?;
        let own = book.canonical(&pos).map(|(form, _)| form);
        let mut loaded = 0;
        for (form, entry) in book.entries() {
            if Some(*form) != own && solver.remember(form, entry.value) {
                loaded += 1;
            }
        }
        crate::outln!(
            "book: {loaded} positions in the table ({:.3} s)",
            started.elapsed().as_secs_f64()
        );
    }
    let found = solver.solve(&pos, deadline, 0);
    let (nodes, took) = (solver.nodes(), started.elapsed());
    let found = found.ok_or_else(|| {
        format!(
            "not solved within the time limit ({nodes} nodes in {:.1} s)",
            took.as_secs_f64()
        )
    })?;
    crate::outln!("value: {}", found.describe());
    crate::outln!("best move: {}", found.mv);
    crate::outln!(
        "nodes: {nodes} in {:.3} s ({:.2} M nodes/s)",
        took.as_secs_f64(),
        rate(nodes, took)
    );
    Ok(())
}

/// Arguments of `quads solve-bench`.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// The rules.
    #[arg(long, default_value = "quads", value_parser = crate::args::parse_rules)]
    rules: Rules,
    /// How many pieces are on the board, one table row each, e.g. 8,7,6.
    #[arg(long, value_delimiter = ',', default_values_t = [8u32, 7, 6, 5, 4])]
    placed: Vec<u32>,
    /// Positions per row.
    #[arg(long, default_value_t = 5)]
    positions: u64,
    /// The seed of the positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The transposition table's size, in MiB (a fresh table per position).
    #[arg(long, default_value_t = 256)]
    hash: usize,
    /// Search each position on this many threads, sharing the table.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
}

/// Solves random positions (random placements, no completed shape, a piece in hand that wins
/// nowhere), each with a fresh table, and prints one line per position and a Markdown table.
pub fn bench(args: &BenchArgs) -> Result<(), String> {
    let rules = auto(&args.rules);
    if args.positions == 0 {
        return Err("--positions must be at least 1".into());
    }
    if let Some(p) = args.placed.iter().find(|&&p| p > 15) {
        return Err(format!(
            "--placed {p}: at most 15 pieces can be on the board with one in hand"
        ));
    }
    let mut rows = Vec::new();
    // Made once, outside the clock (as an engine sets up before it is timed); each position
    // starts from an empty table, cleared outside the clock too.
    let mut solver = Solver::new(&rules, args.hash.max(1)).with_threads(args.threads.into());
    for &placed in &args.placed {
        let mut times = Vec::new();
        let mut nodes = Vec::new();
        for i in 0..args.positions {
            let pos = random_position(&rules, placed, position_seed(args.seed, placed, i));
            solver.clear();
            let started = Instant::now();
            let found = solver
                .solve(&pos, None, 0)
                .ok_or("a position without a move")?;
            let took = started.elapsed();
            crate::outln!(
                "{placed} placed  {pos}  {}  {}  {} nodes  {}",
                found.describe(),
                found.mv,
                solver.nodes(),
                micros(took)
            );
            times.push(took);
            nodes.push(solver.nodes());
        }
        times.sort();
        nodes.sort_unstable();
        rows.push((placed, times, nodes));
    }
    crate::outln!("");
    crate::outln!(
        "rules `{rules}`, {} positions per row, seed {}, {} MiB table, {} thread{}",
        args.positions,
        args.seed,
        args.hash,
        args.threads,
        if args.threads == 1 { "" } else { "s" }
    );
    crate::outln!("");
    crate::outln!(
        "| pieces placed | positions | median time | worst time | median nodes | worst nodes |"
    );
    crate::outln!("|---|---|---|---|---|---|");
    for (placed, times, nodes) in rows {
        let mid = times.len() / 2;
        crate::outln!(
            "| {placed} | {} | {} | {} | {} | {} |",
            times.len(),
            human(times[mid]),
            human(times[times.len() - 1]),
            nodes[mid],
            nodes[nodes.len() - 1]
        );
    }
    Ok(())
}

/// The seed of position `i` of the row with `placed` pieces.
fn position_seed(seed: u64, placed: u32, i: u64) -> u64 {
    seed.wrapping_mul(1_000_003) ^ (u64::from(placed) << 40) ^ i
}

/// A duration in microseconds, to the tenth: `7.4 µs`, `41230.6 µs`.
fn micros(d: Duration) -> String {
    format!("{:.1} µs", d.as_secs_f64() * 1e6)
}

/// A duration as `7.4 µs`, `850 µs`, `12.3 ms` or `4.56 s`.
fn human(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 1e-5 {
        format!("{:.1} µs", s * 1e6)
    } else if s < 1e-3 {
        format!("{:.0} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}
