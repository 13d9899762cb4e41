//! The whole event, exported: every counted ladder game as games.jsonl, rated as `quads ratings`
//! rates a file (standings, pairwise tables, charts, event.json and report.html, through
//! `quads_results::rating`), in `DATA/export`; the host downloads the files from
//! `/api/admin/export/FILE`. Test matches are an entrant's own and stay out.

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use super::{admin, host_reader, App, UrlPath};
use crate::ApiError;

/// The export's folder: `DATA/export`.
pub(crate) fn export_folder(app: &App) -> std::path::PathBuf {
    app.0.config.data.join("export")
}

/// The files of an export the host may download, with their content types.
const FILES: &[(&str, &str)] = &[
    (quads_record::files::GAMES, "application/x-ndjson"),
    (quads_reports::html::REPORT_FILE, "text/html; charset=utf-8"),
    ("standings.csv", "text/csv; charset=utf-8"),
    ("standings.txt", "text/plain; charset=utf-8"),
    ("pairwise.csv", "text/csv; charset=utf-8"),
    ("results.csv", "text/csv; charset=utf-8"),
    ("games.pgn", "text/plain; charset=utf-8"),
];

/// Writes the export: the ladder's counted games in the order they were recorded, then their
/// ratings and report beside them. The bootstrap's seed is 1, as the leaderboard's, so the same
/// games give the same files.
pub(crate) async fn export(app: &App) -> Result<serde_json::Value, ApiError> {
    let store = &app.0.store;
    let records = store.ladder_records().await?;
    if records.is_empty() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "no ladder game has been played yet: nothing to export",
        ));
    }
    let mut text = String::new();
    for record in &records {
        text.push_str(record);
        text.push('\n');
    }
    let dir = export_folder(app);
    let name = app.0.config.name.clone();
    tokio::task::spawn_blocking({
        let dir = dir.clone();
        move || -> Result<(), String> {
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            let games = dir.join(quads_record::files::GAMES);
            quads_record::files::write_atomic(&games, text.as_bytes())
                .map_err(|e| format!("{}: {e}", games.display()))?;
            let rate = quads_results::rating::Rate {
                files: vec![games],
                out: dir.clone(),
                event: Some(name),
                seed: Some(1),
                anchor: None,
            };
            quads_results::rating::rate(&rate, &mut |_: quads_results::Event<'_>| {})
                .map_err(|e| e.to_string())
        }
    })
    .await
    .map_err(ApiError::internal)?
    .map_err(ApiError::internal)?;
    let files: serde_json::Map<String, serde_json::Value> = FILES
        .iter()
        .filter(|(f, _)| dir.join(f).is_file())
        .map(|(f, _)| ((*f).to_owned(), json!(format!("/api/admin/export/{f}"))))
        .collect();
    Ok(json!({
        "games": records.len(),
        "folder": dir.display().to_string(),
        "files": files,
    }))
}

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
