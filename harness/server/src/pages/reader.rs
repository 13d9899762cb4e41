//! The reader's choices on the play pages. The language: the one asked for in the address
//! (`?lang=it`, which the pages' language switch links to, kept in a cookie from then on), else
//! the cookie's, else the browser's first among the six (`Accept-Language`), else English; the
//! words are quads_i18n's catalogues, the ones `quads play` speaks. The view: the board, or the
//! text mode for screen readers (`?view=text`, kept the same way).

use std::cell::OnceCell;

use axum::http::{header, HeaderMap};
use axum::response::Response;
use maud::{html, Markup};
use quads_i18n::{Catalog, Lang};
use serde::Deserialize;

use super::PageError;
use crate::session;
use crate::ApiError;

/// The cookie that keeps a visitor's language.
pub const LANG_COOKIE: &str = "quads_lang";

/// The cookie that keeps a visitor's view.
pub const VIEW_COOKIE: &str = "quads_view";

/// How long a choice is kept, in seconds (a year).
const CHOICE_SECONDS: i64 = 365 * 24 * 3600;

/// The address's `?lang=` and `?view=`.
#[derive(Deserialize, Default)]
pub struct Asked {
    lang: Option<String>,
    view: Option<String>,
}

/// How a game is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// The board drawn, squares and pieces to choose.
    Board,
    /// Words only, for a screen reader: the board row by row, moves typed and answered.
    Text,
}

impl View {
    fn word(self) -> &'static str {
        match self {
            View::Board => "board",
            View::Text => "text",
        }
    }

    fn parse(word: &str) -> Option<View> {
        [View::Board, View::Text]
            .into_iter()
            .find(|v| v.word() == word)
    }
}

/// The reader's choices for a request, and the cookies to set for those the address made.
pub struct Chosen {
    pub lang: Lang,
    pub view: View,
    pub set: Vec<String>,
}

impl Chosen {
    /// `page`, with the cookies of the choices the address made.
    pub fn answer(&self, page: Response) -> Response {
        self.set
            .iter()
            .fold(page, |page, cookie| super::with_cookie(page, cookie))
    }
}

/// The choices `headers` and the address ask for. A language or a view the address names that
/// is not one there is refused in one line.
pub fn chosen(headers: &HeaderMap, asked: &Asked, secure: bool) -> Result<Chosen, PageError> {
    let mut set = Vec::new();
    let lang = match asked.lang.as_deref() {
        Some(code) => {
            let lang: Lang = code
                .parse()
                .map_err(|e: quads_i18n::UnknownLang| PageError(ApiError::bad(e.to_string())))?;
            set.push(session::set_cookie(
                LANG_COOKIE,
                lang.code(),
                CHOICE_SECONDS,
                secure,
            ));
            lang
        }
        None => session::cookie(headers, LANG_COOKIE)
            .and_then(|c| c.parse().ok())
            .or_else(|| {
                headers
                    .get(header::ACCEPT_LANGUAGE)
                    .and_then(|v| v.to_str().ok())
                    .map(Lang::from_accept_language)
            })
            .unwrap_or(Lang::En),
    };
    let view = match asked.view.as_deref() {
        Some(word) => {
            let view = View::parse(word).ok_or_else(|| {
                PageError(ApiError::bad(format!(
                    "unknown view `{word}` (expected board or text)"
                )))
            })?;
            set.push(session::set_cookie(
                VIEW_COOKIE,
                word,
                CHOICE_SECONDS,
                secure,
            ));
            view
        }
        None => session::cookie(headers, VIEW_COOKIE)
            .and_then(View::parse)
            .unwrap_or(View::Board),
    };
    Ok(Chosen { lang, view, set })
}

/// The link to the other view.
pub fn view_switch(c: &Catalog, view: View) -> Markup {
    html! {
        p class="view" {
            @match view {
                View::Board => a href="?view=text" id="to-text" { (c.text("web-view-text")) },
                View::Text => a href="?view=board" id="to-board" { (c.text("web-view-board")) },
            }
        }
    }
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
    switch_keeping(c, "")
}

/// [`switch`] on a page whose address has more to keep (`&rules=...`).
pub fn switch_keeping(c: &Catalog, keep: &str) -> Markup {
    html! {
        nav class="langs" aria-label=(c.text("web-language")) {
            @for l in Lang::ALL {
                @if l == c.lang() {
                    a href={ "?lang=" (l.code()) (keep) } lang=(l.code()) hreflang=(l.code()) aria-current="true" { (l.native_name()) }
                } @else {
                    a href={ "?lang=" (l.code()) (keep) } lang=(l.code()) hreflang=(l.code()) { (l.native_name()) }
                }
            }
        }
    }
}
