//! `quads worker`: a worker on another machine. It holds no database credentials, only a
//! worker's token: each of its slots (threads) claims a match over HTTP (crate::wire), fetches
//! the two versions' packs (checked against their digests), builds and checks each in the
//! sandbox as the server's pipeline does (once per digest, kept under its data folder), renews
//! its lease while it builds and plays, plays the match with the referee as the server's own
//! workers do, and hands in the games and the bots' logs. A worker that is killed, cut off or
//! too slow loses its lease; the server plays the match again, and counts its games once.
//! A slot may also be given a bot's turn in a person's game on the play page (turn.rs): it
//! plays one move of the bot's, built the same way, and answers it.
//! A worker's folder is its own while it runs (locked): a second worker given it refuses.

mod client;
mod turn;

pub use client::{CallError, Client};

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use quads_record::GameRecord;

use crate::ladder::worker::{heartbeat_every, play};
use crate::ladder::Ready;
use crate::store::MatchJob;
use crate::wire::{self, Assignment, Finish, Side, MAX_NEWS, MAX_SLOTS};

/// How a remote worker runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// The server, e.g. `http://10.0.0.1:8080`.
    pub server: String,
    /// The worker's token (made by the host: `POST /api/admin/workers`).
    pub token: String,
    /// Matches played at once (slots), 1 to 64.
    pub concurrency: u32,
    /// Its folder: packs, builds, and each match while it plays.
    pub data: PathBuf,
    /// Stop once this many matches are handed in (none: work until killed).
    pub matches: Option<u64>,
}

/// What a worker tells its front end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A slot took a match.
    Took {
        /// The slot.
        slot: u32,
        /// The match.
        id: i64,
        /// Its entrants, the first seat of game 1 first.
        first: String,
        /// The other.
        second: String,
        /// Its variant.
        rules: String,
    },
    /// A version was built and checked here (once per digest).
    Built {
        /// Whose.
        entrant: String,
        /// Its row on the server.
        version: i64,
        /// Whether it passed.
        admitted: bool,
        /// `admitted`, or why not.
        reason: String,
    },
    /// A slot played a bot's turn in a person's game on the play page.
    Answered {
        /// The slot.
        slot: u32,
        /// The game.
        play: String,
        /// The bot's entrant.
        entrant: String,
        /// The bot's move, or the fault it lost by.
        answer: String,
        /// False if the slot had lost its lease: the answer does not count.
        counted: bool,
    },
    /// A match's games were handed in.
    HandedIn {
        /// The slot.
        slot: u32,
        /// The match.
        id: i64,
        /// False if the slot had lost its lease: the games do not count.
        counted: bool,
        /// The games' results, as records write them.
        result: String,
    },
    /// A match could not be played here, and was given up with the reason.
    GaveUp {
        /// The slot.
        slot: u32,
        /// The match.
        id: i64,
        /// Why.
        why: String,
    },
    /// The server could not be reached: the slot tries again after `retry`.
    Unreachable {
        /// The slot.
        slot: u32,
        /// What failed.
        why: String,
        /// The wait before the next try.
        retry: Duration,
    },
}

/// Why a worker stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WorkerError {
    /// Too few or too many slots.
    #[error("--concurrency {0}: give 1 to {MAX_SLOTS}")]
    Concurrency(u32),
    /// Its folder.
    #[error("cannot use {}: {source}", path.display())]
    Data {
        /// Which.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Another worker is using the folder (each needs its own: packs, builds and matches
    /// written by two at once would be torn).
    #[error("{} is in use by another quads worker: give each worker its own --data", path.display())]
    InUse {
        /// The folder.
        path: PathBuf,
    },
    /// The server refused a call: the token or the worker is wrong.
    #[error(transparent)]
    Refused(CallError),
}

/// How long a claim waits on the server for a match.
const CLAIM_WAIT: u64 = 20;
/// The longest wait between tries at an unreachable server.
const MAX_RETRY: Duration = Duration::from_secs(10);

/// Works until `matches` are handed in (or forever), `concurrency` matches at once.
pub fn run(options: &Options, events: &(dyn Fn(Event) + Sync)) -> Result<(), WorkerError> {
    if !(1..=MAX_SLOTS).contains(&options.concurrency) {
        return Err(WorkerError::Concurrency(options.concurrency));
    }
    for dir in ["packs", "builds", "matches"] {
        let path = options.data.join(dir);
        std::fs::create_dir_all(&path).map_err(|source| WorkerError::Data { path, source })?;
    }
    // Held while the worker runs; the kernel lets it go however the worker ends.
    let _lock = lock(&options.data)?;
    let shared = Shared {
        client: Client::new(&options.server, &options.token),
        data: options.data.clone(),
        builds: Mutex::default(),
        building: Mutex::default(),
        taken: AtomicU64::new(0),
        limit: options.matches,
        stop: AtomicBool::new(false),
        events,
    };
    std::thread::scope(|scope| {
        let slots: Vec<_> = (1..=options.concurrency)
            .map(|slot| {
                let shared = &shared;
                scope.spawn(move || {
                    let done = shared.work(slot);
                    if done.is_err() {
                        shared.stop.store(true, Ordering::SeqCst);
                    }
                    done
                })
            })
            .collect();
        let mut first = Ok(());
        for s in slots {
            let done = s.join().unwrap_or(Ok(()));
            if first.is_ok() {
                first = done;
            }
        }
        first
    })
}

/// A version built here: its bot, or why it cannot play.
type Build = Result<Arc<Ready>, String>;

struct Shared<'a> {
    client: Client,
    data: PathBuf,
    /// By digest.
    builds: Mutex<HashMap<String, Build>>,
    /// One build at a time.
    building: Mutex<()>,
    /// Matches claimed so far, by every slot.
    taken: AtomicU64,
    limit: Option<u64>,
    /// A slot hit a refusal: the others stop too.
    stop: AtomicBool,
    events: &'a (dyn Fn(Event) + Sync),
}

impl Shared<'_> {
    /// One slot's loop.
    fn work(&self, slot: u32) -> Result<(), WorkerError> {
        let mut retry = Duration::from_secs(1);
        loop {
            if self.stop.load(Ordering::SeqCst) {
                return Ok(());
            }
            if let Some(limit) = self.limit {
                if self.taken.fetch_add(1, Ordering::SeqCst) >= limit {
                    return Ok(());
                }
            }
            let claimed = match self.client.claim(slot, CLAIM_WAIT) {
                Ok(c) => c,
                Err(e) => {
                    self.give_back_count();
                    self.unreachable(slot, e, &mut retry)?;
                    continue;
                }
            };
            retry = Duration::from_secs(1);
            if let Some(t) = &claimed.turn {
                // A bot's turn does not count towards the matches.
                self.give_back_count();
                if let Err(e) = self.turn(slot, t) {
                    self.unreachable(slot, e, &mut retry)?;
                }
                continue;
            }
            let Some(job) = claimed.job else {
                self.give_back_count();
                continue;
            };
            if let Err(e) = self.one(slot, &job) {
                // The server gives the match to this slot again at its next claim, or to
                // another worker once its lease runs out.
                self.unreachable(slot, e, &mut retry)?;
            }
        }
    }

    /// A claim that brought no match does not count towards the limit.
    fn give_back_count(&self) {
        if self.limit.is_some() {
            self.taken.fetch_sub(1, Ordering::SeqCst);
        }
    }

    /// Waits out an unreachable server (doubling the wait up to [`MAX_RETRY`]); a refusal ends
    /// the worker.
    fn unreachable(
        &self,
        slot: u32,
        e: CallError,
        retry: &mut Duration,
    ) -> Result<(), WorkerError> {
        match e {
            CallError::Refused { .. } => Err(WorkerError::Refused(e)),
            CallError::Unreachable { .. } => {
                self.wait_out(slot, e.to_string(), retry);
                Ok(())
            }
        }
    }

    /// Says the server is away, waits `retry`, and doubles it (up to [`MAX_RETRY`]).
    fn wait_out(&self, slot: u32, why: String, retry: &mut Duration) {
        (self.events)(Event::Unreachable {
            slot,
            why,
            retry: *retry,
        });
        std::thread::sleep(*retry);
        *retry = (*retry * 2).min(MAX_RETRY);
    }

    /// Builds, plays and hands in one match, renewing its lease meanwhile.
    fn one(&self, slot: u32, a: &Assignment) -> Result<(), CallError> {
        (self.events)(Event::Took {
            slot,
            id: a.id,
            first: a.first.entrant.clone(),
            second: a.second.entrant.clone(),
            rules: a.rules.clone(),
        });
        let (stop, stopped) = mpsc::channel::<()>();
        let beat = {
            let client = self.client.clone();
            let (id, every) = (a.id, heartbeat_every(a.lease));
            std::thread::spawn(move || {
                // Renews until told to stop (or the channel goes), or the lease is lost.
                while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(every) {
                    if matches!(client.heartbeat(id, slot), Ok(false)) {
                        return;
                    }
                }
            })
        };
        let played = self.build_and_play(a, slot);
        // The heartbeat stops at its next tick (not joined: a call in flight may take a while).
        drop(stop);
        drop(beat);
        let out = self.data.join("matches").join(a.id.to_string());
        let done = match played {
            Ok(records) => {
                let finish = Finish {
                    slot: self.client.slot(slot),
                    games: records
                        .iter()
                        .map(|r| serde_json::to_value(r).unwrap_or_default())
                        .collect(),
                    logs: logs(&out),
                };
                // Handed in once the server answers: if it was away too long, the lease is
                // lost and the answer says the games do not count.
                let mut retry = Duration::from_secs(1);
                let counted = loop {
                    match self.client.finish(a.id, &finish) {
                        Err(e @ CallError::Unreachable { .. }) => {
                            self.wait_out(slot, e.to_string(), &mut retry)
                        }
                        done => break done?,
                    }
                };
                (self.events)(Event::HandedIn {
                    slot,
                    id: a.id,
                    counted,
                    result: records
                        .iter()
                        .map(|r| r.result.to_string())
                        .collect::<Vec<_>>()
                        .join(" "),
                });
                Ok(())
            }
            Err(why) => {
                self.client.fail(a.id, slot, &why)?;
                (self.events)(Event::GaveUp {
                    slot,
                    id: a.id,
                    why,
                });
                Ok(())
            }
        };
        let _ = std::fs::remove_dir_all(&out);
        done
    }

    fn build_and_play(&self, a: &Assignment, slot: u32) -> Result<Vec<GameRecord>, String> {
        let first = self.built(&a.event, &a.first)?;
        let second = self.built(&a.event, &a.second)?;
        let job = MatchJob {
            id: a.id,
            first: a.first.version,
            second: a.second.version,
            first_name: a.first.entrant.clone(),
            second_name: a.second.entrant.clone(),
            first_digest: a.first.digest.clone(),
            second_digest: a.second.digest.clone(),
            rules: a.rules.clone(),
            seed: a.seed,
        };
        let out = self.data.join("matches").join(a.id.to_string());
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        // The match's moves go to the server as they are played, what came meanwhile in one
        // post, and all of them before the games are handed in. Best effort: a post that fails
        // loses only what a watcher would have seen early (a game's end carries its moves).
        let (news, mut told) = tokio::sync::mpsc::unbounded_channel();
        let poster = {
            let (client, id) = (self.client.clone(), a.id);
            std::thread::spawn(move || {
                while let Some(first) = told.blocking_recv() {
                    let mut batch = vec![first];
                    while batch.len() < MAX_NEWS {
                        match told.try_recv() {
                            Ok(n) => batch.push(n),
                            Err(_) => break,
                        }
                    }
                    let _ = client.live(id, slot, batch);
                }
            })
        };
        let played = runtime.block_on(play(
            &a.event.movetime,
            &job,
            &first.bot,
            &second.bot,
            out,
            news,
        ));
        let _ = poster.join();
        played
    }

    /// The version built and checked here, from its pack (fetched once, checked against its
    /// digest), or why it cannot play here.
    fn built(&self, event: &wire::Event, side: &Side) -> Result<Arc<Ready>, String> {
        if let Some(b) = self.lock_builds().get(&side.digest) {
            return b.clone();
        }
        let _one = self.building.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(b) = self.lock_builds().get(&side.digest) {
            return b.clone();
        }
        // Fetching can fail for a while (the server away): that is not kept, and the match
        // is given up.
        self.fetch(side)?;
        let build = self.build(event, side);
        (self.events)(Event::Built {
            entrant: side.entrant.clone(),
            version: side.version,
            admitted: build.is_ok(),
            reason: match &build {
                Ok(_) => "admitted".to_owned(),
                Err(why) => why.clone(),
            },
        });
        self.lock_builds()
            .insert(side.digest.clone(), build.clone());
        build
    }

    fn lock_builds(&self) -> std::sync::MutexGuard<'_, HashMap<String, Build>> {
        self.builds.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn pack_path(&self, side: &Side) -> PathBuf {
        self.data
            .join("packs")
            .join(format!("{}.tar.gz", side.digest))
    }

    /// The version's pack, fetched if it is not here yet, and checked against its digest.
    fn fetch(&self, side: &Side) -> Result<(), String> {
        let pack = self.pack_path(side);
        if !pack.exists() {
            let bytes = self
                .client
                .pack(&side.digest)
                .map_err(|e| format!("cannot fetch {}'s files: {e}", side.entrant))?;
            if crate::pack::digest(&bytes) != side.digest {
                return Err(format!(
                    "{}'s files do not have the digest the server gave",
                    side.entrant
                ));
            }
            write_new(&pack, &bytes)?;
        }
        Ok(())
    }

    /// The version built and checked from its pack.
    fn build(&self, event: &wire::Event, side: &Side) -> Build {
        let pack = self.pack_path(side);
        let dir = self.data.join("builds").join(&side.digest);
        let (ready, reason) = crate::pipeline::admit_pack(event, &side.entrant, &pack, &dir, None)?;
        match ready {
            Some(r) => Ok(Arc::new(r)),
            None => Err(format!(
                "{} (version {}) failed its check on this worker: {reason}",
                side.entrant, side.version
            )),
        }
    }
}

/// The worker's folder, locked for this worker alone (a lock file in it, `flock`ed), or
/// [`WorkerError::InUse`].
fn lock(data: &Path) -> Result<std::fs::File, WorkerError> {
    let path = data.join(LOCK);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|source| WorkerError::Data {
            path: path.clone(),
            source,
        })?;
    use rustix::fs::{flock, FlockOperation};
    match flock(&file, FlockOperation::NonBlockingLockExclusive) {
        Ok(()) => Ok(file),
        Err(rustix::io::Errno::WOULDBLOCK) => Err(WorkerError::InUse {
            path: data.to_owned(),
        }),
        Err(e) => Err(WorkerError::Data {
            path,
            source: e.into(),
        }),
    }
}

/// The lock file in a worker's folder.
const LOCK: &str = "worker.lock";

/// Writes a file whole (through a temporary name beside it), so a worker killed meanwhile
/// leaves no torn pack.
fn write_new(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let part = path.with_extension("part");
    std::fs::write(&part, bytes)
        .and_then(|()| std::fs::rename(&part, path))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The bots' logs of a match played in `out`, by file name.
fn logs(out: &Path) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    let Ok(dir) = std::fs::read_dir(out.join(quads_record::files::LOGS)) else {
        return found;
    };
    for entry in dir.flatten() {
        if let (Some(name), Ok(bytes)) = (
            entry.file_name().to_str().map(str::to_owned),
            std::fs::read(entry.path()),
        ) {
            found.insert(name, String::from_utf8_lossy(&bytes).into_owned());
        }
    }
    found
}
