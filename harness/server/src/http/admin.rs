//! The host's actions over the API (what each does: crate::domain::host), and `/final`, the
//! final tournament's report once the host has run it.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use super::{admin, body, App, Body, UrlPath};
use crate::domain::host::{
    act, cancel_check, disable, final_report_file, set_switches, snapshot, switches_now,
    MatchAction,
};
use crate::ApiError;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Switches {
    frozen: Option<bool>,
    ladder_paused: Option<bool>,
}

pub(super) async fn switches(
    State(app): State<App>,
    headers: HeaderMap,
    b: Body<Switches>,
) -> Result<Response, ApiError> {
    admin(&app, &headers).await?;
    let s = body(b)?;
    set_switches(&app, s.frozen, s.ladder_paused).await?;
    Ok(Json(switches_now(&app).await?).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Disable {
    disabled: Option<String>,
}

pub(super) async fn version_cancel(
    State(app): State<App>,
    headers: HeaderMap,
    UrlPath((name, number)): UrlPath<(String, i64)>,
) -> Result<Response, ApiError> {
    admin(&app, &headers).await?;
    Ok(Json(cancel_check(&app, &name, number).await?).into_response())
}

pub(super) async fn entrant(
    State(app): State<App>,
    headers: HeaderMap,
    UrlPath(name): UrlPath<String>,
    b: Body<Disable>,
) -> Result<Response, ApiError> {
    admin(&app, &headers).await?;
    let d = body(b)?;
    disable(&app, &name, d.disabled.as_deref()).await?;
    Ok(Json(json!({ "name": name, "disabled": d.disabled })).into_response())
}

/// `GET /api/admin/hooks`: the last webhook messages, the newest first.
pub(super) async fn hooks(
    State(app): State<App>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    admin(&app, &headers).await?;
    let hooks = app.0.store.hooks_log(HOOKS_SHOWN).await?;
    Ok(Json(json!({ "hooks": hooks })).into_response())
}

/// Webhook messages the host is shown.
const HOOKS_SHOWN: i64 = 200;

pub(super) async fn match_action(
    State(app): State<App>,
    headers: HeaderMap,
    UrlPath((id, action)): UrlPath<(i64, String)>,
) -> Result<Response, ApiError> {
    admin(&app, &headers).await?;
    let action: MatchAction = action.parse()?;
    Ok(Json(act(&app, id, action).await?).into_response())
}

pub(super) async fn final_snapshot(
    State(app): State<App>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    admin(&app, &headers).await?;
    Ok((StatusCode::CREATED, Json(snapshot(&app).await?)).into_response())
}

/// The CSP of a report: its own script and style, inline, and nothing from anywhere.
pub(super) const REPORT_CSP: &str =
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

/// `/final`: the final tournament's report.html, once the host has run it.
pub(super) async fn final_report(State(app): State<App>) -> Response {
    let path = final_report_file(&app);
    match tokio::fs::read_to_string(&path).await {
        Ok(page) => (
            [
                (axum::http::header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (axum::http::header::CONTENT_SECURITY_POLICY, REPORT_CSP),
            ],
            page,
        )
            .into_response(),
        Err(_) => (
            StatusCode::NOT_FOUND,
            "no final report yet: the host has not run the final tournament",
        )
            .into_response(),
    }
}
