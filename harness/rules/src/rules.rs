//! Rule variants and the rules spec strings that name them.
//!
//! Every variant in RULES.md is a combination of three independent choices: which shapes win
//! (with or without the nine 2×2 squares), which traits count, and whether a win is automatic
//! or must be announced ("Quarto!"). [`Rules`] holds exactly those three, and converts to and
//! from the spec string used on the command line, in configs and on the wire.
//!
//! ```text
//! spec     = preset *( "," setting )
//! preset   = "quads" | "classic"
//! setting  = "traits=" trait *( "+" trait ) | "squares=" ("on" | "off") | "claim=" ("auto" | "announce")
//! trait    = "size" | "color" | "shape" | "fill"
//! ```

use std::fmt;
use std::str::FromStr;

use crate::piece::{Trait, TraitSet};
use crate::square::Bitboard;

/// How a completed winning shape wins.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Claim {
    /// The placement that completes a winning shape wins at once.
    Auto,
    /// The original "Quarto!" rule: the win must be claimed (see the crate docs).
    Announce,
}

/// A rule variant: the winning shapes, the traits that count, and how wins are claimed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Whether the nine 2×2 squares are winning shapes (Quads) or not (classic Quarto).
    pub squares: bool,
    /// The traits that make a win; the beginner variant uses fewer than four.
    pub traits: TraitSet,
    /// Automatic wins, or the "Quarto!" announcement rule.
    pub claim: Claim,
}

/// The 19 winning shapes of Quads: 4 rows, 4 columns, 2 diagonals, then the 9 2×2 squares.
/// Classic Quarto uses the first 10.
pub const SHAPES: [Bitboard; 19] = {
    let mut shapes = [Bitboard(0); 19];
    let mut i = 0;
    while i < 4 {
        shapes[i] = Bitboard(0x000f << (4 * i)); // row i + 1
        shapes[4 + i] = Bitboard(0x1111 << i); // column A + i
        i += 1;
    }
    shapes[8] = Bitboard(0x8421); // A1 B2 C3 D4
    shapes[9] = Bitboard(0x1248); // D1 C2 B3 A4
    let mut k = 0;
    while k < 9 {
        let (col, row) = (k % 3, k / 3);
        shapes[10 + k] = Bitboard(0x0033 << (row * 4 + col));
        k += 1;
    }
    shapes
};

impl Rules {
    /// Quads, the default: 19 shapes, all traits, automatic wins.
    pub const QUADS: Rules = Rules {
        squares: true,
        traits: TraitSet::ALL,
        claim: Claim::Auto,
    };

    /// Classic Quarto: rows, columns and diagonals only, all traits, automatic wins.
    pub const CLASSIC: Rules = Rules {
        squares: false,
        traits: TraitSet::ALL,
        claim: Claim::Auto,
    };

    /// The winning shapes of this variant.
    pub fn shapes(&self) -> &'static [Bitboard] {
        if self.squares {
            &SHAPES
        } else {
            &SHAPES[..10]
        }
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::QUADS
    }
}

/// Why a rules spec did not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseRulesError {
    /// The spec was empty.
    Empty,
    /// The first item is not a preset.
    UnknownPreset(String),
    /// A setting is not `key=value`, or the key is unknown.
    UnknownSetting(String),
    /// The value does not fit the key.
    BadValue {
        /// The setting's key.
        key: &'static str,
        /// The value given.
        value: String,
        /// What would have been accepted.
        expected: &'static str,
    },
    /// A setting is given twice, or a trait listed twice.
    Duplicate(String),
}

impl fmt::Display for ParseRulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseRulesError::Empty => {
                f.write_str("empty rules spec (expected a preset: quads or classic)")
            }
            ParseRulesError::UnknownPreset(p) => write!(
                f,
                "unknown rules preset `{p}` (a rules spec starts with quads or classic)"
            ),
            ParseRulesError::UnknownSetting(s) => write!(
                f,
                "unknown rules setting `{s}` (expected traits=…, squares=on|off or claim=auto|announce)"
            ),
            ParseRulesError::BadValue {
                key,
                value,
                expected,
            } => write!(f, "bad value `{value}` for `{key}` (expected {expected})"),
            ParseRulesError::Duplicate(what) => write!(f, "`{what}` is given twice"),
        }
    }
}

impl std::error::Error for ParseRulesError {}

const TRAITS_EXPECTED: &str = "size, color, shape or fill, joined by +";

impl FromStr for Rules {
    type Err = ParseRulesError;

    fn from_str(spec: &str) -> Result<Rules, ParseRulesError> {
        let mut items = spec.split(',').map(str::trim);
        let mut rules = match items.next().unwrap_or("") {
            "" => return Err(ParseRulesError::Empty),
            "quads" => Rules::QUADS,
            "classic" => Rules::CLASSIC,
            other => return Err(ParseRulesError::UnknownPreset(other.to_owned())),
        };
        let mut seen: Vec<&str> = Vec::new();
        for item in items {
            let Some((key, value)) = item.split_once('=') else {
                return Err(ParseRulesError::UnknownSetting(item.to_owned()));
            };
            let key = key.trim();
            let value = value.trim();
            if seen.contains(&key) {
                return Err(ParseRulesError::Duplicate(key.to_owned()));
            }
            seen.push(key);
            match key {
                "traits" => rules.traits = parse_traits(value)?,
                "squares" => {
                    rules.squares = match value {
                        "on" => true,
                        "off" => false,
                        _ => return Err(bad("squares", value, "on or off")),
                    }
                }
                "claim" => {
                    rules.claim = match value {
                        "auto" => Claim::Auto,
                        "announce" => Claim::Announce,
                        _ => return Err(bad("claim", value, "auto or announce")),
                    }
                }
                _ => return Err(ParseRulesError::UnknownSetting(item.to_owned())),
            }
        }
        Ok(rules)
    }
}

fn bad(key: &'static str, value: &str, expected: &'static str) -> ParseRulesError {
    ParseRulesError::BadValue {
        key,
        value: value.to_owned(),
        expected,
    }
}

fn parse_traits(value: &str) -> Result<TraitSet, ParseRulesError> {
    let mut set = TraitSet::EMPTY;
    for name in value.split('+') {
        let t =
            Trait::from_name(name.trim()).ok_or_else(|| bad("traits", value, TRAITS_EXPECTED))?;
        if set.contains(t) {
            return Err(ParseRulesError::Duplicate(format!("trait {}", t.name())));
        }
        set = set.with(t);
    }
    Ok(set)
}

/// The canonical spec: the preset that matches `squares`, then only the settings that differ
/// from it, in the order traits, claim. `classic,squares=on` prints as `quads`.
impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.squares { "quads" } else { "classic" })?;
        if self.traits != TraitSet::ALL {
            f.write_str(",traits=")?;
            for (i, t) in self.traits.iter().enumerate() {
                if i > 0 {
                    f.write_str("+")?;
                }
                f.write_str(t.name())?;
            }
        }
        if self.claim == Claim::Announce {
            f.write_str(",claim=announce")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_and_settings_parse() {
        assert_eq!("quads".parse(), Ok(Rules::QUADS));
        assert_eq!("classic".parse(), Ok(Rules::CLASSIC));
        assert_eq!("classic,squares=on".parse(), Ok(Rules::QUADS));
        let r: Rules = "quads,traits=size+fill,claim=announce".parse().unwrap();
        assert!(r.squares);
        assert_eq!(r.traits, TraitSet::from_mask(0b1001));
        assert_eq!(r.claim, Claim::Announce);
        assert_eq!(r.to_string(), "quads,traits=size+fill,claim=announce");
        let r: Rules = "classic, traits = color".parse().unwrap();
        assert_eq!(r.to_string(), "classic,traits=color");
    }

    #[test]
    fn display_is_canonical_and_parses_back() {
        for squares in [false, true] {
            for mask in 1..16 {
                for claim in [Claim::Auto, Claim::Announce] {
                    let r = Rules {
                        squares,
                        traits: TraitSet::from_mask(mask),
                        claim,
                    };
                    assert_eq!(r.to_string().parse(), Ok(r), "{r}");
                }
            }
        }
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        let cases = [
            ("", "empty rules spec (expected a preset: quads or classic)"),
            ("quarto", "unknown rules preset `quarto` (a rules spec starts with quads or classic)"),
            ("traits=size", "unknown rules preset `traits=size` (a rules spec starts with quads or classic)"),
            ("quads,speed=1", "unknown rules setting `speed=1` (expected traits=…, squares=on|off or claim=auto|announce)"),
            ("quads,announce", "unknown rules setting `announce` (expected traits=…, squares=on|off or claim=auto|announce)"),
            ("quads,traits=", "bad value `` for `traits` (expected size, color, shape or fill, joined by +)"),
            ("quads,traits=size+colour", "bad value `size+colour` for `traits` (expected size, color, shape or fill, joined by +)"),
            ("quads,traits=size+size", "`trait size` is given twice"),
            ("quads,squares=yes", "bad value `yes` for `squares` (expected on or off)"),
            ("quads,claim=auto,claim=announce", "`claim` is given twice"),
        ];
        for (spec, message) in cases {
            let err = spec.parse::<Rules>().unwrap_err();
            assert_eq!(err.to_string(), message, "{spec:?}");
        }
    }

    #[test]
    fn shapes_are_four_squares_each_and_distinct() {
        for (i, s) in SHAPES.iter().enumerate() {
            assert_eq!(s.len(), 4, "shape {i}");
            assert!(SHAPES[..i].iter().all(|o| o != s));
        }
        // The 2×2 square at B2–C3.
        assert_eq!(SHAPES[14], Bitboard(0x0660));
        assert_eq!(Rules::CLASSIC.shapes().len(), 10);
        assert_eq!(Rules::QUADS.shapes().len(), 19);
    }
}
