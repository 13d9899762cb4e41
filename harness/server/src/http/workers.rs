//! Remote workers' calls (`quads worker`, crate::remote; the types are crate::wire): the host
//! makes a worker and its token; a worker claims a match for one of its slots (a long poll),
//! fetches the two versions' packs, renews its lease while it plays, and hands in the games
//! and the bots' logs; or claims a bot's turn in a person's game and answers it. What each call does is crate::domain::workers; here a worker's token
//! is told from the host's and the entrants', and the answers are written. A worker never
//! sees the database; its token is kept hashed and opens these calls only.

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use super::{admin, bearer, body, unauthorized, App, Body, UrlPath, Waiter};
use crate::domain::workers::{self, Slot};
use crate::secret::{hash, same};
use crate::wire::{Answer, Claim, Finish, Held, Hold, LiveNews};
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
    let added = workers::add(&app, &body(b)?.name).await?;
    Ok((StatusCode::CREATED, Json(added)).into_response())
}

/// `GET /api/admin/workers`: every remote worker, and the matches each slot holds now.
pub(super) async fn list(State(app): State<App>, headers: HeaderMap) -> Result<Response, ApiError> {
    super::host_reader(&app, &headers).await?;
    let workers = workers::list(&app).await?;
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

/// `POST /api/worker/claim`: the next match for the slot, waiting up to `wait` seconds.
pub(super) async fn claim(
    State(app): State<App>,
    headers: HeaderMap,
    b: Body<Claim>,
) -> Result<Response, ApiError> {
    let name = worker(&app, &headers).await?;
    let c = body(b)?;
    let slot = Slot::new(&name, &c.slot)?;
    let mut waiter = Waiter::new(&app, Some(c.wait));
    loop {
        let work = workers::claim(&app, &slot).await?;
        if work.job.is_some() || work.turn.is_some() || !waiter.again().await {
            return Ok(Json(work).into_response());
        }
    }
}

/// `POST /api/worker/turns/{play}/answer`: the bot's move (or its fault) in the turn the
/// slot claimed; it counts if the slot still holds the turn.
pub(super) async fn answer(
    State(app): State<App>,
    headers: HeaderMap,
    UrlPath(play): UrlPath<String>,
    b: Body<Answer>,
) -> Result<Response, ApiError> {
    let name = worker(&app, &headers).await?;
    let a = body(b)?;
    let slot = Slot::new(&name, &a.slot)?;
    let held = workers::answer(&app, &play, &slot, &a).await?;
    Ok(Json(Held { held }).into_response())
}

/// `POST /api/worker/matches/{id}/heartbeat`: renews the slot's lease.
pub(super) async fn heartbeat(
    State(app): State<App>,
    headers: HeaderMap,
    UrlPath(id): UrlPath<i64>,
    b: Body<Hold>,
) -> Result<Response, ApiError> {
    let name = worker(&app, &headers).await?;
    let slot = Slot::new(&name, &body(b)?.slot)?;
    let held = workers::heartbeat(&app, id, &slot).await?;
    Ok(Json(Held { held }).into_response())
}

/// `POST /api/worker/matches/{id}/live`: the moves the slot's match played since its last
/// post, shown to the match's watchers; it renews the lease as a heartbeat does.
pub(super) async fn live(
    State(app): State<App>,
    headers: HeaderMap,
    UrlPath(id): UrlPath<i64>,
    b: Body<LiveNews>,
) -> Result<Response, ApiError> {
    let name = worker(&app, &headers).await?;
    let n = body(b)?;
    let slot = Slot::new(&name, &n.slot)?;
    let held = workers::live(&app, id, &slot, n.news).await?;
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
    let slot = Slot::new(&name, &h.slot)?;
    let reason = h.reason.unwrap_or_default();
    let held = workers::fail(&app, id, &slot, &reason).await?;
    Ok(Json(Held { held }).into_response())
}

/// `POST /api/worker/matches/{id}/finish`: the match's games and their logs; they count if
/// the slot still holds the match.
pub(super) async fn finish(
    State(app): State<App>,
    headers: HeaderMap,
    UrlPath(id): UrlPath<i64>,
    b: Body<Finish>,
) -> Result<Response, ApiError> {
    let name = worker(&app, &headers).await?;
    let f = body(b)?;
    let slot = Slot::new(&name, &f.slot)?;
    let held = workers::finish(&app, id, &slot, &f.games, &f.logs).await?;
    Ok(Json(Held { held }).into_response())
}

/// `GET /api/worker/packs/{digest}`: a version's files as the server keeps them.
pub(super) async fn pack(
    State(app): State<App>,
    headers: HeaderMap,
    UrlPath(digest): UrlPath<String>,
) -> Result<Response, ApiError> {
    worker(&app, &headers).await?;
    let bytes = workers::pack(&app, &digest).await?;
    Ok(([(header::CONTENT_TYPE, "application/gzip")], bytes).into_response())
}
