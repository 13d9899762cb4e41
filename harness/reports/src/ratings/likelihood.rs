//! Likelihood intervals of one bot's rating from its games alone, without the prior.
//!
//! The prior (virtual draws) keeps a bot that lost every game at a finite rating, but it also
//! pulls that rating towards the field: 800 Elo below the rest, a bot that scored 1 of 100
//! points is fitted a hundred or more Elo too high, and a bootstrap around that fit misses the
//! truth. The likelihood ratio interval asks the games alone which ratings they cannot rule
//! out (at the 95% level, twice the log-likelihood within 3.84 of its best), holding the other
//! ratings and the first-mover advantage at their fitted values. Where the games cannot bound
//! a rating (a bot that lost every game can be any amount weaker) the end is infinite.

use super::{Fit, Tally, K};

/// The 95% point of the chi-squared distribution with one degree of freedom.
const CHI2_95: f64 = 3.841_458_820_694_124;

/// Farther than this from the fit (in Elo), an end counts as unbounded.
const REACH: f64 = 4000.0;

/// The bot's log-likelihood at rating `x`, from its games tallied by seats: draws are half
/// points, as in the fit, so a pairing's games count by their number and total score.
fn log_likelihood(bot: usize, x: f64, games: &Tally, fitted: &Fit) -> f64 {
    let mut ll = 0.0;
    for (&(first, second), &(count, score)) in games {
        let (own, other, score, sign) = if first == bot {
            (x, fitted.ratings[second], score, 1.0)
        } else if second == bot {
            (x, fitted.ratings[first], count - score, -1.0)
        } else {
            continue;
        };
        // ln p and ln(1 - p) for p = sigmoid(z), exact far out in the tails.
        let z = K * (own - other + sign * fitted.first_move);
        let (lp, lq) = (-softplus(-z), -softplus(z));
        ll += score * lp + (count - score) * lq;
    }
    ll
}

/// ln(1 + e^t), without overflow.
fn softplus(t: f64) -> f64 {
    t.max(0.0) + (-t.abs()).exp().ln_1p()
}

/// The point where a monotone `f` crosses zero between `lo` and `hi` (`f(lo) > 0 > f(hi)`
/// or the reverse), by bisection.
fn crossing(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    let rising = f(lo) < 0.0;
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if (f(mid) < 0.0) == rising {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo < 1e-6 {
            break;
        }
    }
    0.5 * (lo + hi)
}

/// The 95% likelihood interval of `bot`'s rating on the scale of `fitted`; an end the games
/// cannot bound is infinite. A bot with no games gets (-inf, inf).
pub fn interval(bot: usize, games: &Tally, fitted: &Fit) -> (f64, f64) {
    let played = games.keys().any(|&(f, s)| f == bot || s == bot);
    if !played {
        return (f64::NEG_INFINITY, f64::INFINITY);
    }
    let ll = |x: f64| log_likelihood(bot, x, games, fitted);
    let centre = fitted.ratings[bot];
    let (far_lo, far_hi) = (centre - REACH, centre + REACH);
    // The best rating: the slope is falling, so bisect on it (it may lie beyond the reach).
    let slope = |x: f64| ll(x + 0.01) - ll(x - 0.01);
    let best = if slope(far_lo) <= 0.0 {
        far_lo
    } else if slope(far_hi) >= 0.0 {
        far_hi
    } else {
        crossing(slope, far_lo, far_hi)
    };
    let top = ll(best);
    let gap = |x: f64| 2.0 * (top - ll(x)) - CHI2_95;
    let low = if gap(far_lo) <= 0.0 {
        f64::NEG_INFINITY
    } else {
        crossing(gap, far_lo, best)
    };
    let high = if gap(far_hi) <= 0.0 {
        f64::INFINITY
    } else {
        crossing(gap, best, far_hi)
    };
    (low, high)
}
