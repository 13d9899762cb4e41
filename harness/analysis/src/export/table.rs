//! The table printed at the end of a run: a line on what was judged, then per variant (all
//! variants first) one row per bot.

use std::fmt::Write as _;

use crate::summary::ALL_VARIANTS;
use crate::Analysis;

/// The printed table.
pub fn table(analysis: &Analysis) -> String {
    let mut s = String::new();
    let games = analysis.games.len();
    let unjudged = analysis.unjudged();
    let _ = write!(
        s,
        "judged by the exact solver: every move made with {} or fewer empty squares; {} games, {} moves",
        analysis.settings.empty,
        games,
        analysis.judged_moves()
    );
    if unjudged > 0 {
        let _ = write!(
            s,
            "; {unjudged} of the games ended before such a move and are not judged"
        );
    }
    s.push('\n');
    if analysis
        .games
        .iter()
        .any(|g| g.rules.contains("claim=announce"))
    {
        s.push_str(
            "claim=announce is judged as perfect players play it: every win announced or claimed at once\n",
        );
    }
    let width = analysis
        .summary
        .iter()
        .map(|r| r.bot.len())
        .max()
        .unwrap_or(3)
        .max(3);
    let mut variant = None;
    for r in &analysis.summary {
        if variant != Some(&r.variant) {
            variant = Some(&r.variant);
            let title = if r.variant == ALL_VARIANTS {
                "all variants"
            } else {
                &r.variant
            };
            let _ = writeln!(
                s,
                "{title}\n  {:<width$}  games  judged  moves  accuracy  blunders/game  first blunder  wins thrown  missed wins",
                "bot"
            );
        }
        let t = &r.tally;
        let dash = |x: Option<String>| x.unwrap_or_else(|| "-".to_owned());
        let _ = writeln!(
            s,
            "  {:<width$}  {:>5}  {:>6}  {:>5}  {:>8}  {:>13}  {:>13}  {:>11}  {:>11}",
            r.bot,
            t.games,
            t.judged_games,
            t.judged_moves,
            dash(t.accuracy().map(|a| format!("{:.1}%", 100.0 * a))),
            dash(t.blunders_per_game().map(|b| format!("{b:.2}"))),
            dash(t.first_blunder().map(|m| format!("move {m:.1}"))),
            t.wins_thrown,
            t.missed_wins,
        );
    }
    s
}
