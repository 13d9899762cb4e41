//! An entrant's versions: the upload (checked, unpacked under the server's limits, its
//! manifest read, packed and kept by digest, then queued for the pipeline), a version's
//! status (a long poll), its check's report and build log, and its files.

use std::path::{Path, PathBuf};

use axum::extract::{Multipart, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use quads_tournament::entrants::{read_entrants, Listed, MANIFEST};
use serde::Deserialize;
use serde_json::json;

use super::{entrant, query, reader, secret, App, Query, UrlPath, Waiter};
use crate::pipeline;
use crate::store::{Entrant, Version};
use crate::unpack::{one_file, unpack, UnpackError};
use crate::{pack, ApiError};

/// Room for a multipart body's boundaries and headers beyond the upload's limit.
pub const MULTIPART_ROOM: usize = 64 << 10;

/// The switch that stops uploads.
pub const FROZEN: &str = "frozen";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Wait {
    /// Seconds to wait for the check to be done (or, with `from`, for the status to leave it).
    wait: Option<u64>,
    from: Option<String>,
}

pub(super) async fn version(
    State(app): State<App>,
    headers: HeaderMap,
    UrlPath(n): UrlPath<i64>,
    q: Query<Wait>,
) -> Result<Response, ApiError> {
    let who = reader(&app, &headers).await?;
    let query = query(q)?;
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

pub(super) async fn report(
    State(app): State<App>,
    headers: HeaderMap,
    UrlPath(n): UrlPath<i64>,
) -> Result<Response, ApiError> {
    let (who, v) = own_version(&app, &headers, n).await?;
    let (report, build_log) = check_texts(&app, &who, n).await?;
    let body = json!({
        "version": v.version,
        "status": v.status,
        "reason": v.reason,
        "report": report,
        "build_log": build_log,
    });
    Ok(Json(body).into_response())
}

/// Version `n` of `who`'s check: its report and its build log, as far as there are any, with
/// the server's folders taken out.
pub(crate) async fn check_texts(
    app: &App,
    who: &Entrant,
    n: i64,
) -> Result<(Option<String>, Option<String>), ApiError> {
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
    Ok((
        read(dir.join("out").join(quads_record::files::ENTRANTS_MD)),
        read(quads_tournament::build_log(&dir.join("out"), &who.name)),
    ))
}

pub(super) fn no_version() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "you have no such version")
}

/// The caller and its version `n`.
async fn own_version(
    app: &App,
    headers: &HeaderMap,
    n: i64,
) -> Result<(Entrant, Version), ApiError> {
    let who = reader(app, headers).await?;
    let v = app
        .0
        .store
        .version(who.id, n)
        .await?
        .ok_or_else(no_version)?;
    Ok((who, v))
}

pub(super) async fn download(
    State(app): State<App>,
    headers: HeaderMap,
    UrlPath(n): UrlPath<i64>,
) -> Result<Response, ApiError> {
    let (who, v) = own_version(&app, &headers, n).await?;
    let path = app.0.config.blob(&v.digest);
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

/// What a multipart upload held.
pub(crate) enum Upload {
    Archive(Vec<u8>),
    File {
        name: String,
        bytes: Vec<u8>,
        manifest: Vec<u8>,
    },
}

/// The upload a form holds, and its `csrf` field if it has one (the pages' form does). A file
/// field left empty (a browser sends one with no name) counts as not given.
pub(crate) async fn read_upload(
    mut form: Multipart,
    limit: u64,
) -> Result<(Upload, Option<String>), ApiError> {
    let too_big = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the upload is over {limit} bytes"),
        )
    };
    let (mut archive, mut file, mut manifest, mut csrf) = (None, None, None, None);
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
        if file_name.as_deref() == Some("") && bytes.is_empty() {
            continue;
        }
        match name.as_str() {
            crate::session::CSRF_FIELD => csrf = Some(String::from_utf8_lossy(&bytes).into_owned()),
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
    let upload = match (archive, file, manifest) {
        (Some(a), None, None) => Upload::Archive(a),
        (None, Some((name, bytes)), Some(manifest)) => Upload::File {
            name,
            bytes,
            manifest,
        },
        _ => return Err(ApiError::bad(
            "give `archive` (a .tar.gz or .zip of the bot's folder), or `file` and `manifest` (one file and its bot.toml)",
        )),
    };
    Ok((upload, csrf))
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
        let frame = frame.map_err(|e| {
            if super::deadline::too_slow(&e) {
                super::deadline::refusal()
            } else {
                ApiError::bad(format!("a bad body: {e}"))
            }
        })?;
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

pub(super) async fn upload(
    State(app): State<App>,
    request: axum::extract::Request,
) -> Result<Response, ApiError> {
    let (parts, body) = request.into_parts();
    let who = entrant(&app, &parts.headers).await?;
    let (upload, _) = read_form(&app, parts, body).await?;
    let body = accept(&app, &who, upload).await?;
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// An upload's multipart form, its body bounded (see [`read_body`]): the upload and its `csrf`.
pub(crate) async fn read_form(
    app: &App,
    parts: axum::http::request::Parts,
    body: axum::body::Body,
) -> Result<(Upload, Option<String>), ApiError> {
    use axum::extract::FromRequest;
    let config = &app.0.config;
    let limit = config.limits.upload_bytes as usize + MULTIPART_ROOM;
    let bytes = read_body(body, limit, config.limits.upload_bytes).await?;
    let request = axum::extract::Request::from_parts(parts, axum::body::Body::from(bytes));
    let form = Multipart::from_request(request, app)
        .await
        .map_err(|e| ApiError::bad(e.body_text()))?;
    read_upload(form, config.limits.upload_bytes).await
}

/// Takes an entrant's upload as its next version, queued for the pipeline: what the API
/// answers.
pub(crate) async fn accept(
    app: &App,
    who: &Entrant,
    upload: Upload,
) -> Result<serde_json::Value, ApiError> {
    super::enabled(who)?;
    if app.0.store.switch(FROZEN).await? {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "uploads are frozen: the host has closed the event to new versions",
        ));
    }
    let config = &app.0.config;
    // Over a quota already: refused before anything is unpacked or stored. (The bound itself
    // is the one statement that records the version: a burst sent at once passes this
    // together, and is held there.)
    let usage = app.0.store.usage(who.id).await?;
    if let Some(refused) = crate::store::over_quota(&config.quotas, &usage, 0) {
        return Err(refused);
    }
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
    let (number, superseded) = app
        .0
        .store
        .add_version(who.id, &digest, files as i64, bytes as i64, &config.quotas)
        .await?;
    app.0.signals.stop(&superseded);
    app.0.signals.queued.notify_one();
    Ok(json!({
        "version": number,
        "digest": digest,
        "files": files,
        "bytes": bytes,
        "status": "queued",
    }))
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
