//! The record's words: each an enum that reads and writes exactly the word on disk (and on
//! the wire, for forfeit reasons), and refuses any other.

use std::fmt;
use std::str::FromStr;

use quads_rules::Player;
use serde::{Deserialize, Serialize};

/// A word that is not one of its kind's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} `{word}` (expected one of: {expected})")]
pub struct UnknownWord {
    /// What kind of word was expected.
    pub kind: &'static str,
    /// The word found.
    pub word: String,
    /// The words allowed, comma-separated.
    pub expected: String,
}

/// Defines an enum of words, with `ALL`, `as_str`, `Display`, `FromStr` and serde through the
/// word.
macro_rules! words {
    ($(#[$doc:meta])* $name:ident, $kind:literal, { $($(#[$vdoc:meta])* $variant:ident = $word:literal,)+ }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $($(#[$vdoc])* $variant,)+
        }

        impl $name {
            /// Every value, in the order tables list them.
            pub const ALL: &'static [$name] = &[$($name::$variant,)+];

            /// The word as written.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $word,)+
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $name {
            type Err = UnknownWord;
            fn from_str(word: &str) -> Result<$name, UnknownWord> {
                match word {
                    $($word => Ok($name::$variant),)+
                    _ => Err(UnknownWord {
                        kind: $kind,
                        word: word.to_owned(),
                        expected: [$($word,)+].join(", "),
                    }),
                }
            }
        }

        impl Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$name, D::Error> {
                let word = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                word.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

words!(
    /// A game's result, as PGN writes it.
    GameResult, "result", {
        /// The first player won.
        FirstWins = "1-0",
        /// The second player won.
        SecondWins = "0-1",
        /// A draw.
        Draw = "1/2-1/2",
    }
);

words!(
    /// Why a bot lost its game without the board deciding it. The referee records these, the
    /// reports count them, and `gameover` tells the opponent.
    ForfeitReason, "forfeit reason", {
        /// No reply within the limit.
        Timeout = "timeout",
        /// A move the rules do not allow (a false claim included).
        IllegalMove = "illegal-move",
        /// A line that is not the expected message, or one longer than the protocol allows.
        Malformed = "malformed",
        /// The process exited or was killed by a signal.
        Crash = "crash",
        /// Stdout closed while the process kept running.
        ClosedOutput = "closed-output",
        /// The handshake or the set-up failed (no `quadsok`, no `readyok`, a bad option).
        Handshake = "handshake",
        /// The bot speaks another version of the protocol.
        UnsupportedVersion = "unsupported-version",
        /// The sandbox stopped the bot at one of its limits (CPU time, file size).
        ResourceLimit = "resource-limit",
    }
);

impl GameResult {
    /// The first player's score: 1, 0.5 or 0.
    pub fn score_of_first(self) -> f64 {
        match self {
            GameResult::FirstWins => 1.0,
            GameResult::SecondWins => 0.0,
            GameResult::Draw => 0.5,
        }
    }

    /// The result when `seat` loses.
    pub fn loss_of(seat: Player) -> GameResult {
        match seat {
            Player::First => GameResult::SecondWins,
            Player::Second => GameResult::FirstWins,
        }
    }

    /// The seat that won, if one did.
    pub fn winner(self) -> Option<Player> {
        match self {
            GameResult::FirstWins => Some(Player::First),
            GameResult::SecondWins => Some(Player::Second),
            GameResult::Draw => None,
        }
    }
}

/// How a game ended: written `normal`, `draw`, or the loser's forfeit reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// A win on the board.
    Normal,
    /// The board filled with no win.
    Draw,
    /// A bot forfeited.
    Forfeit(ForfeitReason),
}

impl EndReason {
    /// The word as written.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Normal => "normal",
            EndReason::Draw => "draw",
            EndReason::Forfeit(f) => f.as_str(),
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for EndReason {
    type Err = UnknownWord;
    fn from_str(word: &str) -> Result<EndReason, UnknownWord> {
        match word {
            "normal" => Ok(EndReason::Normal),
            "draw" => Ok(EndReason::Draw),
            _ => word
                .parse()
                .map(EndReason::Forfeit)
                .map_err(|e: UnknownWord| UnknownWord {
                    kind: "reason",
                    expected: format!("normal, draw, {}", e.expected),
                    ..e
                }),
        }
    }
}

impl Serialize for EndReason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for EndReason {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<EndReason, D::Error> {
        let word = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        word.parse().map_err(serde::de::Error::custom)
    }
}
