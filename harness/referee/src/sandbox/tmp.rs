//! A bot's private temporary folder (its `TMPDIR`), and the user id it runs under when the
//! referee is root.

use std::collections::BTreeSet;
use std::sync::Mutex;

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
    let mut tmp = BotTmp { dir, bot_id: None };
    if getuid().is_root() && sandbox.processes.is_some() {
        let id = take_id();
        // Set first, so that the id goes back if the chown fails.
        tmp.bot_id = Some(id);
        chown(
            tmp.path(),
            Some(Uid::from_raw(id as u32)),
            Some(Gid::from_raw(id as u32)),
        )?;
    }
    Ok(tmp)
}

/// The ids (counted from [`FIRST_BOT_ID`]) of this referee's bots that are still running.
static IN_USE: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());

/// An id no running bot of this referee has. The process limit counts every process of an id,
/// so two bots must never share one: a bot kept alive across games (and the processes it keeps)
/// holds its id until it is gone, while others start and end around it.
///
/// The search starts in a block of 64 chosen by the referee's pid, so that referees running
/// side by side rarely share an id either.
fn take_id() -> u64 {
    let mut in_use = IN_USE.lock().unwrap_or_else(|e| e.into_inner());
    let start = std::process::id() % (BOT_IDS / 64) * 64;
    let free = (0..BOT_IDS)
        .map(|i| (start + i) % BOT_IDS)
        .find(|id| !in_use.contains(id))
        .expect("fewer than 800,000 bots run at once");
    in_use.insert(free);
    u64::from(FIRST_BOT_ID + free)
}

impl Drop for BotTmp {
    /// The bot is gone (its process was ended before this is dropped): its id is free again.
    fn drop(&mut self) {
        if let Some(id) = self.bot_id {
            let mut in_use = IN_USE.lock().unwrap_or_else(|e| e.into_inner());
            in_use.remove(&(id as u32 - FIRST_BOT_ID));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn running_bots_never_share_an_id_and_ended_ones_give_theirs_back() {
        let held: Vec<BotTmp> = (0..70)
            .map(|_| BotTmp {
                dir: tempfile::tempdir().unwrap(),
                bot_id: Some(take_id()),
            })
            .collect();
        let ids: BTreeSet<u64> = held.iter().filter_map(BotTmp::bot_id).collect();
        assert_eq!(ids.len(), 70, "more than the 64 of a block, none shared");
        assert!(ids.iter().all(|&id| id >= u64::from(FIRST_BOT_ID)));
        drop(held);
        let in_use = IN_USE.lock().unwrap();
        assert!(ids
            .iter()
            .all(|&id| !in_use.contains(&(id as u32 - FIRST_BOT_ID))));
    }
}
