//! Putting shards back together: the shard folders of one tournament, checked to be the same
//! tournament cut the same way, complete and none missing, give the records a single run would
//! have played, in schedule order.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use quads_referee::GameRecord;

use crate::journal::journal_records;
use crate::shard::{Shard, ShardInfo, SHARD_FILE};

/// Why shards do not merge. Each names the folder or shard at fault.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// No folder given.
    #[error("no shard folders given")]
    NoShards,
    /// A folder cannot be read, or its shard file is not one.
    #[error(transparent)]
    Read(#[from] crate::shard::ShardError),
    /// A shard's journal cannot be read.
    #[error(transparent)]
    Journal(crate::run_error::RunError),
    /// A folder that no `--shard` run wrote.
    #[error("{} is not a shard's folder (it has no {SHARD_FILE}): play it with `quads tournament CONFIG --shard I/N`", .0.display())]
    NotAShard(PathBuf),
    /// Shards of another cut.
    #[error("{} is shard {} but {} is shard {}: every shard must come from the same --shard I/N count", .dir.display(), .shard, .first.display(), .first_shard)]
    OtherCount {
        /// The folder at fault.
        dir: PathBuf,
        /// Its shard.
        shard: Shard,
        /// The first folder given.
        first: PathBuf,
        /// The first folder's shard.
        first_shard: Shard,
    },
    /// A shard of another tournament.
    #[error("{} comes from another tournament than {}: {what}", .dir.display(), .first.display())]
    OtherTournament {
        /// The folder at fault.
        dir: PathBuf,
        /// The first folder given.
        first: PathBuf,
        /// What differs, as far as the shard files say.
        what: String,
    },
    /// The same shard twice.
    #[error("shard {shard} is given twice: {} and {}", .a.display(), .b.display())]
    Twice {
        /// The shard.
        shard: Shard,
        /// One folder.
        a: PathBuf,
        /// The other.
        b: PathBuf,
    },
    /// Shards not given at all.
    #[error("{}", missing_shards(.missing, *.count))]
    Missing {
        /// The missing shards, with their games.
        missing: Vec<(u32, Vec<u32>)>,
        /// How many shards there are.
        count: u32,
    },
    /// A shard that has not finished.
    #[error("{} (shard {shard}) is incomplete: {} of its {total} games are missing ({}); run its command again to resume it", .dir.display(), .missing.len(), games_list(.missing))]
    Incomplete {
        /// The folder.
        dir: PathBuf,
        /// Its shard.
        shard: Shard,
        /// The games it still has to play.
        missing: Vec<u32>,
        /// The games it plays in all.
        total: usize,
    },
    /// A record in a shard's journal that the shard does not play.
    #[error("{} holds game {game}, which shard {shard} does not play: the folder was written by something else", .dir.display())]
    Stray {
        /// The folder.
        dir: PathBuf,
        /// Its shard.
        shard: Shard,
        /// The game.
        game: u32,
    },
}

fn games_list(games: &[u32]) -> String {
    const SHOWN: usize = 8;
    let mut text = games
        .iter()
        .take(SHOWN)
        .map(|g| g.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    if games.len() > SHOWN {
        text += &format!(" and {} more", games.len() - SHOWN);
    }
    format!("game{} {text}", if games.len() == 1 { "" } else { "s" })
}

fn missing_shards(missing: &[(u32, Vec<u32>)], count: u32) -> String {
    let each: Vec<String> = missing
        .iter()
        .map(|(index, games)| format!("{index}/{count} ({})", games_list(games)))
        .collect();
    format!(
        "{} of {count} shards missing: {}; give every shard's folder",
        missing.len(),
        each.join("; ")
    )
}

/// One shard folder, checked.
#[derive(Debug)]
pub struct ShardDir {
    /// The folder.
    pub dir: PathBuf,
    /// Its shard file.
    pub info: ShardInfo,
}

/// Shards that merge: their folders in shard order, and every game's record in schedule order.
#[derive(Debug)]
pub struct Merged {
    /// What the shards share (the first shard's file).
    pub info: ShardInfo,
    /// The folders, by shard.
    pub shards: Vec<ShardDir>,
    /// Every game of the schedule.
    pub records: Vec<GameRecord>,
}

/// What two shard files of different tournaments differ in, for the error.
fn difference(a: &ShardInfo, b: &ShardInfo) -> String {
    if a.name != b.name {
        format!("its event is `{}`, not `{}`", b.name, a.name)
    } else if a.seed != b.seed {
        format!("its seed is {}, not {}", b.seed, a.seed)
    } else if a.bots != b.bots {
        format!(
            "its bots are {}, not {}",
            b.bots.join(", "),
            a.bots.join(", ")
        )
    } else if a.layout != b.layout {
        format!(
            "its schedule has {} games, not {}",
            b.layout.games, a.layout.games
        )
    } else {
        "another config (the variants, openings, time control, bot commands, options or walls differ)".to_owned()
    }
}

/// Reads and checks shard folders, and returns every game's record.
pub fn merge(dirs: &[PathBuf]) -> Result<Merged, MergeError> {
    let mut shards: BTreeMap<u32, ShardDir> = BTreeMap::new();
    let mut first: Option<ShardDir> = None;
    for dir in dirs {
        let info = ShardInfo::read(dir)
            .map_err(MergeError::Read)?
            .ok_or_else(|| MergeError::NotAShard(dir.clone()))?;
        if let Some(f) = &first {
            if info.shard.count != f.info.shard.count {
                return Err(MergeError::OtherCount {
                    dir: dir.clone(),
                    shard: info.shard,
                    first: f.dir.clone(),
                    first_shard: f.info.shard,
                });
            }
            if info.tournament != f.info.tournament {
                return Err(MergeError::OtherTournament {
                    dir: dir.clone(),
                    first: f.dir.clone(),
                    what: difference(&f.info, &info),
                });
            }
        }
        let shard = ShardDir {
            dir: dir.clone(),
            info,
        };
        if let Some(other) = shards.get(&shard.info.shard.index) {
            return Err(MergeError::Twice {
                shard: shard.info.shard,
                a: other.dir.clone(),
                b: shard.dir,
            });
        }
        if first.is_none() {
            first = Some(ShardDir {
                dir: shard.dir.clone(),
                info: shard.info.clone(),
            });
        }
        shards.insert(shard.info.shard.index, shard);
    }
    let info = first.ok_or(MergeError::NoShards)?.info;
    let (layout, count) = (info.layout, info.shard.count);
    let missing: Vec<(u32, Vec<u32>)> = (0..count)
        .filter(|i| !shards.contains_key(i))
        .map(|index| (index, layout.games_of(Shard { index, count })))
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing { missing, count });
    }
    let mut records = Vec::with_capacity(layout.games as usize);
    for shard in shards.values() {
        let mut found = read_records(&shard.dir)?;
        let expected = layout.games_of(shard.info.shard);
        if let Some(&game) = found.keys().find(|g| expected.binary_search(g).is_err()) {
            return Err(MergeError::Stray {
                dir: shard.dir.clone(),
                shard: shard.info.shard,
                game,
            });
        }
        let missing: Vec<u32> = expected
            .iter()
            .copied()
            .filter(|g| !found.contains_key(g))
            .collect();
        if !missing.is_empty() {
            return Err(MergeError::Incomplete {
                dir: shard.dir.clone(),
                shard: shard.info.shard,
                missing,
                total: expected.len(),
            });
        }
        records.extend(expected.iter().filter_map(|g| found.remove(g)));
    }
    records.sort_by_key(|r| r.game);
    Ok(Merged {
        info,
        shards: shards.into_values().collect(),
        records,
    })
}

/// The records of a shard's journal, by game number.
fn read_records(dir: &Path) -> Result<BTreeMap<u32, GameRecord>, MergeError> {
    Ok(journal_records(&dir.join("journal.jsonl"))
        .map_err(MergeError::Journal)?
        .into_iter()
        .map(|r| (r.game, r))
        .collect())
}
