//! A count per address over a one-minute window, and whether an address has used up its
//! limit: what bounds token guessing (crate::http::guesses) and games started on the play page
//! (crate::http::starts).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The window the count is kept over.
const WINDOW: Duration = Duration::from_secs(60);
/// Addresses remembered before the stale ones are forgotten.
const REMEMBERED: usize = 10_000;

/// Events per address (wrong tokens, games started) in its current window.
#[derive(Default)]
pub(crate) struct PerAddress {
    seen: Mutex<HashMap<IpAddr, (Instant, u32)>>,
}

impl PerAddress {
    fn seen(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, (Instant, u32)>> {
        self.seen.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How long `ip` is still refused, if it has used up `limit` in its window.
    pub(crate) fn refused(&self, ip: IpAddr, limit: u32, now: Instant) -> Option<Duration> {
        let seen = self.seen();
        let (start, n) = seen.get(&ip)?;
        let left = (*start + WINDOW).checked_duration_since(now)?;
        (*n >= limit && !left.is_zero()).then_some(left)
    }

    /// One more event from `ip`.
    pub(crate) fn count(&self, ip: IpAddr, now: Instant) {
        let mut seen = self.seen();
        if seen.len() >= REMEMBERED {
            seen.retain(|_, (start, _)| now.duration_since(*start) < WINDOW);
        }
        let entry = seen.entry(ip).or_insert((now, 0));
        if now.duration_since(entry.0) >= WINDOW {
            *entry = (now, 0);
        }
        entry.1 += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_refused_after_its_limit_until_its_minute_is_over() {
        let g = PerAddress::default();
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let t = Instant::now();
        for _ in 0..3 {
            assert_eq!(g.refused(a, 3, t), None);
            g.count(a, t);
        }
        assert_eq!(g.refused(a, 3, t), Some(WINDOW));
        assert_eq!(
            g.refused(a, 3, t + Duration::from_secs(59)),
            Some(Duration::from_secs(1))
        );
        assert_eq!(g.refused(b, 3, t), None);
        assert_eq!(g.refused(a, 3, t + WINDOW), None);
        // A new window starts from nothing.
        g.count(a, t + WINDOW);
        assert_eq!(g.refused(a, 3, t + WINDOW), None);
        assert_eq!(g.seen()[&a], (t + WINDOW, 1));
    }
}
