//! `/assets`: the pages' style and scripts, built into the binary: the report's CSS and
//! replay scripts (from quads_reports, so a match page replays as report.html does), the
//! pages' own CSS, the live pages' script and the play page's clock.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use quads_reports::html::{CSS, SCRIPTS};

use super::PageError;
use crate::ApiError;

/// The report's scripts under their names, in the order they run.
pub const REPLAY_SCRIPTS: [&str; 4] = ["pieces.js", "replay.js", "viewer.js", "games.js"];
/// The live pages' script.
pub const LIVE_SCRIPT: &str = "live.js";
/// The live matches' board and moves, from their server-sent events.
pub const WATCH_SCRIPT: &str = "watch.js";
/// The play page's running clock.
pub const CLOCK_SCRIPT: &str = "clock.js";

pub(super) async fn file(Path(name): Path<String>) -> Result<Response, PageError> {
    let (kind, text) = match name.as_str() {
        "report.css" => ("text/css", CSS),
        "site.css" => ("text/css", include_str!("assets/site.css")),
        "live.js" => ("text/javascript", include_str!("assets/live.js")),
        "clock.js" => ("text/javascript", include_str!("assets/clock.js")),
        "watch.js" => ("text/javascript", include_str!("assets/watch.js")),
        other => match REPLAY_SCRIPTS.iter().position(|s| *s == other) {
            Some(i) => ("text/javascript", SCRIPTS[i]),
            None => return Err(ApiError::new(StatusCode::NOT_FOUND, "no such file").into()),
        },
    };
    Ok((
        [
            (header::CONTENT_TYPE, format!("{kind}; charset=utf-8")),
            (header::CACHE_CONTROL, "no-cache".to_owned()),
        ],
        text,
    )
        .into_response())
}
