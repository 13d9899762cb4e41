//! The two players, and a container holding one value for each.
//!
//! [`Player`] is the project's one type for "first or second": the rules, the referee's seats,
//! the records (`"seat": "first"`) and the reports all use it. [`ByPlayer`] holds one value per
//! player and is indexed by a player, never by a bare 0 or 1.

use std::fmt;
use std::ops::{Index, IndexMut};
use std::str::FromStr;

/// One of the two players. The first player makes the opening give; the second places first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// Gives first.
    First,
    /// Places first.
    Second,
}

impl Player {
    /// Both players, first first.
    pub const ALL: &'static [Player] = &[Player::First, Player::Second];

    /// The other player.
    pub const fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// 0 for the first player, 1 for the second: the order of arrays and tables.
    pub const fn index(self) -> usize {
        match self {
            Player::First => 0,
            Player::Second => 1,
        }
    }

    /// The player of an index: 0 is the first, anything else the second.
    pub const fn from_index(index: usize) -> Player {
        if index == 0 {
            Player::First
        } else {
            Player::Second
        }
    }

    /// The word records and the protocol's tools write: `first` or `second`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Player::First => "first",
            Player::Second => "second",
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A word that is not `first` or `second`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePlayerError(pub String);

impl fmt::Display for ParsePlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown seat `{}` (expected one of: first, second)",
            self.0
        )
    }
}

impl std::error::Error for ParsePlayerError {}

impl FromStr for Player {
    type Err = ParsePlayerError;
    fn from_str(word: &str) -> Result<Player, ParsePlayerError> {
        match word {
            "first" => Ok(Player::First),
            "second" => Ok(Player::Second),
            _ => Err(ParsePlayerError(word.to_owned())),
        }
    }
}

/// One value for each player.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByPlayer<T> {
    /// The first player's.
    pub first: T,
    /// The second player's.
    pub second: T,
}

impl<T> ByPlayer<T> {
    /// The value `f` gives for each player.
    pub fn new_with(mut f: impl FnMut(Player) -> T) -> ByPlayer<T> {
        ByPlayer {
            first: f(Player::First),
            second: f(Player::Second),
        }
    }

    /// Each value through `f`.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByPlayer<U> {
        ByPlayer {
            first: f(self.first),
            second: f(self.second),
        }
    }

    /// References to both values.
    pub fn as_ref(&self) -> ByPlayer<&T> {
        ByPlayer {
            first: &self.first,
            second: &self.second,
        }
    }

    /// Mutable references to both values.
    pub fn as_mut(&mut self) -> ByPlayer<&mut T> {
        ByPlayer {
            first: &mut self.first,
            second: &mut self.second,
        }
    }

    /// The first's and the second's, as an array.
    pub fn into_array(self) -> [T; 2] {
        [self.first, self.second]
    }

    /// Each player with its value, first first.
    pub fn iter(&self) -> impl Iterator<Item = (Player, &T)> {
        [(Player::First, &self.first), (Player::Second, &self.second)].into_iter()
    }

    /// Both values, first first.
    pub fn values(&self) -> impl Iterator<Item = &T> {
        [&self.first, &self.second].into_iter()
    }
}

impl<T> From<[T; 2]> for ByPlayer<T> {
    fn from([first, second]: [T; 2]) -> ByPlayer<T> {
        ByPlayer { first, second }
    }
}

/// Compares with `[first, second]`.
impl<T: PartialEq> PartialEq<[T; 2]> for ByPlayer<T> {
    fn eq(&self, other: &[T; 2]) -> bool {
        self.first == other[0] && self.second == other[1]
    }
}

impl<T> Index<Player> for ByPlayer<T> {
    type Output = T;
    fn index(&self, player: Player) -> &T {
        match player {
            Player::First => &self.first,
            Player::Second => &self.second,
        }
    }
}

impl<T> IndexMut<Player> for ByPlayer<T> {
    fn index_mut(&mut self, player: Player) -> &mut T {
        match player {
            Player::First => &mut self.first,
            Player::Second => &mut self.second,
        }
    }
}

impl<T> IntoIterator for ByPlayer<T> {
    type Item = T;
    type IntoIter = std::array::IntoIter<T, 2>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_array().into_iter()
    }
}

/// Serde through the word (`"first"`), and a [`ByPlayer`] as a two-element array, first
/// first: the shapes games.jsonl has always had.
#[cfg(feature = "serde")]
mod with_serde {
    use super::{ByPlayer, Player};
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    impl Serialize for Player {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_str(self.as_str())
        }
    }

    impl<'de> Deserialize<'de> for Player {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Player, D::Error> {
            let word = <std::borrow::Cow<'de, str>>::deserialize(d)?;
            word.parse().map_err(D::Error::custom)
        }
    }

    impl<T: Serialize> Serialize for ByPlayer<T> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            [&self.first, &self.second].serialize(s)
        }
    }

    impl<'de, T: Deserialize<'de>> Deserialize<'de> for ByPlayer<T> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ByPlayer<T>, D::Error> {
            <[T; 2]>::deserialize(d).map(ByPlayer::from)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_reads_back_its_word_and_its_index() {
        for &p in Player::ALL {
            assert_eq!(p.as_str().parse::<Player>(), Ok(p));
            assert_eq!(Player::from_index(p.index()), p);
            assert_eq!(p.other().other(), p);
        }
        assert_eq!(
            "third".parse::<Player>().unwrap_err().to_string(),
            "unknown seat `third` (expected one of: first, second)"
        );
    }

    #[test]
    fn by_player_is_indexed_by_player() {
        let mut scores = ByPlayer::from([1, 2]);
        scores[Player::Second] += 10;
        assert_eq!(scores[Player::First], 1);
        assert_eq!(scores[Player::Second], 12);
        assert_eq!(scores.map(|s| s * 2).into_array(), [2, 24]);
        let seen: Vec<_> = scores.iter().map(|(p, &s)| (p, s)).collect();
        assert_eq!(seen, [(Player::First, 1), (Player::Second, 12)]);
    }
}
