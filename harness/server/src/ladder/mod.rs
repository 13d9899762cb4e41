//! The ladder: whenever two or more entrants have an active version built and ready (and not
//! paused), it queues a game pair (two games, seats swapped) between the pair of versions that
//! have played the fewest games together (a match queued or running counts as its two games,
//! so workers spread over pairs; a new version meets every other first, and nobody starves),
//! the variants in turn. Workers ([`worker`]) take the matches with a lease; the leaderboard
//! ([`board`]) counts the ladder's games, with the ratings the fitter ([`rated`]) keeps
//! fitting in the background: the project's Bradley–Terry fit with 95% intervals. Both hold
//! their data in [`standings`].

mod board;
pub mod history;
pub mod live;
mod rated;
mod standings;
pub mod turn;
pub mod worker;

pub use board::{head_to_head, Board, Boards, Standings};
pub use rated::fitter;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use quads_referee::BotSpec;
use quads_tournament::Admission;

use crate::domain::error::DomainError;
use crate::store::{Kind, Store};
use crate::ServerConfig;

/// The switch that stops workers taking matches (read by the claim itself: store/matches.rs).
pub use crate::store::LADDER_PAUSED;

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

    /// The versions on the bench.
    pub fn versions(&self) -> Vec<i64> {
        let mut v: Vec<i64> = self
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .keys()
            .copied()
            .collect();
        v.sort_unstable();
        v
    }

    pub fn get(&self, version: i64) -> Option<Arc<Ready>> {
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

/// Queues the next ladder match if none is waiting and two versions can play: whether it did.
pub async fn fill(
    config: &ServerConfig,
    store: &Store,
    bench: &Bench,
) -> Result<bool, DomainError> {
    let on_ladder: Vec<i64> = store
        .players()
        .await?
        .into_iter()
        .map(|a| a.version)
        .collect();
    // Queued matches of versions replaced, paused or disabled will not be played; those of
    // versions still being checked (after a restart) wait for them.
    store.drop_stale(&on_ladder).await?;
    let players: Vec<i64> = on_ladder
        .into_iter()
        .filter(|v| bench.get(*v).is_some())
        .collect();
    if store.queued(Kind::Ladder).await? > 0 {
        return Ok(false);
    }
    let played: HashMap<(i64, i64), i64> = store.pair_games().await?.into_iter().collect();
    let Some((i, j)) = next_pair(&players, &played) else {
        return Ok(false);
    };
    let n = played.values().sum::<i64>() as usize / 2;
    let rules = config.variants[n % config.variants.len()].to_string();
    store
        .queue_match(players[i], players[j], Kind::Ladder, &rules, None)
        .await?;
    Ok(true)
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
