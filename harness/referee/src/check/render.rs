//! The check's reports as text (the `quads check` output, also quoted in a competition's
//! `entrants.md`) and as JSON (`quads check --json`, `entrants.json`): one format, written
//! here once.

use super::{Direction, ScenarioReport};

/// One scenario as lines of text: `ok` or `FAIL` with the hint, then for a failure the lines
/// exchanged, then the warnings.
pub fn text(r: &ScenarioReport) -> Vec<String> {
    let mut out = Vec::new();
    match &r.failure {
        None => out.push(format!("ok    {}", r.name)),
        Some(hint) if !r.run => out.push(format!("SKIP  {}: {hint}", r.name)),
        Some(hint) => {
            out.push(format!("FAIL  {}: {hint}", r.name));
            for line in &r.exchange {
                let arrow = match line.direction {
                    Direction::Sent => "referee>",
                    Direction::Received => "    bot<",
                };
                out.push(format!("      {arrow} {}", line.text));
            }
        }
    }
    out.extend(r.warnings.iter().map(|w| format!("      warning: {w}")));
    out
}

/// The closing line: how many passed, how many were not run, how many warnings.
pub fn summary(reports: &[ScenarioReport]) -> String {
    let failed = reports.iter().filter(|r| r.failure.is_some()).count();
    let skipped = reports.iter().filter(|r| !r.run).count();
    let warned: usize = reports.iter().map(|r| r.warnings.len()).sum();
    let not_run = if skipped > 0 {
        format!(" ({skipped} not run: the handshake failed)")
    } else {
        String::new()
    };
    format!(
        "{} of {} scenarios passed{not_run}, {warned} warning{}",
        reports.len() - failed,
        reports.len(),
        if warned == 1 { "" } else { "s" }
    )
}

/// The reports as one JSON object: `ok`, and per scenario its name, `ok`, hint, warnings and
/// exchange.
pub fn json(reports: &[ScenarioReport]) -> serde_json::Value {
    let scenarios: Vec<serde_json::Value> = reports
        .iter()
        .map(|r| {
            serde_json::json!({
                "scenario": r.name,
                "ok": r.failure.is_none(),
                "run": r.run,
                "hint": r.failure,
                "warnings": r.warnings,
                "exchange": r.exchange.iter().map(|l| serde_json::json!({
                    "from": match l.direction { Direction::Sent => "referee", Direction::Received => "bot" },
                    "line": l.text,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::json!({
        "ok": super::passed(reports),
        "scenarios": scenarios,
    })
}
