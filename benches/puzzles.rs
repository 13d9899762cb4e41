//! How long a year of puzzles takes to export, as an app would fetch them: `quads puzzle
//! --from DATE --days 365 --json` (all three levels, on every core), timed over several runs;
//! the median printed, and every puzzle of the first run proven again by a fresh solver.
//!
//! `cargo bench --bench puzzles`; `PUZZLE_RULES=classic`, `PUZZLE_RUNS=3`.

use std::process::Command;
use std::time::Instant;

fn main() {
    let rules = std::env::var("PUZZLE_RULES").unwrap_or_else(|_| "quads".into());
    let runs: usize = std::env::var("PUZZLE_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let mut times = Vec::new();
    let mut first = None;
    for _ in 0..runs {
        let start = Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_quads"))
            .args([
                "puzzle",
                "--rules",
                &rules,
                "--from",
                "2027-01-01",
                "--days",
                "365",
                "--json",
            ])
            .output()
            .expect("quads runs");
        times.push(start.elapsed().as_secs_f64());
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        first.get_or_insert(out.stdout);
    }
    times.sort_by(f64::total_cmp);
    let puzzles: Vec<serde_json::Value> =
        serde_json::from_slice(&first.expect("one run")).expect("the export is JSON");
    println!(
        "{rules}: {} puzzles (365 days, 3 levels) in {:.1} s, median of {runs} (runs: {})",
        puzzles.len(),
        times[runs / 2],
        times
            .iter()
            .map(|t| format!("{t:.1} s"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let start = Instant::now();
    let mut failed = 0;
    for p in &puzzles {
        let puzzle = quads_puzzle::of_day(
            p["date"].as_str().unwrap().parse().unwrap(),
            &rules.parse().unwrap(),
            p["level"].as_str().unwrap().parse().unwrap(),
        )
        .unwrap();
        assert_eq!(puzzle.position, p["position"].as_str().unwrap());
        if let Err(e) = quads_puzzle::verify(&puzzle) {
            println!("BROKEN: {} {}: {e}", p["date"], p["level"]);
            failed += 1;
        }
    }
    println!(
        "all {} proven again in {:.1} s; {failed} failed",
        puzzles.len(),
        start.elapsed().as_secs_f64()
    );
    if failed > 0 {
        std::process::exit(1);
    }
}
