//! The host's actions: freeze uploads and pause the ladder (switches), disable an entrant,
//! rerun or cancel a match, and the final tournament's snapshot: the active versions as an
//! entrants folder with a `quads tournament` config beside it, whose report the server then
//! publishes at `/final` (run on this machine, or as Slurm shards merged in the final's folder).

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use super::versions::FROZEN;
use super::{admin, body, App, Body, UrlPath};
use crate::ladder::LADDER_PAUSED;
use crate::ApiError;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Switches {
    frozen: Option<bool>,
    ladder_paused: Option<bool>,
}

/// The switches as they are now.
pub(crate) async fn switches_now(app: &App) -> Result<serde_json::Value, ApiError> {
    let store = &app.0.store;
    Ok(json!({
        "frozen": store.switch(FROZEN).await?,
        "ladder_paused": store.switch(LADDER_PAUSED).await?,
    }))
}

/// Flips the switches given.
pub(crate) async fn set_switches(
    app: &App,
    frozen: Option<bool>,
    ladder_paused: Option<bool>,
) -> Result<(), ApiError> {
    for (name, on) in [(FROZEN, frozen), (LADDER_PAUSED, ladder_paused)] {
        if let Some(on) = on {
            app.0.store.set_switch(name, on).await?;
        }
    }
    app.0.signals.changed.send_modify(|n| *n += 1);
    Ok(())
}

pub(super) async fn switches(
    State(app): State<App>,
    headers: HeaderMap,
    b: Body<Switches>,
) -> Result<Response, ApiError> {
    admin(&app, &headers).await?;
    let s = body(b)?;
    set_switches(&app, s.frozen, s.ladder_paused).await?;
    Ok(Json(switches_now(&app).await?).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Disable {
    disabled: Option<String>,
}

/// Disables `name` with the reason (`None`: enables it).
pub(crate) async fn disable(app: &App, name: &str, why: Option<&str>) -> Result<(), ApiError> {
    if why.is_some_and(|w| w.trim().is_empty() || w.contains('\n')) {
        return Err(ApiError::bad("give the reason in one line"));
    }
    if !app.0.store.disable(name, why).await? {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no entrant `{name}`"),
        ));
    }
    if let Some(why) = why {
        let reason = format!("cancelled: the host disabled this entrant ({why})");
        let stopped = app.0.store.cancel_entrant(name, &reason).await?;
        app.0.signals.stop(&stopped);
    }
    app.0.signals.changed.send_modify(|n| *n += 1);
    Ok(())
}

/// Cancels the check of version `number` of entrant `name`, still to come or running: what
/// the API answers.
pub(crate) async fn cancel_check(
    app: &App,
    name: &str,
    number: i64,
) -> Result<serde_json::Value, ApiError> {
    let store = &app.0.store;
    let entrant = store
        .entrant_named(name)
        .await?
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, format!("no entrant `{name}`")))?;
    let stopped = store
        .cancel_version(entrant.id, number, "cancelled by the host")
        .await?
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::CONFLICT,
                format!("`{name}` has no version {number} waiting for its check or in it"),
            )
        })?;
    app.0.signals.stop(&stopped);
    app.0.signals.changed.send_modify(|n| *n += 1);
    Ok(json!({ "entrant": name, "version": number, "status": crate::store::CANCELLED }))
}

pub(super) async fn version_cancel(
    State(app): State<App>,
    headers: HeaderMap,
    UrlPath((name, number)): UrlPath<(String, i64)>,
) -> Result<Response, ApiError> {
    admin(&app, &headers).await?;
    Ok(Json(cancel_check(&app, &name, number).await?).into_response())
}

pub(super) async fn entrant(
    State(app): State<App>,
    headers: HeaderMap,
    UrlPath(name): UrlPath<String>,
    b: Body<Disable>,
) -> Result<Response, ApiError> {
    admin(&app, &headers).await?;
    let d = body(b)?;
    disable(&app, &name, d.disabled.as_deref()).await?;
    Ok(Json(json!({ "name": name, "disabled": d.disabled })).into_response())
}

/// Reruns or cancels match `id`: what the API answers.
pub(crate) async fn act(app: &App, id: i64, action: &str) -> Result<serde_json::Value, ApiError> {
    let store = &app.0.store;
    let answer = match action {
        "rerun" => {
            let new = store.rerun_match(id).await?.ok_or_else(|| {
                ApiError::new(
                    StatusCode::CONFLICT,
                    format!("match {id} is not one, or is not over: cancel it first"),
                )
            })?;
            json!({ "match": id, "state": "cancelled", "rerun": new })
        }
        "cancel" => {
            if !store.cancel_match(id, "cancelled by the host").await? {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    format!("match {id} is not one, or is over: rerun it instead"),
                ));
            }
            json!({ "match": id, "state": "cancelled" })
        }
        other => {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                format!("no action `{other}`: rerun or cancel"),
            ))
        }
    };
    app.0.signals.changed.send_modify(|n| *n += 1);
    Ok(answer)
}

pub(super) async fn match_action(
    State(app): State<App>,
    headers: HeaderMap,
    UrlPath((id, action)): UrlPath<(i64, String)>,
) -> Result<Response, ApiError> {
    admin(&app, &headers).await?;
    Ok(Json(act(&app, id, &action).await?).into_response())
}

/// Game pairs per pairing per variant in the final tournament's config (the host may edit it).
pub const FINAL_PAIRS: u32 = 10;

/// The final's folder: `DATA/final`.
pub(crate) fn final_folder(app: &App) -> std::path::PathBuf {
    app.0.config.data.join("final")
}

/// Writes the snapshot: every entrant not disabled with its active version, unpacked.
pub(crate) async fn snapshot(app: &App) -> Result<serde_json::Value, ApiError> {
    let config = app.0.config.clone();
    let dir = final_folder(app);
    let entrants = dir.join("entrants");
    let mut taken = Vec::new();
    for (name, version, disabled) in app.0.store.entrants().await? {
        let (Some(number), None) = (version, disabled) else {
            continue;
        };
        let who = app.0.store.entrant_named(&name).await?;
        let v = match who {
            Some(w) => app.0.store.version(w.id, number).await?,
            None => None,
        };
        if let Some(v) = v {
            taken.push((name, number, v.digest));
        }
    }
    let written = tokio::task::spawn_blocking({
        let (dir, entrants, taken) = (dir.clone(), entrants.clone(), taken.clone());
        move || -> Result<String, String> {
            let _ = std::fs::remove_dir_all(&entrants);
            for (name, _, digest) in &taken {
                let own = entrants.join(name);
                std::fs::create_dir_all(&own).map_err(|e| format!("{}: {e}", own.display()))?;
                let path = config.blob(digest);
                let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                crate::unpack::unpack(&bytes, &own, &config.limits).map_err(|e| e.to_string())?;
            }
            let text = format!(
                "{}pairs = {FINAL_PAIRS}\n",
                crate::pipeline::event(&config, &entrants, &dir.join("out"))
            );
            let file = dir.join("tournament.toml");
            std::fs::write(&file, text).map_err(|e| format!("{}: {e}", file.display()))?;
            Ok(file.display().to_string())
        }
    })
    .await
    .map_err(ApiError::internal)?
    .map_err(ApiError::internal)?;
    let list: Vec<serde_json::Value> = taken
        .iter()
        .map(|(n, v, _)| json!({ "name": n, "version": v }))
        .collect();
    let slurm = dir.join(FINAL_SLURM);
    Ok(json!({
        "entrants": list,
        "folder": entrants.display().to_string(),
        "config": written,
        "command": format!("quads tournament {written}"),
        "slurm_out": slurm.display().to_string(),
        "slurm": format!("configs/slurm/submit.sh {written} {} SHARDS", slurm.display()),
        "published_at": "/final",
    }))
}

pub(super) async fn final_snapshot(
    State(app): State<App>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    admin(&app, &headers).await?;
    Ok((StatusCode::CREATED, Json(snapshot(&app).await?)).into_response())
}

/// The CSP of a report: its own script and style, inline, and nothing from anywhere.
pub(super) const REPORT_CSP: &str =
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

/// The final's Slurm run, in the final's folder: its shards, and their merge in `merged`
/// (configs/slurm/submit.sh's layout).
pub const FINAL_SLURM: &str = "slurm";

/// The final's report: the one machine's run (`out`, as the snapshot's config says) or the
/// Slurm shards' merge (`slurm/merged`), whichever was written last.
fn final_report_file(app: &App) -> std::path::PathBuf {
    let dir = final_folder(app);
    let file = quads_reports::html::REPORT_FILE;
    let candidates = [
        dir.join("out").join(file),
        dir.join(FINAL_SLURM).join("merged").join(file),
    ];
    let written = |p: &std::path::Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    candidates
        .iter()
        .filter_map(|p| Some((written(p)?, p.clone())))
        .max()
        .map_or_else(|| candidates[0].clone(), |(_, p)| p)
}

/// `/final`: the final tournament's report.html, once the host has run it.
pub(super) async fn final_report(State(app): State<App>) -> Response {
    let path = final_report_file(&app);
    match tokio::fs::read_to_string(&path).await {
        Ok(page) => (
            [
                (axum::http::header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (axum::http::header::CONTENT_SECURITY_POLICY, REPORT_CSP),
            ],
            page,
        )
            .into_response(),
        Err(_) => (
            StatusCode::NOT_FOUND,
            "no final report yet: the host has not run the final tournament",
        )
            .into_response(),
    }
}
