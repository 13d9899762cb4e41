//! Who is asking: an API token (`Authorization: Bearer`), or the pages' session cookie; and the
//! pages' CSRF tokens.
//!
//! Logging in on the pages (with an entrant's API token, or the host's) makes a session: a
//! secret in the cookie `quads_session` (HttpOnly, SameSite=Strict, Secure with
//! `secure_cookies`), kept in the database as its SHA-256 only. A visitor not logged in gets
//! the cookie `quads_visit`, a secret of its own, so that the forms to log in and sign up are
//! protected too. Every form carries `csrf`, the SHA-256 of `csrf:` and the cookie's secret
//! (the session's, else the visit's): another site can neither read the cookie nor compute
//! the token, and the cookie is not sent with another site's requests at all.
//!
//! A cookie authenticates reading only (the API's GET calls and the pages); the API's POST
//! calls take a token, so a cookie never lets another site's form act through the API.

use axum::http::{header, HeaderMap, StatusCode};

use crate::secret::{hash, same};
use crate::store::{Entrant, SessionOf, Store};
use crate::ApiError;

/// The session's cookie.
pub const SESSION_COOKIE: &str = "quads_session";
/// A visitor's cookie before logging in (for the CSRF tokens of the log-in and sign-up forms).
pub const VISIT_COOKIE: &str = "quads_visit";
/// How long a session lasts, in seconds (30 days).
pub const SESSION_SECONDS: i64 = 30 * 24 * 3600;
/// The form field that carries the CSRF token.
pub const CSRF_FIELD: &str = "csrf";

/// Who is asking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Visitor {
    /// Nobody logged in.
    Anonymous,
    /// An entrant.
    Entrant(Entrant),
    /// The host.
    Host,
}

impl Visitor {
    /// The entrant, if it is one.
    pub fn entrant(&self) -> Option<&Entrant> {
        match self {
            Visitor::Entrant(e) => Some(e),
            _ => None,
        }
    }
}

/// The value of cookie `name`, if the request has it.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
        .filter(|v| !v.is_empty())
}

/// A `Set-Cookie` value: HttpOnly, SameSite=Strict, for the whole site; `seconds` 0 removes it.
pub fn set_cookie(name: &str, value: &str, seconds: i64, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!("{name}={value}; Path=/; Max-Age={seconds}; HttpOnly; SameSite=Strict{secure}")
}

/// The visitor the session cookie names (an unknown or expired one is nobody).
pub async fn from_cookie(store: &Store, headers: &HeaderMap) -> Result<Visitor, ApiError> {
    let Some(secret) = cookie(headers, SESSION_COOKIE) else {
        return Ok(Visitor::Anonymous);
    };
    Ok(match store.session(&hash(secret)).await? {
        Some(SessionOf::Entrant(e)) => Visitor::Entrant(e),
        Some(SessionOf::Host) => Visitor::Host,
        None => Visitor::Anonymous,
    })
}

/// The CSRF token of a secret.
pub fn csrf_of(secret: &str) -> String {
    hash(&format!("csrf:{secret}"))
}

/// The CSRF token the request's forms must carry: from its session cookie, else its visit
/// cookie; `None` without either.
pub fn csrf(headers: &HeaderMap) -> Option<String> {
    cookie(headers, SESSION_COOKIE)
        .or_else(|| cookie(headers, VISIT_COOKIE))
        .map(csrf_of)
}

/// A refusal unless `given` is the request's CSRF token.
pub fn check_csrf(headers: &HeaderMap, given: Option<&str>) -> Result<(), ApiError> {
    let refused = |why: &str| ApiError::new(StatusCode::FORBIDDEN, why);
    let want = csrf(headers).ok_or_else(|| {
        refused("the browser sent no cookie with the form: allow cookies for this site and reload")
    })?;
    match given {
        Some(g) if same(g, &want) => Ok(()),
        _ => Err(refused(
            "the form's security token is missing or stale: reload the page and send it again",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(cookie: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::COOKIE, cookie.parse().unwrap());
        h
    }

    #[test]
    fn cookies_and_csrf_tokens() {
        let h = headers("a=1; quads_visit=v; quads_session=s");
        assert_eq!(cookie(&h, "a"), Some("1"));
        assert_eq!(cookie(&h, "quads"), None);
        // The session's secret wins over the visit's.
        assert_eq!(csrf(&h), Some(csrf_of("s")));
        assert_eq!(csrf(&headers("quads_visit=v")), Some(csrf_of("v")));
        assert_eq!(csrf(&headers("quads_session=")), None);
        assert!(check_csrf(&h, Some(&csrf_of("s"))).is_ok());
        for wrong in [None, Some(csrf_of("v")), Some(String::new())] {
            let e = check_csrf(&h, wrong.as_deref()).unwrap_err();
            assert_eq!(e.status, StatusCode::FORBIDDEN);
        }
        let e = check_csrf(&HeaderMap::new(), Some("x")).unwrap_err();
        assert!(
            e.message.starts_with("the browser sent no cookie"),
            "{}",
            e.message
        );
        assert_eq!(
            set_cookie("n", "v", 60, true),
            "n=v; Path=/; Max-Age=60; HttpOnly; SameSite=Strict; Secure"
        );
    }
}
