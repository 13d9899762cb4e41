//! The words people read: the text of `quads play`, `quads puzzle` and `quads rules` in six
//! languages, one Fluent catalogue each (`catalogs/*.ftl`), chosen by `--lang` or the locale.
//!
//! English is the reference: every other catalogue has exactly its messages and, in each, the
//! same variables (a test checks it). A message missing at run time falls back to English, so
//! a person never sees a key. [`rules_page`] states the rules of a variant in a language.

use std::fmt;
use std::str::FromStr;

use fluent_bundle::{FluentArgs, FluentBundle, FluentResource, FluentValue};

mod reasons;
mod rules_page;

pub use reasons::reason;
pub use rules_page::{rules_page, trait_names, variant_name};

/// A language of the catalogues.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English.
    En,
    /// Italian.
    It,
    /// Portuguese.
    Pt,
    /// Spanish.
    Es,
    /// French.
    Fr,
    /// Slovenian.
    Sl,
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 6] = [Lang::En, Lang::It, Lang::Pt, Lang::Es, Lang::Fr, Lang::Sl];

    /// The ISO 639-1 code, as `--lang` takes it.
    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::It => "it",
            Lang::Pt => "pt",
            Lang::Es => "es",
            Lang::Fr => "fr",
            Lang::Sl => "sl",
        }
    }

    /// The language's name in itself, as a language switch lists it.
    pub const fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::It => "Italiano",
            Lang::Pt => "Português",
            Lang::Es => "Español",
            Lang::Fr => "Français",
            Lang::Sl => "Slovenščina",
        }
    }

    /// The catalogue's text.
    const fn source(self) -> &'static str {
        match self {
            Lang::En => include_str!("../catalogs/en.ftl"),
            Lang::It => include_str!("../catalogs/it.ftl"),
            Lang::Pt => include_str!("../catalogs/pt.ftl"),
            Lang::Es => include_str!("../catalogs/es.ftl"),
            Lang::Fr => include_str!("../catalogs/fr.ftl"),
            Lang::Sl => include_str!("../catalogs/sl.ftl"),
        }
    }

    /// The language of a locale name (`it_IT.UTF-8`, `pt-BR`, `sl`), if it is one of these.
    pub fn from_locale(locale: &str) -> Option<Lang> {
        let code = locale
            .split(['_', '-', '.', '@'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        Lang::ALL.into_iter().find(|l| l.code() == code)
    }

    /// The language a browser asks for first among the six, from its `Accept-Language`
    /// header (`sl-SI,sl;q=0.9,en;q=0.8`), or English. Browsers list languages by preference,
    /// which is the order negotiated here (Fluent's negotiation, by order, not by weight).
    pub fn from_accept_language(header: &str) -> Lang {
        let requested = fluent_langneg::parse_accepted_languages(header);
        let available: Vec<unic_langid::LanguageIdentifier> = Lang::ALL
            .iter()
            .filter_map(|l| l.code().parse().ok())
            .collect();
        fluent_langneg::negotiate_languages(
            &requested,
            &available,
            None,
            fluent_langneg::NegotiationStrategy::Lookup,
        )
        .first()
        .and_then(|id| Lang::from_locale(&id.to_string()))
        .unwrap_or(Lang::En)
    }

    /// The language of this process's locale (`LC_ALL`, then `LC_MESSAGES`, then `LANG`, as
    /// POSIX orders them), or English.
    pub fn from_env() -> Lang {
        Lang::from_vars(|name| std::env::var(name).ok())
    }

    /// [`Lang::from_env`] with the environment given.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Lang {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .filter_map(|name| var(name))
            .find(|v| !v.is_empty())
            .and_then(|v| Lang::from_locale(&v))
            .unwrap_or(Lang::En)
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A language code that is not one of the six.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownLang(pub String);

impl fmt::Display for UnknownLang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let codes: Vec<&str> = Lang::ALL.iter().map(|l| l.code()).collect();
        write!(
            f,
            "unknown language `{}` (expected one of {})",
            self.0,
            codes.join(", ")
        )
    }
}

impl std::error::Error for UnknownLang {}

impl FromStr for Lang {
    type Err = UnknownLang;

    fn from_str(s: &str) -> Result<Lang, UnknownLang> {
        Lang::from_locale(s)
            .filter(|_| !s.contains(['.', '@']))
            .ok_or_else(|| UnknownLang(s.to_owned()))
    }
}

/// A value for a message's variable.
#[derive(Clone, Debug)]
pub enum Arg<'a> {
    /// Text, shown as it is.
    Text(std::borrow::Cow<'a, str>),
    /// A number, which also picks the plural form.
    Number(i64),
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(s: &'a str) -> Arg<'a> {
        Arg::Text(s.into())
    }
}

impl From<String> for Arg<'_> {
    fn from(s: String) -> Arg<'static> {
        Arg::Text(s.into())
    }
}

impl From<i64> for Arg<'_> {
    fn from(n: i64) -> Arg<'static> {
        Arg::Number(n)
    }
}

impl From<u32> for Arg<'_> {
    fn from(n: u32) -> Arg<'static> {
        Arg::Number(i64::from(n))
    }
}

impl From<usize> for Arg<'_> {
    fn from(n: usize) -> Arg<'static> {
        Arg::Number(n as i64)
    }
}

/// The messages of one language, with English behind them.
pub struct Catalog {
    lang: Lang,
    bundle: FluentBundle<FluentResource>,
    english: Option<Box<Catalog>>,
}

fn bundle(lang: Lang) -> FluentBundle<FluentResource> {
    let id: unic_langid::LanguageIdentifier = lang.code().parse().expect("a valid language code");
    let mut bundle = FluentBundle::new(vec![id]);
    // No Unicode isolation marks around variables: a terminal shows them as stray characters.
    bundle.set_use_isolating(false);
    let resource = FluentResource::try_new(lang.source().to_owned())
        .unwrap_or_else(|(_, errors)| panic!("catalogs/{lang}.ftl does not parse: {errors:?}"));
    bundle
        .add_resource(resource)
        .unwrap_or_else(|errors| panic!("catalogs/{lang}.ftl repeats messages: {errors:?}"));
    bundle
}

impl Catalog {
    /// The catalogue of `lang`.
    pub fn new(lang: Lang) -> Catalog {
        Catalog {
            lang,
            bundle: bundle(lang),
            english: (lang != Lang::En).then(|| Box::new(Catalog::new(Lang::En))),
        }
    }

    /// Its language.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// Message `key` with no variables.
    pub fn text(&self, key: &str) -> String {
        self.with(key, &[])
    }

    /// Message `key` with its variables.
    pub fn with(&self, key: &str, args: &[(&str, Arg<'_>)]) -> String {
        let Some(pattern) = self.bundle.get_message(key).and_then(|m| m.value()) else {
            return match &self.english {
                Some(english) => english.with(key, args),
                None => key.to_owned(),
            };
        };
        let mut fluent_args = FluentArgs::new();
        for (name, value) in args {
            match value {
                Arg::Text(s) => fluent_args.set(*name, FluentValue::from(s.to_string())),
                Arg::Number(n) => fluent_args.set(*name, FluentValue::from(*n)),
            }
        }
        let mut errors = Vec::new();
        self.bundle
            .format_pattern(pattern, Some(&fluent_args), &mut errors)
            .into_owned()
    }

    /// The keys of the catalogue's messages, in the file's order.
    pub fn keys(&self) -> Vec<String> {
        keys(self.lang.source())
    }
}

/// The message keys of a catalogue's text (lines that start a message: `key = ...`).
fn keys(source: &str) -> Vec<String> {
    source
        .lines()
        .filter(|l| !l.starts_with([' ', '#', '-', '\t']) && l.contains('='))
        .filter_map(|l| l.split_once('=').map(|(k, _)| k.trim().to_owned()))
        .collect()
}

#[cfg(test)]
mod tests;
