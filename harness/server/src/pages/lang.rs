//! The language of the play pages: the one asked for in the address (`?lang=it`, which the
//! pages' language switch links to, kept in a cookie from then on), else the cookie's, else the
//! browser's first among the six (`Accept-Language`), else English. The words are
//! quads_i18n's catalogues, the ones `quads play` speaks.

use std::cell::OnceCell;

use axum::http::{header, HeaderMap};
use maud::{html, Markup};
use quads_i18n::{Catalog, Lang};
use serde::Deserialize;

use super::PageError;
use crate::session;
use crate::ApiError;

/// The cookie that keeps a visitor's choice.
pub const LANG_COOKIE: &str = "quads_lang";

/// How long the choice is kept, in seconds (a year).
const LANG_SECONDS: i64 = 365 * 24 * 3600;

/// The address's `?lang=`.
#[derive(Deserialize, Default)]
pub struct Asked {
    lang: Option<String>,
}

/// The language of a request, and the cookie to set when the address chose it.
pub struct Chosen {
    pub lang: Lang,
    pub set: Option<String>,
}

/// The language `headers` and the address ask for. A language the address names that is not
/// one of the six is refused in one line.
pub fn chosen(headers: &HeaderMap, asked: &Asked, secure: bool) -> Result<Chosen, PageError> {
    if let Some(code) = asked.lang.as_deref() {
        let lang: Lang = code
            .parse()
            .map_err(|e: quads_i18n::UnknownLang| PageError(ApiError::bad(e.to_string())))?;
        let set = session::set_cookie(LANG_COOKIE, lang.code(), LANG_SECONDS, secure);
        return Ok(Chosen {
            lang,
            set: Some(set),
        });
    }
    let lang = session::cookie(headers, LANG_COOKIE)
        .and_then(|c| c.parse().ok())
        .or_else(|| {
            headers
                .get(header::ACCEPT_LANGUAGE)
                .and_then(|v| v.to_str().ok())
                .map(Lang::from_accept_language)
        })
        .unwrap_or(Lang::En);
    Ok(Chosen { lang, set: None })
}

thread_local! {
    /// Each thread's catalogues, made once: a catalogue parses its file when made.
    static CATALOGS: [OnceCell<Catalog>; 6] = Default::default();
}

/// `f` with the catalogue of `lang`.
pub fn with<R>(lang: Lang, f: impl FnOnce(&Catalog) -> R) -> R {
    let i = Lang::ALL
        .iter()
        .position(|&l| l == lang)
        .expect("every language is in Lang::ALL");
    CATALOGS.with(|all| f(all[i].get_or_init(|| Catalog::new(lang))))
}

/// The switch to every language, each named in itself, the current one marked.
pub fn switch(c: &Catalog) -> Markup {
    html! {
        nav class="langs" aria-label=(c.text("web-language")) {
            @for l in Lang::ALL {
                @if l == c.lang() {
                    a href={ "?lang=" (l.code()) } lang=(l.code()) hreflang=(l.code()) aria-current="true" { (l.native_name()) }
                } @else {
                    a href={ "?lang=" (l.code()) } lang=(l.code()) hreflang=(l.code()) { (l.native_name()) }
                }
            }
        }
    }
}
