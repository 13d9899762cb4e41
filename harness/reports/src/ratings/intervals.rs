//! Rating intervals: two seeded bootstraps, and for each bot the wider of the two.
//!
//! Resampling whole game pairs (the nonparametric bootstrap) keeps the dependence between the
//! two games of a pair, but it cannot move a lopsided record: a bot that lost all its games
//! loses all of them in every resample, and its interval collapses to the prior's pull. The
//! parametric bootstrap replays every game of the event from the fitted model (ratings,
//! first-mover advantage and the event's draw rate) and refits, as Ordo's simulation does: a
//! bot rated far below the rest then wins a game now and then, as its rating says it would,
//! and its interval widens to what the games can tell. Each interval is the union of the two
//! percentile intervals; the likelihood of superiority is counted over both sets of fits.
//!
//! Neither bootstrap looks at a game once the games are counted ([`Counted`]): pairs drawn
//! with replacement are, kind by kind, a multinomial draw over the kinds of pair (which
//! seats, which scores), and games replayed from the model are, seat pairing by seat pairing,
//! a multinomial draw of wins, draws and losses. Each is drawn as binomials, so a resample
//! costs the kinds and the pairings, not the games: the end of a 200,000-game run costs what
//! a 2,000-game one does.

use std::collections::{BTreeMap, HashMap};

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Binomial, Distribution};

use super::{fit_tally, likelihood, sigmoid, tally, Fit, Options, Pin, RatedGame, Tally, K};

/// 95% intervals and pairwise likelihood of superiority.
#[derive(Clone, Debug, PartialEq)]
pub struct Intervals {
    /// Per bot, (low, high) ends of its rating's 95% interval.
    pub ratings: Vec<(f64, f64)>,
    /// `diff[i][j]`: (low, high) ends of the 95% interval of `r_i - r_j`.
    pub diff: Vec<Vec<(f64, f64)>>,
    /// `los[i][j]`: the share of fits with `r_i > r_j` (ties count half).
    pub los: Vec<Vec<f64>>,
    /// The first-mover advantage's 95% interval.
    pub first_move: (f64, f64),
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let pos = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

/// One game of a pair, as a kind of pair lists it: its seats and the first player's score in
/// half points.
type Seated = (usize, usize, u8);

/// The games as the bootstraps need them, counted once.
pub(crate) struct Counted {
    /// Per seat pairing (first, second): the first player's losses, draws and wins.
    seats: Vec<((usize, usize), [u64; 3])>,
    /// Each kind of game pair (its games, sorted) and how many pairs were of it, in a fixed
    /// order.
    pairs: Vec<(Vec<Seated>, u64)>,
    /// The share of games drawn.
    draws: f64,
}

impl Counted {
    /// The games of `n` bots that count (two bots of the `n`, not one against itself), counted.
    pub(crate) fn new(n: usize, games: &[RatedGame]) -> Counted {
        let mut seats: BTreeMap<(usize, usize), [u64; 3]> = BTreeMap::new();
        let mut by_pair: HashMap<u64, Vec<Seated>> = HashMap::new();
        let mut drawn = 0u64;
        let mut counted = 0u64;
        for g in games {
            if g.first >= n || g.second >= n || g.first == g.second {
                continue;
            }
            let halves = (g.score * 2.0).round().clamp(0.0, 2.0) as u8;
            seats.entry((g.first, g.second)).or_default()[usize::from(halves)] += 1;
            by_pair
                .entry(g.pair)
                .or_default()
                .push((g.first, g.second, halves));
            counted += 1;
            drawn += u64::from(halves == 1);
        }
        let mut kinds: HashMap<Vec<Seated>, u64> = HashMap::new();
        for mut pair in by_pair.into_values() {
            pair.sort_unstable();
            *kinds.entry(pair).or_default() += 1;
        }
        let mut pairs: Vec<(Vec<Seated>, u64)> = kinds.into_iter().collect();
        pairs.sort_unstable();
        Counted {
            seats: seats.into_iter().collect(),
            pairs,
            draws: drawn as f64 / counted.max(1) as f64,
        }
    }
}

/// A binomial draw: successes in `trials` with chance `p` each (clamped to [0, 1]).
fn binomial(rng: &mut ChaCha8Rng, trials: u64, p: f64) -> u64 {
    let p = if p.is_nan() { 0.0 } else { p.clamp(0.0, 1.0) };
    Binomial::new(trials, p).map_or(0, |b| b.sample(rng))
}

/// Fits to `samples` resamples of whole game pairs: as many pairs as were played, drawn with
/// replacement, counted kind by kind (a multinomial draw, as binomials).
pub(crate) fn pair_fits(
    n: usize,
    counted: &Counted,
    opts: &Options,
    samples: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<Fit> {
    let total: u64 = counted.pairs.iter().map(|(_, k)| k).sum();
    (0..samples)
        .map(|_| {
            let mut t = Tally::new();
            let (mut left, mut weight) = (total, total);
            for (kind, k) in &counted.pairs {
                let x = if *k == weight {
                    left
                } else {
                    binomial(rng, left, *k as f64 / weight as f64)
                };
                left -= x;
                weight -= k;
                if x > 0 {
                    for &(f, s, halves) in kind {
                        let e = t.entry((f, s)).or_default();
                        e.0 += x as f64;
                        e.1 += x as f64 * f64::from(halves) / 2.0;
                    }
                }
            }
            fit_tally(n, &t, opts)
        })
        .collect()
}

/// Fits to `samples` replays of every game from the model `fitted`: the first player scores
/// with the model's expected score, with draws at the event's rate where the expected score
/// leaves room for them; each seat pairing's games drawn at once (draws, then wins among the
/// rest, as binomials).
pub(crate) fn model_fits(
    n: usize,
    counted: &Counted,
    opts: &Options,
    fitted: &Fit,
    samples: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<Fit> {
    let r = &fitted.ratings;
    // Per seat pairing: its games, the chance of a draw and of a win when not drawn.
    let odds: Vec<((usize, usize), u64, f64, f64)> = counted
        .seats
        .iter()
        .map(|&((f, s), [l, d, w])| {
            let p = sigmoid(K * (r[f] - r[s] + fitted.first_move));
            // A draw is half a point: P(draw) = d, P(win) = p - d/2 keeps the mean at p.
            let draw = counted.draws.min(2.0 * p.min(1.0 - p));
            let win = if draw < 1.0 {
                (p - draw / 2.0) / (1.0 - draw)
            } else {
                0.0
            };
            ((f, s), l + d + w, draw, win)
        })
        .collect();
    (0..samples)
        .map(|_| {
            let mut t = Tally::new();
            for &(seats, games, draw, win) in &odds {
                let drawn = binomial(rng, games, draw);
                let won = binomial(rng, games - drawn, win);
                t.insert(seats, (games as f64, won as f64 + drawn as f64 / 2.0));
            }
            fit_tally(n, &t, opts)
        })
        .collect()
}

/// Percentile intervals of each bot's rating, each difference and the advantage.
fn percentiles(n: usize, fits: &[Fit]) -> Intervals {
    let column = |f: &dyn Fn(&Fit) -> f64| {
        let mut v: Vec<f64> = fits.iter().map(f).collect();
        v.sort_by(f64::total_cmp);
        (percentile(&v, 0.025), percentile(&v, 0.975))
    };
    let ratings = (0..n).map(|i| column(&|f| f.ratings[i])).collect();
    let diff = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| column(&|f| f.ratings[i] - f.ratings[j]))
                .collect()
        })
        .collect();
    let los = (0..n)
        .map(|i| (0..n).map(|j| superiority(fits, i, j)).collect())
        .collect();
    Intervals {
        ratings,
        diff,
        los,
        first_move: column(&|f| f.first_move),
    }
}

/// The share of fits with `r_i > r_j`, ties counting half.
fn superiority(fits: &[Fit], i: usize, j: usize) -> f64 {
    if fits.is_empty() {
        return 0.5;
    }
    let wins: f64 = fits
        .iter()
        .map(|f| match f.ratings[i].total_cmp(&f.ratings[j]) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        })
        .sum();
    wins / fits.len() as f64
}

fn union(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    (a.0.min(b.0), a.1.max(b.1))
}

/// 95% intervals from `samples` fits of each bootstrap, drawn from `seed`: per bot, per
/// difference and for the advantage, the union of the two percentile intervals; the
/// likelihood of superiority over all the fits.
pub fn intervals(
    n: usize,
    games: &[RatedGame],
    opts: &Options,
    samples: usize,
    seed: u64,
) -> Intervals {
    let counted = Counted::new(n, games);
    let observed = tally(n, games.iter().copied());
    let fitted = fit_tally(n, &observed, opts);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut fits = pair_fits(n, &counted, opts, samples, &mut rng);
    let by_pairs = percentiles(n, &fits);
    fits.extend(model_fits(n, &counted, opts, &fitted, samples, &mut rng));
    let by_model = percentiles(n, &fits[samples..]);
    // Each bot's likelihood interval, moved onto the anchor's scale: an anchored bot has none
    // of its own; on the mean scale a bot moving by d moves its distance to the mean by
    // d (n - 1) / n.
    let likely: Vec<(f64, f64)> = (0..n)
        .map(|i| {
            let (lo, hi) = likelihood::interval(i, &observed, &fitted);
            let r = fitted.ratings[i];
            match opts.anchor {
                Pin::Bot(b, _) if b == i => (r, r),
                Pin::Bot(..) => (lo, hi),
                Pin::Mean(_) => {
                    let scale = (n - 1) as f64 / n as f64;
                    (r + (lo - r) * scale, r + (hi - r) * scale)
                }
            }
        })
        .collect();
    let r = &fitted.ratings;
    Intervals {
        ratings: (0..n)
            .map(|i| union(union(by_pairs.ratings[i], by_model.ratings[i]), likely[i]))
            .collect(),
        diff: (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| {
                        let boot = union(by_pairs.diff[i][j], by_model.diff[i][j]);
                        if i == j {
                            return boot;
                        }
                        // Either rating moved alone across its likelihood interval.
                        let mine = (likely[i].0 - r[j], likely[i].1 - r[j]);
                        let theirs = (r[i] - likely[j].1, r[i] - likely[j].0);
                        union(union(boot, mine), theirs)
                    })
                    .collect()
            })
            .collect(),
        los: (0..n)
            .map(|i| (0..n).map(|j| superiority(&fits, i, j)).collect())
            .collect(),
        first_move: union(by_pairs.first_move, by_model.first_move),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::rand_core::RngCore;

    /// A uniform draw in [0, 1).
    fn unit(rng: &mut ChaCha8Rng) -> f64 {
        (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Plays a round robin at the `truth` ratings: `pairs` game pairs per pairing, the first
    /// player `advantage` Elo stronger, draws at rate `draws` where the expected score allows.
    fn simulate(
        truth: &[f64],
        advantage: f64,
        draws: f64,
        pairs: u64,
        rng: &mut ChaCha8Rng,
    ) -> Vec<RatedGame> {
        let n = truth.len();
        let mut games = Vec::new();
        let mut pair = 0;
        for a in 0..n {
            for b in a + 1..n {
                for _ in 0..pairs {
                    pair += 1;
                    for (first, second) in [(a, b), (b, a)] {
                        let p = sigmoid(K * (truth[first] - truth[second] + advantage));
                        let d = draws.min(2.0 * p.min(1.0 - p));
                        let u = unit(rng);
                        let score = if u < d {
                            0.5
                        } else if u < d + p - d / 2.0 {
                            1.0
                        } else {
                            0.0
                        };
                        games.push(RatedGame {
                            first,
                            second,
                            score,
                            pair,
                        });
                    }
                }
            }
        }
        games
    }

    /// The intervals depend on the games, not on their order or on their pairs' numbers:
    /// shuffled and renumbered, the same games give the same intervals to the bit.
    #[test]
    fn the_order_of_games_and_the_numbers_of_their_pairs_do_not_matter() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let games = simulate(&[0.0, 50.0, -80.0], 20.0, 0.3, 15, &mut rng);
        let opts = Options::default();
        let ci = intervals(3, &games, &opts, 100, 11);
        let mut other = games.clone();
        for g in &mut other {
            g.pair = 1_000_000 - 7 * g.pair;
        }
        for i in (1..other.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            other.swap(i, j);
        }
        assert_ne!(other, games);
        assert_eq!(intervals(3, &other, &opts, 100, 11), ci);
        // And a different seed draws different resamples.
        assert_ne!(intervals(3, &games, &opts, 100, 12), ci);
    }

    /// 200 simulated round robins (20 game pairs per pairing) of three bots 60 Elo apart and
    /// one 800 Elo below the lowest, rated with bot 0 anchored at 0: each bot's 95% interval,
    /// each pairwise difference's and the advantage's hold the truth in at least 90% of them
    /// (a 95% share over 200 runs falls below 92% once in twenty), and no more than 99.5%
    /// (intervals wide enough to hold it always say too little), except the bottom bot's,
    /// which its games cannot bound from below. The two bootstraps without the likelihood
    /// interval held that bot's truth in none of the 200 runs: the prior pulls its fit a
    /// hundred or more Elo towards the field.
    #[test]
    fn the_intervals_hold_the_truth_95_times_in_100_even_800_elo_below() {
        let truth = [0.0, 60.0, 120.0, -800.0];
        let (n, runs, advantage) = (truth.len(), 200, 30.0);
        let opts = Options {
            anchor: Pin::Bot(0, 0.0),
            ..Options::default()
        };
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut held = vec![0usize; n];
        let mut held_diff = vec![vec![0usize; n]; n];
        let mut held_advantage = 0;
        let mut informative = 0;
        for _ in 0..runs {
            let games = simulate(&truth, advantage, 0.3, 20, &mut rng);
            let ci = intervals(n, &games, &opts, 200, rng.next_u64());
            for i in 0..n {
                let (lo, hi) = ci.ratings[i];
                held[i] += usize::from(lo <= truth[i] && truth[i] <= hi);
                for j in 0..n {
                    let (lo, hi) = ci.diff[i][j];
                    let t = truth[i] - truth[j];
                    held_diff[i][j] += usize::from(lo <= t && t <= hi);
                }
            }
            let (lo, hi) = ci.first_move;
            held_advantage += usize::from(lo <= advantage && advantage <= hi);
            // The bottom bot's interval still says it is far below the rest.
            informative += usize::from(ci.ratings[3].1 < -300.0);
        }
        let share = |k: usize| k as f64 / runs as f64;
        eprintln!("held: bots {held:?}, differences {held_diff:?}, advantage {held_advantage}, informative {informative} of {runs}");
        assert_eq!(held[0], runs, "the anchored bot is exactly at its anchor");
        for (i, &k) in held.iter().enumerate().skip(1) {
            // The bottom bot's games cannot bound it from below: no upper limit on its share.
            let most = if i == 3 { 1.0 } else { 0.995 };
            assert!((0.90..=most).contains(&share(k)), "bot {i}: {}", share(k));
        }
        for (i, row) in held_diff.iter().enumerate() {
            for (j, &k) in row.iter().enumerate().filter(|&(j, _)| j != i) {
                assert!(share(k) >= 0.90, "r{i} - r{j}: {}", share(k));
            }
        }
        assert!(
            (0.90..=0.995).contains(&share(held_advantage)),
            "advantage: {}",
            share(held_advantage)
        );
        assert!(
            share(informative) >= 0.95,
            "bottom bot's upper end: {}",
            share(informative)
        );
    }
}
