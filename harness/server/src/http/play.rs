//! Games people play over the API (what they are: crate::domain::play): one started, shown, a
//! move played. Anyone may start one; a game's id is its address, and whoever has it may play
//! on.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use super::{body, host_reader, query, App, Body, Query, UrlPath, Waiter};
use crate::domain::play::{self, NewPlay};
use crate::domain::review;
use crate::ApiError;

pub(super) async fn start(State(app): State<App>, b: Body<NewPlay>) -> Result<Response, ApiError> {
    let new = body(b)?;
    let game = play::start(&app, &new).await?;
    Ok((StatusCode::CREATED, Json(json!({ "game": game }))).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Bots {
    /// With `wait`: until this entrant's bot can be played.
    name: Option<String>,
    wait: Option<u64>,
}

/// `GET /api/play/bots`: the entrants whose active bots can be played now (`bot:NAME`).
pub(super) async fn bots(State(app): State<App>, q: Query<Bots>) -> Result<Response, ApiError> {
    let query = query(q)?;
    let mut waiter = Waiter::new(&app, query.wait);
    loop {
        let names: Vec<String> = play::bots(&app)
            .await?
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        let found = query.name.as_ref().map_or(true, |n| names.contains(n));
        if found || !waiter.again().await {
            return Ok(Json(json!({ "bots": names })).into_response());
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Show {
    /// While a bot's turn waits, or a person's clock runs: wait up to this many seconds for
    /// the bot's answer, the clock to run out, or another change.
    wait: Option<u64>,
}

pub(super) async fn show(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    q: Query<Show>,
) -> Result<Response, ApiError> {
    let query = query(q)?;
    let mut waiter = Waiter::new(&app, query.wait);
    loop {
        let game = play::get(&app, &id).await?;
        // A person's clock that runs: until it runs out, or the game changes.
        let runs_out = game.clock.as_ref().and_then(|k| match k.running? {
            "first" => Some(k.first_ms),
            _ => Some(k.second_ms),
        });
        let more = match runs_out {
            _ if game.waiting => waiter.again().await,
            Some(ms) => waiter.again_within(ms).await,
            None => false,
        };
        if !more {
            return Ok(Json(json!({ "game": game })).into_response());
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Played {
    /// The move, in the project's notation.
    #[serde(rename = "move")]
    mv: String,
    /// How many moves the game had when the move was chosen.
    after: usize,
}

pub(super) async fn play(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    b: Body<Played>,
) -> Result<Response, ApiError> {
    let p = body(b)?;
    let game = play::play(&app, &id, &p.mv, p.after).await?;
    Ok(Json(json!({ "game": game })).into_response())
}

pub(super) async fn review(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
) -> Result<Response, ApiError> {
    let r = review::review(&app, &id).await?;
    Ok(Json(json!({ "review": *r })).into_response())
}

pub(super) async fn games_jsonl(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
) -> Result<Response, ApiError> {
    let text = review::games_jsonl(&app, &id).await?;
    Ok((
        [(axum::http::header::CONTENT_TYPE, "application/jsonl")],
        text,
    )
        .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Again {
    /// The person's move to play again, its place in the game's moves from 0.
    index: usize,
}

pub(super) async fn again(
    State(app): State<App>,
    UrlPath(id): UrlPath<String>,
    b: Body<Again>,
) -> Result<Response, ApiError> {
    let a = body(b)?;
    let game = review::again(&app, &id, a.index).await?;
    Ok((StatusCode::CREATED, Json(json!({ "game": game }))).into_response())
}

/// `GET /api/admin/plays.jsonl`: every finished game of the play page, to the host.
pub(super) async fn all_games(
    State(app): State<App>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    host_reader(&app, &headers).await?;
    let text = review::all_games_jsonl(&app).await?;
    Ok((
        [(axum::http::header::CONTENT_TYPE, "application/jsonl")],
        text,
    )
        .into_response())
}
