//! What the server does, knowing nothing of HTTP: entrants and their versions (sign up, accept
//! an upload, check it), matches (their games, test matches, a bot's logs), the host's
//! actions (switches, disable, cancel, rerun, the final's snapshot), the export and the
//! remote workers' leases; the games people play against the levels (`play`); with the pipeline (crate::pipeline) and the ladder (crate::ladder)
//! beneath. The front ends (the API, crate::http, and the pages, crate::pages) parse,
//! authorise and render; each action here takes typed arguments and answers typed values or a
//! [`DomainError`].
//!
//! [`App`] is the state both front ends take: the config, the store, the signals, the bench of
//! admitted versions and the leaderboards.

pub mod bot_turns;
pub mod entrants;
pub mod error;
pub mod export;
pub mod history;
pub mod host;
pub mod matches;
pub mod play;
pub mod play_bots;
pub mod play_clock;
mod play_seats;
pub mod play_shown;
pub mod refusal;
pub mod review;
pub mod versions;
pub mod watch;
pub mod workers;

pub use error::DomainError;

use std::sync::Arc;

use crate::ladder::live::Live;
use crate::ladder::{Bench, Board, Boards};
use crate::signals::Signals;
use crate::store::Store;
use crate::ServerConfig;

/// The server's state, shared by every front end and task.
#[derive(Clone)]
pub struct App(pub(crate) Arc<Inner>);

pub(crate) struct Inner {
    pub(crate) config: ServerConfig,
    pub(crate) store: Store,
    pub(crate) signals: Arc<Signals>,
    /// The versions built and admitted here: the only ones a worker, here or remote, plays.
    pub(crate) bench: Arc<Bench>,
    /// The ladder's games read, the last leaderboard and the latest ratings.
    pub(crate) boards: Arc<Boards>,
    /// The matches being played, as their watchers see them.
    pub(crate) live: Arc<Live>,
    /// The play page's games' share of the machine, and the puzzle of the day.
    pub(crate) plays: play::Plays,
    /// The play page's finished games' reviews.
    pub(crate) reviews: review::Reviews,
}

impl App {
    pub fn new(
        config: ServerConfig,
        store: Store,
        signals: Arc<Signals>,
        bench: Arc<Bench>,
        boards: Arc<Boards>,
        live: Arc<Live>,
    ) -> App {
        App(Arc::new(Inner {
            config,
            store,
            signals,
            bench,
            boards,
            live,
            plays: play::Plays::default(),
            reviews: review::Reviews::default(),
        }))
    }
}

/// The leaderboard now with each version a player of its own.
pub async fn board_by_version(app: &App) -> Result<crate::ladder::Standings, DomainError> {
    let generation = *app.0.signals.changed.borrow();
    app.0.boards.versions(generation, &app.0.store).await
}

/// The leaderboard now (made again only when something changed since the last).
pub async fn board(app: &App) -> Result<Arc<Board>, DomainError> {
    let generation = *app.0.signals.changed.borrow();
    app.0.boards.get(generation, &app.0.store).await
}
