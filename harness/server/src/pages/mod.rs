//! The pages: HTML made on the server (maud), styled by the report's CSS, with scripts only
//! from `/assets` (the CSP allows no inline script). Every form is a POST carrying the CSRF
//! token (crate::session); after it the browser is sent on to a page (303) or shown the
//! answer (a new token, an invite), and a refusal is a page with its one line.
//!
//! | page | who | shows |
//! |---|---|---|
//! | `/` | anyone | the leaderboard (live) and the latest matches |
//! | `/login`, `/signup`, `/logout` | anyone | log in with a token; sign up (with an invite); log out |
//! | `/entrants/{name}` | anyone; more to its owner | versions and their status, head-to-head, matches; to the owner the upload, test-match and webhook forms, downloads |
//! | `/entrants/{name}/versions/{n}` | its owner, the host | the check's report and the build log |
//! | `/matches/{id}` | anyone | the match, its games with the report's replay, the command that replays it |
//! | `/play`, `/play/{id}` | anyone | a game against a level, two players or the puzzle, in the visitor's language and view (`reader.rs`) |
//! | `/admin` | the host | invites, switches, entrants, matches, the final tournament |
//!
//! Each page reads the store and calls the domain (crate::domain) as the API does, and renders
//! what it answers: never the API's JSON.

mod account;
mod admin;
mod assets;
mod board;
mod entrant;
mod live;
mod matches;
mod play;
mod play_review;
mod play_rules;
mod play_text;
mod play_words;
mod rating_chart;
mod reader;

use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use maud::{html, Markup, DOCTYPE};

use crate::domain::{App, DomainError};
use crate::session::{self, Visitor, CSRF_FIELD, VISIT_COOKIE};
use crate::store::StoreError;
use crate::ApiError;

/// The play pages and the assets: all the pages of a server with no event, where `/` is the
/// play page.
pub fn play_routes() -> Router<App> {
    Router::new()
        .route("/", get(|| async { see_other("/play") }))
        .merge(play_pages())
}

fn play_pages() -> Router<App> {
    Router::new()
        .route("/play", get(play::choose).post(play::start))
        .route("/play/rules", get(play_rules::show))
        .route("/play/{id}", get(play::show).post(play::play_move))
        .route("/play/{id}/review", get(play_review::show))
        .route("/play/{id}/games.jsonl", get(play_review::games_jsonl))
        .route("/play/{id}/again", post(play_review::again))
        .route("/assets/{file}", get(assets::file))
}

/// The pages' routes (the API's are added to them in crate::http).
pub fn routes() -> Router<App> {
    Router::new()
        .route("/", get(board::home))
        .route("/login", get(account::login_page).post(account::login))
        .route("/logout", post(account::logout))
        .route("/signup", get(account::signup_page).post(account::signup))
        .route("/entrants/{name}", get(entrant::show))
        .route("/entrants/{name}/versions/{n}", get(entrant::version_page))
        .route("/upload", post(entrant::upload))
        .route("/test-match", post(entrant::test_match))
        .route("/webhook", post(entrant::webhook))
        .route("/matches/{id}", get(matches::show))
        .route("/admin", get(admin::show))
        .route("/admin/{action}", post(admin::act))
        .merge(play_pages())
}

/// The CSP of every answer but the final report: scripts and styles from this server only,
/// forms posted to it only, no framing.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// A page's refusal or failure: the API's error, shown as a page.
pub struct PageError(pub ApiError);

impl From<ApiError> for PageError {
    fn from(e: ApiError) -> PageError {
        PageError(e)
    }
}

impl From<DomainError> for PageError {
    fn from(e: DomainError) -> PageError {
        PageError(e.into())
    }
}

impl From<StoreError> for PageError {
    fn from(e: StoreError) -> PageError {
        PageError(e.into())
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        let status = self.0.status;
        let body = html! {
            (DOCTYPE)
            html lang="en" {
                head {
                    meta charset="utf-8";
                    link rel="icon" href="data:,";
                    title { (status.as_u16()) " " (status.canonical_reason().unwrap_or("")) }
                    link rel="stylesheet" href="/assets/report.css";
                    link rel="stylesheet" href="/assets/site.css";
                }
                body {
                    header { h1 { a href="/" { "Quads Arena" } } }
                    main {
                        h2 { (status.as_u16()) " " (status.canonical_reason().unwrap_or("")) }
                        p class="error" { (self.0.message) }
                        p { a href="/" { "the leaderboard" } " · " a href="/login" { "log in" } }
                    }
                }
            }
        };
        (status, body).into_response()
    }
}

/// What a page knows of its visitor: who, the CSRF token its forms carry, and the visit
/// cookie to set if the browser had none.
pub struct Seen {
    pub visitor: Visitor,
    pub csrf: String,
    set_visit: Option<String>,
}

impl Seen {
    pub async fn of(app: &App, headers: &HeaderMap) -> Result<Seen, PageError> {
        let visitor = session::from_cookie(&app.0.store, headers).await?;
        if let Some(csrf) = session::csrf(headers) {
            return Ok(Seen {
                visitor,
                csrf,
                set_visit: None,
            });
        }
        let secret = crate::domain::entrants::secret()?;
        let cookie = session::set_cookie(
            VISIT_COOKIE,
            &secret,
            session::SESSION_SECONDS,
            app.0.config.secure_cookies,
        );
        Ok(Seen {
            visitor,
            csrf: session::csrf_of(&secret),
            set_visit: Some(cookie),
        })
    }

    /// The hidden field every form carries.
    pub fn field(&self) -> Markup {
        html! { input type="hidden" name=(CSRF_FIELD) value=(self.csrf); }
    }

    /// Whether the visitor is the owner of entrant `name`'s things, or the host.
    pub fn may_see(&self, name: &str) -> bool {
        match &self.visitor {
            Visitor::Host => true,
            Visitor::Entrant(e) => e.name == name,
            Visitor::Anonymous => false,
        }
    }
}

/// A page in English: the layout around `body`, with `scripts` from `/assets` at the end.
pub fn page(app: &App, seen: &Seen, title: &str, body: Markup, scripts: &[&str]) -> Response {
    reader::with(quads_i18n::Lang::En, |c| {
        page_in(app, seen, c, title, body, scripts)
    })
}

/// A page in `c`'s language (its body already in it): the layout around `body`.
pub fn page_in(
    app: &App,
    seen: &Seen,
    c: &quads_i18n::Catalog,
    title: &str,
    body: Markup,
    scripts: &[&str],
) -> Response {
    let event = &app.0.config.name;
    let markup = html! {
        (DOCTYPE)
        html lang=(c.lang().code()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                // No icon: the browser asks for none (and logs no 404).
                link rel="icon" href="data:,";
                title { (title) " · " (event) }
                link rel="stylesheet" href="/assets/report.css";
                link rel="stylesheet" href="/assets/site.css";
            }
            body {
                header {
                    h1 { a href="/" { (event) } }
                    nav {
                        @if !app.0.config.play_only { a href="/" { (c.text("nav-leaderboard")) } }
                        a href="/play" { (c.text("nav-play")) }
                        @if !app.0.config.play_only { a href="/final" { (c.text("nav-final")) } }
                        @match &seen.visitor {
                            Visitor::Host => { a href="/admin" { (c.text("nav-host")) } }
                            Visitor::Entrant(e) => { a href={ "/entrants/" (e.name) } { (c.with("nav-me", &[("name", e.name.as_str().into())])) } }
                            Visitor::Anonymous => {
                                @if !app.0.config.play_only {
                                    a href="/login" { (c.text("nav-log-in")) }
                                    a href="/signup" { (c.text("nav-sign-up")) }
                                }
                            }
                        }
                        @if seen.visitor != Visitor::Anonymous {
                            form class="inline" method="post" action="/logout" {
                                (seen.field())
                                button type="submit" { (c.text("nav-log-out")) }
                            }
                        }
                    }
                }
                main {
                    h2 { (title) }
                    (body)
                }
                @for s in scripts {
                    script src={ "/assets/" (s) } {}
                }
            }
        }
    };
    match &seen.set_visit {
        Some(cookie) => with_cookie(markup.into_response(), cookie),
        None => markup.into_response(),
    }
}

/// `response` with the cookie `set` (a `Set-Cookie` value) added.
pub fn with_cookie(mut response: Response, set: &str) -> Response {
    if let Ok(v) = set.parse() {
        response.headers_mut().append(header::SET_COOKIE, v);
    }
    response
}

/// On to `to` after a form (303: the browser GETs it).
pub fn see_other(to: &str) -> Response {
    Redirect::to(to).into_response()
}

/// A form's fields, or a one-line refusal.
pub type Form<T> = Result<axum::Form<T>, axum::extract::rejection::FormRejection>;

pub fn form<T>(f: Form<T>) -> Result<T, PageError> {
    f.map(|f| f.0)
        .map_err(|e| PageError(ApiError::bad(e.body_text())))
}

/// The refusal of a page for the logged-in only.
pub fn log_in_first() -> PageError {
    PageError(ApiError::new(
        StatusCode::UNAUTHORIZED,
        "log in first (with your token, at /login)",
    ))
}

/// Text kept as it is (a log, a report): escaped, in a `<pre>`.
pub fn pre(text: &str) -> Markup {
    html! { pre class="log" tabindex="0" { (text) } }
}

/// A status as a badge.
pub fn badge(status: &str) -> Markup {
    html! { span class={ "badge " (status) } { (status) } }
}
