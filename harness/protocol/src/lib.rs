//! The Quads Arena bot protocol, version 1: every message as a typed value that converts to
//! and from exactly one line of text (without its newline). `protocol.md` at the top of the
//! repository is the normative description; the tests check that every example in it parses.
//!
//! Messages are words separated by spaces. `go` and `newgame` carry *fields*: a keyword
//! followed by its values up to the next keyword (keywords never occur as values), so a bot in
//! any language can read them with a split and a loop.

mod from_bot;
mod to_bot;

pub use from_bot::{BadOptionValue, FromBot, IdKey, OptionDecl, OptionType};
pub use to_bot::{Go, NewGame, ResultWord, TimeControl, ToBot};

use std::fmt;

/// The protocol version this crate speaks.
pub const VERSION: u32 = 1;

/// The longest line either side may send, newline excluded. Longer lines are malformed.
pub const MAX_LINE: usize = 64 * 1024;

/// Why a line is not a valid message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The line, cut to 200 characters.
    pub line: String,
    /// What is wrong with it.
    pub problem: String,
}

impl ParseError {
    fn new(line: &str, problem: impl Into<String>) -> ParseError {
        ParseError {
            line: truncate(line, 200),
            problem: problem.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} in `{}`", self.problem, self.line)
    }
}

impl std::error::Error for ParseError {}

/// `text` cut to at most `max` characters, with `…` marking a cut.
pub fn truncate(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_owned(),
        Some((at, _)) => format!("{}…", &text[..at]),
    }
}

/// Splits the words after a command into keyword fields: `(keyword, values)` in order.
/// Fails on a word before the first keyword, an unknown keyword, or a repeated one.
fn fields<'a>(
    line: &str,
    words: &[&'a str],
    keywords: &[&str],
) -> Result<Vec<(&'a str, Vec<&'a str>)>, ParseError> {
    let mut out: Vec<(&str, Vec<&str>)> = Vec::new();
    for &w in words {
        if keywords.contains(&w) {
            if out.iter().any(|(k, _)| *k == w) {
                return Err(ParseError::new(line, format!("field `{w}` given twice")));
            }
            out.push((w, Vec::new()));
        } else if let Some((_, values)) = out.last_mut() {
            values.push(w);
        } else {
            return Err(ParseError::new(
                line,
                format!("unexpected `{w}` (expected a field name)"),
            ));
        }
    }
    Ok(out)
}

/// Parses a count of milliseconds, or `-` for none.
fn millis(line: &str, key: &str, values: &[&str]) -> Result<Option<u64>, ParseError> {
    match values {
        ["-"] => Ok(None),
        [v] => v
            .parse()
            .map(Some)
            .map_err(|_| ParseError::new(line, format!("`{key}` takes milliseconds or -"))),
        _ => Err(ParseError::new(line, format!("`{key}` takes one value"))),
    }
}

fn one<'a>(line: &str, key: &str, values: &[&'a str]) -> Result<&'a str, ParseError> {
    match values {
        [v] => Ok(v),
        _ => Err(ParseError::new(line, format!("`{key}` takes one value"))),
    }
}
