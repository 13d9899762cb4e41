//! The export over the API (what it holds: crate::domain::export): made by the host, its files
//! downloaded from `/api/admin/export/FILE`.

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use super::{admin, host_reader, App, UrlPath};
use crate::domain::export::{export, export_folder, FILES};
use crate::ApiError;

/// `POST /api/admin/export`.
pub(super) async fn make(State(app): State<App>, headers: HeaderMap) -> Result<Response, ApiError> {
    admin(&app, &headers).await?;
    Ok((StatusCode::CREATED, Json(export(&app).await?)).into_response())
}

/// `GET /api/admin/export/FILE`: one of the export's files, to the host (its token or its
/// session).
pub(super) async fn file(
    State(app): State<App>,
    headers: HeaderMap,
    UrlPath(name): UrlPath<String>,
) -> Result<Response, ApiError> {
    host_reader(&app, &headers).await?;
    let Some((name, kind)) = FILES.iter().find(|(f, _)| *f == name) else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "no such file in an export",
        ));
    };
    let path = export_folder(&app).join(name);
    let bytes = tokio::fs::read(&path).await.map_err(|_| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "no export yet: the host has not exported the event",
        )
    })?;
    let mut answer = (
        [
            (header::CONTENT_TYPE, (*kind).to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{}-{name}\"", app.0.config.name),
            ),
        ],
        bytes,
    )
        .into_response();
    if *name == quads_reports::html::REPORT_FILE {
        answer.headers_mut().insert(
            header::CONTENT_SECURITY_POLICY,
            header::HeaderValue::from_static(super::admin::REPORT_CSP),
        );
    }
    Ok(answer)
}
