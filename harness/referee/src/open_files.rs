//! Open files: the referee holds about five per running bot (its stdin, stdout and stderr
//! pipes, a second handle on stderr, and a pidfd), so 1,000 games at once need some 10,000,
//! past the soft limit most systems start a process with (1,024). The referee raises its soft
//! limit as far as it needs (up to the hard one), and says before the first game when even the
//! hard limit is too few, instead of failing games half-way with "too many open files". Bots
//! kept alive between games can outnumber two per game in flight when a schedule is uneven;
//! the estimate counts those in flight.

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
    "{games} games at once need about {needed} open files, and this process may open {limit} (the hard limit, `ulimit -Hn`): raise it or lower the concurrency"
)]
pub struct TooFewFiles {
    /// Games at once.
    pub games: usize,
    /// Open files they need.
    pub needed: u64,
    /// The limit in force after raising the soft one as far as the hard one allows.
    pub limit: u64,
}

/// Raises the soft limit on open files as far as `games` at once need (never past the hard
/// limit, never lower than it was), and checks that it leaves room for them. Returns the soft
/// limit now in force. The bots inherit it (unless their sandbox sets its own): raising it only
/// as far as needed keeps it near what they would get from a shell.
pub fn make_room(games: usize) -> Result<u64, TooFewFiles> {
    let Ok((soft, hard)) = getrlimit(Resource::RLIMIT_NOFILE) else {
        return Ok(u64::MAX);
    };
    let needed = needed(games);
    let wanted = needed.min(hard);
    let soft = if soft < wanted && setrlimit(Resource::RLIMIT_NOFILE, wanted, hard).is_ok() {
        wanted
    } else {
        soft
    };
    if needed > soft {
        return Err(TooFewFiles {
            games,
            needed,
            limit: soft,
        });
    }
    Ok(soft)
}
