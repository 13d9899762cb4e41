//! The fitter: the leaderboard's ratings, the project's Bradley–Terry fit over the ladder's
//! games with 95% intervals (as a report's `all` block has them), fitted in the background
//! whenever the games have changed since the last fit. A fit of many entrants takes seconds
//! and would hold a request for as long, so no request waits for one: each board carries the
//! latest fit finished. After a fit that took T the next starts no sooner than 2T later, so
//! fitting takes at most a third of a core from the referees however fast games come.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use quads_reports::ratings::{fit, intervals, Options, RatedGame};
use quads_reports::report::SAMPLES;

use super::board::Boards;
use super::history::{self, History};
use super::standings::{Ladder, Rated, Ratings};
use crate::signals::Signals;
use crate::store::Store;

/// The seed of the intervals' bootstrap (a board's intervals are reproducible).
const SEED: u64 = 1;

/// Fits `ladder`'s games, its entrants numbered as `quads ratings` numbers them.
pub fn rate(ladder: &Ladder, actives: &[String], serial: u64) -> Rated {
    let names = ladder.appearance(actives);
    if ladder.games.is_empty() {
        return Rated {
            games: 0,
            seen: ladder.seen,
            ratings: HashMap::new(),
            serial,
            by_version: HashMap::new(),
        };
    }
    Rated {
        games: ladder.games.len(),
        seen: ladder.seen,
        ratings: fitted(ladder, &names),
        serial,
        by_version: {
            let versions = ladder.by_version();
            fitted(&versions, &versions.appearance(&[]))
        },
    }
}

/// The fit of `ladder`'s games with intervals, its players numbered as in `names`.
fn fitted(ladder: &Ladder, names: &[String]) -> Ratings {
    let place = ladder.places(names);
    let games: Vec<RatedGame> = ladder
        .games
        .iter()
        .map(|(_, g)| RatedGame {
            first: place[g.first as usize],
            second: place[g.second as usize],
            score: g.score,
            pair: g.pair,
        })
        .collect();
    let n = names.len();
    let opts = Options::default();
    let f = fit(n, &games, &opts);
    let ci = intervals(n, &games, &opts, SAMPLES, SEED);
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            (
                name.clone(),
                (f.ratings[i], ci.ratings[i].0, ci.ratings[i].1),
            )
        })
        .collect()
}

/// Refits whenever the ladder's games have changed, until the server stops; each fit
/// finished is a change (so boards and their waiters see it).
pub async fn fitter(
    boards: Arc<Boards>,
    store: Store,
    signals: Arc<Signals>,
    history_every: std::time::Duration,
) {
    let mut changes = signals.changed.subscribe();
    let mut serial = 0;
    let mut history = History::new(history_every);
    loop {
        let generation = *changes.borrow_and_update();
        let ladder = match boards.ladder(generation, &store).await {
            Ok(ladder) => ladder,
            Err(e) => {
                tracing::error!(error = %e, "the leaderboard cannot read the games");
                tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                continue;
            }
        };
        let stale = boards
            .rated
            .lock()
            .expect("the ratings' lock")
            .as_ref()
            .map_or(true, |r| r.seen != ladder.seen);
        if stale {
            let actives = match store.actives().await {
                Ok(a) => a.into_iter().map(|a| a.entrant).collect::<Vec<_>>(),
                Err(e) => {
                    tracing::error!(
                        error = %e,
                        "the leaderboard cannot read the entrants"
                    );
                    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                    continue;
                }
            };
            serial += 1;
            let began = Instant::now();
            let s = serial;
            let rated = tokio::task::spawn_blocking(move || {
                let rated = rate(&ladder, &actives, s);
                let kept = history::kept(&ladder, &actives, &rated);
                (rated, kept)
            })
            .await;
            let took = began.elapsed();
            match rated {
                Ok((rated, kept)) => {
                    // Kept first: a board with these ratings has its fit in the history
                    // (a fit of no games, before the first, is not kept).
                    if kept.games > 0 {
                        history.offer(&store, kept).await;
                    }
                    *boards.rated.lock().expect("the ratings' lock") = Some(Arc::new(rated));
                    signals.bump();
                }
                Err(e) => {
                    // Not tried again until the games change.
                    tracing::error!(error = %e, "the leaderboard's fit failed");
                    if changes.changed().await.is_err() {
                        return;
                    }
                    continue;
                }
            }
            tokio::time::sleep(took * 2).await;
            continue;
        }
        // Until the games change, or the time of a fit waiting to be kept.
        let changed = match history.due() {
            Some(due) => match tokio::time::timeout_at(due, changes.changed()).await {
                Ok(changed) => changed,
                Err(_) => {
                    history.keep(&store).await;
                    continue;
                }
            },
            None => changes.changed().await,
        };
        if changed.is_err() {
            return;
        }
    }
}
