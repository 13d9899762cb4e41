//! `analysis.jsonl`: one JSON object per game, in the order of the input, with its judged
//! moves and the move that decided it.

use super::Exporter;
use crate::Analysis;

/// `analysis.jsonl`.
pub(super) struct GamesJsonl;

impl Exporter for GamesJsonl {
    fn file(&self) -> &'static str {
        "analysis.jsonl"
    }

    fn render(&self, analysis: &Analysis) -> Vec<u8> {
        let mut out = Vec::new();
        for g in &analysis.games {
            serde_json::to_writer(&mut out, g).expect("an analysis always serializes");
            out.push(b'\n');
        }
        out
    }
}
