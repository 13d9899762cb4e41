//! Matches as they are played, as server-sent events for any client (a browser's EventSource,
//! `curl -N`): `GET /matches/{id}/live` follows one match to its end, `GET /live` one match
//! being played now and then the next (crate::domain::watch). Each event is named for its
//! frame (`game`, `move`, `result`, `end`) and its data is the frame's JSON. The watchers at
//! once are bounded (crate::ladder::live::MAX_WATCHERS); one more is answered 503.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::Stream;
use tokio::sync::{mpsc, OwnedSemaphorePermit};

use super::{App, UrlPath};
use crate::domain::watch;
use crate::ladder::live::Frame;
use crate::ApiError;

/// How many frames wait for a watcher before the match waits for it.
const QUEUED: usize = 32;

/// How long a browser waits before it comes back after a stream ends.
const RETRY: Duration = Duration::from_secs(2);

/// `GET /matches/{id}/live`: match `id` as it is played, to its `end`.
pub(super) async fn one(
    State(app): State<App>,
    UrlPath(id): UrlPath<i64>,
) -> Result<Response, ApiError> {
    let permit = admit(&app)?;
    let (to, from) = mpsc::channel(QUEUED);
    if !watch::follow(&app, id, to).await? {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no match {id}"),
        ));
    }
    Ok(events(from, permit))
}

/// `GET /live`: one match being played now, then the next.
pub(super) async fn now(State(app): State<App>) -> Result<Response, ApiError> {
    let permit = admit(&app)?;
    let (to, from) = mpsc::channel(QUEUED);
    watch::follow_now(&app, to);
    Ok(events(from, permit))
}

fn admit(app: &App) -> Result<OwnedSemaphorePermit, ApiError> {
    app.0.live.admit().ok_or_else(|| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "too many watchers at once: try again later",
        )
    })
}

/// The frames as events, holding the watcher's place until the client goes.
fn events(from: mpsc::Receiver<Frame>, permit: OwnedSemaphorePermit) -> Response {
    let stream = frames(from, permit);
    Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response()
}

fn frames(
    from: mpsc::Receiver<Frame>,
    permit: OwnedSemaphorePermit,
) -> impl Stream<Item = Result<Event, Infallible>> {
    futures_util::stream::unfold(
        (from, permit, true),
        |(mut from, permit, first)| async move {
            let frame = from.recv().await?;
            let mut event = Event::default().event(frame.name());
            if first {
                event = event.retry(RETRY);
            }
            // A frame is plain data: its JSON never fails.
            let event = event
                .json_data(&frame)
                .unwrap_or_else(|_| Event::default().comment("unreadable frame"));
            Some((Ok(event), (from, permit, false)))
        },
    )
}
