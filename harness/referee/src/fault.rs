//! A bot's forfeit in words: the reason and the detail the record and the opponent's
//! `gameover` carry, from a reply that is not a move or from how the process ended.

use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::time::Duration;

use quads_protocol::truncate;
use quads_record::ForfeitReason;

use crate::process::{Exit, Reply};

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

/// The sandbox's limit that ended a bot, when its exit or its box says so: the kernel's
/// signals for the CPU-time and file-size limits, and what the box's cgroups counted (a
/// process killed at the memory limit, forks refused at the process limit).
fn limit_reached(exit: &Exit) -> Option<String> {
    use nix::sys::signal::Signal;
    if exit.oom_kills > 0 {
        let n = exit.oom_kills;
        let what = if n == 1 { "a process" } else { "processes" };
        return Some(format!(
            "reached its memory limit (the kernel killed {what} of its box: {n}) and {}",
            describe_exit(exit.status)
        ));
    }
    match exit.status.signal().map(Signal::try_from) {
        Some(Ok(Signal::SIGXCPU)) => {
            return Some("reached its CPU-time limit (killed by SIGXCPU)".to_owned())
        }
        Some(Ok(Signal::SIGXFSZ)) => {
            return Some("reached its file-size limit (killed by SIGXFSZ)".to_owned())
        }
        _ => {}
    }
    (exit.forks_refused > 0).then(|| {
        format!(
            "reached its process limit ({} forks refused) and {}",
            exit.forks_refused,
            describe_exit(exit.status)
        )
    })
}

/// For a bot gone before its handshake ended: the last lines of its stderr, and what of the
/// machine it could read, so that its author learns why.
pub(crate) fn last_words(exit: &Exit) -> String {
    let mut out = String::new();
    if !exit.last_words.is_empty() {
        out.push_str(&format!(
            "; its stderr ends: {}",
            truncate(&exit.last_words, 300)
        ));
    }
    if let Some(folder) = &exit.folder {
        out.push_str(&format!(
            "; in its sandbox it could read only {} and the system's folders",
            folder.display()
        ));
    }
    out
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
        Reply::Exited(exit) => {
            let words = if timeout_reason == ForfeitReason::Handshake {
                last_words(&exit)
            } else {
                String::new()
            };
            match limit_reached(&exit) {
                Some(which) => fault(
                    ForfeitReason::ResourceLimit,
                    format!("{which} while waiting for {waiting_for}{words}"),
                ),
                None => fault(
                    ForfeitReason::Crash,
                    format!(
                        "{} while waiting for {waiting_for}{words}",
                        describe_exit(exit.status)
                    ),
                ),
            }
        }
    }
}

pub(crate) fn ms(d: Duration) -> String {
    format!("{} ms", d.as_millis())
}
