//! The schedule: a pure function of the config and the seed, so the same config always plays
//! the same games in the same seats from the same openings, whatever the concurrency.

use quads_rules::{Position, Rules};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::config::{Format, Openings, Tournament};

/// One game of the schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// Its number, from 1, in schedule order.
    pub number: u32,
    /// The round, from 1: round r plays every pairing's r-th game pair.
    pub round: u32,
    /// The game pair, from 1: two games from one opening with the seats swapped.
    pub pair: u32,
    /// Index into the tournament's variants.
    pub variant: usize,
    /// Index of the bot that moves first.
    pub first: usize,
    /// Index of the other bot.
    pub second: usize,
    /// The opening position.
    pub start: Position,
    /// The game's seed, sent to both bots.
    pub seed: u64,
}

/// The pairings, each once, as (lower index, higher index) for round-robins and
/// (gauntlet bot, opponent) for gauntlets.
pub fn pairings(t: &Tournament) -> Vec<(usize, usize)> {
    let n = t.bots.len();
    match &t.format {
        Format::RoundRobin => (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .collect(),
        Format::Gauntlet(chosen) => chosen
            .iter()
            .flat_map(|&g| (0..n).filter(|o| !chosen.contains(o)).map(move |o| (g, o)))
            .collect(),
    }
}

/// A uniform index below `n`.
fn pick(rng: &mut ChaCha8Rng, n: usize) -> usize {
    ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize
}

/// `moves` random legal moves from the start, never ending the game.
pub fn random_opening(rng: &mut ChaCha8Rng, rules: &Rules, moves: u32) -> Position {
    let mut pos = Position::START;
    for _ in 0..moves {
        let next: Vec<Position> = pos
            .legal_moves(rules)
            .into_iter()
            .filter_map(|mv| pos.play(mv, rules).ok())
            .filter(|p| p.outcome(rules).is_none())
            .collect();
        if next.is_empty() {
            break;
        }
        pos = next[pick(rng, next.len())];
    }
    pos
}

/// The whole schedule, in order.
pub fn schedule(t: &Tournament) -> Vec<Scheduled> {
    let mut seeds = ChaCha8Rng::seed_from_u64(t.seed);
    seeds.set_stream(0);
    let openings: Vec<Vec<Position>> = t
        .variants
        .iter()
        .enumerate()
        .map(|(v, rules)| {
            let mut rng = ChaCha8Rng::seed_from_u64(t.seed);
            rng.set_stream(1 + v as u64);
            (0..t.pairs as usize)
                .map(|k| match &t.openings {
                    Openings::Random(n) => random_opening(&mut rng, rules, *n),
                    Openings::Listed(list) => list[k % list.len()],
                })
                .collect()
        })
        .collect();
    let pairings = pairings(t);
    let mut games = Vec::new();
    let mut pair = 0;
    for k in 0..t.pairs as usize {
        for (v, starts) in openings.iter().enumerate() {
            for &(a, b) in &pairings {
                pair += 1;
                for (first, second) in [(a, b), (b, a)] {
                    games.push(Scheduled {
                        number: games.len() as u32 + 1,
                        round: k as u32 + 1,
                        pair,
                        variant: v,
                        first,
                        second,
                        start: starts[k],
                        seed: seeds.next_u64(),
                    });
                }
            }
        }
    }
    games
}
