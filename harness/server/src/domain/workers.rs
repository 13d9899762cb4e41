//! Remote workers (`quads worker`, crate::remote): the host adds one and its token; a worker's
//! slot claims a match, renews its lease while it plays, gives up on it, or hands in its games
//! and the bots' logs, which count only while the slot still holds the match. A slot may also
//! be given a bot's turn in a person's game (crate::domain::bot_turns) and answer it. Who is asking
//! (the worker a token names) is the front end's to decide; everything here takes a [`Slot`].

use std::collections::{BTreeMap, HashSet};

use quads_record::{GameRecord, Player};
use serde::Serialize;

use quads_rules::Move;

use super::bot_turns;
use super::entrants::{check_name, secret};
use super::{App, DomainError};
use crate::ladder::worker::{ended, folder, hand_in, judge, next_match, GAMES, LOCAL};
use crate::secret::hash;
use crate::store::MatchJob;
use crate::wire::{self, Answer, Assignment, Claimed, News, Side, MAX_NEWS};

/// A worker added: its name and its token, shown once.
#[derive(Debug, Clone, Serialize)]
pub struct NewWorker {
    pub name: String,
    pub token: String,
}

/// Adds remote worker `name` (never one of the server's own names): its token.
pub async fn add(app: &App, name: &str) -> Result<NewWorker, DomainError> {
    check_name(name)?;
    if name.starts_with(LOCAL) {
        return Err(DomainError::Invalid(format!(
            "a worker's name may not start with `{LOCAL}`: the server's own workers have those"
        )));
    }
    let token = secret()?;
    app.0.store.add_worker(name, &hash(&token)).await?;
    Ok(NewWorker {
        name: name.to_owned(),
        token,
    })
}

/// A remote worker and the matches its slots hold now.
#[derive(Debug, Clone, Serialize)]
pub struct Worker {
    pub name: String,
    pub running: Vec<Running>,
}

/// A match a slot holds.
#[derive(Debug, Clone, Serialize)]
pub struct Running {
    #[serde(rename = "match")]
    pub id: i64,
    pub slot: String,
}

/// Every remote worker, each with the matches its slots hold.
pub async fn list(app: &App) -> Result<Vec<Worker>, DomainError> {
    let store = &app.0.store;
    let holders = store.holders().await?;
    Ok(store
        .workers()
        .await?
        .into_iter()
        .map(|name| {
            let prefix = format!("{name}/");
            let running = holders
                .iter()
                .filter_map(|(id, h)| {
                    let slot = h.strip_prefix(&prefix)?;
                    Some(Running {
                        id: *id,
                        slot: slot.to_owned(),
                    })
                })
                .collect();
            Worker { name, running }
        })
        .collect())
}

/// One slot of a remote worker: the holder of the matches it plays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot(String);

impl Slot {
    /// Slot `slot` of worker `worker`, or a refusal of a name that is not a slot's.
    pub fn new(worker: &str, slot: &str) -> Result<Slot, DomainError> {
        if wire::is_slot(slot) {
            Ok(Slot(wire::holder(worker, slot)))
        } else {
            Err(DomainError::Invalid(
                "a slot's name has 1 to 48 letters, digits, `-`, `_` or `.`".to_owned(),
            ))
        }
    }
}

/// The next work for the slot: a bot's turn in a person's game (first: a person is waiting),
/// or a match; nothing if there is none now (the front end waits and asks again).
pub async fn claim(app: &App, slot: &Slot) -> Result<Claimed, DomainError> {
    if let Some(turn) = bot_turns::claim(app, &slot.0).await? {
        return Ok(Claimed {
            job: None,
            turn: Some(turn),
        });
    }
    let config = &app.0.config;
    let Some(job) = next_match(config, &app.0.store, &app.0.bench, &slot.0).await? else {
        return Ok(Claimed::default());
    };
    app.0.signals.bump(); // it runs
    let names = [job.first_name.as_str(), job.second_name.as_str()];
    app.0.live.begin(job.id, &slot.0, names, &job.rules, GAMES);
    let side = |version, entrant: &str, digest: &str| Side {
        version,
        entrant: entrant.to_owned(),
        digest: digest.to_owned(),
    };
    Ok(Claimed {
        job: Some(Assignment {
            id: job.id,
            first: side(job.first, &job.first_name, &job.first_digest),
            second: side(job.second, &job.second_name, &job.second_digest),
            rules: job.rules,
            seed: job.seed,
            lease: config.lease,
            event: config.event(),
        }),
        turn: None,
    })
}

/// The slot's answer to the bot's turn in game `play` it claimed: kept if the slot still
/// holds the turn (else `false`, and the answer does not count); a move that is not legal
/// there, or a fault that is not the referee's, is refused.
pub async fn answer(app: &App, play: &str, slot: &Slot, a: &Answer) -> Result<bool, DomainError> {
    let outcome = match (&a.mv, &a.fault) {
        (Some(mv), None) => {
            let mv: Move = mv
                .parse()
                .map_err(|e| DomainError::Invalid(format!("move `{mv}`: {e}")))?;
            Ok((mv, a.took_ms))
        }
        (None, Some(fault)) => Err(fault.clone()),
        _ => {
            return Err(DomainError::Invalid(
                "answer a turn with a move or a fault, not both".to_owned(),
            ))
        }
    };
    bot_turns::answer(app, play, &slot.0, a.after, outcome).await
}

/// Renews the slot's lease on match `id`: whether the slot still holds it.
pub async fn heartbeat(app: &App, id: i64, slot: &Slot) -> Result<bool, DomainError> {
    Ok(app
        .0
        .store
        .heartbeat(id, &slot.0, app.0.config.lease)
        .await?)
}

/// The slot could not play match `id` (`reason` in one line); it is not played again. Whether
/// the slot still held it.
pub async fn fail(app: &App, id: i64, slot: &Slot, reason: &str) -> Result<bool, DomainError> {
    if reason.trim().is_empty() || reason.contains('\n') || reason.len() > 1000 {
        return Err(DomainError::Invalid(
            "give the reason in one line".to_owned(),
        ));
    }
    let store = &app.0.store;
    let held = store.heartbeat(id, &slot.0, app.0.config.lease).await?;
    if held {
        let holder = &slot.0;
        store
            .fail_match(id, holder, &format!("worker {holder}: {reason}"))
            .await?;
        app.0.signals.bump();
        ended(&app.0.store, &app.0.live, id, holder).await;
    }
    Ok(held)
}

/// What the slot's match did since its last post (crate::ladder::live): shown to its
/// watchers if the slot still holds the match, whose lease it renews as a heartbeat does.
/// Whether the slot held it.
pub async fn live(app: &App, id: i64, slot: &Slot, news: Vec<News>) -> Result<bool, DomainError> {
    if news.len() > MAX_NEWS {
        return Err(DomainError::Invalid(format!(
            "at most {MAX_NEWS} news in a post; {} were sent",
            news.len()
        )));
    }
    let held = heartbeat(app, id, slot).await?;
    if held {
        for n in news {
            app.0.live.news(id, &slot.0, n);
        }
    }
    Ok(held)
}

/// Match `id`'s games as the slot plays them (each replayed here: legal moves, the match's
/// bots and variant, games 1 and 2) and the bots' logs by file: whether they counted (the slot
/// still held the match). The games are kept in the database only; the logs (and the solver's
/// marks) in the match's folder, as the server's own worker leaves them.
pub async fn finish(
    app: &App,
    id: i64,
    slot: &Slot,
    games: &[serde_json::Value],
    logs: &BTreeMap<String, String>,
) -> Result<bool, DomainError> {
    let config = &app.0.config;
    let store = &app.0.store;
    let Some(job) = store.running_match(id, &slot.0).await? else {
        return Ok(false);
    };
    let records = check_games(&job, games)?;
    let allowed: HashSet<String> = records
        .iter()
        .flat_map(|r| [r.log_file(Player::First), r.log_file(Player::Second)])
        .flatten()
        .collect();
    if let Some(file) = logs.keys().find(|k| !allowed.contains(*k)) {
        return Err(DomainError::Invalid(format!(
            "log `{file}` is not a log these games left"
        )));
    }
    let out = folder(config, id);
    let logs_dir = out.join(quads_record::files::LOGS);
    let write = |path: &std::path::Path, text: &[u8]| {
        std::fs::write(path, text)
            .map_err(|e| DomainError::failed(format!("{}: {e}", path.display())))
    };
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&logs_dir)
        .map_err(|e| DomainError::failed(format!("{}: {e}", logs_dir.display())))?;
    for (file, text) in logs {
        write(&logs_dir.join(file), text.as_bytes())?;
    }
    if config.analysis {
        judge(out, records.clone())
            .await
            .map_err(DomainError::Failed)?;
    }
    let held = hand_in(config, store, &job, &slot.0, &records, false).await?;
    app.0.signals.bump();
    ended(store, &app.0.live, id, &slot.0).await;
    Ok(held)
}

/// The games a worker sent, as records of this match, or a one-line refusal.
fn check_games(
    job: &MatchJob,
    games: &[serde_json::Value],
) -> Result<Vec<GameRecord>, DomainError> {
    if games.len() != GAMES as usize {
        return Err(DomainError::Invalid(format!(
            "a match has {GAMES} games; {} were sent",
            games.len()
        )));
    }
    let mut out = Vec::new();
    for (i, g) in games.iter().enumerate() {
        let n = i as u32 + 1;
        let r: GameRecord = serde_json::from_value(g.clone())
            .map_err(|e| DomainError::Invalid(format!("game {n}: not a game record: {e}")))?;
        // Game 1 has the match's first version first; game 2 swaps the seats.
        let seats = if quads_referee::swapped(n) {
            (&job.second_name, &job.first_name)
        } else {
            (&job.first_name, &job.second_name)
        };
        let wrong = if r.game != n {
            Some(format!("it is numbered {}", r.game))
        } else if (&r.first.name, &r.second.name) != seats {
            Some(format!(
                "its bots are {} and {}",
                r.first.name, r.second.name
            ))
        } else if r.rules != job.rules {
            Some(format!("its variant is {}", r.rules))
        } else {
            quads_record::replay::replay(&r)
                .error
                .map(|e| format!("it does not replay: {e}"))
        };
        if let Some(why) = wrong {
            return Err(DomainError::Invalid(format!(
                "game {n} is not this match's: {why}"
            )));
        }
        out.push(r);
    }
    Ok(out)
}

/// Version pack `digest` as the server keeps it (gzip), or not found.
pub async fn pack(app: &App, digest: &str) -> Result<Vec<u8>, DomainError> {
    let no_pack = || DomainError::NotFound("no such pack".to_owned());
    if digest.len() != 64
        || !digest
            .bytes()
            .all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'))
    {
        return Err(no_pack());
    }
    tokio::fs::read(app.0.config.blob(digest))
        .await
        .map_err(|_| no_pack())
}
