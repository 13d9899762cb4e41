//! `--lang L`: the language of what `play`, `puzzle` and `rules` say, else the locale's.

use quads_i18n::{Catalog, Lang};

/// The option, shared by the commands that speak to people.
#[derive(clap::Args, Clone, Debug)]
pub struct LangArg {
    /// The language: en, it, pt, es, fr or sl (default: the locale's, from LC_ALL,
    /// LC_MESSAGES or LANG; English when it is none of these).
    #[arg(long, value_name = "L", value_parser = parse_lang)]
    lang: Option<Lang>,
}

fn parse_lang(text: &str) -> Result<Lang, String> {
    text.parse()
        .map_err(|e: quads_i18n::UnknownLang| e.to_string())
}

impl LangArg {
    /// The catalogue to speak from.
    pub fn catalog(&self) -> Catalog {
        Catalog::new(self.lang.unwrap_or_else(Lang::from_env))
    }
}
