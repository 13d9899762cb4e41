//! A bot's forfeit in words: the reason and the detail the record and the opponent's
//! `gameover` carry, from a reply that is not a move or from how the process ended.

use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::time::Duration;

use quads_protocol::truncate;
use quads_record::ForfeitReason;

use crate::process::Reply;

/// A forfeit: the reason word and what happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Why the bot forfeits.
    pub reason: ForfeitReason,
    /// Details.
    pub detail: String,
}

pub(crate) fn fault(reason: ForfeitReason, detail: impl Into<String>) -> Fault {
    Fault {
        reason,
        detail: detail.into(),
    }
}

/// Describes an exit status: `exited with status 3`, `killed by signal 6 (SIGABRT)`.
pub fn describe_exit(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(sig)) => match nix::sys::signal::Signal::try_from(sig) {
            Ok(name) => format!("killed by signal {sig} ({name})"),
            Err(_) => format!("killed by signal {sig}"),
        },
        _ => "exited".to_owned(),
    }
}

/// The sandbox's limit that ended a bot, when its exit says so: the kernel's signals for the
/// CPU-time and file-size limits. (A bot out of memory or processes sees a failed allocation
/// or fork and ends its own way: a crash.)
fn limit_reached(status: ExitStatus) -> Option<&'static str> {
    match status.signal().map(nix::sys::signal::Signal::try_from) {
        Some(Ok(nix::sys::signal::Signal::SIGXCPU)) => {
            Some("reached its CPU-time limit (killed by SIGXCPU)")
        }
        Some(Ok(nix::sys::signal::Signal::SIGXFSZ)) => {
            Some("reached its file-size limit (killed by SIGXFSZ)")
        }
        _ => None,
    }
}

/// The fault for a reply that is not a line.
pub(crate) fn broken(
    reply: Reply,
    waiting_for: &str,
    timeout_reason: ForfeitReason,
    limit: String,
) -> Fault {
    match reply {
        Reply::Line(line) => fault(
            ForfeitReason::Malformed,
            format!("`{}` while waiting for {waiting_for}", truncate(&line, 200)),
        ),
        Reply::TooLong(start) => fault(
            ForfeitReason::Malformed,
            format!(
                "a line longer than 65536 bytes, starting `{}`",
                truncate(&start, 80)
            ),
        ),
        Reply::Timeout => fault(
            timeout_reason,
            format!("no {} within {limit}", waiting_for.trim_start_matches("a ")),
        ),
        Reply::Closed => fault(
            ForfeitReason::ClosedOutput,
            format!("stdout closed while waiting for {waiting_for}; the process kept running"),
        ),
        Reply::Exited(status) => match limit_reached(status) {
            Some(which) => fault(
                ForfeitReason::ResourceLimit,
                format!("{which} while waiting for {waiting_for}"),
            ),
            None => fault(
                ForfeitReason::Crash,
                format!("{} while waiting for {waiting_for}", describe_exit(status)),
            ),
        },
    }
}

pub(crate) fn ms(d: Duration) -> String {
    format!("{} ms", d.as_millis())
}
