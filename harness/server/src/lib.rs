//! `quads serve`: a competition on the web. Entrants sign up with an invite and upload their
//! bots (a folder as .tar.gz or .zip, or one file with its bot.toml); every upload is a new
//! version, unpacked under the server's checks, its manifest read as `quads tournament` reads
//! an entrant's, stored content-addressed, then built in the sandbox and put through `quads
//! check` by the pipeline, then played on a ladder that always has a match running, rated with
//! intervals by the server's workers or by remote ones (`quads worker`, crate::remote, over
//! HTTP); and the pages over all of it (crate::pages).
//!
//! The front end (`quads serve`, `quads submit`, `quads worker`) is the CLI; this crate prints
//! nothing.

pub mod config;
mod demo;
mod domain;
mod error;
mod hooks;
mod http;
mod ladder;
pub mod memory;
pub mod pack;
mod pages;
mod pipeline;
pub mod remote;
mod routes;
mod secret;
mod session;
mod signals;
mod store;
pub mod unpack;
pub mod wire;

pub use config::{Limits, Quotas, ServerConfig, Signup};
pub use error::{ApiError, ServerError};

use std::net::SocketAddr;

/// Opens the database (creating and migrating it), binds the address, calls `ready` with the
/// address bound, and serves until SIGINT or SIGTERM.
pub async fn serve(
    config: ServerConfig,
    ready: impl FnOnce(SocketAddr),
) -> Result<(), ServerError> {
    let dirs = if config.play_only {
        vec![config.data.clone()]
    } else {
        vec![config.blobs(), config.staging()]
    };
    for dir in dirs {
        std::fs::create_dir_all(&dir).map_err(|source| ServerError::Data { path: dir, source })?;
    }
    let store = store::Store::open(&config.database).await?;
    let database = |e: store::StoreError| ServerError::Database {
        url: store::redacted(&config.database),
        why: e.to_string(),
    };
    // With no event there is nothing to recover, no worker and no version.
    if !config.play_only {
        store.recover().await.map_err(database)?;
        // The server's own workers died with it: their matches are played again (once).
        store
            .reap(Some(ladder::worker::LOCAL))
            .await
            .map_err(database)?;
        // The active versions' built copies went with the last run: build and check them again.
        store.requeue_actives().await.map_err(database)?;
    }
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|source| ServerError::Bind {
            addr: config.listen,
            source,
        })?;
    let addr = listener.local_addr().map_err(|source| ServerError::Bind {
        addr: config.listen,
        source,
    })?;
    ready(addr);
    let signals = std::sync::Arc::new(signals::Signals::default());
    signals.queued.notify_one(); // jobs queued before a stop
    let bench = std::sync::Arc::new(ladder::Bench::default());
    let boards = std::sync::Arc::new(ladder::Boards::default());
    let live = std::sync::Arc::new(ladder::live::Live::default());
    if !config.play_only {
        for n in 1..=config.checks {
            tokio::spawn(pipeline::run(
                n,
                config.clone(),
                store.clone(),
                bench.clone(),
                signals.clone(),
            ));
        }
        for n in 1..=config.workers {
            tokio::spawn(ladder::worker::run(
                format!("{}{n}", ladder::worker::LOCAL),
                config.clone(),
                store.clone(),
                bench.clone(),
                signals.clone(),
                live.clone(),
            ));
        }
        // Word to entrants and the host, from the queue (crate::hooks).
        tokio::spawn(hooks::run(config.clone(), store.clone()));
        tokio::spawn(ladder::fitter(
            boards.clone(),
            store.clone(),
            signals.clone(),
            config.history_every,
        ));
    }
    let demo = config.demo_entrants.clone();
    let client_timeout = config.client_timeout;
    let play_only = config.play_only;
    let app = domain::App::new(config, store, signals, bench, boards, live);
    if !play_only {
        // The bots' turns in the games people play against entrants' bots.
        for n in 1..=app.0.config.turn_workers {
            tokio::spawn(domain::bot_turns::run(
                app.clone(),
                domain::bot_turns::turn_worker(n),
            ));
        }
    }
    if let Some(dir) = demo {
        demo::seed(&app, &dir)
            .await
            .map_err(|e| ServerError::Demo { why: e.to_string() })?;
    }
    // At the stop, the watchers of live matches are let go, so their streams end with it.
    let stop = {
        let live = app.0.live.clone();
        async move {
            stopped().await;
            live.close();
        }
    };
    let app = routes::router(app);
    http::accept::serve(listener, app, client_timeout, stop).await;
    Ok(())
}

/// SIGINT or SIGTERM, heard where every long command hears them (quads_results::signals);
/// never, where neither can be listened to.
async fn stopped() {
    if !quads_results::signals::stop_signal().await {
        std::future::pending::<()>().await;
    }
}
