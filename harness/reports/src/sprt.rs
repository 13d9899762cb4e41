//! The sequential probability ratio test over game pairs, as fishtest and fastchess compute it.
//!
//! Each game pair (two games from one opening, seats swapped) scores 0, ½, 1, 1½ or 2 points
//! for the bot under test: five outcomes, the *pentanomial* model. For a hypothesis "the bot's
//! expected score per game is s", the likelihood uses the maximum-likelihood distribution over
//! the five outcomes whose mean is s (the observed frequencies reweighted by a Lagrange
//! multiplier). The log-likelihood ratio of H1 (Elo `elo1`) against H0 (Elo `elo0`) is compared
//! with the bounds ln(β/(1−α)) and ln((1−β)/α). Elo is logistic: s = 1/(1 + 10^(−elo/400)).

/// Pair outcomes for the bot under test: counts of pairs scoring 0, ½, 1, 1½ and 2 points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

/// What the test says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// H1 accepted: the bot is stronger by `elo1`.
    H1,
    /// H0 accepted: it is not.
    H0,
    /// Keep playing.
    Continue,
}

/// The test's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// The probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Points per game (a pair's points / 2) of the five outcomes.
const X: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The expected score per game at `elo`.
pub fn score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo of a score per game (infinite for a perfect score either way).
pub fn elo(score: f64) -> f64 {
    if score >= 1.0 {
        f64::INFINITY
    } else if score <= 0.0 {
        f64::NEG_INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

impl Pentanomial {
    /// Adds a pair in which the bot scored `points` (0, 0.5, 1, 1.5 or 2).
    pub fn add(&mut self, points: f64) {
        let i = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[i] += 1;
    }

    /// The number of pairs.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Observed frequencies; empty outcomes get a small count (1e-3) so that no hypothesis
    /// has zero likelihood, as fishtest regularizes.
    fn frequencies(&self) -> [f64; 5] {
        let counts = self.0.map(|c| if c == 0 { 1e-3 } else { c as f64 });
        let n: f64 = counts.iter().sum();
        counts.map(|c| c / n)
    }

    /// The mean score per game and its standard error.
    pub fn mean(&self) -> (f64, f64) {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return (0.5, 0.0);
        }
        let p = self.0.map(|c| c as f64 / n);
        let mu: f64 = p.iter().zip(X).map(|(p, x)| p * x).sum();
        let var: f64 = p.iter().zip(X).map(|(p, x)| p * (x - mu).powi(2)).sum();
        (mu, (var / n).sqrt())
    }

    /// Elo estimate with a 95% interval, from the mean and its standard error.
    pub fn elo(&self) -> (f64, f64, f64) {
        let (mu, se) = self.mean();
        (elo(mu), elo(mu - 1.96 * se), elo(mu + 1.96 * se))
    }
}

/// The maximum-likelihood distribution on the five outcomes with mean `s`, for observed `p`:
/// `p_i / (1 + λ (x_i − s))` with λ chosen so that the mean is `s`.
fn constrained(p: &[f64; 5], s: f64) -> [f64; 5] {
    // f(λ) = Σ p_i (x_i − s) / (1 + λ (x_i − s)) decreases in λ; its root lies where every
    // denominator is positive: −1/(x_max − s) < λ < 1/(s − x_min).
    let f = |lambda: f64| -> f64 {
        p.iter()
            .zip(X)
            .map(|(p, x)| p * (x - s) / (1.0 + lambda * (x - s)))
            .sum()
    };
    // Bisection never evaluates the ends, so the bracket is the whole open interval: the root
    // can lie very near an end when an outcome was never seen.
    let (mut lo, mut hi) = (-1.0 / (1.0 - s), 1.0 / s);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let lambda = 0.5 * (lo + hi);
    let q = p.iter().zip(X).map(|(p, x)| p / (1.0 + lambda * (x - s)));
    let mut out = [0.0; 5];
    for (o, v) in out.iter_mut().zip(q) {
        *o = v;
    }
    out
}

impl Sprt {
    /// The lower and upper bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for these pairs.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        let n = pairs.pairs() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let p = pairs.frequencies();
        let (q0, q1) = (
            constrained(&p, score(self.elo0)),
            constrained(&p, score(self.elo1)),
        );
        n * p
            .iter()
            .zip(q0.iter().zip(&q1))
            .map(|(p, (a, b))| p * (b / a).ln())
            .sum::<f64>()
    }

    /// Accept, reject, or go on.
    pub fn decide(&self, pairs: &Pentanomial) -> Decision {
        let llr = self.llr(pairs);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Decision::H1
        } else if llr <= lower {
            Decision::H0
        } else {
            Decision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use rand_chacha::rand_core::{RngCore, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6 * b.abs().max(1.0)
    }

    #[test]
    fn bounds_are_the_classic_ones() {
        let t = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = t.bounds();
        assert!(
            close(lo, -2.944_438_979_166_44) && close(hi, 2.944_438_979_166_44),
            "{lo} {hi}"
        );
    }

    const LLR_A: f64 = 0.5878033970061453;
    const LLR_B: f64 = -3.1147833462998484;
    const LLR_C: f64 = 2.8366998282156124;

    #[test]
    fn llr_matches_an_independent_computation() {
        // Values from a separate Python implementation of the same definition
        // (harness/reports/tests/sprt_reference.py).
        let t = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let cases: [([u64; 5], f64); 3] = [
            ([10, 40, 100, 45, 15], LLR_A),
            ([30, 50, 80, 30, 10], LLR_B),
            ([0, 3, 20, 60, 17], LLR_C),
        ];
        for (counts, expected) in cases {
            let got = t.llr(&Pentanomial(counts));
            assert!(close(got, expected), "{counts:?}: {got} vs {expected}");
        }
    }

    #[test]
    fn an_even_score_favours_h0_and_a_strong_one_h1() {
        let t = Sprt {
            elo0: 0.0,
            elo1: 50.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert!(t.llr(&Pentanomial([10, 20, 40, 20, 10])) < 0.0);
        assert!(t.llr(&Pentanomial([2, 10, 30, 40, 18])) > 0.0);
        assert_eq!(t.decide(&Pentanomial::default()), Decision::Continue);
    }

    /// Plays simulated pairs at a true Elo until the test decides.
    fn simulate(t: &Sprt, true_elo: f64, rng: &mut ChaCha8Rng) -> Decision {
        let s = score(true_elo);
        // 30% draws; wins with the probability that keeps the expected score s.
        let win = s - 0.15;
        let mut pairs = Pentanomial::default();
        loop {
            let mut points = 0.0;
            for _ in 0..2 {
                let u = rng.next_u64() as f64 / u64::MAX as f64;
                points += if u < 0.3 {
                    0.5
                } else if u < 0.3 + win {
                    1.0
                } else {
                    0.0
                };
            }
            pairs.add(points);
            match t.decide(&pairs) {
                Decision::Continue => continue,
                d => return d,
            }
        }
    }

    #[test]
    fn simulated_tests_keep_their_error_rates() {
        let t = Sprt {
            elo0: 0.0,
            elo1: 40.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let runs = 400;
        let false_h1 = (0..runs)
            .filter(|_| simulate(&t, 0.0, &mut rng) == Decision::H1)
            .count();
        let false_h0 = (0..runs)
            .filter(|_| simulate(&t, 40.0, &mut rng) == Decision::H0)
            .count();
        // About 5% each, never much more (the binomial spread at 400 runs is about 1.1%).
        assert!(
            false_h1 as f64 / runs as f64 <= 0.08,
            "H1 accepted at elo0 in {false_h1} of {runs}"
        );
        assert!(
            false_h0 as f64 / runs as f64 <= 0.08,
            "H0 accepted at elo1 in {false_h0} of {runs}"
        );
        assert!(
            false_h1 > 0 && false_h0 > 0,
            "the error rates are not zero either: {false_h1} {false_h0}"
        );
    }
}
