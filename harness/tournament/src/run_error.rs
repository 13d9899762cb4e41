//! Why a run stopped early: [`RunError`], and the [`Step`] of the journal that failed (shared
//! by the runner and the journal's reader).

use std::path::PathBuf;

use quads_referee::MatchError;

/// Why a run stopped early.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A user's problem that stops everything (a command that cannot start, a bad option).
    #[error(transparent)]
    Match(#[from] MatchError),
    /// The journal (or the logs beside it) cannot be read or written.
    #[error("cannot {step} {}: {source}", path.display())]
    Journal {
        /// What was being done.
        step: Step,
        /// The file or folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The output folder holds another tournament's games.
    #[error("{} holds game {game} of a different tournament (another config or seed); use another --out or remove the folder", path.display())]
    Mismatch {
        /// The journal.
        path: PathBuf,
        /// The game that does not fit.
        game: u32,
    },
    /// Ctrl-C: finished games are in the journal, running ones were abandoned.
    #[error(
        "interrupted: {done} of {total} games are recorded; run the same command again to resume"
    )]
    Interrupted {
        /// Games recorded.
        done: usize,
        /// Games scheduled.
        total: usize,
    },
}

/// What the runner was doing to its journal or logs when it failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Step {
    /// Reading the journal.
    Read,
    /// Opening it to append.
    Open,
    /// Cutting a line a crash left half-written.
    CutTornEnd,
    /// Making the logs' folder.
    Create,
    /// Writing a bot's log.
    Write,
    /// Appending a record.
    Append,
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Step::Read => "read",
            Step::Open => "open",
            Step::CutTornEnd => "cut the torn end of",
            Step::Create => "create",
            Step::Write => "write",
            Step::Append => "append to",
        })
    }
}
