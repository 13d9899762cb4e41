//! Per bot, overall and per variant: what its judged moves add up to.

use std::collections::BTreeMap;

use quads_record::Player;

use crate::game::{Decided, GameAnalysis};
use crate::value::Verdict;

/// The variant name of the rows over every variant.
pub const ALL_VARIANTS: &str = "all";

/// One bot's counts over a set of games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games it played.
    pub games: u32,
    /// Games in which at least one of its moves was judged.
    pub judged_games: u32,
    /// Its judged moves.
    pub judged_moves: u32,
    /// Those that kept the value.
    pub kept: u32,
    /// Those that lowered it.
    pub blunders: u32,
    /// Blunders from a forced win (to a draw or a loss).
    pub wins_thrown: u32,
    /// Moves that could have won at once and did not.
    pub missed_wins: u32,
    /// Games in which it blundered.
    pub games_with_blunder: u32,
    /// The sum of the numbers of its first blunder in each of those games.
    pub first_blunder_sum: u32,
    /// Games decided by its blunder (the game's last change of value).
    pub deciding_blunders: u32,
}

impl Tally {
    /// The share of its judged moves that kept the value (None with no judged move).
    pub fn accuracy(&self) -> Option<f64> {
        (self.judged_moves > 0).then(|| f64::from(self.kept) / f64::from(self.judged_moves))
    }

    /// Blunders per judged game.
    pub fn blunders_per_game(&self) -> Option<f64> {
        (self.judged_games > 0).then(|| f64::from(self.blunders) / f64::from(self.judged_games))
    }

    /// The average number of the move of its first blunder, over the games it blundered in.
    pub fn first_blunder(&self) -> Option<f64> {
        (self.games_with_blunder > 0)
            .then(|| f64::from(self.first_blunder_sum) / f64::from(self.games_with_blunder))
    }

    /// Adds the moves of `seat` in `game`.
    fn add(&mut self, game: &GameAnalysis, seat: Player) {
        self.games += 1;
        let mine = game.moves.iter().filter(|m| m.seat == seat);
        let mut judged = false;
        let mut first_blunder = None;
        for m in mine {
            judged = true;
            self.judged_moves += 1;
            self.missed_wins += u32::from(m.missed_win);
            match m.verdict {
                Verdict::Kept => self.kept += 1,
                Verdict::Blunder(b) => {
                    self.blunders += 1;
                    self.wins_thrown += u32::from(b.threw_a_win());
                    first_blunder.get_or_insert(m.number);
                }
            }
        }
        self.judged_games += u32::from(judged);
        if let Some(n) = first_blunder {
            self.games_with_blunder += 1;
            self.first_blunder_sum += n;
        }
        if matches!(game.decided, Decided::Blunder { seat: s, .. } if s == seat) {
            self.deciding_blunders += 1;
        }
    }
}

/// One row of the summary: a bot in a variant, or over all variants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotSummary {
    /// The variant's rules spec, or [`ALL_VARIANTS`].
    pub variant: String,
    /// The bot's name.
    pub bot: String,
    /// Its counts.
    pub tally: Tally,
}

/// The rows: over all variants first, then each variant in the order it first appears; in
/// each, the bots by accuracy (highest first; bots with no judged move last), then by name.
pub fn summarize(games: &[GameAnalysis]) -> Vec<BotSummary> {
    let mut variants: Vec<&str> = Vec::new();
    for g in games {
        if !variants.contains(&g.rules.as_str()) {
            variants.push(&g.rules);
        }
    }
    let mut rows = Vec::new();
    for variant in std::iter::once(ALL_VARIANTS).chain(variants) {
        let mut tallies: BTreeMap<&str, Tally> = BTreeMap::new();
        for g in games
            .iter()
            .filter(|g| variant == ALL_VARIANTS || g.rules == variant)
        {
            for seat in [Player::First, Player::Second] {
                tallies.entry(g.bot(seat)).or_default().add(g, seat);
            }
        }
        let mut block: Vec<BotSummary> = tallies
            .into_iter()
            .map(|(bot, tally)| BotSummary {
                variant: variant.to_owned(),
                bot: bot.to_owned(),
                tally,
            })
            .collect();
        // Stable: equal accuracies keep the names' order.
        block.sort_by(|a, b| {
            let key = |r: &BotSummary| r.tally.accuracy().unwrap_or(-1.0);
            key(b).total_cmp(&key(a))
        });
        rows.extend(block);
    }
    rows
}
