//! Token guessing, bounded: an address that sends `guesses` wrong tokens in a minute (a
//! bearer token no one has, or a wrong token at `/login`) is refused, 429 with `Retry-After`,
//! on every call that carries a token until its minute is over. Calls without a token (the
//! public pages, the leaderboard) go on. Tokens are 32 random bytes, so guessing one is
//! hopeless anyway; this keeps a guesser from costing the server a database lookup per try.

use std::net::SocketAddr;
use std::time::Instant;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::per_address::PerAddress;
use crate::ApiError;

/// Whether the request carries a token the server will look up.
fn carries_token(req: &Request) -> bool {
    req.headers().contains_key(header::AUTHORIZATION)
        || (req.method() == Method::POST && req.uri().path() == "/login")
}

/// The layer's state: the wrong tokens an address may send in a minute (0: any), and the
/// count.
#[derive(Clone)]
pub(crate) struct Guard {
    pub(crate) limit: u32,
    pub(crate) guesses: std::sync::Arc<PerAddress>,
}

/// The layer: refuses a guesser, and counts the wrong tokens it sends.
pub(crate) async fn guard(State(guard): State<Guard>, req: Request, next: Next) -> Response {
    let limit = guard.limit;
    let ip = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    let (Some(ip), true, true) = (ip, limit > 0, carries_token(&req)) else {
        return next.run(req).await;
    };
    let guesses = &guard.guesses;
    if let Some(left) = guesses.refused(ip, limit, Instant::now()) {
        let secs = left.as_secs() + 1;
        let mut r = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!("too many wrong tokens from this address: try again in {secs} s"),
        )
        .into_response();
        r.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        return r;
    }
    let r = next.run(req).await;
    if r.status() == StatusCode::UNAUTHORIZED {
        guesses.count(ip, Instant::now());
    }
    r
}
