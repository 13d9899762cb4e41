//! Games started on the play page, bounded per address: an address that starts `play_starts`
//! games in a minute (a new game, or one tried again from a mistake, by the page or the API)
//! is refused, 429 with `Retry-After`, until its minute is over. Moves in games already begun
//! go on. Anyone may start a game and each is kept, so without this one address could fill
//! the database.

use std::net::SocketAddr;
use std::time::Instant;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::per_address::PerAddress;
use crate::ApiError;

/// Whether the request starts a game.
fn starts_a_game(req: &Request) -> bool {
    let path = req.uri().path();
    req.method() == Method::POST
        && (path == "/play"
            || path == "/api/play"
            || ((path.starts_with("/play/") || path.starts_with("/api/play/"))
                && path.ends_with("/again")))
}

/// The layer's state: the games an address may start in a minute (0: any), and the count.
#[derive(Clone)]
pub(crate) struct Guard {
    pub(crate) limit: u32,
    pub(crate) starts: std::sync::Arc<PerAddress>,
}

/// The layer: counts the games each address starts, and refuses one past its limit.
pub(crate) async fn guard(State(guard): State<Guard>, req: Request, next: Next) -> Response {
    let ip = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    let (Some(ip), true, true) = (ip, guard.limit > 0, starts_a_game(&req)) else {
        return next.run(req).await;
    };
    let now = Instant::now();
    if let Some(left) = guard.starts.refused(ip, guard.limit, now) {
        let secs = left.as_secs() + 1;
        let mut r = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!("too many games started from this address: try again in {secs} s"),
        )
        .into_response();
        r.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        return r;
    }
    guard.starts.count(ip, now);
    next.run(req).await
}
