//! Time controls as users write them (`60s`, `500ms`, `5m+2s`) and the clocks of a game.

use std::fmt;
use std::time::Duration;

use quads_protocol::TimeControl;
use quads_rules::{ByPlayer, Player};

/// A time limit as a user wrote it that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TimeError {
    /// Not a duration.
    #[error("bad duration `{text}`: {source} (examples: 60s, 500ms, 5m)")]
    BadDuration {
        /// What was written.
        text: String,
        /// Why it is not a duration.
        #[source]
        source: humantime::DurationError,
    },
    /// Neither a limit per move nor a clock.
    #[error("no time control: give a limit per move, a game clock, or both")]
    Missing,
    /// A zero limit.
    #[error("a time limit must be more than zero")]
    Zero,
}

/// Parses a duration such as `60s`, `500ms`, `1m30s`, `5m`.
pub fn parse_duration(text: &str) -> Result<Duration, TimeError> {
    humantime::parse_duration(text.trim()).map_err(|source| TimeError::BadDuration {
        text: text.to_owned(),
        source,
    })
}

/// Parses a game clock, `BASE+INC` or just `BASE`: `5m+2s`, `90s`.
pub fn parse_clock(text: &str) -> Result<(Duration, Duration), TimeError> {
    match text.split_once('+') {
        Some((base, inc)) => Ok((parse_duration(base)?, parse_duration(inc)?)),
        None => Ok((parse_duration(text)?, Duration::ZERO)),
    }
}

/// Builds a time control from the command line's `--movetime` and `--clock`.
pub fn time_control(movetime: Option<&str>, clock: Option<&str>) -> Result<TimeControl, TimeError> {
    let mut tc = TimeControl::default();
    if let Some(m) = movetime {
        tc.movetime = Some(millis(parse_duration(m)?));
    }
    if let Some(c) = clock {
        let (base, inc) = parse_clock(c)?;
        tc.base = Some(millis(base));
        tc.inc = millis(inc);
    }
    if tc.movetime.is_none() && tc.base.is_none() {
        return Err(TimeError::Missing);
    }
    if tc.movetime == Some(0) || tc.base == Some(0) {
        return Err(TimeError::Zero);
    }
    Ok(tc)
}

fn millis(d: Duration) -> u64 {
    d.as_millis().try_into().unwrap_or(u64::MAX)
}

/// A time control as the records and messages print it: `movetime 60000`, `base 300000 inc 2000`.
pub struct Describe<'a>(pub &'a TimeControl);

impl fmt::Display for Describe<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        if let Some(ms) = self.0.movetime {
            write!(f, "movetime {ms}")?;
            sep = " ";
        }
        if let Some(base) = self.0.base {
            write!(f, "{sep}base {base} inc {}", self.0.inc)?;
        }
        Ok(())
    }
}

/// The two clocks of a game, in milliseconds (fractions kept).
#[derive(Clone, Debug)]
pub struct Clocks {
    tc: ByPlayer<TimeControl>,
    left: ByPlayer<f64>,
}

impl Clocks {
    /// Both clocks at their start; each player may have its own time control.
    pub fn new(tc: ByPlayer<TimeControl>) -> Clocks {
        let left = tc.map(|t| t.base.unwrap_or(0) as f64);
        Clocks { tc, left }
    }

    /// The clock of `player`, whole milliseconds, if there is one.
    pub fn left(&self, player: Player) -> Option<u64> {
        self.tc[player]
            .base
            .map(|_| self.left[player].max(0.0) as u64)
    }

    /// The limit for `player`'s next move.
    pub fn limit(&self, player: Player) -> u64 {
        match (self.tc[player].movetime, self.left(player)) {
            (Some(m), Some(c)) => m.min(c),
            (Some(m), None) => m,
            (None, Some(c)) => c,
            (None, None) => u64::MAX,
        }
    }

    /// Charges `player` for a move that took `ms`, then adds the increment.
    pub fn charge(&mut self, player: Player, ms: f64) {
        let tc = self.tc[player];
        if tc.base.is_some() {
            self.left[player] = (self.left[player] - ms).max(0.0) + tc.inc as f64;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse() {
        let tc = time_control(Some("60s"), None).unwrap();
        assert_eq!(
            tc,
            TimeControl {
                movetime: Some(60_000),
                base: None,
                inc: 0
            }
        );
        let tc = time_control(None, Some("5m+2s")).unwrap();
        assert_eq!(
            tc,
            TimeControl {
                movetime: None,
                base: Some(300_000),
                inc: 2000
            }
        );
        let tc = time_control(Some("500ms"), Some("1m")).unwrap();
        assert_eq!(Describe(&tc).to_string(), "movetime 500 base 60000 inc 0");
        assert_eq!(
            time_control(Some("fast"), None).unwrap_err().to_string(),
            "bad duration `fast`: expected number at 0 (examples: 60s, 500ms, 5m)"
        );
        assert!(matches!(time_control(None, None), Err(TimeError::Missing)));
        assert!(matches!(
            time_control(Some("0s"), None),
            Err(TimeError::Zero)
        ));
    }

    #[test]
    fn clocks_charge_then_add_the_increment() {
        let tc = TimeControl {
            movetime: Some(10_000),
            base: Some(5_000),
            inc: 1_000,
        };
        let quick = TimeControl {
            movetime: Some(100),
            base: None,
            inc: 0,
        };
        let mut c = Clocks::new(ByPlayer::from([tc, quick]));
        assert_eq!(c.limit(Player::First), 5_000);
        c.charge(Player::First, 4_500.5);
        assert_eq!(c.left(Player::First), Some(1_499));
        assert_eq!(c.limit(Player::First), 1_499);
        assert_eq!(
            (c.left(Player::Second), c.limit(Player::Second)),
            (None, 100)
        );
    }
}
