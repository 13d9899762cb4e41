//! The API (JSON over HTTP; every error a status and `{"error": "one line"}`):
//!
//! | call | who | does |
//! |---|---|---|
//! | `POST /api/invites` | the host (admin token) | a new invite code |
//! | `POST /api/entrants` `{"name", "invite"}` | anyone with an invite (or anyone, `signup = "open"`) | an entrant and its API token |
//! | `GET /api/me` | an entrant | its name and versions |
//! | `POST /api/versions` (multipart: `archive`, or `file` and `manifest`) | an entrant | a new version |
//! | `GET /api/versions/{n}[?wait=S[&from=STATUS]]` | its entrant | the version (with `wait`, once its check is done, or its status is no longer `from`, or after S seconds) |
//! | `GET /api/versions/{n}/report` | its entrant | its check's report and build log |
//! | `GET /api/leaderboard[?games=N&each=E&wait=S]` | anyone | the ratings with their intervals (with `wait`, once N games are played and every active entrant has played E, or after S seconds) |
//! | `GET /api/versions/{n}/download` | its entrant | its files, as the server keeps them (.tar.gz) |
//!
//! Tokens go in `Authorization: Bearer TOKEN`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Multipart, Path as UrlPath, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use quads_tournament::entrants::{read_entrants, Listed, MANIFEST};
use serde::Deserialize;
use serde_json::json;

use crate::pipeline::{self, Signals};
use crate::secret::{hash, new_secret, same};
use crate::store::{Entrant, Store};
use crate::unpack::{one_file, unpack, UnpackError};
use crate::{pack, ApiError, ServerConfig, Signup};

/// What every handler sees.
#[derive(Clone)]
pub struct App(Arc<Inner>);

struct Inner {
    config: ServerConfig,
    store: Store,
    signals: Arc<Signals>,
}

impl App {
    pub fn new(config: ServerConfig, store: Store, signals: Arc<Signals>) -> App {
        App(Arc::new(Inner {
            config,
            store,
            signals,
        }))
    }
}

/// Room for a multipart body's boundaries and headers beyond the upload's limit.
const MULTIPART_ROOM: usize = 64 << 10;

pub fn router(app: App) -> Router {
    let limit = app.0.config.limits.upload_bytes as usize + MULTIPART_ROOM;
    Router::new()
        .route("/api/invites", post(invite))
        .route("/api/entrants", post(sign_up))
        .route("/api/me", get(me))
        .route("/api/versions", post(upload))
        .route("/api/versions/{n}", get(version))
        .route("/api/versions/{n}/download", get(download))
        .route("/api/versions/{n}/report", get(report))
        .route("/api/leaderboard", get(leaderboard))
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "no such page") })
        .layer(DefaultBodyLimit::max(limit))
        .with_state(app)
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
        "give your token: Authorization: Bearer TOKEN",
    )
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

fn is_admin(app: &App, headers: &HeaderMap) -> bool {
    bearer(headers).is_some_and(|t| same(t, &app.0.config.admin_token))
}

fn secret() -> Result<String, ApiError> {
    new_secret().map_err(|e| ApiError::internal(format!("no randomness: {e}")))
}

async fn invite(State(app): State<App>, headers: HeaderMap) -> Result<Response, ApiError> {
    if !is_admin(&app, &headers) {
        return Err(match bearer(&headers) {
            None => unauthorized(),
            Some(_) => ApiError::new(StatusCode::FORBIDDEN, "only the host may make invites"),
        });
    }
    let code = secret()?;
    app.0.store.add_invite(&hash(&code)).await?;
    Ok((StatusCode::CREATED, Json(json!({ "invite": code }))).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SignUp {
    name: String,
    invite: Option<String>,
}

/// A name as manifests have them: 1 to 32 letters, digits, `-`, `_`, `.`, not starting with
/// a dot.
fn check_name(name: &str) -> Result<(), ApiError> {
    let ok = (1..=32).contains(&name.len())
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(())
    } else {
        Err(ApiError::bad(
            "a name has 1 to 32 letters, digits, `-`, `_` or `.`, and does not start with `.`",
        ))
    }
}

async fn sign_up(
    State(app): State<App>,
    body: Result<Json<SignUp>, axum::extract::rejection::JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(body) = body.map_err(|e| ApiError::bad(e.body_text()))?;
    check_name(&body.name)?;
    let invite = match (app.0.config.signup, &body.invite) {
        (_, Some(code)) => Some(hash(code)),
        (Signup::Open, None) => None,
        (Signup::Invite, None) => {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "signing up needs an invite from the host",
            ))
        }
    };
    let token = secret()?;
    app.0
        .store
        .sign_up(&body.name, invite.as_deref(), &hash(&token))
        .await?;
    let body = json!({ "name": body.name, "token": token });
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

async fn me(State(app): State<App>, headers: HeaderMap) -> Result<Response, ApiError> {
    let who = entrant(&app, &headers).await?;
    let versions = app.0.store.versions(who.id).await?;
    Ok(Json(json!({ "name": who.name, "versions": versions })).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Wait {
    /// Seconds to wait for the check to be done (or, with `from`, for the status to leave it).
    wait: Option<u64>,
    from: Option<String>,
}

/// The most a `wait` may ask for, in seconds.
const MAX_WAIT: u64 = 120;

async fn version(
    State(app): State<App>,
    headers: HeaderMap,
    UrlPath(n): UrlPath<i64>,
    query: Result<axum::extract::Query<Wait>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let who = entrant(&app, &headers).await?;
    let query = query.map_err(|e| ApiError::bad(e.body_text()))?;
    let mut waiter = Waiter::new(&app, query.wait);
    loop {
        let v = app
            .0
            .store
            .version(who.id, n)
            .await?
            .ok_or_else(no_version)?;
        let pending = match &query.from {
            Some(from) => v.status == *from,
            None => matches!(v.status.as_str(), "queued" | "checking"),
        };
        if !pending || !waiter.again().await {
            return Ok(Json(v).into_response());
        }
    }
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
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Board {
    /// With `wait`: until this many games are played in all,
    games: Option<usize>,
    /// and every active entrant has played this many.
    each: Option<u64>,
    wait: Option<u64>,
}

async fn leaderboard(
    State(app): State<App>,
    query: Result<axum::extract::Query<Board>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let query = query.map_err(|e| ApiError::bad(e.body_text()))?;
    let mut waiter = Waiter::new(&app, query.wait);
    loop {
        let board = crate::ladder::leaderboard(&app.0.config, &app.0.store).await?;
        let rows = board["rows"].as_array().map_or(&[][..], Vec::as_slice);
        let each = query.each.unwrap_or(0);
        let everyone = rows.len() as u64 >= board["active"].as_u64().unwrap_or(0)
            && rows
                .iter()
                .all(|r| r["games"].as_u64().unwrap_or(0) >= each);
        let enough = board["games"].as_u64().unwrap_or(0) as usize >= query.games.unwrap_or(0)
            && (each == 0 || everyone);
        if enough || !waiter.again().await {
            return Ok(Json(board).into_response());
        }
    }
}

async fn report(
    State(app): State<App>,
    headers: HeaderMap,
    UrlPath(n): UrlPath<i64>,
) -> Result<Response, ApiError> {
    let who = entrant(&app, &headers).await?;
    let v = app
        .0
        .store
        .version(who.id, n)
        .await?
        .ok_or_else(no_version)?;
    let job = app
        .0
        .store
        .job_of(who.id, n)
        .await?
        .ok_or_else(no_version)?;
    let dir = pipeline::folder(&app.0.config, job);
    let read = |p: PathBuf| {
        std::fs::read_to_string(p)
            .ok()
            .map(|t| t.replace(&format!("{}/", dir.display()), ""))
    };
    let body = json!({
        "version": v.version,
        "status": v.status,
        "reason": v.reason,
        "report": read(dir.join("out").join(quads_record::files::ENTRANTS_MD)),
        "build_log": read(quads_tournament::build_log(&dir.join("out"), &who.name)),
    });
    Ok(Json(body).into_response())
}

fn no_version() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "you have no such version")
}

async fn download(
    State(app): State<App>,
    headers: HeaderMap,
    UrlPath(n): UrlPath<i64>,
) -> Result<Response, ApiError> {
    let who = entrant(&app, &headers).await?;
    let v = app
        .0
        .store
        .version(who.id, n)
        .await?
        .ok_or_else(no_version)?;
    let path = blob(&app.0.config, &v.digest);
    let bytes = tokio::fs::read(&path)
        .await
        .map_err(|e| ApiError::internal(format!("{}: {e}", path.display())))?;
    let name = format!("attachment; filename=\"{}-{n}.tar.gz\"", who.name);
    Ok((
        [
            (header::CONTENT_TYPE, "application/gzip".to_owned()),
            (header::CONTENT_DISPOSITION, name),
        ],
        bytes,
    )
        .into_response())
}

fn blob(config: &ServerConfig, digest: &str) -> PathBuf {
    config.blobs().join(format!("{digest}.tar.gz"))
}

/// What a multipart upload held.
enum Upload {
    Archive(Vec<u8>),
    File {
        name: String,
        bytes: Vec<u8>,
        manifest: Vec<u8>,
    },
}

async fn read_upload(mut form: Multipart, limit: u64) -> Result<Upload, ApiError> {
    let too_big = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the upload is over {limit} bytes"),
        )
    };
    let (mut archive, mut file, mut manifest) = (None, None, None);
    loop {
        let field = match form.next_field().await {
            Ok(Some(f)) => f,
            Ok(None) => break,
            Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => return Err(too_big()),
            Err(e) => return Err(ApiError::bad(format!("a bad form: {}", e.body_text()))),
        };
        let name = field.name().unwrap_or("").to_owned();
        let file_name = field.file_name().map(str::to_owned);
        let bytes = match field.bytes().await {
            Ok(b) => b.to_vec(),
            Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => return Err(too_big()),
            Err(e) => return Err(ApiError::bad(format!("a bad form: {}", e.body_text()))),
        };
        match name.as_str() {
            "archive" => archive = Some(bytes),
            "file" => file = Some((file_name.unwrap_or_default(), bytes)),
            "manifest" => manifest = Some(bytes),
            other => {
                return Err(ApiError::bad(format!(
                    "unknown form field `{other}`: give `archive`, or `file` and `manifest`"
                )))
            }
        }
    }
    let total = [&archive, &manifest]
        .iter()
        .filter_map(|b| b.as_ref().map(Vec::len))
        .sum::<usize>()
        + file.as_ref().map_or(0, |(_, b)| b.len());
    if total as u64 > limit {
        return Err(too_big());
    }
    match (archive, file, manifest) {
        (Some(a), None, None) => Ok(Upload::Archive(a)),
        (None, Some((name, bytes)), Some(manifest)) => Ok(Upload::File {
            name,
            bytes,
            manifest,
        }),
        _ => Err(ApiError::bad(
            "give `archive` (a .tar.gz or .zip of the bot's folder), or `file` and `manifest` (one file and its bot.toml)",
        )),
    }
}

/// How much of an oversized body is read (and dropped) before the refusal, as a multiple of
/// the limit: a client still sending gets its answer instead of a broken connection.
const DRAIN: usize = 16;

/// The body, or a refusal once it is over `limit` (read on to `DRAIN` times that first).
async fn read_body(body: axum::body::Body, limit: usize, shown: u64) -> Result<Vec<u8>, ApiError> {
    use http_body_util::BodyExt;
    let mut body = body;
    let (mut kept, mut seen) = (Vec::new(), 0usize);
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| ApiError::bad(format!("a bad body: {e}")))?;
        if let Ok(data) = frame.into_data() {
            seen += data.len();
            if seen <= limit {
                kept.extend_from_slice(&data);
            } else if seen > DRAIN * limit {
                break;
            }
        }
    }
    if seen > limit {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the upload is over {shown} bytes"),
        ));
    }
    Ok(kept)
}

async fn upload(
    State(app): State<App>,
    request: axum::extract::Request,
) -> Result<Response, ApiError> {
    use axum::extract::FromRequest;
    let (parts, body) = request.into_parts();
    let who = entrant(&app, &parts.headers).await?;
    let config = &app.0.config;
    let limit = config.limits.upload_bytes as usize + MULTIPART_ROOM;
    let bytes = read_body(body, limit, config.limits.upload_bytes).await?;
    let request = axum::extract::Request::from_parts(parts, axum::body::Body::from(bytes));
    let form = Multipart::from_request(request, &app)
        .await
        .map_err(|e| ApiError::bad(e.body_text()))?;
    let upload = read_upload(form, config.limits.upload_bytes).await?;
    // A staging folder of its own, named by a secret: two uploads never share one.
    let staging = config.staging().join(secret()?);
    let folder = staging.join(&who.name);
    let (limits, name, blobs) = (config.limits, who.name.clone(), config.blobs());
    let checked = tokio::task::spawn_blocking({
        let (staging, folder) = (staging.clone(), folder.clone());
        move || check_and_keep(upload, &staging, &folder, &name, &limits, &blobs)
    })
    .await
    .map_err(ApiError::internal);
    let _ = std::fs::remove_dir_all(&staging);
    let (digest, files, bytes) = checked??;
    let number = app
        .0
        .store
        .add_version(who.id, &digest, files as i64, bytes as i64)
        .await?;
    app.0.signals.queued.notify_one();
    let body = json!({
        "version": number,
        "digest": digest,
        "files": files,
        "bytes": bytes,
        "status": "queued",
    });
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// Unpacks, reads the manifest, packs the canonical form and keeps it: (digest, files, bytes).
fn check_and_keep(
    upload: Upload,
    staging: &Path,
    folder: &Path,
    entrant: &str,
    limits: &crate::Limits,
    blobs: &Path,
) -> Result<(String, u64, u64), ApiError> {
    std::fs::create_dir_all(folder).map_err(ApiError::internal)?;
    let unpacked = match upload {
        Upload::Archive(a) => unpack(&a, folder, limits),
        Upload::File {
            name,
            bytes,
            manifest,
        } => {
            if name == MANIFEST {
                return Err(ApiError::bad(format!(
                    "the file is named {MANIFEST}: give the bot's file and its manifest apart"
                )));
            }
            one_file(&name, &bytes, folder, limits)
                .and_then(|_| one_file(MANIFEST, &manifest, folder, limits))
                .map(|_| crate::unpack::Unpacked {
                    files: 2,
                    bytes: (bytes.len() + manifest.len()) as u64,
                })
        }
    };
    let unpacked = unpacked.map_err(|e| match e {
        UnpackError::Io(_) => ApiError::internal(&e),
        UnpackError::TooBig(_) | UnpackError::TooMany(_) => {
            ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, e.to_string())
        }
        _ => ApiError::bad(e.to_string()),
    })?;
    let listed = read_entrants(staging, &[]).map_err(ApiError::internal)?;
    let shown = |why: &str| why.replace(&format!("{}/", folder.display()), "");
    match listed.as_slice() {
        [Listed::Entrant(e)] if e.about.name == entrant => {}
        [Listed::Entrant(e)] => {
            return Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!(
                    "{MANIFEST} names the bot `{}`, but this is `{entrant}`'s account: name it `{entrant}`",
                    e.about.name
                ),
            ))
        }
        [Listed::Rejected(_, why)] => {
            return Err(ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, shown(why)))
        }
        _ => return Err(ApiError::internal("the staging folder holds more than the upload")),
    }
    let packed = pack::pack(folder).map_err(ApiError::internal)?;
    let digest = pack::digest(&packed);
    let path = blobs.join(format!("{digest}.tar.gz"));
    if !path.exists() {
        // A partial file named by this upload's own staging folder: never another's.
        let own = staging
            .file_name()
            .map(|n| n.to_string_lossy().into_owned());
        let part = blobs.join(format!("{digest}.part-{}", own.unwrap_or_default()));
        std::fs::write(&part, &packed)
            .and_then(|()| std::fs::rename(&part, &path))
            .map_err(|e| ApiError::internal(format!("{}: {e}", path.display())))?;
    }
    Ok((digest, unpacked.files, unpacked.bytes))
}
