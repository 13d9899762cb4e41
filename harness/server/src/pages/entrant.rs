//! An entrant's page (its versions with their status and errors, its rating over its games,
//! head-to-head results, its
//! matches; to its owner the upload and test-match forms and the downloads, and its faults),
//! a version's check report and build log (its owner and the host only), and the two forms.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use maud::{html, Markup};
use quads_record::GameRecord;
use serde::Deserialize;

use super::board::match_table;
use super::{badge, form, log_in_first, pre, see_other, Form, PageError, Seen};
use crate::domain::entrants::named;
use crate::domain::matches::{queue_test, TestMatch};
use crate::domain::versions::{accept, check_texts};
use crate::domain::App;
use crate::http::versions::read_form;
use crate::session::{check_csrf, Visitor};
use crate::store::{Entrant, Version};
use crate::ApiError;

fn versions_table(name: &str, versions: &[Version], seen: &Seen) -> Markup {
    let private = seen.may_see(name);
    let owner = seen.visitor.entrant().is_some_and(|e| e.name == name);
    html! {
        table id="versions" tabindex="0" {
            thead { tr { th { "version" } th { "status" } th class="left" { "why" } th { "files" } th { "bytes" } @if private { th { "check" } } @if owner { th { "files" } } } }
            tbody {
                @for v in versions.iter().rev() {
                    tr id={ "v-" (v.version) } {
                        td { (v.version) }
                        td { (badge(&v.status)) }
                        td class="left" { (v.reason) @if let Some(p) = &v.paused { br; "paused: " (p) } }
                        td { (v.files) } td { (v.bytes) }
                        @if private { td { a href={ "/entrants/" (name) "/versions/" (v.version) } { "report and build log" } } }
                        @if owner { td { a href={ "/api/versions/" (v.version) "/download" } { "download" } } }
                    }
                }
            }
        }
    }
}

fn owner_forms(
    app: &App,
    seen: &Seen,
    opponents: &[String],
    usage: &crate::store::Usage,
    webhook: Option<&str>,
) -> Markup {
    let q = &app.0.config.quotas;
    html! {
        h2 { "Upload a new version" }
        form class="box" id="upload" method="post" action="/upload" enctype="multipart/form-data" {
            (seen.field())
            label { "the bot's folder as a .tar.gz or .zip (with its bot.toml) " input type="file" name="archive"; }
            p class="note" { "or one file and its bot.toml:" }
            label { "the file " input type="file" name="file"; }
            label { "its bot.toml " input type="file" name="manifest"; }
            button type="submit" { "upload" }
            p class="note" id="event-limits" {
                "This event's limits: an upload of at most " (app.0.config.limits.upload_bytes) " bytes, unpacking to "
                (app.0.config.limits.unpacked_bytes) " bytes in " (app.0.config.limits.files) " files at most; a build of at most "
                (app.0.config.build_timeout) " (a bot.toml's build_timeout may ask for less, never more). "
                "A new upload supersedes a version still waiting for its check or in it."
            }
            p class="note" id="quotas" {
                "Your quotas: " (usage.uploads_this_hour) " of " (q.uploads_per_hour) " uploads in the last hour, "
                (usage.stored_bytes) " of " (q.stored_bytes) " bytes stored, "
                (usage.versions) " of " (q.versions) " versions kept."
            }
        }
        h2 { "A test match now" }
        @if opponents.is_empty() {
            p class="note" { "No other bot is admitted yet." }
        } @else {
            form class="box" id="test-match" method="post" action="/test-match" {
                (seen.field())
                label { "against " select name="opponent" { @for o in opponents { option value=(o) { (o) } } } }
                label { "variant " select name="rules" { @for v in &app.0.config.variants { option value=(v.to_string()) { (v.to_string()) } } } }
                button type="submit" { "play a test match (not rated)" }
            }
        }
        h2 { "Word by webhook" }
        @let hooks = &app.0.config.webhooks;
        @if hooks.off || hooks.allow.is_empty() {
            p class="note" { "This event sends no webhooks." }
        } @else {
            form class="box" id="webhook" method="post" action="/webhook" {
                (seen.field())
                label { "your webhook (Discord or Slack) " input type="url" name="url" value=[webhook] size="40"; }
                button type="submit" { "save" }
                p class="note" {
                    "A message when a version is admitted or fails, when your bot is paused, when your test match is over, when the ladder is frozen or paused, and when the final is published. "
                    "Addresses beginning " (hooks.allow.join(", ")) " only; empty to stop them."
                }
            }
        }
        h2 { "Downloads" }
        p { a href="/api/me/games.jsonl" { "all my games (games.jsonl)" } }
    }
}

#[derive(Deserialize)]
pub(super) struct Webhook {
    url: Option<String>,
    csrf: Option<String>,
}

/// `POST /webhook`: the owner's webhook set from its page (empty: removed).
pub(super) async fn webhook(
    State(app): State<App>,
    headers: HeaderMap,
    f: Form<Webhook>,
) -> Result<Response, PageError> {
    let f = form(f)?;
    check_csrf(&headers, f.csrf.as_deref())?;
    let seen = Seen::of(&app, &headers).await?;
    let who = entrant_of(&seen)?;
    let url = f.url.as_deref().map(str::trim).filter(|u| !u.is_empty());
    crate::domain::entrants::set_webhook(&app, &who, url).await?;
    Ok(see_other(&format!("/entrants/{}#webhook", who.name)))
}

pub(super) async fn show(
    State(app): State<App>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> Result<Response, PageError> {
    let seen = Seen::of(&app, &headers).await?;
    let who = named(&app, &name).await?;
    let store = &app.0.store;
    let versions = store.versions(who.id).await?;
    let generation = *app.0.signals.changed.borrow();
    let ladder = app.0.boards.ladder(generation, store).await?;
    let h2h = crate::ladder::head_to_head(&ladder, &who.name);
    let rating = crate::domain::history::rating_of(&app, &who.name).await?;
    let matches = store.match_rows(Some(&who.name), 20).await?;
    let owner = seen.visitor.entrant().is_some_and(|e| e.id == who.id);
    let usage = match owner {
        true => Some(store.usage(who.id).await?),
        false => None,
    };
    let webhook = match owner {
        true => store.webhook(&who.name).await?,
        false => None,
    };
    let opponents: Vec<String> = store
        .entrants()
        .await?
        .into_iter()
        .filter(|(n, active, disabled)| *n != who.name && active.is_some() && disabled.is_none())
        .map(|(n, _, _)| n)
        .collect();
    // Its own faults in its latest games: to the owner and the host (a fault's detail may
    // quote what the bot wrote).
    let mut faults = Vec::new();
    if seen.may_see(&who.name) {
        for text in store.games_of(Some(who.id)).await?.iter().rev().take(50) {
            let r: GameRecord = serde_json::from_str(text).map_err(ApiError::internal)?;
            for f in &r.failures {
                if r.bot(f.seat).name == who.name {
                    faults.push(format!(
                        "game {} ({}): {}: {}",
                        r.game, r.rules, f.reason, f.detail
                    ));
                }
            }
        }
    }
    let body = html! {
        @if let Some(why) = &who.disabled { p class="error" { "The host disabled this entrant: " (why) } }
        h2 { "Versions" }
        @if versions.is_empty() { p class="note" { "No upload yet." } } @else { (versions_table(&who.name, &versions, &seen)) }
        @if !faults.is_empty() {
            h2 { "Faults in its latest games" }
            ul id="faults" { @for f in &faults { li { (f) } } }
        }
        @if let Some(usage) = &usage { (owner_forms(&app, &seen, &opponents, usage, webhook.as_deref())) }
        h2 { "Rating over games played" }
        (super::rating_chart::chart(&who.name, &rating))
        h2 { "Head to head (ladder games)" }
        @if h2h.is_empty() { p class="note" { "No ladder games yet." } } @else {
            table id="head-to-head" tabindex="0" {
                thead { tr { th class="bot" { "opponent" } th { "won" } th { "drawn" } th { "lost" } } }
                tbody { @for (o, [w, d, l]) in &h2h { tr { td class="bot" { a href={ "/entrants/" (o) } { (o) } } td { (w) } td { (d) } td { (l) } } } }
            }
        }
        h2 { "Matches" }
        (match_table(&matches))
    };
    Ok(super::page(&app, &seen, &who.name, body, &[]))
}

pub(super) async fn version_page(
    State(app): State<App>,
    headers: HeaderMap,
    Path((name, n)): Path<(String, i64)>,
) -> Result<Response, PageError> {
    let seen = Seen::of(&app, &headers).await?;
    if seen.visitor == Visitor::Anonymous {
        return Err(log_in_first());
    }
    if !seen.may_see(&name) {
        return Err(PageError(ApiError::new(
            StatusCode::FORBIDDEN,
            "a version's report and build log are for its owner and the host only",
        )));
    }
    let who = named(&app, &name).await?;
    let v = app
        .0
        .store
        .version(who.id, n)
        .await?
        .ok_or_else(|| PageError(ApiError::new(StatusCode::NOT_FOUND, "no such version")))?;
    let (report, build_log) = check_texts(&app, &who, n).await?;
    let body = html! {
        p { "status " (badge(&v.status)) " " (v.reason) }
        h2 { "The check's report" }
        @match &report { Some(r) => (pre(r)), None => p class="note" { "Not checked yet." } }
        h2 { "The build log" }
        @match &build_log { Some(b) => (pre(b)), None => p class="note" { "No build step, or not built yet." } }
        p { a href={ "/entrants/" (name) } { "back to " (name) } }
    };
    let title = format!("{name}, version {n}");
    Ok(super::page(&app, &seen, &title, body, &[]))
}

/// The logged-in entrant, or a refusal.
fn entrant_of(seen: &Seen) -> Result<Entrant, PageError> {
    match &seen.visitor {
        Visitor::Entrant(e) => Ok(e.clone()),
        Visitor::Host => Err(PageError(ApiError::new(
            StatusCode::FORBIDDEN,
            "the host has no bot: log in as an entrant",
        ))),
        Visitor::Anonymous => Err(log_in_first()),
    }
}

pub(super) async fn upload(
    State(app): State<App>,
    request: axum::extract::Request,
) -> Result<Response, PageError> {
    let (parts, body) = request.into_parts();
    let seen = Seen::of(&app, &parts.headers).await?;
    let who = entrant_of(&seen)?;
    let headers = parts.headers.clone();
    let (upload, csrf) = read_form(&app, parts, body).await?;
    check_csrf(&headers, csrf.as_deref())?;
    let n = accept(&app, &who, upload).await?.version;
    Ok(see_other(&format!("/entrants/{}#v-{n}", who.name)))
}

#[derive(Deserialize)]
pub(super) struct Test {
    opponent: String,
    rules: Option<String>,
    csrf: Option<String>,
}

pub(super) async fn test_match(
    State(app): State<App>,
    headers: HeaderMap,
    f: Form<Test>,
) -> Result<Response, PageError> {
    let f = form(f)?;
    check_csrf(&headers, f.csrf.as_deref())?;
    let seen = Seen::of(&app, &headers).await?;
    let who = entrant_of(&seen)?;
    let ask = TestMatch {
        opponent: f.opponent,
        rules: f.rules,
    };
    let id = queue_test(&app, &who, &ask).await?;
    Ok(see_other(&format!("/matches/{id}")))
}
