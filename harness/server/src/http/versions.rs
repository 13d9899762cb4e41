//! An entrant's versions over the API: the upload's form read (its body bounded) and taken
//! (crate::domain::versions), a version's status (a long poll), its check's report and build
//! log, and its files.

use axum::extract::{Multipart, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use super::{entrant, query, reader, App, Query, UrlPath, Waiter};
use crate::domain::versions::{accept, check_texts, no_version, Upload};
use crate::store::{Entrant, Version};
use crate::ApiError;

/// Room for a multipart body's boundaries and headers beyond the upload's limit.
pub const MULTIPART_ROOM: usize = 64 << 10;

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
            // An admitted version is told once it is also active (a test match or a game
            // asked for the moment after plays it, not the one before).
            None => {
                matches!(v.status.as_str(), "queued" | "checking")
                    || v.status == "admitted" && !v.reached
            }
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
