//! Ratings: maximum-likelihood Bradley–Terry on the Elo scale, fitted to all games at once.
//!
//! The first player's expected score against the second is `1 / (1 + 10^(-(r_f - r_s + a)/400))`,
//! where `a` is the first-mover advantage, fitted with the ratings. Draws count as half points
//! (the quasi-likelihood Ordo uses). The order of games does not matter. Every pair of bots
//! that met also gets `prior` virtual draws (BayesElo's weak prior), so a bot that won or lost
//! every game still gets a finite rating; and the two seats get `prior` virtual draws of their
//! own, so a first-mover advantage is finite too when the first player won every game (without
//! them the fit ran all its steps towards infinity and printed whatever it had reached, with an
//! interval of ±0). Intervals and the likelihood of superiority come
//! from two seeded bootstraps ([`intervals`]).

use std::collections::BTreeMap;

mod intervals;
mod likelihood;
pub use intervals::{intervals, Intervals};

/// Elo per natural-log unit: `400 / ln 10`.
pub(crate) const K: f64 = std::f64::consts::LN_10 / 400.0;

/// One game for rating: who moved first, the first player's score, and its game pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedGame {
    /// The first player's index.
    pub first: usize,
    /// The second player's index.
    pub second: usize,
    /// The first player's score: 1, 0.5 or 0.
    pub score: f64,
    /// The game pair it belongs to (bootstrap samples whole pairs).
    pub pair: u64,
}

/// Where the fit pins the rating scale: the mean, or one bot (by index) at a rating. A
/// [`quads_record::Anchor`] names its bot; [`crate::report::build`] resolves it to this.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pin {
    /// The mean rating is this.
    Mean(f64),
    /// This bot has this rating.
    Bot(usize, f64),
}

/// Fitting choices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Virtual draws added to every pair of bots that met, and between the seats (when the
    /// first-mover advantage is fitted).
    pub prior: f64,
    /// Fit a first-mover advantage (otherwise it is 0).
    pub first_move: bool,
    /// The anchor.
    pub anchor: Pin,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            prior: 2.0,
            first_move: true,
            anchor: Pin::Mean(0.0),
        }
    }
}

/// Fitted ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// Elo per bot.
    pub ratings: Vec<f64>,
    /// The first-mover advantage in Elo.
    pub first_move: f64,
}

/// Games grouped by (first, second): count and total score of the first player.
pub(crate) type Tally = BTreeMap<(usize, usize), (f64, f64)>;

/// The games of `n` bots tallied (a game against itself, or of a bot beyond `n`, left out).
pub(crate) fn tally(n: usize, games: impl Iterator<Item = RatedGame>) -> Tally {
    let mut t = Tally::new();
    for g in games {
        if g.first < n && g.second < n && g.first != g.second {
            let e = t.entry((g.first, g.second)).or_default();
            e.0 += 1.0;
            e.1 += g.score;
        }
    }
    t
}

pub(crate) fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Solves `m x = b` by Gaussian elimination with partial pivoting (m is small).
fn solve(m: &mut [f64], b: &mut [f64], x: &mut [f64]) {
    // `m` is n×n, row by row; it and `b` are spent, `x` gets the answer.
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&i, &j| m[i * n + col].abs().total_cmp(&m[j * n + col].abs()))
            .unwrap_or(col);
        if pivot != col {
            let (top, bottom) = m.split_at_mut(pivot * n);
            top[col * n..col * n + n].swap_with_slice(&mut bottom[..n]);
        }
        b.swap(col, pivot);
        let p = m[col * n + col];
        if p.abs() < 1e-300 {
            continue;
        }
        for row in col + 1..n {
            let f = m[row * n + col] / p;
            if f != 0.0 {
                let (top, bottom) = m.split_at_mut(row * n);
                for (target, source) in bottom[col..n]
                    .iter_mut()
                    .zip(&top[col * n + col..col * n + n])
                {
                    *target -= f * source;
                }
                b[row] -= f * b[col];
            }
        }
    }
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|k| m[row * n + k] * x[k]).sum();
        x[row] = if m[row * n + row].abs() < 1e-300 {
            0.0
        } else {
            (b[row] - s) / m[row * n + row]
        };
    }
}

/// Fits ratings for `n` bots to `games`.
pub fn fit(n: usize, games: &[RatedGame], opts: &Options) -> Fit {
    fit_tally(n, &tally(n, games.iter().copied()), opts)
}

pub(crate) fn fit_tally(n: usize, tally: &Tally, opts: &Options) -> Fit {
    // Parameters: ratings of bots 1..n (bot 0 is held at 0 during the fit), then the advantage.
    let m = n - 1 + usize::from(opts.first_move);
    let mut met = BTreeMap::new();
    for &(f, s) in tally.keys() {
        met.insert((f.min(s), f.max(s)), ());
    }
    let mut r = vec![0.0; n];
    let mut a = 0.0;
    // Buffers kept across the iterations: a fit of a few bots allocates nothing per step (the
    // intervals refit hundreds of resamples).
    let mut grad = vec![0.0; m];
    let mut hess = vec![0.0; m * m];
    let mut step = vec![0.0; m];
    for _ in 0..100 {
        grad.fill(0.0);
        hess.fill(0.0);
        step.fill(0.0);
        let idx = |bot: usize| bot.checked_sub(1);
        let mut add = |i: usize, j: usize, count: f64, score: f64, adv: bool| {
            // The derivative of the log-likelihood in x = r_i - r_j (+ a).
            let p = sigmoid(K * (r[i] - r[j] + if adv { a } else { 0.0 }));
            let g = K * (score - count * p);
            let h = K * K * count * p * (1.0 - p);
            let mut terms = [(0usize, 0.0f64); 3];
            let mut len = 0;
            if let Some(x) = idx(i) {
                terms[len] = (x, 1.0);
                len += 1;
            }
            if let Some(x) = idx(j) {
                terms[len] = (x, -1.0);
                len += 1;
            }
            if adv && opts.first_move {
                terms[len] = (m - 1, 1.0);
                len += 1;
            }
            let terms = &terms[..len];
            for &(x, sx) in terms {
                grad[x] += sx * g;
                for &(y, sy) in terms {
                    hess[x * m + y] += sx * sy * h;
                }
            }
        };
        for (&(f, s), &(count, score)) in tally {
            add(f, s, count, score, true);
        }
        for &(i, j) in met.keys() {
            add(i, j, opts.prior, opts.prior / 2.0, false);
        }
        if !tally.is_empty() {
            // The seats' virtual draws: bot 0 against itself is the advantage alone (its
            // rating is held at 0), and only when the advantage is fitted.
            add(0, 0, opts.prior, opts.prior / 2.0, true);
        }
        // A whisper of curvature keeps bots that never played (or a lone advantage) solvable.
        for x in 0..m {
            hess[x * m + x] += 1e-9;
        }
        solve(&mut hess, &mut grad, &mut step);
        for bot in 1..n {
            r[bot] += step[bot - 1];
        }
        if opts.first_move {
            a += step[m - 1];
        }
        if step.iter().all(|s| s.abs() < 1e-10) {
            break;
        }
    }
    let shift = match opts.anchor {
        Pin::Mean(c) => c - r.iter().sum::<f64>() / n as f64,
        Pin::Bot(b, c) => c - r[b],
    };
    Fit {
        ratings: r.iter().map(|x| x + shift).collect(),
        first_move: a,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::rand_core::{RngCore, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn game(first: usize, second: usize, score: f64, pair: u64) -> RatedGame {
        RatedGame {
            first,
            second,
            score,
            pair,
        }
    }

    #[test]
    fn three_quarters_is_191_elo() {
        // A scores 3 of 4 against B; no prior, no first-mover term: the expected score 0.75
        // means a difference of 400 log10(3) = 190.85 Elo, split around the mean.
        let games = [
            game(0, 1, 1.0, 1),
            game(1, 0, 0.0, 1),
            game(0, 1, 1.0, 2),
            game(1, 0, 1.0, 2),
        ];
        let opts = Options {
            prior: 0.0,
            first_move: false,
            anchor: Pin::Mean(0.0),
        };
        let f = fit(2, &games, &opts);
        let half = 200.0 * 3f64.log10();
        assert!((f.ratings[0] - half).abs() < 1e-6, "{:?}", f.ratings);
        assert!((f.ratings[1] + half).abs() < 1e-6);
        let anchored = fit(
            2,
            &games,
            &Options {
                anchor: Pin::Bot(1, 1500.0),
                ..opts
            },
        );
        assert!((anchored.ratings[0] - 1500.0 - 2.0 * half).abs() < 1e-6);
    }

    #[test]
    fn the_first_mover_advantage_is_fitted() {
        // Equal bots; the first player scores 3 of 4 from each seat: all of it is the advantage.
        let mut games = Vec::new();
        for p in 0..4 {
            games.push(game(0, 1, if p == 3 { 0.0 } else { 1.0 }, p));
            games.push(game(1, 0, if p == 3 { 0.0 } else { 1.0 }, p));
        }
        let f = fit(
            2,
            &games,
            &Options {
                prior: 0.0,
                ..Options::default()
            },
        );
        assert!(f.ratings[0].abs() < 1e-6);
        assert!(
            (f.first_move - 400.0 * 3f64.log10()).abs() < 1e-6,
            "{}",
            f.first_move
        );
    }

    #[test]
    fn a_perfect_score_gets_a_finite_rating() {
        let games: Vec<RatedGame> = (0..10)
            .map(|p| {
                game(
                    p % 2,
                    1 - p % 2,
                    if p % 2 == 0 { 1.0 } else { 0.0 },
                    p as u64 / 2,
                )
            })
            .collect();
        let f = fit(2, &games, &Options::default());
        assert!(
            f.ratings[0].is_finite() && f.ratings[0] > 200.0,
            "{:?}",
            f.ratings
        );
    }

    #[test]
    fn a_first_mover_that_won_every_game_gets_a_finite_advantage_and_a_real_interval() {
        // Two equal bots; whoever moves first wins, 500 pairs. Without the seats' prior the
        // advantage has no maximum: the fit ran all its steps and printed +4130 Elo ±0.
        let games: Vec<RatedGame> = (0..1000)
            .map(|g| game(g % 2, 1 - g % 2, 1.0, g as u64 / 2))
            .collect();
        let opts = Options::default();
        let f = fit(2, &games, &opts);
        // 1,000 wins and 2 virtual draws: the first player's expected score is 1001/1002.
        let want = 400.0 * 1001f64.log10();
        assert!((f.first_move - want).abs() < 1e-6, "{}", f.first_move);
        assert!(f.ratings.iter().all(|r| r.abs() < 1e-6), "{:?}", f.ratings);
        let ci = intervals(2, &games, &opts, 200, 7);
        let (lo, hi) = ci.first_move;
        assert!(
            lo < f.first_move && f.first_move <= hi && hi - lo > 50.0,
            "{lo} {hi}"
        );
        for &(lo, hi) in &ci.ratings {
            assert!(lo < 0.0 && 0.0 < hi && hi - lo < 400.0, "{:?}", ci.ratings);
        }
    }

    #[test]
    fn simulated_ratings_are_recovered_within_their_intervals() {
        let truth = [0.0, 100.0, 200.0];
        let advantage = 50.0;
        let mut rng = ChaCha8Rng::seed_from_u64(99);
        let mut games = Vec::new();
        let mut pair = 0;
        for _ in 0..300 {
            for (a, b) in [(0, 1), (0, 2), (1, 2)] {
                pair += 1;
                for (f, s) in [(a, b), (b, a)] {
                    let p = sigmoid(K * (truth[f] - truth[s] + advantage));
                    // 20% draws; the rest are won with the probability that keeps the
                    // expected score at p: 0.1 + 0.8 q = p.
                    let q = (p - 0.1) / 0.8;
                    let u = rng.next_u64() as f64 / u64::MAX as f64;
                    let score = if u < 0.2 {
                        0.5
                    } else if (u - 0.2) / 0.8 < q {
                        1.0
                    } else {
                        0.0
                    };
                    games.push(game(f, s, score, pair));
                }
            }
        }
        let opts = Options::default();
        let f = fit(3, &games, &opts);
        let ci = intervals(3, &games, &opts, 200, 7);
        let mean = truth.iter().sum::<f64>() / 3.0;
        for (i, (&t, &(lo, hi))) in truth.iter().zip(&ci.ratings).enumerate() {
            assert!(
                lo <= t - mean && t - mean <= hi,
                "bot {i}: {} not in [{lo}, {hi}] (fit {})",
                t - mean,
                f.ratings[i]
            );
        }
        assert!((f.first_move - advantage).abs() < 40.0, "{}", f.first_move);
        assert!(ci.los[2][0] > 0.99 && ci.los[0][2] < 0.01);
    }

    proptest::proptest! {
        #[test]
        fn the_order_of_games_does_not_matter(scores in proptest::collection::vec(0u8..3, 6..30), seed in 0u64..1000) {
            let games: Vec<RatedGame> = scores
                .iter()
                .enumerate()
                .map(|(i, &s)| game(i % 3, (i + 1 + i / 3) % 3, f64::from(s) / 2.0, i as u64 / 2))
                .filter(|g| g.first != g.second)
                .collect();
            let mut shuffled = games.clone();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for i in (1..shuffled.len()).rev() {
                let j = (rng.next_u64() % (i as u64 + 1)) as usize;
                shuffled.swap(i, j);
            }
            let (a, b) = (fit(3, &games, &Options::default()), fit(3, &shuffled, &Options::default()));
            for (x, y) in a.ratings.iter().zip(&b.ratings) {
                proptest::prop_assert!((x - y).abs() < 1e-9);
            }
        }
    }
}
