//! `/play/rules?rules=SPEC`: the rules of a variant in the reader's language, as `quads rules`
//! states them (quads_i18n's `rules_page`), with the variants the play page offers.

use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use maud::html;
use quads_i18n::rules_page;
use quads_rules::Rules;
use serde::Deserialize;

use super::reader::{self, Asked};
use super::{page_in, PageError, Seen};
use crate::domain::App;
use crate::ApiError;

/// The variants the play page offers: their specs and the words naming them.
pub(super) const OFFERED: [(&str, &str); 3] = [
    ("quads", "web-rules-quads"),
    ("classic", "web-rules-classic"),
    ("classic,claim=announce", "web-rules-announce"),
];

/// A rules spec in an address's query (its `,` and `=` escaped).
pub(super) fn query(spec: &str) -> String {
    spec.replace(',', "%2C").replace('=', "%3D")
}

#[derive(Deserialize)]
pub(super) struct Which {
    rules: Option<String>,
}

pub(super) async fn show(
    State(app): State<App>,
    headers: HeaderMap,
    Query(asked): Query<Asked>,
    Query(which): Query<Which>,
) -> Result<Response, PageError> {
    let seen = Seen::of(&app, &headers).await?;
    let chosen = reader::chosen(&headers, &asked, app.0.config.secure_cookies)?;
    let spec = which.rules.unwrap_or_else(|| "quads".to_owned());
    let rules: Rules = spec
        .parse()
        .map_err(|e| PageError(ApiError::bad(format!("rules `{spec}`: {e}"))))?;
    let page = reader::with(chosen.lang, |c| {
        let mut said = rules_page(c, &rules).into_iter();
        let title = said.next().unwrap_or_default();
        let keep = format!("&rules={}", query(&spec));
        let body = html! {
            @for paragraph in said { p { (paragraph) } }
            h3 { (c.text("web-variants")) }
            ul id="variants" {
                @for (offered, words) in OFFERED {
                    li {
                        @if offered == spec {
                            strong aria-current="page" { (c.text(words)) }
                        } @else {
                            a href={ "/play/rules?rules=" (query(offered)) } { (c.text(words)) }
                        }
                    }
                }
            }
            p { a href="/play" { (c.text("web-new-game")) } }
            (reader::switch_keeping(c, &keep))
        };
        page_in(&app, &seen, c, &title, body, &[])
    });
    Ok(chosen.answer(page))
}
