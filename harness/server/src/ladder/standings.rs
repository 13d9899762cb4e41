//! What the leaderboard is made from, as data: the ladder's games as counted ([`Ladder`]) and
//! the ratings last fitted on them ([`Rated`]). The boards (`board.rs`) read both; the fitter
//! (`rated.rs`) makes the second from the first.

use std::collections::{HashMap, HashSet};

/// One ladder game as the leaderboard counts it: its players (indices into
/// [`Ladder::names`]), the first player's score (1, 0.5 or 0) and its game pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Counted {
    pub first: u32,
    pub second: u32,
    /// Its players' versions (indices into [`Ladder::versions`]).
    pub first_version: u32,
    pub second_version: u32,
    pub score: f64,
    pub pair: u64,
}

/// The games of the ladder's done matches, in the order played.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ladder {
    /// Every name a game read so far has named (some may have no game here any more).
    pub names: Vec<String>,
    /// Every version (`NAME vN`) a game read so far was played by.
    pub versions: Vec<String>,
    /// (game id, game).
    pub games: Vec<(i64, Counted)>,
    /// The last change of the ladder these games include (a match's stamp; -1: none): two
    /// ladders with the same stamp have the same games.
    pub seen: i64,
}

impl Ladder {
    /// The entrants as the board lists them: the active ones in the order they signed up,
    /// then anyone else who played a game here, in order of appearance.
    pub fn order(&self, actives: &[String]) -> Vec<String> {
        let mut names: Vec<String> = actives.to_vec();
        let known: HashSet<&str> = actives.iter().map(String::as_str).collect();
        let mut added = HashSet::new();
        for (_, g) in &self.games {
            for i in [g.first, g.second] {
                let n = &self.names[i as usize];
                if !known.contains(n.as_str()) && added.insert(i) {
                    names.push(n.clone());
                }
            }
        }
        names
    }

    /// The entrants as a fit numbers them, as `quads ratings` does (quads_reports::report):
    /// in order of appearance in the games, then the active ones with no game yet. The
    /// intervals' resampling goes through the bots in this order, so the same games give the
    /// same intervals here, in the export and in `quads ratings`.
    pub fn appearance(&self, actives: &[String]) -> Vec<String> {
        let mut names = Vec::new();
        let mut added = HashSet::new();
        for (_, g) in &self.games {
            for i in [g.first, g.second] {
                if added.insert(i) {
                    names.push(self.names[i as usize].clone());
                }
            }
        }
        let known: HashSet<&str> = names.iter().map(String::as_str).collect();
        let missing: Vec<String> = actives
            .iter()
            .filter(|a| !known.contains(a.as_str()))
            .cloned()
            .collect();
        names.extend(missing);
        names
    }

    /// The same games with each version a player of its own (named `NAME vN`).
    pub fn by_version(&self) -> Ladder {
        Ladder {
            names: self.versions.clone(),
            versions: self.versions.clone(),
            games: self
                .games
                .iter()
                .map(|(id, g)| {
                    let g = Counted {
                        first: g.first_version,
                        second: g.second_version,
                        ..*g
                    };
                    (*id, g)
                })
                .collect(),
            seen: self.seen,
        }
    }

    /// Each of [`Ladder::names`]' place in `names` (`usize::MAX`: not there).
    pub fn places(&self, names: &[String]) -> Vec<usize> {
        let at: HashMap<&str, usize> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i))
            .collect();
        self.names
            .iter()
            .map(|n| at.get(n.as_str()).copied().unwrap_or(usize::MAX))
            .collect()
    }
}

/// Per player: (Elo, low end, high end of its 95% interval); an end may be infinite.
pub type Ratings = HashMap<String, (f64, f64, f64)>;

/// Ratings fitted on a set of games.
#[derive(Debug, PartialEq)]
pub struct Rated {
    /// The games fitted: how many, and the ladder's last change they include
    /// ([`Ladder::seen`]).
    pub games: usize,
    pub seen: i64,
    /// Per name: (Elo, low end, high end of its 95% interval); an end may be infinite.
    pub ratings: Ratings,
    /// Which fit this is (1 for the first), to tell boards apart.
    pub serial: u64,
    /// The same games fitted with each version a player of its own.
    pub by_version: Ratings,
}
