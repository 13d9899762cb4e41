//! Messages from a bot to the referee.

use std::fmt;
use std::str::FromStr;

use quads_rules::Move;

use crate::ParseError;

/// What an `id` line names.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum IdKey {
    /// The bot's name.
    Name,
    /// Its author.
    Author,
    /// Its version.
    Version,
}

/// The type of a declared option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionType {
    /// A whole number between `min` and `max` (inclusive).
    Spin {
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// `true` or `false`.
    Check,
    /// Any text without spaces.
    String,
}

/// `option name NAME type spin|check|string default VALUE [min N max N]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    /// The option's name (no spaces).
    pub name: String,
    /// Its type and bounds.
    pub kind: OptionType,
    /// Its default value.
    pub default: String,
}

impl OptionDecl {
    /// Whether `value` fits the option; if not, says what it takes.
    pub fn check(&self, value: &str) -> Result<(), BadOptionValue> {
        let fits = match self.kind {
            OptionType::Spin { min, max } => {
                value.parse::<i64>().is_ok_and(|v| (min..=max).contains(&v))
            }
            OptionType::Check => value == "true" || value == "false",
            OptionType::String => !value.contains(char::is_whitespace) && !value.is_empty(),
        };
        if fits {
            Ok(())
        } else {
            Err(BadOptionValue {
                name: self.name.clone(),
                kind: self.kind,
            })
        }
    }
}

/// A value that does not fit an option's type ([`OptionDecl::check`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadOptionValue {
    /// The option.
    pub name: String,
    /// What it takes.
    pub kind: OptionType,
}

impl fmt::Display for BadOptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            OptionType::Spin { min, max } => write!(
                f,
                "option {} takes a whole number from {min} to {max}",
                self.name
            ),
            OptionType::Check => write!(f, "option {} takes true or false", self.name),
            OptionType::String => write!(f, "option {} takes one word", self.name),
        }
    }
}

impl std::error::Error for BadOptionValue {}

/// A message from a bot to the referee.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FromBot {
    /// `id name|author|version TEXT`.
    Id {
        /// What is named.
        key: IdKey,
        /// The text, to the end of the line.
        value: String,
    },
    /// `option …`: an option the referee may set.
    Option(OptionDecl),
    /// `quadsok`: the bot speaks the version offered; identification is complete.
    QuadsOk,
    /// `unsupported`: the bot does not speak the version offered.
    Unsupported,
    /// `readyok`: the answer to `isready`.
    ReadyOk,
    /// `move MOVE`: the whole turn, in the rules core's move notation.
    Move(Move),
    /// `info TEXT`: logged, otherwise ignored.
    Info(String),
}

impl fmt::Display for FromBot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FromBot::Id { key, value } => {
                let key = match key {
                    IdKey::Name => "name",
                    IdKey::Author => "author",
                    IdKey::Version => "version",
                };
                write!(f, "id {key} {value}")
            }
            FromBot::Option(o) => {
                write!(f, "option name {} type ", o.name)?;
                match o.kind {
                    OptionType::Spin { min, max } => {
                        write!(f, "spin default {} min {min} max {max}", o.default)
                    }
                    OptionType::Check => write!(f, "check default {}", o.default),
                    OptionType::String => write!(f, "string default {}", o.default),
                }
            }
            FromBot::QuadsOk => f.write_str("quadsok"),
            FromBot::Unsupported => f.write_str("unsupported"),
            FromBot::ReadyOk => f.write_str("readyok"),
            FromBot::Move(mv) => write!(f, "move {mv}"),
            FromBot::Info(text) => write!(f, "info {text}"),
        }
    }
}

impl FromStr for FromBot {
    type Err = ParseError;

    fn from_str(line: &str) -> Result<FromBot, ParseError> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let err = |problem: &str| ParseError::new(line, problem);
        let rest_after = |n: usize| -> String {
            line.split_ascii_whitespace()
                .skip(n)
                .collect::<Vec<_>>()
                .join(" ")
        };
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        match words.as_slice() {
            ["quadsok"] => Ok(FromBot::QuadsOk),
            ["unsupported", ..] => Ok(FromBot::Unsupported),
            ["readyok"] => Ok(FromBot::ReadyOk),
            ["info", ..] => Ok(FromBot::Info(
                line.trim_start().get(5..).unwrap_or("").to_owned(),
            )),
            ["id", key, _, ..] => {
                let key = match *key {
                    "name" => IdKey::Name,
                    "author" => IdKey::Author,
                    "version" => IdKey::Version,
                    _ => return Err(err("id is name, author or version")),
                };
                Ok(FromBot::Id {
                    key,
                    value: rest_after(2),
                })
            }
            ["option", "name", name, "type", kind, "default", default, rest @ ..] => {
                let kind = match (*kind, rest) {
                    ("spin", ["min", min, "max", max]) => OptionType::Spin {
                        min: min.parse().map_err(|_| err("min is a whole number"))?,
                        max: max.parse().map_err(|_| err("max is a whole number"))?,
                    },
                    ("check", []) => OptionType::Check,
                    ("string", []) => OptionType::String,
                    _ => return Err(err("type is `spin … min N max N`, `check` or `string`")),
                };
                let decl = OptionDecl {
                    name: (*name).to_owned(),
                    kind,
                    default: (*default).to_owned(),
                };
                decl.check(&decl.default)
                    .map_err(|why| err(&format!("bad default: {why}")))?;
                Ok(FromBot::Option(decl))
            }
            ["move", ..] => {
                let text = rest_after(1);
                text.parse::<Move>()
                    .map(FromBot::Move)
                    .map_err(|e| err(&format!("{e}")))
            }
            [] => Err(err("empty line")),
            [word, ..] => Err(err(&format!("unknown or malformed message `{word}`"))),
        }
    }
}
