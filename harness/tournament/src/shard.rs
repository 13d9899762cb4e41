//! Shards: one tournament's schedule cut into N slices that separate machines (a Slurm job
//! array, a Kubernetes Indexed Job) play apart, then put back together by [`crate::merge`].
//!
//! Which shard plays a game depends only on the schedule's length and N. Game pairs are dealt
//! N at a time in schedule order, one to each shard, in an order drawn afresh for each deal
//! (ChaCha8 seeded with N, one stream per deal). So every shard gets a share of every round,
//! pairing and variant (a slow bot's games do not pile up in one shard, as they would with
//! contiguous blocks or with a fixed rotation that lines up with the pairings), the two games
//! of a pair stay together, and the shards' sizes differ by at most one pair.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use quads_record::Anchor;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::config::Tournament;
use crate::schedule::{pairings, Scheduled};

/// The name of the file that marks a folder as a shard's and says which.
pub use quads_record::files::SHARD as SHARD_FILE;

/// Shard `index` of `count`, counted from 0 (as Slurm's `SLURM_ARRAY_TASK_ID` and Kubernetes'
/// `JOB_COMPLETION_INDEX` are).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which shard, from 0.
    pub index: u32,
    /// How many shards.
    pub count: u32,
}

/// `--shard` text that is not `I/N` with `0 <= I < N`.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("`{0}` is not a shard: write I/N, shard I of N counted from 0 (0/4 to 3/4)")]
pub struct BadShard(String);

impl FromStr for Shard {
    type Err = BadShard;

    fn from_str(text: &str) -> Result<Shard, BadShard> {
        let bad = || BadShard(text.to_owned());
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// How the schedule is laid out, which is all it takes to say which shard plays a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    /// Games in the whole schedule.
    pub games: u32,
    /// Game pairs per round: pairings times variants.
    pub pairs_per_round: u32,
}

impl Layout {
    /// The layout of a tournament's schedule.
    pub fn of(t: &Tournament) -> Layout {
        let pairs_per_round = (pairings(t).len() * t.variants.len()) as u32;
        Layout {
            games: 2 * pairs_per_round * t.pairs,
            pairs_per_round,
        }
    }

    /// The game pairs in the schedule.
    pub fn pairs(&self) -> u32 {
        self.games / 2
    }

    /// The shard, of `count`, that plays game `number` (from 1).
    pub fn shard_of(&self, number: u32, count: u32) -> u32 {
        let pair = (number - 1) / 2;
        deal(pair / count, count)[(pair % count) as usize]
    }

    /// The numbers of the games shard `shard` plays, in schedule order.
    pub fn games_of(&self, shard: Shard) -> Vec<u32> {
        let count = shard.count;
        let mut games = Vec::new();
        for block in 0..self.pairs().div_ceil(count) {
            for (place, &to) in deal(block, count).iter().enumerate() {
                let pair = block * count + place as u32;
                if to == shard.index && pair < self.pairs() {
                    games.extend([2 * pair + 1, 2 * pair + 2]);
                }
            }
        }
        games
    }

    /// Checks that every shard gets at least one game pair.
    pub fn check(&self, shard: Shard) -> Result<(), ShardError> {
        if shard.count > self.pairs() {
            return Err(ShardError::TooMany {
                shard,
                pairs: self.pairs(),
            });
        }
        Ok(())
    }
}

/// Deal `block` of the game pairs, dealt `count` at a time: the shard each of its pairs goes
/// to, every shard once.
fn deal(block: u32, count: u32) -> Vec<u32> {
    let mut rng = ChaCha8Rng::seed_from_u64(u64::from(count));
    rng.set_stream(u64::from(block));
    let mut order: Vec<u32> = (0..count).collect();
    for i in (1..order.len()).rev() {
        let j = ((u128::from(rng.next_u64()) * (i as u128 + 1)) >> 64) as usize;
        order.swap(i, j);
    }
    order
}

/// The games of `schedule` that `shard` plays.
pub fn select(schedule: &[Scheduled], layout: &Layout, shard: Shard) -> Vec<Scheduled> {
    let mine = layout.games_of(shard);
    schedule
        .iter()
        .filter(|g| mine.binary_search(&g.number).is_ok())
        .cloned()
        .collect()
}

/// A fingerprint of everything that decides a tournament's games: the schedule (bots,
/// variants, pairs, openings, seeds) and how games are played (time control, margins, bot
/// commands and options, walls). The output folder and the concurrency are left out: shards
/// write to folders of their own, and machines of different sizes may play them.
pub fn fingerprint(t: &Tournament, schedule: &[Scheduled]) -> String {
    let mut hash = Sha256::new();
    let mut put = |part: String| {
        hash.update((part.len() as u64).to_le_bytes());
        hash.update(part.as_bytes());
    };
    put(t.name.clone());
    put(t.seed.to_string());
    put(format!("{:?}", t.format));
    put(t.pairs.to_string());
    put(format!(
        "{:?}",
        t.variants.iter().map(|r| r.to_string()).collect::<Vec<_>>()
    ));
    for bot in &t.bots {
        // Not its folder: an entrant runs from a copy whose place differs from run to run.
        let c = &bot.command;
        put(format!(
            "{:?} {:?} {} {:?} {:?} {} {:?} {:?}",
            bot.name, c.argv, c.shell, c.env, c.sandbox, c.ponder, bot.options, bot.time
        ));
    }
    put(format!("{:?}", t.time));
    put(format!(
        "{:?} {:?} {} {} {} {}",
        t.margin, t.handshake_timeout, t.keep_alive, t.ponder, t.entrants_ponder, t.log_cap
    ));
    // The anchor as the pair it was written as before it had a type of its own, so that
    // fingerprints stay what they were.
    let anchor = t.anchor.as_ref().map(|a| (&a.bot, a.elo));
    put(format!("{anchor:?} {:?}", t.sandbox));
    for g in schedule {
        put(format!(
            "{} {} {} {} {} {} {}",
            g.number, g.round, g.pair, g.variant, g.first, g.second, g.seed
        ));
        put(g.start.to_string());
    }
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// What `shard.json` holds: which shard of which tournament a folder plays, and what
/// `quads merge` needs to write the whole tournament's files without the config.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardInfo {
    /// This folder's shard.
    pub shard: Shard,
    /// [`fingerprint`] of the tournament.
    pub tournament: String,
    /// The event name.
    pub name: String,
    /// The tournament's seed.
    pub seed: u64,
    /// The bots, in the config's order (entrants admitted last).
    pub bots: Vec<String>,
    /// The ratings' anchor, if any: a bot pinned at an Elo.
    pub anchor: Option<Anchor>,
    /// Whether the config asks for an analysis after the games.
    pub analyze: bool,
    /// The schedule's layout.
    pub layout: Layout,
}

impl ShardInfo {
    /// The shard file of a tournament about to play `shard`.
    pub fn new(t: &Tournament, schedule: &[Scheduled], shard: Shard) -> ShardInfo {
        ShardInfo {
            shard,
            tournament: fingerprint(t, schedule),
            name: t.name.clone(),
            seed: t.seed,
            bots: t.bots.iter().map(|b| b.name.clone()).collect(),
            anchor: t.anchor.clone(),
            analyze: t.analyze,
            layout: Layout::of(t),
        }
    }

    /// Reads `DIR/shard.json`; `None` when the folder has none.
    pub fn read(dir: &Path) -> Result<Option<ShardInfo>, ShardError> {
        let path = dir.join(SHARD_FILE);
        match std::fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text)
                .map(Some)
                .map_err(|source| ShardError::NotAShardFile { path, source }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(ShardError::Read { path, source }),
        }
    }

    /// Writes `DIR/shard.json`, or, when the folder has one already (a resumed shard), checks
    /// that it is this very shard of this very tournament.
    pub fn claim(&self, dir: &Path) -> Result<(), ShardError> {
        let path = dir.join(SHARD_FILE);
        match ShardInfo::read(dir)? {
            Some(old) if old == *self => Ok(()),
            Some(old) if old.shard != self.shard => Err(ShardError::OtherShard {
                dir: dir.to_owned(),
                held: old.shard,
                asked: self.shard,
            }),
            Some(_) => Err(ShardError::OtherTournament {
                dir: dir.to_owned(),
                shard: self.shard,
            }),
            None => {
                let text = serde_json::to_string_pretty(self).expect("a shard file serialises");
                quads_record::files::write_atomic(&path, (text + "\n").as_bytes())
                    .map_err(|source| ShardError::Write { path, source })
            }
        }
    }
}

/// A shard that does not fit the schedule or its folder.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ShardError {
    /// More shards than game pairs: some would get none.
    #[error("--shard {shard}: the schedule has {pairs} game pairs, so at most {pairs} shards")]
    TooMany {
        /// The shard asked for.
        shard: Shard,
        /// The schedule's game pairs.
        pairs: u32,
    },
    /// A `shard.json` that is not one.
    #[error("{}: not a shard file: {source}", path.display())]
    NotAShardFile {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        #[source]
        source: serde_json::Error,
    },
    /// A `shard.json` that cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A `shard.json` that cannot be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The folder plays another shard.
    #[error("{} plays shard {held} of this or another tournament, not {asked}; give each shard a folder of its own", dir.display())]
    OtherShard {
        /// The folder.
        dir: PathBuf,
        /// The shard it holds.
        held: Shard,
        /// The shard asked for.
        asked: Shard,
    },
    /// The folder holds this shard of another tournament.
    #[error("{} holds shard {shard} of another tournament (another config or seed); use another --out or remove the folder", dir.display())]
    OtherTournament {
        /// The folder.
        dir: PathBuf,
        /// The shard.
        shard: Shard,
    },
    /// A whole run asked of a shard's folder.
    #[error("{} holds shard {shard} of a tournament; play the whole tournament into another --out, or give --shard {shard}", dir.display())]
    HoldsShard {
        /// The folder.
        dir: PathBuf,
        /// The shard it holds.
        shard: Shard,
    },
    /// A shard asked of a whole run's folder.
    #[error("{} holds games of a whole tournament, not of a shard; give each shard a folder of its own", dir.display())]
    HoldsWholeRun {
        /// The folder.
        dir: PathBuf,
    },
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn shards_read_as_index_over_count() {
        assert_eq!("0/4".parse(), Ok(Shard { index: 0, count: 4 }));
        assert_eq!("3/4".parse(), Ok(Shard { index: 3, count: 4 }));
        for bad in ["4/4", "1/0", "1", "-1/4", "a/b", "1/4/2", ""] {
            assert_eq!(bad.parse::<Shard>(), Err(BadShard(bad.to_owned())), "{bad}");
        }
        assert_eq!(Shard { index: 2, count: 5 }.to_string(), "2/5");
    }

    #[test]
    fn every_deal_gives_each_shard_one_pair_in_a_new_order() {
        let layout = Layout {
            games: 48,
            pairs_per_round: 6,
        };
        let shards: Vec<u32> = (1..=48).step_by(2).map(|g| layout.shard_of(g, 4)).collect();
        let deals: Vec<Vec<u32>> = shards.chunks(4).map(<[u32]>::to_vec).collect();
        for deal in &deals {
            let mut sorted = deal.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 2, 3]);
        }
        let mut distinct = deals.clone();
        distinct.sort();
        distinct.dedup();
        assert!(
            distinct.len() > 1,
            "the order changes between deals: {deals:?}"
        );
        assert_eq!(
            deal(5, 4),
            deal(5, 4),
            "a deal depends on its number and N only"
        );
    }

    proptest! {
        #[test]
        fn shards_cover_the_schedule_once_keep_pairs_whole_and_balance(
            pairs_per_round in 1u32..40, rounds in 1u32..30, count in 1u32..12,
        ) {
            let layout = Layout { games: 2 * pairs_per_round * rounds, pairs_per_round };
            prop_assume!(layout.check(Shard { index: 0, count }).is_ok());
            let shards: Vec<Vec<u32>> = (0..count)
                .map(|index| layout.games_of(Shard { index, count }))
                .collect();
            let mut all: Vec<u32> = shards.concat();
            all.sort_unstable();
            prop_assert_eq!(all, (1..=layout.games).collect::<Vec<_>>());
            for games in &shards {
                prop_assert!(!games.is_empty());
                for two in games.chunks(2) {
                    prop_assert_eq!(two[0] % 2, 1);
                    prop_assert_eq!(two[1], two[0] + 1);
                }
            }
            // Balanced: the shards' sizes differ by at most one pair.
            let sizes: Vec<usize> = shards.iter().map(Vec::len).collect();
            let (min, max) = (*sizes.iter().min().unwrap(), *sizes.iter().max().unwrap());
            prop_assert!(max - min <= 2, "{:?}", sizes);
            for (index, games) in shards.iter().enumerate() {
                for &g in games {
                    prop_assert_eq!(layout.shard_of(g, count), index as u32);
                }
            }
        }
    }
}
