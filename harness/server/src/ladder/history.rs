//! The leaderboard's history: the fitter's fits kept as they were, at most one per
//! `history_every` (config.rs) and the last one always, so the standings at any past moment
//! (the last fit kept at or before it) and each entrant's rating over its games can be shown.
//! A fit waiting for its turn is kept when its time comes, or dropped for a newer one; a fit
//! still waiting when the server stops is made again when it starts (the same games, fitted
//! again at start).

use std::time::Duration;

use serde::Serialize;
use tokio::time::Instant;

use super::board::{Standings, View};
use super::standings::{Ladder, Rated};
use crate::store::retry::until_answered;
use crate::store::{now_ms, KeptStandings, Store};

/// A fit as the history gives it: when it was made, the highest id of the games it fitted
/// (-1: none), and the standings then.
#[derive(Debug, Serialize)]
pub struct Past<'a> {
    pub at: i64,
    pub last_game: i64,
    #[serde(flatten)]
    pub standings: &'a Standings,
}

/// The fit of `ladder` made now, as the history keeps it.
pub fn kept(ladder: &Ladder, actives: &[String], rated: &Rated) -> KeptStandings {
    let standings = super::board::standings(ladder, actives, Some(rated), View::Entrants);
    let at = now_ms();
    let last_game = ladder.games.last().map_or(-1, |(id, _)| *id);
    let past = Past {
        at,
        last_game,
        standings: &standings,
    };
    KeptStandings {
        at,
        games: standings.games as i64,
        last_game,
        body: serde_json::to_string(&past).expect("JSON of the standings"),
    }
}

/// The fits waiting to be kept.
pub struct History {
    every: Duration,
    last: Option<Instant>,
    waiting: Option<KeptStandings>,
}

impl History {
    pub fn new(every: Duration) -> History {
        History {
            every,
            last: None,
            waiting: None,
        }
    }

    /// A new fit: kept now if its time has come, else waiting (in place of an older one).
    pub async fn offer(&mut self, store: &Store, fit: KeptStandings) {
        self.waiting = Some(fit);
        if self.due().is_some_and(|due| due <= Instant::now()) {
            self.keep(store).await;
        }
    }

    /// When the fit waiting is to be kept, if one waits.
    pub fn due(&self) -> Option<Instant> {
        self.waiting.as_ref()?;
        Some(
            self.last
                .map_or_else(Instant::now, |last| last + self.every),
        )
    }

    /// Keeps the fit waiting.
    pub async fn keep(&mut self, store: &Store) {
        let Some(fit) = self.waiting.take() else {
            return;
        };
        // Asked again while the database blinks (a busy SQLite, a PostgreSQL restart): a fit
        // the board publishes is in the history first, the last one always. (Safe to repeat:
        // a fit kept twice is the same standings at the same moment.)
        match until_answered("a fit of the leaderboard's history", || {
            store.keep_standings(&fit)
        })
        .await
        {
            Ok(()) => self.last = Some(Instant::now()),
            Err(e) => {
                tracing::error!(error = %e, "the leaderboard's history cannot keep a fit");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fit(games: i64) -> KeptStandings {
        KeptStandings {
            at: games,
            games,
            last_game: games,
            body: format!("{{\"games\":{games}}}"),
        }
    }

    /// Fits come faster than `every`: the first is kept at once, each later one waits for its
    /// time and gives way to a newer one, and the last is kept when its time comes.
    #[test]
    fn at_most_one_fit_per_period_is_kept_and_the_last_always() {
        let dir = tempfile::tempdir().unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let url = format!("sqlite://{}", dir.path().join("t.db").display());
            let store = Store::open(&url).await.unwrap();
            let kept = |s: &Store| {
                let s = s.clone();
                async move {
                    s.standings_history()
                        .await
                        .unwrap()
                        .iter()
                        .map(|k| k.games)
                        .collect::<Vec<_>>()
                }
            };
            let mut history = History::new(Duration::from_secs(3600));
            assert_eq!(history.due(), None);
            history.offer(&store, fit(2)).await;
            assert_eq!(kept(&store).await, [2]);
            assert_eq!(history.due(), None);
            history.offer(&store, fit(4)).await;
            history.offer(&store, fit(6)).await;
            assert_eq!(kept(&store).await, [2], "kept before its time");
            let due = history.due().expect("a fit waits");
            assert!(due > Instant::now() + Duration::from_secs(3000));
            history.keep(&store).await;
            assert_eq!(kept(&store).await, [2, 6], "the newest waiting fit");
            assert_eq!(history.due(), None);
            // With no period, every fit is kept as it comes.
            let mut every = History::new(Duration::ZERO);
            every.offer(&store, fit(8)).await;
            every.offer(&store, fit(10)).await;
            assert_eq!(kept(&store).await, [2, 6, 8, 10]);
            // The standings at a moment are the last fit kept at or before it.
            assert_eq!(store.standings_at(7).await.unwrap().unwrap().games, 6);
            assert_eq!(store.standings_at(1).await.unwrap(), None);
        });
    }
}
