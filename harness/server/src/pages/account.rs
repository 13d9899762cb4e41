//! Logging in (with an entrant's API token, or the host's), logging out, signing up.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use maud::html;
use serde::Deserialize;

use super::{form, page, see_other, with_cookie, Form, PageError, Seen};
use crate::domain::entrants::{new_entrant, secret};
use crate::domain::App;
use crate::secret::{hash, same};
use crate::session::{self, check_csrf, SESSION_COOKIE, SESSION_SECONDS};
use crate::{ApiError, Signup};

pub(super) async fn login_page(
    State(app): State<App>,
    headers: HeaderMap,
) -> Result<Response, PageError> {
    let seen = Seen::of(&app, &headers).await?;
    let body = html! {
        form class="box" method="post" action="/login" {
            (seen.field())
            label { "your token (from signing up; the host: the config's admin_token)"
                input type="password" name="token" autocomplete="current-password" required; }
            button type="submit" { "log in" }
        }
        p class="note" { "No account? " a href="/signup" { "sign up" } "." }
    };
    Ok(page(&app, &seen, "Log in", body, &[]))
}

#[derive(Deserialize)]
pub(super) struct Login {
    token: String,
    csrf: Option<String>,
}

/// Starts a session for `entrant` (`None`: the host): its secret and the cookie to set.
async fn start(app: &App, entrant: Option<i64>) -> Result<(String, String), ApiError> {
    let secret = secret()?;
    app.0
        .store
        .add_session(&hash(&secret), entrant, SESSION_SECONDS)
        .await?;
    let cookie = session::set_cookie(
        SESSION_COOKIE,
        &secret,
        SESSION_SECONDS,
        app.0.config.secure_cookies,
    );
    Ok((secret, cookie))
}

pub(super) async fn login(
    State(app): State<App>,
    headers: HeaderMap,
    f: Form<Login>,
) -> Result<Response, PageError> {
    let f = form(f)?;
    check_csrf(&headers, f.csrf.as_deref())?;
    let token = f.token.trim();
    let (entrant, to) = if same(token, &app.0.config.admin_token) {
        (None, "/admin".to_owned())
    } else {
        match app.0.store.entrant_of(&hash(token)).await? {
            Some(e) => (Some(e.id), format!("/entrants/{}", e.name)),
            None => {
                return Err(ApiError::new(
                    StatusCode::UNAUTHORIZED,
                    "no account has this token: give the one you got when you signed up",
                )
                .into())
            }
        }
    };
    let (_, cookie) = start(&app, entrant).await?;
    Ok(with_cookie(see_other(&to), &cookie))
}

#[derive(Deserialize)]
pub(super) struct Csrf {
    csrf: Option<String>,
}

pub(super) async fn logout(
    State(app): State<App>,
    headers: HeaderMap,
    f: Form<Csrf>,
) -> Result<Response, PageError> {
    let f = form(f)?;
    check_csrf(&headers, f.csrf.as_deref())?;
    if let Some(secret) = session::cookie(&headers, SESSION_COOKIE) {
        app.0.store.drop_session(&hash(secret)).await?;
    }
    let gone = session::set_cookie(SESSION_COOKIE, "", 0, app.0.config.secure_cookies);
    Ok(with_cookie(see_other("/"), &gone))
}

pub(super) async fn signup_page(
    State(app): State<App>,
    headers: HeaderMap,
) -> Result<Response, PageError> {
    let seen = Seen::of(&app, &headers).await?;
    let invite = app.0.config.signup == Signup::Invite;
    let body = html! {
        form class="box" method="post" action="/signup" {
            (seen.field())
            label { "name (your bot's, as its bot.toml will say: 1 to 32 letters, digits, - _ .)"
                input type="text" name="name" required maxlength="32"; }
            @if invite {
                label { "invite (from the host)" input type="text" name="invite" required; }
            }
            button type="submit" { "sign up" }
        }
    };
    Ok(page(&app, &seen, "Sign up", body, &[]))
}

#[derive(Deserialize)]
pub(super) struct SignUp {
    name: String,
    invite: Option<String>,
    csrf: Option<String>,
}

pub(super) async fn signup(
    State(app): State<App>,
    headers: HeaderMap,
    f: Form<SignUp>,
) -> Result<Response, PageError> {
    let f = form(f)?;
    check_csrf(&headers, f.csrf.as_deref())?;
    let name = f.name.trim();
    let invite = f.invite.as_deref().map(str::trim).filter(|i| !i.is_empty());
    let token = new_entrant(&app, name, invite).await?;
    let who = app
        .0
        .store
        .entrant_of(&hash(&token))
        .await?
        .ok_or_else(|| ApiError::internal("a new entrant has no token"))?;
    let (secret, cookie) = start(&app, Some(who.id)).await?;
    // The page's forms carry the new session's token.
    let seen = Seen {
        visitor: session::Visitor::Entrant(who.clone()),
        csrf: session::csrf_of(&secret),
        set_visit: None,
    };
    let body = html! {
        p class="done" { "Welcome, " (who.name) ". You are logged in." }
        p { "Your API token, shown this once: keep it. You log in with it, and " code { "quads submit" } " and curl use it." }
        p class="secret" id="token" { (token) }
        p { "Next: " a href={ "/entrants/" (who.name) } { "your page" } ", where you upload your bot." }
    };
    Ok(with_cookie(
        (
            StatusCode::CREATED,
            page(&app, &seen, "Signed up", body, &[]),
        )
            .into_response(),
        &cookie,
    ))
}
