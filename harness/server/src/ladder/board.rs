//! The leaderboard: per entrant (all its versions' ladder games), its games won, drawn and
//! lost and its rating with a 95% interval, and (asked for) the pairs' counts. Nothing here is fitted on
//! a request: the counts come from the ladder's games, kept in memory and brought up to date
//! from the matches changed since the last look, each game read and parsed once
//! ([`Boards::ladder`]); the ratings are the latest fit of the fitter ([`super::rated`]),
//! which refits in the background as games come. A board says how many games its ratings
//! were fitted on (`rated`) beside how many there are (`games`). Each board is made once per
//! change (crate::signals::Signals::changed, bumped after every game counted, version
//! admitted, host's action or fit) and given as the same bytes until the next.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use axum::body::Bytes;
use quads_record::GameRecord;
use serde::{Deserialize, Serialize};

use super::standings::{Counted, Ladder, Rated, Ratings};
use crate::domain::error::DomainError;
use crate::store::Store;

/// The leaderboard's standings: its games, how many its ratings were fitted on, the active
/// bots, and a row per entrant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Standings {
    pub games: usize,
    pub rated: usize,
    pub active: usize,
    pub rows: Vec<Row>,
}

/// An entrant's row, the rows in the order of their ratings (the highest first, equal ones by
/// name, those not yet rated last): its rank, its games won, drawn and lost, its score in percent, and its rating with
/// the ends of its 95% interval (rounded to a tenth; `None` before its first fit, or for an
/// end that is unbounded).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Its place by rating, shared by equal ratings ("1, 2, 2, 4"); `None` while it has none.
    pub rank: Option<usize>,
    pub name: String,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub score: f64,
    pub elo: Option<f64>,
    pub elo_low: Option<f64>,
    pub elo_high: Option<f64>,
}

/// A leaderboard, as data and as the bytes sent.
pub struct Board {
    /// The board without its pairs.
    pub standings: Standings,
    body: Bytes,
    /// Its games and names in its order, for its pairs: every pair that has met, with its
    /// games; with 200 entrants some 20,000 of them, 30 times the rest, so counted and sent only
    /// to those who ask.
    ladder: Arc<Ladder>,
    names: Vec<String>,
    with_pairs: std::sync::OnceLock<Bytes>,
    /// Its ratings are fitted on exactly its games.
    pub fresh: bool,
}

impl Board {
    /// The bytes sent: the board, with its pairs if `pairs` (made once, when first asked for).
    pub fn body(&self, pairs: bool) -> Bytes {
        if !pairs {
            return self.body.clone();
        }
        self.with_pairs
            .get_or_init(|| {
                // Through a JSON value, as the body: its keys in the same order.
                let mut value =
                    serde_json::to_value(&self.standings).expect("JSON of the standings");
                value["pairs"] = pairs_of(&self.ladder, &self.names);
                Bytes::from(serde_json::to_vec(&value).expect("JSON of JSON"))
            })
            .clone()
    }
}

/// Every pair of `names` that has met in `ladder`, with its games.
fn pairs_of(ladder: &Ladder, names: &[String]) -> serde_json::Value {
    let place = ladder.places(names);
    let mut pairs: BTreeMap<(usize, usize), u64> = BTreeMap::new();
    for (_, g) in &ladder.games {
        let (a, b) = (place[g.first as usize], place[g.second as usize]);
        *pairs.entry((a.min(b), a.max(b))).or_default() += 1;
    }
    pairs
        .iter()
        .map(|(&(a, b), games)| {
            let (a, b) = (&names[a], &names[b]);
            let (a, b) = if a < b { (a, b) } else { (b, a) };
            serde_json::json!({ "a": a, "b": b, "games": games })
        })
        .collect()
}

struct Kept {
    /// Every ladder game counted, by id (so in the order played): its match and the game.
    games: BTreeMap<i64, (i64, Counted)>,
    /// The games of each match counted.
    of_match: HashMap<i64, Vec<i64>>,
    /// The last change read (a match's stamp; -1 before the first read).
    seen: i64,
    index: HashMap<String, u32>,
    names: Vec<String>,
    /// The same for versions (`NAME vN`).
    vindex: HashMap<String, u32>,
    versions: Vec<String>,
    /// The ladder at a change.
    ladder: Option<(u64, Arc<Ladder>)>,
    /// The board at a change and a fit.
    board: Option<((u64, u64), Arc<Board>)>,
}

impl Default for Kept {
    fn default() -> Kept {
        Kept {
            games: BTreeMap::new(),
            of_match: HashMap::new(),
            seen: -1,
            index: HashMap::new(),
            names: Vec::new(),
            vindex: HashMap::new(),
            versions: Vec::new(),
            ladder: None,
            board: None,
        }
    }
}

/// The games read, the last board made, and the latest ratings fitted.
#[derive(Default)]
pub struct Boards {
    kept: tokio::sync::Mutex<Kept>,
    pub(super) rated: std::sync::Mutex<Option<Arc<Rated>>>,
}

impl Boards {
    /// The ladder's games at change `generation` (read before calling: a change made
    /// meanwhile bumps the counter again, so nothing stale is kept past it). Only the matches
    /// changed since the last call are read (their stamps, crate::store), and only the games of
    /// those that start counting are fetched and parsed; a match rerun takes its games out.
    pub async fn ladder(&self, generation: u64, store: &Store) -> Result<Arc<Ladder>, DomainError> {
        let mut kept = self.kept.lock().await;
        if let Some((g, ladder)) = &kept.ladder {
            if *g == generation {
                return Ok(ladder.clone());
            }
        }
        let changes = store.ladder_changes(kept.seen).await?;
        let mut counted = Vec::new();
        for &(m, stamp, counts) in &changes {
            kept.seen = kept.seen.max(stamp);
            if counts {
                if !kept.of_match.contains_key(&m) {
                    counted.push(m);
                }
            } else if let Some(ids) = kept.of_match.remove(&m) {
                for id in ids {
                    kept.games.remove(&id);
                }
            }
        }
        for g in store.records_of_matches(&counted).await? {
            let (id, m) = (g.id, g.match_id);
            let r: GameRecord = serde_json::from_str(&g.record).map_err(DomainError::failed)?;
            let version = |n: &str| -> String {
                let number = g.versions.iter().find(|(e, _)| e == n).map_or(0, |v| v.1);
                quads_record::version_name(n, number as u32)
            };
            let (first_version, second_version) = (version(&r.first.name), version(&r.second.name));
            let kept = &mut *kept;
            let first = number(&mut kept.index, &mut kept.names, &r.first.name);
            let second = number(&mut kept.index, &mut kept.names, &r.second.name);
            let counted = Counted {
                first,
                second,
                first_version: number(&mut kept.vindex, &mut kept.versions, &first_version),
                second_version: number(&mut kept.vindex, &mut kept.versions, &second_version),
                score: r.result.score_of_first(),
                // As the reports pair games: by source (here the match) and pair.
                pair: ((m as u64) << 32) | u64::from(r.pair_id()),
            };
            kept.games.insert(id, (m, counted));
            kept.of_match.entry(m).or_default().push(id);
        }
        // A match counted with no game (none is handed in so) is still known.
        for m in counted {
            kept.of_match.entry(m).or_default();
        }
        let ladder = match &kept.ladder {
            Some((_, last)) if changes.is_empty() => last.clone(),
            _ => Arc::new(Ladder {
                names: kept.names.clone(),
                versions: kept.versions.clone(),
                games: kept.games.iter().map(|(id, (_, g))| (*id, *g)).collect(),
                seen: kept.seen,
            }),
        };
        kept.ladder = Some((generation, ladder.clone()));
        Ok(ladder)
    }

    /// The leaderboard at change `generation`: the games' counts now, with the latest
    /// ratings fitted.
    pub async fn get(&self, generation: u64, store: &Store) -> Result<Arc<Board>, DomainError> {
        let ladder = self.ladder(generation, store).await?;
        let rated = self.rated.lock().expect("the ratings' lock").clone();
        let key = (generation, rated.as_ref().map_or(0, |r| r.serial));
        let mut kept = self.kept.lock().await;
        if let Some((k, board)) = &kept.board {
            if *k == key {
                return Ok(board.clone());
            }
        }
        let actives: Vec<String> = store
            .actives()
            .await?
            .into_iter()
            .map(|a| a.entrant)
            .collect();
        let board = Arc::new(board(ladder, &actives, rated.as_deref()));
        kept.board = Some((key, board.clone()));
        Ok(board)
    }
}

/// `name`'s number in `names` (added if new).
fn number(index: &mut HashMap<String, u32>, names: &mut Vec<String>, name: &str) -> u32 {
    if let Some(&i) = index.get(name) {
        return i;
    }
    let i = names.len() as u32;
    names.push(name.to_owned());
    index.insert(name.to_owned(), i);
    i
}

impl Boards {
    /// The standings at change `generation` with each version a player of its own, with the
    /// latest ratings fitted (made on each call: an occasional view).
    pub async fn versions(&self, generation: u64, store: &Store) -> Result<Standings, DomainError> {
        let ladder = self.ladder(generation, store).await?;
        let rated = self.rated.lock().expect("the ratings' lock").clone();
        Ok(standings(&ladder, &[], rated.as_deref(), View::Versions))
    }
}

/// Each of `name`'s opponents, with `name`'s games won, drawn and lost against it.
pub fn head_to_head(ladder: &Ladder, name: &str) -> BTreeMap<String, [u32; 3]> {
    let mut h2h: BTreeMap<String, [u32; 3]> = BTreeMap::new();
    let Some(me) = ladder.names.iter().position(|n| n == name) else {
        return h2h;
    };
    let me = me as u32;
    for (_, g) in &ladder.games {
        let (other, mine) = if g.first == me {
            (g.second, g.score)
        } else if g.second == me {
            (g.first, 1.0 - g.score)
        } else {
            continue;
        };
        h2h.entry(ladder.names[other as usize].clone()).or_default()[outcome(mine)] += 1;
    }
    h2h
}

/// 0 won, 1 drawn, 2 lost, for a score of 1, 0.5 or 0.
fn outcome(score: f64) -> usize {
    if score > 0.75 {
        0
    } else if score < 0.25 {
        2
    } else {
        1
    }
}

/// Who a board's rows are: entrants (all their versions' games), or each version apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Entrants,
    Versions,
}

/// The standings of `ladder`'s games with the ratings `rated`, per entrant; with
/// [`View::Versions`], of the same games with each version a player of its own (only the
/// versions that played).
pub fn standings(
    ladder: &Ladder,
    actives: &[String],
    rated: Option<&Rated>,
    view: View,
) -> Standings {
    if view == View::Versions {
        return by_player(&ladder.by_version(), &[], rated, |r| &r.by_version);
    }
    by_player(ladder, actives, rated, |r| &r.ratings)
}

fn by_player(
    ladder: &Ladder,
    actives: &[String],
    rated: Option<&Rated>,
    ratings: fn(&Rated) -> &Ratings,
) -> Standings {
    let names = ladder.order(actives);
    let place = ladder.places(&names);
    let mut counts = vec![[0u64; 3]; names.len()];
    for (_, g) in &ladder.games {
        let (a, b) = (place[g.first as usize], place[g.second as usize]);
        counts[a][outcome(g.score)] += 1;
        counts[b][outcome(1.0 - g.score)] += 1;
    }
    let rows: Vec<Row> = if ladder.games.is_empty() {
        Vec::new()
    } else {
        names
            .iter()
            .zip(&counts)
            .map(|(name, &[wins, draws, losses])| {
                let games = wins + draws + losses;
                let score = if games == 0 {
                    0.0
                } else {
                    100.0 * (wins as f64 + 0.5 * draws as f64) / games as f64
                };
                let r = rated.and_then(|r| ratings(r).get(name));
                Row {
                    rank: None,
                    name: name.clone(),
                    games,
                    wins,
                    draws,
                    losses,
                    score,
                    elo: r.and_then(|r| finite(r.0)),
                    elo_low: r.and_then(|r| finite(r.1)),
                    elo_high: r.and_then(|r| finite(r.2)),
                }
            })
            .collect()
    };
    Standings {
        games: ladder.games.len(),
        rated: rated.map_or(0, |r| r.games),
        active: actives.len(),
        rows: ranked(rows),
    }
}

fn board(ladder: Arc<Ladder>, actives: &[String], rated: Option<&Rated>) -> Board {
    let standings = standings(&ladder, actives, rated, View::Entrants);
    let names = ladder.order(actives);
    let fresh = rated.map_or(ladder.games.is_empty(), |r| r.seen == ladder.seen);
    let value = serde_json::to_value(&standings).expect("JSON of the standings");
    let body = Bytes::from(serde_json::to_vec(&value).expect("JSON of JSON"));
    Board {
        standings,
        body,
        ladder,
        names,
        with_pairs: std::sync::OnceLock::new(),
        fresh,
    }
}

/// `rows` in the order of their ratings, ranked: the highest first, equal ratings sharing a
/// rank and listed by name; rows without a rating after them all, unranked, in their order.
fn ranked(mut rows: Vec<Row>) -> Vec<Row> {
    // Stable: the unrated keep the order the board gave them.
    rows.sort_by(|a, b| match (a.elo, b.elo) {
        (Some(x), Some(y)) => y.total_cmp(&x).then_with(|| a.name.cmp(&b.name)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    let mut above: Option<(f64, usize)> = None;
    for (i, row) in rows.iter_mut().enumerate() {
        let Some(elo) = row.elo else { break };
        let rank = match above {
            Some((e, r)) if e == elo => r,
            _ => i + 1,
        };
        above = Some((elo, rank));
        row.rank = Some(rank);
    }
    rows
}

/// A rating to a tenth; `None` for an unbounded end of an interval (JSON has no infinity: it
/// is written as null).
fn finite(x: f64) -> Option<f64> {
    x.is_finite().then(|| (x * 10.0).round() / 10.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str, elo: Option<f64>) -> Row {
        Row {
            rank: None,
            name: name.to_owned(),
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            score: 0.0,
            elo,
            elo_low: None,
            elo_high: None,
        }
    }

    #[test]
    fn rows_go_by_rating_and_equal_ratings_share_a_rank() {
        // As the issue found it: -14 listed above +2 because it signed up first.
        let rows = vec![
            row("zed", None),
            row("ann", Some(-14.0)),
            row("bob", Some(2.0)),
            row("cat", Some(30.5)),
            row("abe", Some(2.0)),
            row("eve", None),
        ];
        let ranked = ranked(rows);
        let got: Vec<(Option<usize>, &str)> =
            ranked.iter().map(|r| (r.rank, r.name.as_str())).collect();
        assert_eq!(
            got,
            [
                (Some(1), "cat"),
                (Some(2), "abe"),
                (Some(2), "bob"),
                (Some(4), "ann"),
                (None, "zed"),
                (None, "eve"),
            ]
        );
    }
}
