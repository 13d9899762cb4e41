//! `/admin`: the host's page (invites, the switches, the entrants, the final tournament) and
//! its forms, each the domain's action the API calls too (crate::domain::host).

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use maud::{html, Markup};
use serde::Deserialize;

use super::{badge, form, log_in_first, see_other, Form, PageError, Seen};
use crate::domain::entrants::new_invite;
use crate::domain::export::export;
use crate::domain::host::{
    act as match_act, cancel_check, disable, set_switches, snapshot, switches_now, MatchAction,
};
use crate::domain::App;
use crate::session::{check_csrf, Visitor};
use crate::ApiError;

async fn host(app: &App, headers: &HeaderMap) -> Result<Seen, PageError> {
    let seen = Seen::of(app, headers).await?;
    match seen.visitor {
        Visitor::Host => Ok(seen),
        Visitor::Entrant(_) => Err(PageError(ApiError::new(
            StatusCode::FORBIDDEN,
            "only the host may do this",
        ))),
        Visitor::Anonymous => Err(log_in_first()),
    }
}

pub(super) async fn show(
    State(app): State<App>,
    headers: HeaderMap,
) -> Result<Response, PageError> {
    let seen = host(&app, &headers).await?;
    let body = admin_body(&app, &seen, None).await?;
    Ok(super::page(&app, &seen, "Host", body, &[]))
}

async fn admin_body(app: &App, seen: &Seen, told: Option<Markup>) -> Result<Markup, PageError> {
    let switches = switches_now(app).await?;
    let entrants = app.0.store.entrants().await?;
    let pending = app.0.store.pending_checks().await?;
    let usages = app.0.store.usages().await?;
    let q = app.0.config.quotas;
    Ok(html! {
        @if let Some(t) = told { (t) }
        h2 { "Invites" }
        form class="box" method="post" action="/admin/invite" {
            (seen.field()) button type="submit" { "make an invite" }
        }
        h2 { "Switches" }
        form class="box" id="switches" method="post" action="/admin/switches" {
            (seen.field())
            label { input type="checkbox" name="frozen" checked[switches.frozen]; " uploads frozen" }
            label { input type="checkbox" name="ladder_paused" checked[switches.ladder_paused]; " ladder paused (test matches still play)" }
            button type="submit" { "set" }
        }
        h2 { "Entrants" }
        table id="entrants" tabindex="0" {
            thead { tr {
                th class="bot" { "entrant" } th { "active version" }
                th { "uploads in the last hour (of " (q.uploads_per_hour) ")" }
                th { "bytes stored (of " (q.stored_bytes) ")" }
                th { "versions (of " (q.versions) ")" }
                th class="left" { "disabled" } th class="left" { "action" }
            } }
            tbody {
                @for (name, active, disabled) in &entrants {
                    tr {
                        td class="bot" { a href={ "/entrants/" (name) } { (name) } }
                        td { @if let Some(v) = active { (v) } @else { "none" } }
                        @if let Some(u) = usages.get(name) {
                            td class="uploads" { (u.uploads_this_hour) } td class="stored" { (u.stored_bytes) } td class="versions" { (u.versions) }
                        } @else { td {} td {} td {} }
                        td class="left" { @if let Some(why) = disabled { (badge("disabled")) " " (why) } }
                        td class="left" {
                            @if disabled.is_some() {
                                form class="row" method="post" action="/admin/enable" {
                                    (seen.field()) input type="hidden" name="name" value=(name);
                                    button type="submit" { "enable" }
                                }
                            } @else {
                                form class="row" method="post" action="/admin/disable" {
                                    (seen.field()) input type="hidden" name="name" value=(name);
                                    input type="text" name="reason" placeholder="why" required;
                                    button type="submit" { "disable" }
                                }
                            }
                        }
                    }
                }
            }
        }
        h2 { "Checks" }
        @if pending.is_empty() {
            p class="note" { "No version is waiting for its check or in it." }
        } @else {
            table id="checks" tabindex="0" {
                thead { tr { th class="bot" { "entrant" } th { "version" } th { "status" } th class="left" { "" } } }
                tbody {
                    @for (name, number, status) in &pending {
                        tr {
                            td class="bot" { a href={ "/entrants/" (name) } { (name) } }
                            td { (number) }
                            td { (badge(status)) }
                            td class="left" {
                                form class="row" method="post" action="/admin/cancel-check" {
                                    (seen.field()) input type="hidden" name="name" value=(name);
                                    input type="hidden" name="version" value=(number);
                                    button type="submit" { "cancel its check" }
                                }
                            }
                        }
                    }
                }
            }
        }
        h2 { "The final tournament" }
        p class="note" { "Snapshots every enabled entrant's active version as an entrants folder, with a quads tournament config beside it; run that, and its report is published at /final." }
        form class="box" method="post" action="/admin/final" {
            (seen.field()) button type="submit" { "snapshot for the final" }
        }
        h2 { "The whole event" }
        p class="note" { "Writes every ladder game as games.jsonl, rated as quads ratings rates it, with the standings and report.html, for you to download and publish." }
        form class="box" method="post" action="/admin/export" {
            (seen.field()) button type="submit" { "export the event" }
        }
        h2 { "Downloads" }
        p { a href="/api/games.jsonl" { "every game (games.jsonl)" } " · " a href="/final" { "the final's report" } }
    })
}

#[derive(Deserialize)]
pub(super) struct Action {
    csrf: Option<String>,
    frozen: Option<String>,
    ladder_paused: Option<String>,
    name: Option<String>,
    reason: Option<String>,
    #[serde(rename = "match")]
    id: Option<i64>,
    version: Option<i64>,
}

pub(super) async fn act(
    State(app): State<App>,
    headers: HeaderMap,
    Path(action): Path<String>,
    f: Form<Action>,
) -> Result<Response, PageError> {
    let f = form(f)?;
    check_csrf(&headers, f.csrf.as_deref())?;
    let seen = host(&app, &headers).await?;
    let need = |v: Option<String>, what: &str| {
        v.filter(|s| !s.trim().is_empty())
            .ok_or_else(|| PageError(ApiError::bad(format!("give the {what}"))))
    };
    let told = match action.as_str() {
        "invite" => {
            let code = new_invite(&app).await?;
            html! {
                p class="done" { "A new invite, usable once: send it to the entrant." }
                p class="secret" id="invite" { (code) }
            }
        }
        "switches" => {
            set_switches(
                &app,
                Some(f.frozen.is_some()),
                Some(f.ladder_paused.is_some()),
            )
            .await?;
            return Ok(see_other("/admin"));
        }
        "disable" => {
            let name = need(f.name, "entrant's name")?;
            let why = need(f.reason, "reason")?;
            disable(&app, &name, Some(why.trim())).await?;
            return Ok(see_other("/admin"));
        }
        "enable" => {
            disable(&app, &need(f.name, "entrant's name")?, None).await?;
            return Ok(see_other("/admin"));
        }
        "cancel-check" => {
            let name = need(f.name, "entrant's name")?;
            let version = f
                .version
                .ok_or_else(|| PageError(ApiError::bad("give the version")))?;
            cancel_check(&app, &name, version).await?;
            return Ok(see_other("/admin"));
        }
        "rerun" | "cancel" => {
            let id =
                f.id.ok_or_else(|| PageError(ApiError::bad("give the match")))?;
            let action: MatchAction = action.parse()?;
            let to = match_act(&app, id, action).await?.rerun.unwrap_or(id);
            return Ok(see_other(&format!("/matches/{to}")));
        }
        "final" => {
            let s = snapshot(&app).await?;
            html! {
                p class="done" {
                    "The snapshot holds " (s.entrants.len()) " entrants. Run the final tournament on this machine:"
                }
                code class="command" id="final-command" { (s.command) }
                p class="note" { "or as Slurm shards, from the project's folder (SHARDS: how many):" }
                code class="command" id="final-slurm" { (s.slurm) }
                p class="note" { "Its report is then published at " a href="/final" { "/final" } "." }
            }
        }
        "export" => {
            let e = export(&app).await?;
            html! {
                p class="done" id="export" {
                    (e.games) " ladder games exported to " (e.folder) ":"
                }
                ul {
                    @for (name, href) in &e.files {
                        li { a href=(href) { (name) } }
                    }
                }
            }
        }
        other => {
            return Err(PageError(ApiError::new(
                StatusCode::NOT_FOUND,
                format!("no host action `{other}`"),
            )))
        }
    };
    let body = admin_body(&app, &seen, Some(told)).await?;
    Ok((StatusCode::OK, super::page(&app, &seen, "Host", body, &[])).into_response())
}
