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
use super::standings::{Ladder, Rated};
use crate::signals::Signals;
use crate::store::Store;

/// The seed of the intervals' bootstrap (a board's intervals are reproducible).
const SEED: u64 = 1;

/// Fits `ladder`'s games, its entrants in the board's order (`actives` first).
pub fn rate(ladder: &Ladder, actives: &[String], serial: u64) -> Rated {
    let names = ladder.order(actives);
    if ladder.games.is_empty() {
        return Rated {
            games: 0,
            seen: ladder.seen,
            ratings: HashMap::new(),
            serial,
        };
    }
    let place = ladder.places(&names);
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
    let ratings = names
        .into_iter()
        .enumerate()
        .map(|(i, name)| (name, (f.ratings[i], ci.ratings[i].0, ci.ratings[i].1)))
        .collect();
    Rated {
        games: ladder.games.len(),
        seen: ladder.seen,
        ratings,
        serial,
    }
}

/// Refits whenever the ladder's games have changed, until the server stops; each fit
/// finished is a change (so boards and their waiters see it).
pub async fn fitter(boards: Arc<Boards>, store: Store, signals: Arc<Signals>) {
    let mut changes = signals.changed.subscribe();
    let mut serial = 0;
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
            let rated = tokio::task::spawn_blocking(move || rate(&ladder, &actives, s)).await;
            let took = began.elapsed();
            match rated {
                Ok(rated) => {
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
        if changes.changed().await.is_err() {
            return;
        }
    }
}
