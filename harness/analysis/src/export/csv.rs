//! `analysis.csv`: one row per bot per variant, the rows over all variants first.

use super::{fixed, Exporter};
use crate::Analysis;

/// `analysis.csv`.
pub(super) struct SummaryCsv;

const HEADER: [&str; 15] = [
    "variant",
    "bot",
    "empty",
    "games",
    "judged_games",
    "judged_moves",
    "kept",
    "accuracy",
    "blunders",
    "blunders_per_game",
    "wins_thrown",
    "missed_wins",
    "games_with_blunder",
    "first_blunder_move",
    "deciding_blunders",
];

impl Exporter for SummaryCsv {
    fn file(&self) -> &'static str {
        "analysis.csv"
    }

    fn render(&self, analysis: &Analysis) -> Vec<u8> {
        let mut w = ::csv::Writer::from_writer(Vec::new());
        w.write_record(HEADER).expect("in memory");
        for r in &analysis.summary {
            let t = &r.tally;
            w.write_record([
                r.variant.clone(),
                r.bot.clone(),
                analysis.settings.empty.to_string(),
                t.games.to_string(),
                t.judged_games.to_string(),
                t.judged_moves.to_string(),
                t.kept.to_string(),
                fixed(t.accuracy(), 4),
                t.blunders.to_string(),
                fixed(t.blunders_per_game(), 3),
                t.wins_thrown.to_string(),
                t.missed_wins.to_string(),
                t.games_with_blunder.to_string(),
                fixed(t.first_blunder(), 2),
                t.deciding_blunders.to_string(),
            ])
            .expect("in memory");
        }
        w.into_inner().expect("in memory")
    }
}
