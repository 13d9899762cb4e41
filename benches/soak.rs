//! The soak run as a benchmark: configs/soak.toml in full (9,990 games at 16 at once, 100 ms
//! moves, four fair bots among six misbehaving ones), played twice. It prints the figures that
//! docs/soak.md reports and exits 1 if a promise broke:
//! - no fair bot (nor a bot whose attack the walls stopped) loses a game by forfeit, and every
//!   misbehaving bot loses exactly the games it must, with its reason;
//! - no process a bot started outlives the run;
//! - the referee's memory is flat: the median of its resident memory over the last thousand
//!   games is within 10% (and 8 MiB) of the median over the first thousand;
//! - the second run's results equal the first's, timing apart.
//!
//! `cargo bench --bench soak` (about an hour here); `SOAK_PAIRS=2` for a short run.

#[path = "../tests/common/mod.rs"]
#[allow(
    dead_code,
    reason = "the benchmark uses a part of what the tests share"
)]
mod common;
#[path = "../tests/common/soak.rs"]
mod soak;

use std::time::Instant;

fn main() {
    // `cargo bench` passes `--bench`; this benchmark takes no arguments.
    let pairs = std::env::var("SOAK_PAIRS").ok();
    let extra: Vec<&str> = match &pairs {
        Some(p) => vec!["--pairs", p.as_str()],
        None => vec![],
    };
    let dir = tempfile::tempdir().expect("temporary folder");
    let config = soak::config(dir.path());
    let mut broken = Vec::new();
    let mut runs = Vec::new();
    for name in ["first", "second"] {
        let started = Instant::now();
        let run = soak::run(&config, &dir.path().join(name), &extra, true);
        let seconds = started.elapsed().as_secs_f64();
        let left = common::leftovers(run.pid);
        let games = common::games(&run.out.join("games.jsonl")).len();
        println!(
            "{name} run: {games} games in {seconds:.0} s ({:.1} games/s); {} processes left",
            games as f64 / seconds,
            left.len()
        );
        broken.extend(left);
        broken.extend(soak::broken_games(&run.out));
        broken.extend(soak::broken_attacks(&run.out));
        broken.extend(memory(&run.memory, games));
        runs.push(run);
    }
    broken.extend(common::differences(&runs[0].out, &runs[1].out));
    let printed = |r: &soak::Run| r.printed.replace(&*r.out.display().to_string(), "OUT");
    if printed(&runs[0]) != printed(&runs[1]) {
        broken.push("the two runs printed different standings".into());
    }
    print!("{}", runs[0].printed);
    if broken.is_empty() {
        println!("every promise held");
    } else {
        for b in &broken {
            println!("BROKEN: {b}");
        }
        std::process::exit(1);
    }
}

/// Prints the referee's memory over the run; the promise broken if it grew.
fn memory(samples: &[(usize, u64)], games: usize) -> Option<String> {
    let window = 1000.min(games / 4).max(1);
    let median = |range: std::ops::Range<usize>| -> Option<u64> {
        let mut kib: Vec<u64> = samples
            .iter()
            .filter(|(g, _)| range.contains(g))
            .map(|&(_, k)| k)
            .collect();
        kib.sort_unstable();
        kib.get(kib.len() / 2).copied()
    };
    let early = median(0..window)?;
    let late = median(games - window..games + 1)?;
    let peak = samples.iter().map(|&(_, k)| k).max()?;
    println!(
        "referee memory (resident, median): {:.1} MiB over the first {window} games, {:.1} MiB over the last {window}; peak {:.1} MiB",
        early as f64 / 1024.0,
        late as f64 / 1024.0,
        peak as f64 / 1024.0
    );
    let grew = late.saturating_sub(early);
    (grew * 10 > early && grew > 8 * 1024).then(|| {
        format!(
            "the referee's memory grew from {early} KiB to {late} KiB between the first and last {window} games"
        )
    })
}
