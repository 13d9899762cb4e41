//! What the store answers when it cannot do what it was asked: the database failed, or the
//! data refuses it (a name taken, an invite used, a quota full). The domain
//! (crate::domain::DomainError) says what each means to the one who asked.

/// A store call's failure.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The database failed: the server's fault, not the caller's.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// Another entrant has this name.
    #[error("the name `{0}` is taken")]
    NameTaken(String),
    /// The invite is unknown or spent.
    #[error("this invite is not one, or was used")]
    Invite,
    /// The entrant's test match is still to be played.
    #[error("your test match is not played yet: one at a time")]
    TestPending,
    /// Another worker has this name.
    #[error("there is a worker named `{0}` already")]
    WorkerTaken(String),
    /// An upload over one of the entrant's quotas.
    #[error(transparent)]
    Quota(#[from] OverQuota),
}

/// Which quota an upload would pass.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OverQuota {
    /// Too many uploads in the last hour; the next one fits in `retry_after` seconds.
    #[error(
        "you uploaded {uploads} versions in the last hour: the event allows {allowed} an hour"
    )]
    Hourly {
        uploads: i64,
        allowed: u32,
        retry_after: u64,
    },
    /// Too many versions kept.
    #[error("you have {have} versions: the event keeps {kept} per entrant")]
    Versions { have: i64, kept: u32 },
    /// Too many bytes stored.
    #[error("your versions hold {held} bytes and this one {this}: the event keeps {kept} bytes per entrant")]
    Bytes { held: i64, this: i64, kept: u64 },
    /// It fit when it came, but another upload of the same moment took the room first.
    #[error("another upload of yours took the room: try again")]
    Raced,
}
