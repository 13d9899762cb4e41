//! The one place where a long run listens for SIGINT (Ctrl-C) and SIGTERM (what Slurm and
//! Kubernetes send to stop a task): the tournament, the SPRT and the ladder alike.

use tokio::sync::watch;

/// A stop asked for by a signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The first: the run stops.
    First,
    /// Another, while the run stops.
    Again,
}

/// Waits for SIGINT or SIGTERM; false if neither can be listened to.
pub async fn stop_signal() -> bool {
    use tokio::signal::unix::{signal, SignalKind};
    let Ok(mut term) = signal(SignalKind::terminate()) else {
        return tokio::signal::ctrl_c().await.is_ok();
    };
    tokio::select! {
        int = tokio::signal::ctrl_c() => int.is_ok(),
        term = term.recv() => term.is_some(),
    }
}

/// Sets `cancel` at the first signal and tells `told` of each; never returns while signals
/// can be listened to (race it against the run).
pub async fn watch_stops(cancel: &watch::Sender<bool>, mut told: impl FnMut(Stop)) {
    if !stop_signal().await {
        std::future::pending::<()>().await;
    }
    told(Stop::First);
    let _ = cancel.send(true);
    while stop_signal().await {
        told(Stop::Again);
    }
    std::future::pending::<()>().await;
}
