//! The unprivileged user ids boxes run as when the referee is root: one per box that runs,
//! never shared by two at once.

use std::collections::BTreeSet;
use std::sync::Mutex;

/// The first id outside given to boxes when the referee is root.
pub const FIRST_BOT_ID: u32 = 200_000;
/// How many ids boxes are given in turn.
pub const BOT_IDS: u32 = 800_000;

/// The ids (counted from [`FIRST_BOT_ID`]) of this referee's boxes that are still running.
static IN_USE: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());

/// An id held for one box until dropped.
#[derive(Debug)]
pub struct Id(u32);

impl Id {
    /// The id.
    pub fn get(&self) -> u32 {
        self.0
    }
}

/// An id no running box of this referee has. Where no cgroup counts a box's processes,
/// `RLIMIT_NPROC` counts every process of an id, so two boxes must never share one: a bot kept
/// alive across games holds its id until it is gone, while others start and end around it.
///
/// The search starts in a block of 64 chosen by the referee's pid, so that referees running
/// side by side rarely share an id either.
pub fn take() -> Id {
    let mut in_use = IN_USE.lock().unwrap_or_else(|e| e.into_inner());
    let start = std::process::id() % (BOT_IDS / 64) * 64;
    let free = (0..BOT_IDS)
        .map(|i| (start + i) % BOT_IDS)
        .find(|id| !in_use.contains(id))
        .expect("fewer than 800,000 boxes run at once");
    in_use.insert(free);
    Id(FIRST_BOT_ID + free)
}

impl Drop for Id {
    /// The box is gone: its id is free again.
    fn drop(&mut self) {
        let mut in_use = IN_USE.lock().unwrap_or_else(|e| e.into_inner());
        in_use.remove(&(self.0 - FIRST_BOT_ID));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn running_boxes_never_share_an_id_and_ended_ones_give_theirs_back() {
        let held: Vec<Id> = (0..70).map(|_| take()).collect();
        let ids: BTreeSet<u32> = held.iter().map(Id::get).collect();
        assert_eq!(ids.len(), 70, "more than the 64 of a block, none shared");
        assert!(ids.iter().all(|&id| id >= FIRST_BOT_ID));
        drop(held);
        let in_use = IN_USE.lock().unwrap();
        assert!(ids.iter().all(|&id| !in_use.contains(&(id - FIRST_BOT_ID))));
    }
}
