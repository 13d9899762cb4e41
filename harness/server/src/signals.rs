//! What the server's tasks tell each other: a job queued (the pipeline wakes), something
//! changed (waiters and live pages look again), a check to stop. Beneath the pipeline, the
//! ladder and the front ends, which all take it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::Notify;

/// What wakes the pipeline (a new upload) and what it tells of a verdict (waiters).
#[derive(Default)]
pub struct Signals {
    /// A job was queued.
    pub queued: Notify,
    /// A version's status changed, games were played, or the host flipped a switch.
    pub changed: tokio::sync::watch::Sender<u64>,
    /// The checks running, by job: notified to stop one.
    stops: Mutex<HashMap<i64, Arc<Notify>>>,
}

impl Signals {
    /// Something changed: waiters and live pages look again.
    pub fn bump(&self) {
        self.changed.send_modify(|n| *n += 1);
    }

    /// Stops the checks of these jobs, running or about to run (a job claimed but not yet
    /// started finds its stop waiting).
    pub fn stop(&self, jobs: &[i64]) {
        let mut stops = self.stops.lock().unwrap_or_else(|e| e.into_inner());
        for job in jobs {
            stops.entry(*job).or_default().notify_one();
        }
    }

    /// The stop of job `job`'s check, for as long as it runs.
    pub(crate) fn stop_of(&self, job: i64) -> Arc<Notify> {
        let mut stops = self.stops.lock().unwrap_or_else(|e| e.into_inner());
        stops.entry(job).or_default().clone()
    }

    /// Job `job`'s check is over.
    pub(crate) fn done(&self, job: i64) {
        let mut stops = self.stops.lock().unwrap_or_else(|e| e.into_inner());
        stops.remove(&job);
    }
}
