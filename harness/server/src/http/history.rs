//! The leaderboard's history over the API (what it is: crate::domain::history): the fits
//! kept, the standings at a past moment, an entrant's rating over its games.

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use super::{query, App, Query, UrlPath};
use crate::domain::history;
use crate::ApiError;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct At {
    /// Milliseconds since 1970.
    at: Option<i64>,
}

/// Every fit kept (`at`, `games`, `last_game`), or with `at` the standings then.
pub(super) async fn board(State(app): State<App>, q: Query<At>) -> Result<Response, ApiError> {
    match query(q)?.at {
        Some(at) => Ok((
            [(header::CONTENT_TYPE, "application/json")],
            history::standings_at(&app, at).await?,
        )
            .into_response()),
        None => Ok(Json(json!({ "fits": history::fits(&app).await? })).into_response()),
    }
}

/// An entrant's rating over its games, with where its versions began.
pub(super) async fn rating(
    State(app): State<App>,
    UrlPath(name): UrlPath<String>,
) -> Result<Response, ApiError> {
    Ok(Json(history::rating_of(&app, &name).await?).into_response())
}
