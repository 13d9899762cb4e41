//! The API (JSON over HTTP; every error a status and `{"error": "one line"}`). Tokens go in
//! `Authorization: Bearer TOKEN`; the host's is the config's `admin_token`. The GET calls also
//! take the pages' session cookie (so the pages link to downloads and logs); the POST calls
//! take a token only (crate::session says why).
//!
//! | call | who | does |
//! |---|---|---|
//! | `POST /api/invites` | the host | a new invite code |
//! | `POST /api/entrants` `{"name", "invite"}` | anyone with an invite (or anyone, `signup = "open"`) | an entrant and its API token |
//! | `GET /api/me` | an entrant | its name and versions |
//! | `POST /api/versions` (multipart: `archive`, or `file` and `manifest`) | an entrant | a new version |
//! | `GET /api/versions/{n}[?wait=S[&from=STATUS]]` | its entrant | the version (with `wait`, once its check is done, or its status is no longer `from`, or after S seconds) |
//! | `GET /api/versions/{n}/report` | its entrant | its check's report and build log |
//! | `GET /api/versions/{n}/download` | its entrant | its files, as the server keeps them (.tar.gz) |
//! | `GET /api/leaderboard[?games=N&each=E&wait=S&by=version]` | anyone | the ratings with their intervals (with `wait`, once N games are played and every active entrant has played E, or after S seconds; `by=version`: each version a player of its own) |
//! | `GET /api/leaderboard/history[?at=MS]` | anyone | the fits kept (`at`, `games`, `last_game`), or the standings at a past moment (milliseconds since 1970) |
//! | `GET /api/entrants/{name}/rating` | anyone | its rating and 95% interval at each fit kept, against its games, and where each of its versions began |
//! | `GET /api/matches[?entrant=NAME&limit=N]` | anyone | the latest matches |
//! | `GET /api/matches/{id}[?wait=S[&from=STATE]]` | anyone | a match, its games and the command that replays it (with `wait`, once it is over, or no longer `from`) |
//! | `GET /api/matches/{id}/games.jsonl` | anyone | its games' records |
//! | `GET /api/matches/{id}/logs/{file}` | the bot's owner, the host | a bot's stderr in one game |
//! | `POST /api/matches` `{"opponent"[, "rules"]}` | an entrant | a test match against another's active version, now (not rated) |
//! | `GET /api/me/games.jsonl` | an entrant | its games |
//! | `POST /api/me/webhook` `{"url"}` | an entrant | its webhook (an address the config's `webhooks.allow` lists), or none with null (crate::hooks) |
//! | `GET /api/admin/hooks` | the host | the last 200 webhook messages: where, what, tries, sent or given up, the last error |
//! | `GET /api/games.jsonl` | the host | every game |
//! | `POST /api/admin/switches` `{"frozen", "ladder_paused"}` | the host | freezes uploads, pauses the ladder (or not) |
//! | `POST /api/admin/entrants/{name}` `{"disabled": "why" or null}` | the host | disables an entrant (or enables it) |
//! | `POST /api/admin/matches/{id}/rerun`, `.../cancel` | the host | plays a match again, cancels one |
//! | `POST /api/admin/final` | the host | snapshots the active versions as an entrants folder for `quads tournament` |
//! | `POST /api/admin/export` | the host | the ladder's games as games.jsonl, rated, with report.html, in `DATA/export` |
//! | `GET /api/admin/export/{file}` | the host | one file of the export |
//! | `GET /final` | anyone | the final tournament's report.html, once the host has run it |
//! | `POST /api/admin/workers` `{"name"}`, `GET /api/admin/workers` | the host | a remote worker and its token; every worker and the matches it holds |
//! | `POST /api/worker/claim` `{"slot"[, "wait"]}` | a worker | the next bot's turn or match for that slot (crate::wire) |
//! | `POST /api/worker/turns/{play}/answer` `{"slot", "after", "move", "took_ms"}` or `{…, "fault"}` | the worker holding it | the bot's move in a person's game, or the fault it lost by |
//! | `POST /api/worker/matches/{id}/heartbeat`, `.../fail` `{"slot"[, "reason"]}` | the worker holding it | renews its lease; gives it up as failed |
//! | `POST /api/worker/matches/{id}/live` `{"slot", "news"}` | the worker holding it | the moves played since its last post, shown live; renews its lease |
//! | `GET /matches/{id}/live` | anyone | the match as it is played, as server-sent events (crate::http::live) |
//! | `GET /live` | anyone | one match being played now, chosen among the closest-rated pairs, then the next, as server-sent events |
//! | `POST /api/worker/matches/{id}/finish` `{"slot", "games", "logs"}` | the worker holding it | its games and logs, counted once |
//! | `GET /api/worker/packs/{digest}` | a worker | a version's files, to build it |
//! | `POST /api/play` `{"mode"[, "rules", "first"]}`, `GET /api/play/{id}`, `POST /api/play/{id}/moves` `{"move", "after"}` | anyone | a game against a level, for two, or the puzzle of the day (crate::domain::play) |

pub(crate) mod accept;
pub(crate) mod admin;
mod deadline;
pub(crate) mod export;
pub(crate) mod guesses;
mod history;
mod live;
pub(crate) mod matches;
mod per_address;
mod play;
pub(crate) mod starts;
pub(crate) mod versions;
mod workers;

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;

use crate::domain::entrants;
pub(crate) use crate::domain::App;
use crate::secret::{hash, same};
use crate::session::{self, Visitor};
use crate::store::Entrant;
use crate::ApiError;

/// The play page's calls: all a server with no event answers besides the pages.
pub(crate) fn play_api(router: Router<App>) -> Router<App> {
    router
        .route("/api/play", post(play::start))
        .route("/api/play/bots", get(play::bots))
        .route("/api/play/{id}", get(play::show))
        .route("/api/play/{id}/moves", post(play::play))
        .route("/api/play/{id}/review", get(play::review))
        .route("/api/play/{id}/games.jsonl", get(play::games_jsonl))
        .route("/api/play/{id}/again", post(play::again))
}

/// The API's calls (the table above), for [`crate::routes`] to join with the pages'.
pub(crate) fn api(router: Router<App>) -> Router<App> {
    play_api(router)
        .route("/api/invites", post(invite))
        .route("/api/entrants", post(sign_up))
        .route("/api/me", get(me))
        .route("/api/me/webhook", post(set_webhook))
        .route("/api/admin/hooks", get(admin::hooks))
        .route("/api/me/games.jsonl", get(matches::my_games))
        .route("/api/games.jsonl", get(matches::all_games))
        .route("/api/versions", post(versions::upload))
        .route("/api/versions/{n}", get(versions::version))
        .route("/api/versions/{n}/download", get(versions::download))
        .route("/api/versions/{n}/report", get(versions::report))
        .route("/api/leaderboard", get(leaderboard))
        .route("/api/leaderboard/history", get(history::board))
        .route("/api/entrants/{name}/rating", get(history::rating))
        .route("/api/matches", get(matches::list).post(matches::test_match))
        .route("/api/matches/{id}", get(matches::show))
        .route("/api/matches/{id}/games.jsonl", get(matches::games))
        .route("/api/matches/{id}/logs/{file}", get(matches::log))
        .route("/api/admin/switches", post(admin::switches))
        .route("/api/admin/entrants/{name}", post(admin::entrant))
        .route(
            "/api/admin/entrants/{name}/versions/{n}/cancel",
            post(admin::version_cancel),
        )
        .route(
            "/api/admin/matches/{id}/{action}",
            post(admin::match_action),
        )
        .route("/api/admin/final", post(admin::final_snapshot))
        .route("/api/admin/export", post(export::make))
        .route("/api/admin/plays.jsonl", get(play::all_games))
        .route("/api/admin/export/{file}", get(export::file))
        .route("/api/admin/workers", get(workers::list).post(workers::add))
        .route("/api/worker/claim", post(workers::claim))
        .route(
            "/api/worker/matches/{id}/heartbeat",
            post(workers::heartbeat),
        )
        .route("/api/worker/matches/{id}/finish", post(workers::finish))
        .route("/api/worker/matches/{id}/fail", post(workers::fail))
        .route("/api/worker/matches/{id}/live", post(workers::live))
        .route("/matches/{id}/live", get(live::one))
        .route("/live", get(live::now))
        .route("/api/worker/packs/{digest}", get(workers::pack))
        .route("/api/worker/turns/{play}/answer", post(workers::answer))
        .route("/final", get(admin::final_report))
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
}

fn unauthorized() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "give your token (Authorization: Bearer TOKEN) or log in",
    )
}

/// Who asks, by token (a wrong one is refused), else by session cookie.
pub(crate) async fn caller(app: &App, headers: &HeaderMap) -> Result<Visitor, ApiError> {
    match bearer(headers) {
        Some(t) if same(t, &app.0.config.admin_token) => Ok(Visitor::Host),
        Some(t) => match app.0.store.entrant_of(&hash(t)).await? {
            Some(e) => Ok(Visitor::Entrant(e)),
            None => Err(unauthorized()),
        },
        None => session::from_cookie(&app.0.store, headers).await,
    }
}

/// The entrant asking to read, by token or session cookie.
async fn reader(app: &App, headers: &HeaderMap) -> Result<Entrant, ApiError> {
    match caller(app, headers).await? {
        Visitor::Entrant(e) => Ok(e),
        _ => Err(unauthorized()),
    }
}

/// The host asking to read, by token or session cookie, or a refusal.
async fn host_reader(app: &App, headers: &HeaderMap) -> Result<(), ApiError> {
    match caller(app, headers).await? {
        Visitor::Host => Ok(()),
        Visitor::Entrant(_) => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "only the host may do this",
        )),
        Visitor::Anonymous => Err(unauthorized()),
    }
}

/// The entrant the request's token names.
async fn entrant(app: &App, headers: &HeaderMap) -> Result<Entrant, ApiError> {
    let token = bearer(headers).ok_or_else(unauthorized)?;
    app.0
        .store
        .entrant_of(&hash(token))
        .await?
        .ok_or_else(unauthorized)
}

/// The host's token, or a refusal (403 for an entrant's token, 401 for none or an unknown
/// one). A token only, never the session cookie: the host's API calls act.
async fn admin(app: &App, headers: &HeaderMap) -> Result<(), ApiError> {
    match bearer(headers) {
        Some(t) if same(t, &app.0.config.admin_token) => Ok(()),
        Some(t) if app.0.store.entrant_of(&hash(t)).await?.is_some() => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "only the host may do this",
        )),
        _ => Err(unauthorized()),
    }
}

async fn invite(State(app): State<App>, headers: HeaderMap) -> Result<Response, ApiError> {
    admin(&app, &headers).await?;
    let code = entrants::new_invite(&app).await?;
    Ok((StatusCode::CREATED, Json(json!({ "invite": code }))).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SignUp {
    name: String,
    invite: Option<String>,
}

async fn sign_up(
    State(app): State<App>,
    body: Result<Json<SignUp>, axum::extract::rejection::JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(body) = body.map_err(|e| refused_body(&e))?;
    let token = entrants::new_entrant(&app, &body.name, body.invite.as_deref()).await?;
    let body = json!({ "name": body.name, "token": token });
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

async fn me(State(app): State<App>, headers: HeaderMap) -> Result<Response, ApiError> {
    let who = reader(&app, &headers).await?;
    let versions = app.0.store.versions(who.id).await?;
    let webhook = app.0.store.webhook(&who.name).await?;
    Ok(Json(json!({ "name": who.name, "versions": versions, "webhook": webhook })).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Webhook {
    url: Option<String>,
}

/// `POST /api/me/webhook` `{"url"}`: the entrant's webhook set, or removed with null.
async fn set_webhook(
    State(app): State<App>,
    headers: HeaderMap,
    b: Body<Webhook>,
) -> Result<Response, ApiError> {
    let who = entrant(&app, &headers).await?;
    let url = body(b)?.url;
    crate::domain::entrants::set_webhook(&app, &who, url.as_deref()).await?;
    Ok(Json(json!({ "name": who.name, "webhook": url })).into_response())
}

/// A long poll: look, and while the answer is not the awaited one, wait for a change (or the
/// end of the `wait`) and look again.
struct Waiter {
    deadline: tokio::time::Instant,
    changed: tokio::sync::watch::Receiver<u64>,
}

impl Waiter {
    fn new(app: &App, wait: Option<u64>) -> Waiter {
        let wait = std::time::Duration::from_secs(wait.unwrap_or(0).min(MAX_WAIT));
        Waiter {
            deadline: tokio::time::Instant::now() + wait,
            changed: app.0.signals.changed.subscribe(),
        }
    }

    /// False when the time is up; else waits for a change (or the time) and says to look again.
    async fn again(&mut self) -> bool {
        if tokio::time::Instant::now() >= self.deadline {
            return false;
        }
        let _ = tokio::time::timeout_at(self.deadline, self.changed.changed()).await;
        true
    }

    /// As [`Waiter::again`], waiting `ms` milliseconds at most (and a millisecond more, so a
    /// clock due to run out then has).
    async fn again_within(&mut self, ms: u64) -> bool {
        if tokio::time::Instant::now() >= self.deadline {
            return false;
        }
        let at = tokio::time::Instant::now() + std::time::Duration::from_millis(ms + 1);
        let _ = tokio::time::timeout_at(self.deadline.min(at), self.changed.changed()).await;
        true
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Board {
    /// With `wait`: until this many games are played in all,
    games: Option<usize>,
    /// and every active entrant has played this many.
    each: Option<u64>,
    wait: Option<u64>,
    /// With every pair's games too.
    #[serde(default)]
    pairs: bool,
    /// `entrant` (the default) or `version`: each version a player of its own.
    by: Option<By>,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum By {
    Entrant,
    Version,
}

async fn leaderboard(State(app): State<App>, q: Query<Board>) -> Result<Response, ApiError> {
    let query = query(q)?;
    let mut waiter = Waiter::new(&app, query.wait);
    loop {
        let board = crate::domain::board(&app).await?;
        let standings = &board.standings;
        let rows = &standings.rows;
        let each = query.each.unwrap_or(0);
        let everyone = rows.len() >= standings.active && rows.iter().all(|r| r.games >= each);
        // A wait is also for the ratings of those games.
        let enough = standings.games >= query.games.unwrap_or(0)
            && (each == 0 || everyone)
            && (query.wait.is_none() || board.fresh);
        if enough || !waiter.again().await {
            if query.by == Some(By::Version) {
                let standings = crate::domain::board_by_version(&app).await?;
                return Ok(Json(standings).into_response());
            }
            return Ok((
                [(axum::http::header::CONTENT_TYPE, "application/json")],
                board.body(query.pairs),
            )
                .into_response());
        }
    }
}

/// The address's parameters, or a one-line refusal (axum's own would be plain text).
pub(crate) struct UrlPath<T>(pub T);

impl<T, S> axum::extract::FromRequestParts<S> for UrlPath<T>
where
    T: serde::de::DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, ApiError> {
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|p| UrlPath(p.0))
            .map_err(|e| ApiError::bad(e.body_text()))
    }
}

/// The most a `wait` may ask for, in seconds.
const MAX_WAIT: u64 = 120;

/// A query's fields, or a one-line refusal.
type Query<T> = Result<axum::extract::Query<T>, axum::extract::rejection::QueryRejection>;

fn query<T>(q: Query<T>) -> Result<T, ApiError> {
    q.map(|q| q.0).map_err(|e| ApiError::bad(e.body_text()))
}

/// A JSON body's fields, or a one-line refusal.
type Body<T> = Result<Json<T>, axum::extract::rejection::JsonRejection>;

fn body<T>(b: Body<T>) -> Result<T, ApiError> {
    b.map(|b| b.0).map_err(|e| refused_body(&e))
}

/// A JSON body refused: 413 when it is over the bound (as the docs say), 408 when it was not
/// all sent in time (crate::http::deadline), otherwise 400 with what is wrong.
fn refused_body(e: &axum::extract::rejection::JsonRejection) -> ApiError {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "the body is too large");
    }
    if deadline::too_slow(e) {
        return deadline::refusal();
    }
    ApiError::bad(e.body_text())
}
