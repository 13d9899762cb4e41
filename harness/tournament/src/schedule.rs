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

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::time::Duration;

    use proptest::prelude::*;
    use quads_protocol::TimeControl;
    use quads_referee::{BotCommand, BotSpec};

    use super::*;

    fn tournament(
        bots: usize,
        pairs: u32,
        variants: usize,
        gauntlet: Option<usize>,
        random_moves: u32,
        seed: u64,
    ) -> Tournament {
        let all = [
            Rules::QUADS,
            Rules::CLASSIC,
            "quads,claim=announce".parse().unwrap(),
        ];
        Tournament {
            name: "t".into(),
            seed,
            out: "out".into(),
            concurrency: 1,
            format: match gauntlet {
                Some(g) => Format::Gauntlet((0..g).collect()),
                None => Format::RoundRobin,
            },
            pairs,
            variants: all[..variants].to_vec(),
            keep_alive: true,
            ponder: true,
            openings: Openings::Random(random_moves),
            bots: (0..bots)
                .map(|i| BotSpec {
                    name: format!("bot{i}"),
                    command: BotCommand::new(vec!["x".into()]),
                    options: Vec::new(),
                    time: None,
                })
                .collect(),
            time: TimeControl {
                movetime: Some(1000),
                base: None,
                inc: 0,
            },
            margin: Duration::from_millis(50),
            handshake_timeout: Duration::from_secs(1),
            analyze: false,
            log_cap: 1,
            anchor: None,
            sprt: None,
            entrants: None,
            entrants_ponder: false,
            entrants_build_timeout: crate::entrants::BUILD_TIMEOUT,
            sandbox: quads_referee::sandbox::SandboxSpec::default(),
        }
    }

    proptest! {
        #[test]
        fn schedules_are_pure_complete_and_paired(
            bots in 2usize..6, pairs in 1u32..4, variants in 1usize..4, gauntlet in proptest::option::of(1usize..2),
            moves in 0u32..4, seed in any::<u64>()
        ) {
            let t = tournament(bots, pairs, variants, gauntlet, moves, seed);
            let s = schedule(&t);
            prop_assert_eq!(&s, &schedule(&t), "the same config gives the same schedule");
            let pairings = pairings(&t).len();
            let expected = match gauntlet { Some(g) => g * (bots - g), None => bots * (bots - 1) / 2 };
            prop_assert_eq!(pairings, expected);
            prop_assert_eq!(s.len(), 2 * pairings * variants * pairs as usize);
            // Games come two by two: same pair, opening, variant and round, seats swapped.
            for (i, two) in s.chunks(2).enumerate() {
                let (a, b) = (&two[0], &two[1]);
                prop_assert_eq!((a.pair, b.pair), (i as u32 + 1, i as u32 + 1));
                prop_assert_eq!((a.first, a.second), (b.second, b.first));
                prop_assert_eq!((a.start, a.variant, a.round), (b.start, b.variant, b.round));
                prop_assert_eq!(a.start.placed() + u32::from(a.start.hand().is_some()), moves.min(16), "{} random opening moves", moves);
                prop_assert!(a.start.outcome(&t.variants[a.variant]).is_none());
            }
            // Each pairing plays each variant 2 * pairs times, half from each seat.
            let mut count: BTreeMap<(usize, usize, usize), u32> = BTreeMap::new();
            for g in &s {
                *count.entry((g.variant, g.first, g.second)).or_default() += 1;
            }
            prop_assert!(count.values().all(|&c| c == pairs));
            prop_assert_eq!(s.iter().map(|g| g.number).collect::<Vec<_>>(), (1..=s.len() as u32).collect::<Vec<_>>());
        }
    }

    #[test]
    fn another_seed_gives_other_openings_and_seeds() {
        let (a, b) = (
            schedule(&tournament(3, 2, 2, None, 3, 1)),
            schedule(&tournament(3, 2, 2, None, 3, 2)),
        );
        assert_ne!(
            a.iter().map(|g| g.seed).collect::<Vec<_>>(),
            b.iter().map(|g| g.seed).collect::<Vec<_>>()
        );
        assert_ne!(
            a.iter().map(|g| g.start).collect::<Vec<_>>(),
            b.iter().map(|g| g.start).collect::<Vec<_>>()
        );
    }
}
