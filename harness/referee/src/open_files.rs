//! Open files: the referee holds about five per running bot (its stdin, stdout and stderr
//! pipes, a second handle on stderr, and a pidfd), so 1,000 games at once need some 10,000,
//! past the soft limit most systems start a process with (1,024). The referee raises its soft
//! limit to the hard one, as servers do, and says before the first game when even that is too
//! few, instead of failing games half-way with "too many open files".

use nix::sys::resource::{getrlimit, setrlimit, Resource};

/// Open files per running bot, with room to spare (measured: five).
pub const PER_BOT: u64 = 6;

/// Open files the referee keeps for itself (journal, logs, the runtime, the terminal).
pub const OWN: u64 = 64;

/// The open files `games` at once need, two bots each.
pub fn needed(games: usize) -> u64 {
    OWN + 2 * PER_BOT * games as u64
}

/// Why the referee cannot have enough open files.
#[derive(Debug, thiserror::Error)]
#[error(
    "{games} games at once need about {needed} open files, and this process may open {hard} (the hard limit, `ulimit -Hn`): raise it or lower the concurrency"
)]
pub struct TooFewFiles {
    /// Games at once.
    pub games: usize,
    /// Open files they need.
    pub needed: u64,
    /// The hard limit.
    pub hard: u64,
}

/// Raises the soft limit on open files to the hard limit, and checks that it leaves room for
/// `games` at once. Returns the soft limit now in force.
pub fn make_room(games: usize) -> Result<u64, TooFewFiles> {
    let Ok((soft, hard)) = getrlimit(Resource::RLIMIT_NOFILE) else {
        return Ok(u64::MAX);
    };
    let soft = if soft < hard && setrlimit(Resource::RLIMIT_NOFILE, hard, hard).is_ok() {
        hard
    } else {
        soft
    };
    let needed = needed(games);
    if needed > soft {
        return Err(TooFewFiles {
            games,
            needed,
            hard: soft,
        });
    }
    Ok(soft)
}
