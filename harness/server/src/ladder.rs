//! The ladder: whenever two or more entrants have an active version built and ready, it plays
//! a game pair (two games, seats swapped) between the pair of active versions that have
//! played the fewest games together (so a new version meets every other first, and nobody
//! starves), with the referee as `quads match` plays, one match at a time, the variants in
//! turn; the games go into the database as records, and the leaderboard is the project's
//! Bradley–Terry fit over them with 95% intervals.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use quads_record::{ByPlayer, GameRecord};
use quads_referee::{run_match, BotSpec, MatchConfig, Settings};
use quads_tournament::Admission;

use crate::pipeline::Signals;
use crate::store::{Active, Store};
use crate::{ApiError, ServerConfig};

/// A version built and admitted: its bot, run from its copy (kept as long as this is).
pub struct Ready {
    pub bot: BotSpec,
    pub _copy: Admission,
}

/// The versions ready to play, by version row.
#[derive(Default)]
pub struct Bench(Mutex<HashMap<i64, Arc<Ready>>>);

impl Bench {
    pub fn put(&self, version: i64, ready: Ready) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(version, Arc::new(ready));
    }

    fn get(&self, version: i64) -> Option<Arc<Ready>> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&version)
            .cloned()
    }
}

/// The pair of versions with the fewest games together; among those, the pair whose two
/// versions have played the fewest games in all (no bot starves); then the earliest in
/// `versions`.
fn next_pair(versions: &[i64], played: &HashMap<(i64, i64), i64>) -> Option<(usize, usize)> {
    let together = |a: i64, b: i64| played.get(&(a.min(b), a.max(b))).copied().unwrap_or(0);
    // Each version's games in all, counted once (not once per pair looked at).
    let mut totals: HashMap<i64, i64> = HashMap::new();
    for (&(a, b), &n) in played {
        *totals.entry(a).or_default() += n;
        *totals.entry(b).or_default() += n;
    }
    let total = |v: i64| totals.get(&v).copied().unwrap_or(0);
    let mut best: Option<((i64, i64), (usize, usize))> = None;
    for i in 0..versions.len() {
        for j in i + 1..versions.len() {
            let (a, b) = (versions[i], versions[j]);
            let key = (together(a, b), total(a) + total(b));
            if best.map_or(true, |(k, _)| key < k) {
                best = Some((key, (i, j)));
            }
        }
    }
    best.map(|(_, p)| p)
}

/// Plays match after match while two entrants are ready, until the server stops.
pub async fn run(config: ServerConfig, store: Store, bench: Arc<Bench>, signals: Arc<Signals>) {
    loop {
        match play_one(&config, &store, &bench).await {
            Ok(true) => signals.changed.send_modify(|n| *n += 1),
            Ok(false) => signals.ready.notified().await,
            Err(e) => {
                eprintln!("quads serve: the ladder: {}", e.message);
                signals.ready.notified().await;
            }
        }
    }
}

/// One match, if two versions are ready: whether one was played.
async fn play_one(config: &ServerConfig, store: &Store, bench: &Bench) -> Result<bool, ApiError> {
    let actives: Vec<(Active, Arc<Ready>)> = store
        .actives()
        .await?
        .into_iter()
        .filter_map(|a| bench.get(a.version).map(|r| (a, r)))
        .collect();
    let played: HashMap<(i64, i64), i64> = store.pair_games().await?.into_iter().collect();
    let versions: Vec<i64> = actives.iter().map(|(a, _)| a.version).collect();
    let Some((i, j)) = next_pair(&versions, &played) else {
        return Ok(false);
    };
    let ((a, ra), (b, rb)) = (&actives[i], &actives[j]);
    let id = store.add_match(a.version, b.version).await?;
    let named = |r: &Ready, name: &str| BotSpec {
        name: name.to_owned(),
        ..r.bot.clone()
    };
    let time = quads_referee::time_control(Some(&config.movetime), None)
        .map_err(|e| ApiError::internal(format!("movetime: {e}")))?;
    let match_config = MatchConfig {
        bots: ByPlayer {
            first: named(ra, &a.entrant),
            second: named(rb, &b.entrant),
        },
        settings: Settings {
            rules: config.variants[id as usize % config.variants.len()],
            time,
            ..Settings::default()
        },
        games: 2,
        seed: id as u64,
        keep_alive: true,
        out: config.data.join("matches").join(id.to_string()),
    };
    let records = tokio::task::spawn_blocking(move || -> Result<Vec<GameRecord>, String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        let mut records = Vec::new();
        runtime
            .block_on(run_match(&match_config, |r| records.push(r.clone())))
            .map_err(|e| e.to_string())?;
        Ok(records)
    })
    .await
    .map_err(ApiError::internal)?
    .map_err(|e| ApiError::internal(format!("match {id}: {e}")))?;
    let lines: Vec<String> = records.iter().map(GameRecord::to_json).collect();
    store.add_games(id, &lines).await?;
    Ok(true)
}

/// The leaderboard: per entrant (all its versions' games), as standings.csv's `all` rows.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fewest_games_go_first_and_a_newcomer_meets_everyone() {
        let played: HashMap<(i64, i64), i64> = [((1, 2), 12), ((1, 3), 2), ((2, 3), 2)].into();
        // 4 is new: it meets 1, then 2, then 3, before 1-3 or 2-3 play again.
        let mut played = played;
        let mut order = Vec::new();
        for _ in 0..5 {
            let (i, j) = next_pair(&[1, 2, 3, 4], &played).unwrap();
            let (a, b) = ([1, 2, 3, 4][i], [1, 2, 3, 4][j]);
            order.push((a, b));
            *played.entry((a, b)).or_default() += 2;
        }
        // 4 meets everyone first, the least busy first (3 has 4 games; 1 and 2 have 14 each,
        // so the earlier); then, every pair having met, 3-4 again (3 and 4 played least in
        // all), then 1-3 (the rest tie at 24 games in all: the earliest).
        assert_eq!(order, [(3, 4), (1, 4), (2, 4), (3, 4), (1, 3)]);
        assert_eq!(next_pair(&[7], &played), None);
        assert_eq!(next_pair(&[], &played), None);
    }
}
