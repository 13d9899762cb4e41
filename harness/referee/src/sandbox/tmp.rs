//! A bot's private temporary folder (its `TMPDIR`), and the user id it runs under when the
//! referee is root.

use std::sync::atomic::{AtomicU64, Ordering};

use nix::unistd::{chown, getuid, Gid, Uid};

use super::userns::{BOT_IDS, FIRST_BOT_ID};
use super::Sandbox;

/// A private temporary folder, removed with everything in it when dropped.
#[derive(Debug)]
pub struct BotTmp {
    dir: tempfile::TempDir,
    bot_id: Option<u64>,
}

impl BotTmp {
    /// The folder.
    pub fn path(&self) -> &std::path::Path {
        self.dir.path()
    }

    /// The bot's own user id outside its namespace, when the referee is root and limits its
    /// processes.
    pub fn bot_id(&self) -> Option<u64> {
        self.bot_id
    }
}

/// A new private folder for one bot process; when the referee is root and the process limit is
/// on, a user id of the bot's own, which owns the folder.
pub fn private_tmp(sandbox: &Sandbox) -> std::io::Result<BotTmp> {
    let dir = tempfile::Builder::new().prefix("quads-bot-").tempdir()?;
    let bot_id = if getuid().is_root() && sandbox.processes.is_some() {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        // A block of 64 ids per referee, chosen by its pid, so that referees running side by
        // side rarely share one; within the block ids are reused in turn (a referee runs far
        // fewer than 64 bots at once).
        let block = u64::from(std::process::id()) % (u64::from(BOT_IDS) / 64);
        let id = u64::from(FIRST_BOT_ID) + block * 64 + NEXT.fetch_add(1, Ordering::Relaxed) % 64;
        chown(
            dir.path(),
            Some(Uid::from_raw(id as u32)),
            Some(Gid::from_raw(id as u32)),
        )?;
        Some(id)
    } else {
        None
    };
    Ok(BotTmp { dir, bot_id })
}
