//! The start gate: how many bots may be starting at once.
//!
//! A bot's handshake is timed from its start, and a start costs CPU: the sandbox's launcher
//! sets up its walls, then the bot loads (an interpreter, its tables). When a tournament of
//! hundreds of games at once begins, every bot starts together, and each handshake measures
//! the machine's queue rather than the bot: 400 bots that take 0.4 s of CPU each to start, at
//! 200 games at once on 2 cores, all lost their first games by `handshake` at the 10 s default
//! (docs/scale.md). So a bot starts only when a place at the gate is free, its handshake's
//! clock starts then, and it keeps the place until its handshake is over, answered or failed.
//! A bot that hangs in its handshake holds a place for that handshake's limit, no longer.

use std::sync::{Arc, OnceLock};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Places at the gate per core: enough that starts on an idle machine never wait.
pub const PER_CORE: usize = 4;

/// A place at the gate, given back when dropped.
pub type Place = OwnedSemaphorePermit;

/// A gate of `places` places.
fn gate(places: usize) -> Arc<Semaphore> {
    Arc::new(Semaphore::new(places))
}

/// Waits for a place at the gate of this process.
pub async fn enter() -> Place {
    static GATE: OnceLock<Arc<Semaphore>> = OnceLock::new();
    let gate = GATE.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        gate(PER_CORE * cores)
    });
    Arc::clone(gate)
        .acquire_owned()
        .await
        .expect("the gate is never closed")
}
