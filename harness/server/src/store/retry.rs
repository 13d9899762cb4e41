//! A write that must not be dropped when the database blinks (a restart cuts every connection
//! and refuses new ones for a moment): tried again until the database answers. Only for
//! writes that are safe to repeat (each says so where it is used), and only in the server's own
//! tasks: a request answers 500 and its client tries again.

use std::future::Future;
use std::time::Duration;

use super::StoreError;

/// The first pause before trying again; it doubles up to [`PAUSE_MAX`].
const PAUSE_FIRST: Duration = Duration::from_millis(100);

/// The longest pause between two tries.
pub const PAUSE_MAX: Duration = Duration::from_secs(5);

/// `write` until it gets past the database (its answer, or an error that is not the
/// database's), each failure a warning that names `what`.
pub async fn until_answered<T, F, Fut>(what: &str, mut write: F) -> Result<T, StoreError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, StoreError>>,
{
    let mut pause = PAUSE_FIRST;
    loop {
        match write().await {
            Err(StoreError::Database(e)) => {
                tracing::warn!(
                    error = %e,
                    retry_ms = pause.as_millis() as u64,
                    "{what} cannot be written yet"
                );
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(PAUSE_MAX);
            }
            done => return done,
        }
    }
}
