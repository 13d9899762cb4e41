//! The referee's defaults, written once: `quads match`, `quads sprt`, tournament configs and
//! [`Settings::default`](crate::Settings) all take them from here.

use std::time::Duration;

/// The limit per move when neither a limit nor a clock is given (the classic tournament rule).
pub const MOVETIME: Duration = Duration::from_secs(60);
/// Time allowed past each move's limit for scheduling delays.
pub const MARGIN: Duration = Duration::from_millis(50);
/// The limit for a bot's handshake, up to `readyok`.
pub const HANDSHAKE: Duration = Duration::from_secs(10);
/// The limit for a game's set-up (`newgame` … `readyok`).
pub const SETUP: Duration = Duration::from_secs(10);
/// How long a bot is given to exit after `quit`, and again after SIGTERM.
pub const GRACE: Duration = Duration::from_millis(250);
/// How long `quads check` waits for a bot to exit after `quit` before it fails the bot (and
/// again after SIGTERM). Longer than a game's [`GRACE`], which ends a bot without judging it:
/// the check is an admission, and a machine busy with other work may take more than 250 ms
/// to end a process that is exiting (a Python bot's interpreter, in its box). A bot that does
/// not exit at all still fails.
pub const CHECK_QUIT: Duration = Duration::from_secs(2);
/// The most of a bot's stderr kept per game, in bytes.
pub const LOG_CAP: usize = 1 << 20;

/// A duration as a user writes it (`50ms`, `1m`), for help texts.
pub fn text(d: Duration) -> String {
    humantime::format_duration(d).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_texts_read_back_as_the_durations() {
        for d in [MOVETIME, MARGIN, HANDSHAKE, GRACE, CHECK_QUIT] {
            assert_eq!(crate::parse_duration(&text(d)).unwrap(), d);
        }
        assert_eq!(text(MARGIN), "50ms");
        assert_eq!(text(MOVETIME), "1m");
    }
}
