//! The domain's one error: why it will not do what was asked (said in one line to whoever
//! asked), or that it failed. The front ends say it their way: the API as a status and
//! `{"error": ...}` (crate::ApiError), the pages as a page.

use super::refusal::Refusal;
use crate::store::{OverQuota, StoreError};

/// Why an action was refused, or that it failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DomainError {
    /// Whoever asks must say who they are.
    #[error("{0}")]
    Unknown(String),
    /// Not theirs to do.
    #[error("{0}")]
    Forbidden(String),
    /// No such thing.
    #[error("{0}")]
    NotFound(String),
    /// Not now: the state of things refuses it.
    #[error("{0}")]
    Conflict(String),
    /// What was given is wrong.
    #[error("{0}")]
    Invalid(String),
    /// What was given is over a bound.
    #[error("{0}")]
    TooLarge(String),
    /// What was given is well formed but cannot be taken (a manifest that is wrong).
    #[error("{0}")]
    Unacceptable(String),
    /// Too often: the same may succeed after `retry_after` seconds.
    #[error("{message}")]
    TooOften { message: String, retry_after: u64 },
    /// A move in a game on the play page not played, and why.
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// The server's own failure (its database, its disk): logged, never shown.
    #[error("{0}")]
    Failed(String),
}

impl DomainError {
    /// The server's own failure, from anything that says what it was.
    pub fn failed(what: impl std::fmt::Display) -> DomainError {
        DomainError::Failed(what.to_string())
    }
}

impl From<StoreError> for DomainError {
    fn from(e: StoreError) -> DomainError {
        let said = e.to_string();
        match e {
            StoreError::Database(_) => DomainError::Failed(said),
            StoreError::NameTaken(_) | StoreError::WorkerTaken(_) | StoreError::TestPending => {
                DomainError::Conflict(said)
            }
            StoreError::Invite => DomainError::Forbidden(said),
            StoreError::Quota(q) => q.into(),
        }
    }
}

impl From<OverQuota> for DomainError {
    fn from(q: OverQuota) -> DomainError {
        let message = q.to_string();
        match q {
            OverQuota::Hourly { retry_after, .. } => DomainError::TooOften {
                message,
                retry_after,
            },
            OverQuota::Raced => DomainError::TooOften {
                message,
                retry_after: 1,
            },
            OverQuota::Versions { .. } | OverQuota::Bytes { .. } => DomainError::TooLarge(message),
        }
    }
}
