//! Token guessing, bounded: an address that sends `guesses` wrong tokens in a minute (a
//! bearer token no one has, or a wrong token at `/login`) is refused, 429 with `Retry-After`,
//! on every call that carries a token until its minute is over. Calls without a token (the
//! public pages, the leaderboard) go on. Tokens are 32 random bytes, so guessing one is
//! hopeless anyway; this keeps a guesser from costing the server a database lookup per try.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::ApiError;

/// The window the count is kept over.
const WINDOW: Duration = Duration::from_secs(60);
/// Addresses remembered before the stale ones are forgotten.
const REMEMBERED: usize = 10_000;

/// Wrong tokens per address in its current window.
#[derive(Default)]
pub(crate) struct Guesses {
    seen: Mutex<HashMap<IpAddr, (Instant, u32)>>,
}

impl Guesses {
    fn seen(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, (Instant, u32)>> {
        self.seen.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How long `ip` is still refused, if it has used up `limit` in its window.
    fn refused(&self, ip: IpAddr, limit: u32, now: Instant) -> Option<Duration> {
        let seen = self.seen();
        let (start, n) = seen.get(&ip)?;
        let left = (*start + WINDOW).checked_duration_since(now)?;
        (*n >= limit && !left.is_zero()).then_some(left)
    }

    /// One more wrong token from `ip`.
    fn wrong(&self, ip: IpAddr, now: Instant) {
        let mut seen = self.seen();
        if seen.len() >= REMEMBERED {
            seen.retain(|_, (start, _)| now.duration_since(*start) < WINDOW);
        }
        let entry = seen.entry(ip).or_insert((now, 0));
        if now.duration_since(entry.0) >= WINDOW {
            *entry = (now, 0);
        }
        entry.1 += 1;
    }
}

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
    pub(crate) guesses: std::sync::Arc<Guesses>,
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
        guesses.wrong(ip, Instant::now());
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_refused_after_its_limit_until_its_minute_is_over() {
        let g = Guesses::default();
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let t = Instant::now();
        for _ in 0..3 {
            assert_eq!(g.refused(a, 3, t), None);
            g.wrong(a, t);
        }
        assert_eq!(g.refused(a, 3, t), Some(WINDOW));
        assert_eq!(
            g.refused(a, 3, t + Duration::from_secs(59)),
            Some(Duration::from_secs(1))
        );
        assert_eq!(g.refused(b, 3, t), None);
        assert_eq!(g.refused(a, 3, t + WINDOW), None);
        // A new window starts from nothing.
        g.wrong(a, t + WINDOW);
        assert_eq!(g.refused(a, 3, t + WINDOW), None);
        assert_eq!(g.seen()[&a], (t + WINDOW, 1));
    }
}
