//! The leaderboard: per entrant (all its versions' ladder games), as standings.csv's `all`
//! rows, with the pairs' counts. Fitted once per change: [`Boards`] keeps the last fit until
//! the server's change counter (crate::pipeline::Signals::changed, bumped after every game
//! counted, version admitted or host's action) moves on.

use std::sync::Arc;

use quads_record::GameRecord;

use crate::store::Store;
use crate::{ApiError, ServerConfig};

/// The last leaderboard fitted, and the change counter it was fitted at.
#[derive(Default)]
pub struct Boards(tokio::sync::Mutex<Option<(u64, Arc<serde_json::Value>)>>);

impl Boards {
    /// The leaderboard at change `generation` (read before calling: a change made while it is
    /// fitted bumps the counter again, so nothing stale is kept past it). One fit at a time:
    /// requests that come meanwhile wait for it rather than fit it again.
    pub async fn get(
        &self,
        generation: u64,
        config: &ServerConfig,
        store: &Store,
    ) -> Result<Arc<serde_json::Value>, ApiError> {
        let mut last = self.0.lock().await;
        if let Some((g, board)) = &*last {
            if *g == generation {
                return Ok(board.clone());
            }
        }
        let board = Arc::new(leaderboard(config, store).await?);
        *last = Some((generation, board.clone()));
        Ok(board)
    }
}

/// The leaderboard as the API gives it, fitted now.
pub async fn leaderboard(
    config: &ServerConfig,
    store: &Store,
) -> Result<serde_json::Value, ApiError> {
    let games = store.games().await?;
    let mut records = Vec::new();
    for (m, text) in &games {
        let r: GameRecord = serde_json::from_str(text).map_err(ApiError::internal)?;
        records.push((*m as usize, r));
    }
    let total = records.len();
    let names: Vec<String> = store
        .actives()
        .await?
        .into_iter()
        .map(|a| a.entrant)
        .collect();
    let (rows, pairs) = if records.is_empty() {
        (Vec::new(), Vec::new())
    } else {
        let report = quads_reports::report::build(&config.name, records, &names, 1, None)
            .map_err(ApiError::internal)?;
        let all = &report.blocks[0];
        let pairs = all
            .pairwise
            .iter()
            .filter(|p| p.bot < p.opponent)
            .map(|p| serde_json::json!({ "a": p.bot, "b": p.opponent, "games": p.games }))
            .collect();
        let rows = all
            .rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "name": r.bot, "games": r.games, "wins": r.wins, "draws": r.draws,
                    "losses": r.losses, "score": r.score_pct, "elo": finite(r.elo),
                    "elo_low": finite(r.elo_low), "elo_high": finite(r.elo_high),
                })
            })
            .collect();
        (rows, pairs)
    };
    let active = names.len();
    Ok(serde_json::json!({ "games": total, "active": active, "rows": rows, "pairs": pairs }))
}

/// JSON has no infinity: an unbounded end of an interval is written as null.
fn finite(x: f64) -> serde_json::Value {
    if x.is_finite() {
        serde_json::json!((x * 10.0).round() / 10.0)
    } else {
        serde_json::Value::Null
    }
}
