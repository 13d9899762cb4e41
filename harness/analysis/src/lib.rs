//! Game analysis: every move of recorded games judged by the exact solver.
//!
//! Who won says little about how two bots play: two bots that both lose to a stronger one
//! look alike even when one throws the game away at move 6 and the other at move 12. The
//! solver ([`quads_bots::solver`]) answers a position with 11 empty squares in milliseconds,
//! so this crate can say, for every move made from such a position on, whether it kept the
//! game-theoretic value (a win stays a win, a draw a draw) or was a blunder, and whether it
//! missed a win in one.
//!
//! The parts, one job each: [`value`] (the words: values, verdicts, blunders), [`oracle`]
//! (the solvers and the values already found, shared by every game of a run), [`game`]
//! (replaying one record and judging its moves), [`summary`] (per bot, overall and per
//! variant), [`input`] (reading `games.jsonl` files and folders) and [`export`] (the CSV, the
//! JSON lines and the printed table). [`analyze`] runs the whole.
//!
//! Every variant is judged: the solver solves each set of shapes and traits, and solves
//! `claim=announce` as if every win were announced, which is perfect play under that rule
//! too (a claimable win counts as a win for the player who may claim it). A game is left
//! unjudged only when it ended before a move was made with at most N empty squares, and the
//! output says how many were.

pub mod book_audit;
pub mod error;
pub mod export;
pub mod game;
pub mod input;
pub mod oracle;
pub mod summary;
pub mod value;

use std::time::Instant;

pub use error::AnalysisError;
pub use game::{Decided, GameAnalysis, JudgedMove};
pub use input::Source;
pub use oracle::{Oracle, Work};
pub use quads_record::replay::ReplayError;
pub use summary::{BotSummary, Tally, ALL_VARIANTS};
pub use value::{Blunder, Value, Verdict};

/// Judge moves made with at most this many empty squares, unless told otherwise: the
/// levels' round-robin (800 games) is judged from here in less time than it takes to play
/// (docs/analysis.md), and level 5's solver takes over here too.
pub const DEFAULT_EMPTY: u32 = 11;

/// The most empty squares a window may start from: the position after the first placement.
/// (The opening give, on the empty board, is never judged.)
pub const MAX_EMPTY: u32 = 15;

/// The default size of each solver's table, in MiB (as `quads solve`'s). A search uses only
/// the part its size needs: 512 KiB from 11 empty squares, 4 MiB from 12.
pub const DEFAULT_HASH_MIB: usize = 256;

/// Threads per search unless told otherwise: one per core. (On the 2-core machine of
/// docs/analysis.md two threads judged the levels' round-robin in two thirds of the time
/// of one.)
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// How a run judges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Judge moves made with at most this many empty squares.
    pub empty: u32,
    /// Each solver's table, in MiB.
    pub hash_mib: usize,
    /// Threads per search (the solver's helpers join from 11 empty squares).
    pub threads: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            empty: DEFAULT_EMPTY,
            hash_mib: DEFAULT_HASH_MIB,
            threads: default_threads(),
        }
    }
}

/// A run's analysis.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// How it was judged.
    pub settings: Settings,
    /// Every game, in the order of the inputs.
    pub games: Vec<GameAnalysis>,
    /// Per bot, overall and per variant ([`summary::summarize`]).
    pub summary: Vec<BotSummary>,
    /// What the solver did.
    pub work: Work,
    /// How long the judging took, in seconds (never written into the analysis files).
    pub seconds: f64,
}

impl Analysis {
    /// The games in which no move was judged.
    pub fn unjudged(&self) -> usize {
        self.games
            .iter()
            .filter(|g| g.decided == Decided::Unjudged)
            .count()
    }

    /// The moves judged, over all games.
    pub fn judged_moves(&self) -> usize {
        self.games.iter().map(|g| g.moves.len()).sum()
    }
}

/// Judges every game of `sources` (in their order) with one oracle. `progress` is told each
/// game done and the total.
pub fn analyze(
    sources: &[Source],
    settings: Settings,
    mut progress: impl FnMut(usize, usize),
) -> Result<Analysis, AnalysisError> {
    let total: usize = sources.iter().map(|s| s.records.len()).sum();
    if total == 0 {
        return Err(AnalysisError::Empty);
    }
    let started = Instant::now();
    let mut oracle = Oracle::new(settings.hash_mib, settings.threads);
    let mut games = Vec::with_capacity(total);
    for source in sources {
        let name = source.path.display().to_string();
        for (line, record) in &source.records {
            let judged = game::judge(record, &name, settings.empty, &mut oracle).map_err(|e| {
                AnalysisError::Record {
                    path: source.path.clone(),
                    line: *line,
                    game: record.game,
                    source: e,
                }
            })?;
            games.push(judged);
            progress(games.len(), total);
        }
    }
    let summary = summary::summarize(&games);
    Ok(Analysis {
        settings,
        games,
        summary,
        work: oracle.work(),
        seconds: started.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests;
