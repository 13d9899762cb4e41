//! Remote workers' calls (`quads worker`, crate::remote; the types are crate::wire): the host
//! makes a worker and its token; a worker claims a match for one of its slots (a long poll),
//! fetches the two versions' packs, renews its lease while it plays, and hands in the games
//! and the bots' logs, which count only if its slot still holds the match. A worker never
//! sees the database; its token is kept hashed and opens these calls only.

use std::collections::HashSet;

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use quads_record::GameRecord;
use serde::Deserialize;
use serde_json::json;

use super::{admin, bearer, body, unauthorized, App, Body, UrlPath, Waiter};
use crate::domain::entrants::{check_name, secret};
use crate::ladder::worker::{folder, hand_in, judge, next_match, GAMES, LOCAL};
use crate::secret::{hash, same};
use crate::store::MatchJob;
use crate::wire::{self, Assignment, Claim, Claimed, Finish, Held, Hold, Side};
use crate::ApiError;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct NewWorker {
    name: String,
}

/// `POST /api/admin/workers`: a new worker and its token, shown once.
pub(super) async fn add(
    State(app): State<App>,
    headers: HeaderMap,
    b: Body<NewWorker>,
) -> Result<Response, ApiError> {
    admin(&app, &headers).await?;
    let name = body(b)?.name;
    check_name(&name)?;
    if name.starts_with(LOCAL) {
        return Err(ApiError::bad(format!(
            "a worker's name may not start with `{LOCAL}`: the server's own workers have those"
        )));
    }
    let token = secret()?;
    app.0.store.add_worker(&name, &hash(&token)).await?;
    let body = json!({ "name": name, "token": token });
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// `GET /api/admin/workers`: every remote worker, and the matches each slot holds now.
pub(super) async fn list(State(app): State<App>, headers: HeaderMap) -> Result<Response, ApiError> {
    super::host_reader(&app, &headers).await?;
    let store = &app.0.store;
    let holders = store.holders().await?;
    let workers: Vec<_> = store
        .workers()
        .await?
        .into_iter()
        .map(|name| {
            let prefix = format!("{name}/");
            let running: Vec<_> = holders
                .iter()
                .filter(|(_, h)| h.starts_with(&prefix))
                .map(|(id, h)| json!({ "match": id, "slot": &h[prefix.len()..] }))
                .collect();
            json!({ "name": name, "running": running })
        })
        .collect();
    Ok(Json(json!({ "workers": workers })).into_response())
}

/// The worker the request's token names, or a refusal (403 for the host's or an entrant's
/// token: these calls are a worker's only).
async fn worker(app: &App, headers: &HeaderMap) -> Result<String, ApiError> {
    let token = bearer(headers).ok_or_else(unauthorized)?;
    if let Some(name) = app.0.store.worker_of(&hash(token)).await? {
        return Ok(name);
    }
    if same(token, &app.0.config.admin_token)
        || app.0.store.entrant_of(&hash(token)).await?.is_some()
    {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "only a worker's token opens the worker calls",
        ));
    }
    Err(unauthorized())
}

fn check_slot(slot: &str) -> Result<(), ApiError> {
    if wire::is_slot(slot) {
        Ok(())
    } else {
        Err(ApiError::bad(
            "a slot's name has 1 to 48 letters, digits, `-`, `_` or `.`",
        ))
    }
}

fn assignment(app: &App, job: &MatchJob) -> Assignment {
    let config = &app.0.config;
    let side = |version, entrant: &str, digest: &str| Side {
        version,
        entrant: entrant.to_owned(),
        digest: digest.to_owned(),
    };
    Assignment {
        id: job.id,
        first: side(job.first, &job.first_name, &job.first_digest),
        second: side(job.second, &job.second_name, &job.second_digest),
        rules: job.rules.clone(),
        seed: job.seed,
        lease: config.lease,
        event: config.event(),
    }
}

/// `POST /api/worker/claim`: the next match for the slot, waiting up to `wait` seconds.
pub(super) async fn claim(
    State(app): State<App>,
    headers: HeaderMap,
    b: Body<Claim>,
) -> Result<Response, ApiError> {
    let name = worker(&app, &headers).await?;
    let c = body(b)?;
    check_slot(&c.slot)?;
    let holder = wire::holder(&name, &c.slot);
    let mut waiter = Waiter::new(&app, Some(c.wait));
    let store = &app.0.store;
    loop {
        if let Some(job) = next_match(&app.0.config, store, &app.0.bench, &holder).await? {
            app.0.signals.changed.send_modify(|n| *n += 1); // it runs
            let job = Some(assignment(&app, &job));
            return Ok(Json(Claimed { job }).into_response());
        }
        if !waiter.again().await {
            return Ok(Json(Claimed { job: None }).into_response());
        }
    }
}

/// `POST /api/worker/matches/{id}/heartbeat`: renews the slot's lease.
pub(super) async fn heartbeat(
    State(app): State<App>,
    headers: HeaderMap,
    UrlPath(id): UrlPath<i64>,
    b: Body<Hold>,
) -> Result<Response, ApiError> {
    let name = worker(&app, &headers).await?;
    let h = body(b)?;
    check_slot(&h.slot)?;
    let holder = wire::holder(&name, &h.slot);
    let held = app
        .0
        .store
        .heartbeat(id, &holder, app.0.config.lease)
        .await?;
    Ok(Json(Held { held }).into_response())
}

/// `POST /api/worker/matches/{id}/fail`: the slot could not play the match (the reason in one
/// line); it is not played again.
pub(super) async fn fail(
    State(app): State<App>,
    headers: HeaderMap,
    UrlPath(id): UrlPath<i64>,
    b: Body<Hold>,
) -> Result<Response, ApiError> {
    let name = worker(&app, &headers).await?;
    let h = body(b)?;
    check_slot(&h.slot)?;
    let reason = h.reason.unwrap_or_default();
    if reason.trim().is_empty() || reason.contains('\n') || reason.len() > 1000 {
        return Err(ApiError::bad("give the reason in one line"));
    }
    let holder = wire::holder(&name, &h.slot);
    let store = &app.0.store;
    let held = store.heartbeat(id, &holder, app.0.config.lease).await?;
    if held {
        store
            .fail_match(id, &holder, &format!("worker {holder}: {reason}"))
            .await?;
        app.0.signals.changed.send_modify(|n| *n += 1);
    }
    Ok(Json(Held { held }).into_response())
}

/// `POST /api/worker/matches/{id}/finish`: the match's games (each replayed here: legal moves,
/// the match's bots and variant, games 1 and 2) and their logs; they count if the slot still
/// holds the match.
pub(super) async fn finish(
    State(app): State<App>,
    headers: HeaderMap,
    UrlPath(id): UrlPath<i64>,
    b: Body<Finish>,
) -> Result<Response, ApiError> {
    let name = worker(&app, &headers).await?;
    let f = body(b)?;
    check_slot(&f.slot)?;
    let holder = wire::holder(&name, &f.slot);
    let config = &app.0.config;
    let store = &app.0.store;
    let Some(job) = store.running_match(id, &holder).await? else {
        return Ok(Json(Held { held: false }).into_response());
    };
    let records = check_games(&job, &f.games)?;
    let allowed: HashSet<String> = records
        .iter()
        .flat_map(|r| {
            [
                r.log_file(quads_record::Player::First),
                r.log_file(quads_record::Player::Second),
            ]
        })
        .flatten()
        .collect();
    if let Some(file) = f.logs.keys().find(|k| !allowed.contains(*k)) {
        return Err(ApiError::bad(format!(
            "log `{file}` is not a log these games left"
        )));
    }
    // The match's folder as the server's own worker leaves it: games.jsonl and logs/.
    let out = folder(config, id);
    let logs = out.join(quads_record::files::LOGS);
    let write = |path: &std::path::Path, text: &[u8]| {
        std::fs::write(path, text)
            .map_err(|e| ApiError::internal(format!("{}: {e}", path.display())))
    };
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&logs)
        .map_err(|e| ApiError::internal(format!("{}: {e}", logs.display())))?;
    for (file, text) in &f.logs {
        write(&logs.join(file), text.as_bytes())?;
    }
    let lines: String = records.iter().map(|r| r.to_json() + "\n").collect();
    write(&out.join(quads_record::files::GAMES), lines.as_bytes())?;
    if config.analysis {
        judge(out, records.clone())
            .await
            .map_err(ApiError::internal)?;
    }
    let held = hand_in(config, store, &job, &holder, &records).await?;
    app.0.signals.changed.send_modify(|n| *n += 1);
    Ok(Json(Held { held }).into_response())
}

/// The games a worker sent, as records of this match, or a one-line refusal.
fn check_games(job: &MatchJob, games: &[serde_json::Value]) -> Result<Vec<GameRecord>, ApiError> {
    if games.len() != GAMES as usize {
        return Err(ApiError::bad(format!(
            "a match has {GAMES} games; {} were sent",
            games.len()
        )));
    }
    let mut out = Vec::new();
    for (i, g) in games.iter().enumerate() {
        let n = i as u32 + 1;
        let r: GameRecord = serde_json::from_value(g.clone())
            .map_err(|e| ApiError::bad(format!("game {n}: not a game record: {e}")))?;
        // Game 1 has the match's first version first; game 2 swaps the seats.
        let seats = if n % 2 == 1 {
            (&job.first_name, &job.second_name)
        } else {
            (&job.second_name, &job.first_name)
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
            return Err(ApiError::bad(format!(
                "game {n} is not this match's: {why}"
            )));
        }
        out.push(r);
    }
    Ok(out)
}

/// `GET /api/worker/packs/{digest}`: a version's files as the server keeps them.
pub(super) async fn pack(
    State(app): State<App>,
    headers: HeaderMap,
    UrlPath(digest): UrlPath<String>,
) -> Result<Response, ApiError> {
    worker(&app, &headers).await?;
    let no_pack = || ApiError::new(StatusCode::NOT_FOUND, "no such pack");
    if digest.len() != 64
        || !digest
            .bytes()
            .all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'))
    {
        return Err(no_pack());
    }
    let path = app.0.config.blob(&digest);
    let bytes = tokio::fs::read(&path).await.map_err(|_| no_pack())?;
    Ok(([(header::CONTENT_TYPE, "application/gzip")], bytes).into_response())
}
