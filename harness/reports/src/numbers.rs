//! How the reports write numbers: one place, so that every table says the same thing the same
//! way. A signed figure that rounds to zero is written without a sign (`0.0`, never `-0.0` or
//! `+0.0`), and an infinite one (a head-to-head score of 100 %) as `+inf` or `-inf`.

/// `x` with `decimals` decimals and a sign (`+12.3`, `-4.0`, `0.0`, `+inf`).
pub fn signed(x: f64, decimals: usize) -> String {
    if x.is_infinite() {
        return if x > 0.0 { "+inf" } else { "-inf" }.to_owned();
    }
    let s = format!("{x:+.decimals$}");
    if s[1..].bytes().all(|b| b == b'0' || b == b'.') {
        return s[1..].to_owned();
    }
    s
}

/// `x` with `decimals` decimals, no sign for a positive figure and none for a zero one
/// (`12.3`, `-4.0`, `0.0`, `inf`): the CSV files' way.
pub fn plain(x: f64, decimals: usize) -> String {
    let s = signed(x, decimals);
    s.strip_prefix('+').map_or(s.clone(), str::to_owned)
}

/// The Elo difference that an expected score `s` (0 to 1) stands for, by the logistic model:
/// infinite at 0 and 1.
pub fn elo_of_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The head-to-head Elo of `games` games worth `points` to one side, the squares of their
/// scores summing to `squares`, with its 95 % interval: the normal approximation of the mean
/// score, mapped through [`elo_of_score`] (cutechess-cli's way). A pair that always ends the
/// same way has an interval of one point.
pub fn head_to_head(games: u32, points: f64, squares: f64) -> (f64, f64, f64) {
    let n = f64::from(games.max(1));
    let mean = points / n;
    let variance = (squares / n - mean * mean).max(0.0);
    let half = 1.96 * (variance / n).sqrt();
    (
        elo_of_score(mean),
        elo_of_score(mean - half),
        elo_of_score(mean + half),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_has_no_sign_and_infinity_has_one() {
        assert_eq!(signed(-0.04, 1), "0.0");
        assert_eq!(signed(0.0, 1), "0.0");
        assert_eq!(signed(-0.0, 0), "0");
        assert_eq!(signed(-0.4, 0), "0");
        assert_eq!(signed(-0.6, 0), "-1");
        assert_eq!(signed(51.26, 1), "+51.3");
        assert_eq!(signed(f64::INFINITY, 1), "+inf");
        assert_eq!(plain(-0.04, 1), "0.0");
        assert_eq!(plain(7.25, 2), "7.25");
        assert_eq!(plain(-7.25, 1), "-7.2");
        assert_eq!(plain(f64::NEG_INFINITY, 1), "-inf");
    }

    #[test]
    fn a_head_to_head_score_stands_for_its_logistic_elo() {
        // 3 wins, 1 loss: 75 %, +190.8 Elo; the scores' variance is 0.1875.
        let (elo, low, high) = head_to_head(4, 3.0, 3.0);
        assert_eq!(signed(elo, 1), "+190.8");
        let half = 1.96 * (0.1875f64 / 4.0).sqrt();
        assert_eq!(low, elo_of_score(0.75 - half));
        assert_eq!(high, f64::INFINITY, "0.75 + {half} passes 1");
        // All won: infinite, and the interval with it.
        assert_eq!(
            head_to_head(2, 2.0, 2.0),
            (f64::INFINITY, f64::INFINITY, f64::INFINITY)
        );
        // Even: 0, symmetric.
        let (e, l, h) = head_to_head(2, 1.0, 1.0);
        assert_eq!((e, l), (0.0, -h));
    }
}
