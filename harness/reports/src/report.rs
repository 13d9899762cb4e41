//! The report: everything the exporters print, computed once from the game records.

use std::collections::BTreeMap;

use quads_record::{Anchor, ForfeitReason, GameRecord, Player};

use crate::ratings::{fit, intervals, Intervals, Options, Pin, RatedGame};

/// Forfeit reasons, in the order the tables list them.
pub const FORFEITS: &[ForfeitReason] = ForfeitReason::ALL;

/// Why a report cannot be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReportError {
    /// The anchor names a bot that played no game.
    UnknownAnchor(String),
}

impl std::fmt::Display for ReportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReportError::UnknownAnchor(name) => {
                write!(f, "the anchor `{name}` is not among the bots")
            }
        }
    }
}

impl std::error::Error for ReportError {}

/// Bootstrap resamples per fit.
pub const SAMPLES: usize = 200;

/// One bot's line in a standings table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The bot.
    pub bot: String,
    /// Games played.
    pub games: u32,
    /// Won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
    /// Points as a percentage of games.
    pub score_pct: f64,
    /// Elo.
    pub elo: f64,
    /// 95% interval, low end.
    pub elo_low: f64,
    /// 95% interval, high end.
    pub elo_high: f64,
    /// Games lost by forfeit, per reason (in [`FORFEITS`] order).
    pub forfeits: Vec<u32>,
}

/// One pairing's line in a pairwise table.
#[derive(Clone, Debug, PartialEq)]
pub struct PairRow {
    /// The bot.
    pub bot: String,
    /// Its opponent.
    pub opponent: String,
    /// Games between them.
    pub games: u32,
    /// The bot's points.
    pub points: f64,
    /// The bot's points as a percentage.
    pub score_pct: f64,
    /// The pair's own Elo: the Elo difference its head-to-head score stands for, with its 95%
    /// interval (infinite when one side won every game; see [`crate::numbers::head_to_head`]).
    pub h2h: (f64, f64, f64),
    /// The model's difference: the bot's rating minus the opponent's, both fitted on every
    /// game of the block, and its 95% interval.
    pub diff: (f64, f64, f64),
    /// Likelihood that the bot is the stronger, by the model.
    pub los: f64,
}

/// Standings of one variant, or of all games (`variant` is `all`).
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// The rules spec, or `all`.
    pub variant: String,
    /// Per bot, in bot order.
    pub rows: Vec<Row>,
    /// Per pairing that met.
    pub pairwise: Vec<PairRow>,
    /// The fitted first-mover advantage, in Elo.
    pub first_move: f64,
    /// Its 95% interval.
    pub first_move_interval: (f64, f64),
}

/// Everything reported.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The event name.
    pub event: String,
    /// Bots, in order.
    pub bots: Vec<String>,
    /// The games, as given (in schedule order).
    pub records: Vec<GameRecord>,
    /// The source (file) each game came from, as given to [`build`], in the order of
    /// `records`.
    pub sources: Vec<usize>,
    /// All games, then each variant.
    pub blocks: Vec<Block>,
    /// Ratings (all games) after the first `n` games, for n at even steps: (n, ratings).
    pub convergence: Vec<(usize, Vec<f64>)>,
}

/// The game pair a record belongs to: its own, or consecutive games two by two.
fn pair_of(source: usize, r: &GameRecord) -> u64 {
    ((source as u64) << 32) | u64::from(r.pair_id())
}

/// Builds the report. `records` are (source file, record); `bots` fixes the bot order (bots
/// not listed are added in order of appearance). `seed` seeds the bootstrap. `anchor` pins a
/// named bot at a rating; without it the mean rating is 0. An anchor naming a bot that played
/// no game is an error.
pub fn build(
    event: &str,
    records: Vec<(usize, GameRecord)>,
    bots: &[String],
    seed: u64,
    anchor: Option<&Anchor>,
) -> Result<Report, ReportError> {
    let mut names: Vec<String> = bots.to_vec();
    for (_, r) in &records {
        for n in [&r.first.name, &r.second.name] {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
    }
    let index = |n: &str| {
        names
            .iter()
            .position(|b| b == n)
            .expect("every name is listed")
    };
    let mut variants: Vec<String> = Vec::new();
    for (_, r) in &records {
        if !variants.contains(&r.rules) {
            variants.push(r.rules.clone());
        }
    }
    let rated: Vec<(String, RatedGame)> = records
        .iter()
        .map(|(src, r)| {
            let g = RatedGame {
                first: index(&r.first.name),
                second: index(&r.second.name),
                score: r.result.score_of_first(),
                pair: pair_of(*src, r),
            };
            (r.rules.clone(), g)
        })
        .collect();
    let anchor = match anchor {
        None => Pin::Mean(0.0),
        Some(a) => Pin::Bot(
            names
                .iter()
                .position(|b| *b == a.bot)
                .ok_or_else(|| ReportError::UnknownAnchor(a.bot.clone()))?,
            a.elo,
        ),
    };
    let opts = Options {
        anchor,
        ..Options::default()
    };
    let n = names.len();
    let mut blocks = Vec::new();
    for variant in std::iter::once("all".to_owned()).chain(variants.iter().cloned()) {
        let chosen: Vec<usize> = (0..records.len())
            .filter(|&i| variant == "all" || rated[i].0 == variant)
            .collect();
        let games: Vec<RatedGame> = chosen.iter().map(|&i| rated[i].1).collect();
        let f = fit(n, &games, &opts);
        let ci: Intervals = intervals(n, &games, &opts, SAMPLES, seed);
        let mut rows: Vec<Row> = names
            .iter()
            .enumerate()
            .map(|(i, bot)| Row {
                bot: bot.clone(),
                games: 0,
                wins: 0,
                draws: 0,
                losses: 0,
                score_pct: 0.0,
                elo: f.ratings[i],
                elo_low: ci.ratings[i].0,
                elo_high: ci.ratings[i].1,
                forfeits: vec![0; FORFEITS.len()],
            })
            .collect();
        let mut met: BTreeMap<(usize, usize), (u32, f64, f64)> = BTreeMap::new();
        for &i in &chosen {
            let (g, r) = (rated[i].1, &records[i].1);
            for (bot, score) in [(g.first, g.score), (g.second, 1.0 - g.score)] {
                let row = &mut rows[bot];
                row.games += 1;
                if score > 0.75 {
                    row.wins += 1;
                } else if score < 0.25 {
                    row.losses += 1;
                } else {
                    row.draws += 1;
                }
            }
            if let Some(f) = r.failures.first() {
                let loser = match f.seat {
                    Player::First => g.first,
                    Player::Second => g.second,
                };
                if let Some(k) = FORFEITS.iter().position(|x| *x == f.reason) {
                    rows[loser].forfeits[k] += 1;
                }
            }
            for (a, b, s) in [
                (g.first, g.second, g.score),
                (g.second, g.first, 1.0 - g.score),
            ] {
                let e = met.entry((a, b)).or_default();
                e.0 += 1;
                e.1 += s;
                e.2 += s * s;
            }
        }
        for row in &mut rows {
            if row.games > 0 {
                row.score_pct = 100.0 * (f64::from(row.wins) + 0.5 * f64::from(row.draws))
                    / f64::from(row.games);
            }
        }
        let pairwise = met
            .iter()
            .map(|(&(a, b), &(games, points, squares))| PairRow {
                bot: names[a].clone(),
                opponent: names[b].clone(),
                games,
                points,
                score_pct: 100.0 * points / f64::from(games),
                h2h: crate::numbers::head_to_head(games, points, squares),
                diff: (
                    f.ratings[a] - f.ratings[b],
                    ci.diff[a][b].0,
                    ci.diff[a][b].1,
                ),
                los: ci.los[a][b],
            })
            .collect();
        blocks.push(Block {
            variant,
            rows,
            pairwise,
            first_move: f.first_move,
            first_move_interval: ci.first_move,
        });
    }
    let all: Vec<RatedGame> = rated.iter().map(|(_, g)| *g).collect();
    let steps = 20.min(all.len());
    let convergence = (1..=steps)
        .map(|k| {
            let upto = all.len() * k / steps;
            (upto, fit(n, &all[..upto], &opts).ratings)
        })
        .collect();
    Ok(Report {
        event: event.to_owned(),
        bots: names,
        sources: records.iter().map(|(s, _)| *s).collect(),
        records: records.into_iter().map(|(_, r)| r).collect(),
        blocks,
        convergence,
    })
}
