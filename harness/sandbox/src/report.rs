//! The launcher's last word on a box, written on the box's stderr once everything in it is
//! gone: how the command ended, how many processes it left behind, what the kernel counted.
//!
//! The line starts with a secret the referee gave the launcher (a box sees neither the
//! launcher's arguments nor its environment), so a bot cannot forge it, and it is written
//! when no process of the box is left to write after it: it is the stream's last line.

use std::fmt;

/// What the launcher says when a box is gone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoxReport {
    /// The command's wait status, as `waitpid` gave it.
    pub status: i32,
    /// Processes still alive when the command itself ended (killed with the box).
    pub leaked: u32,
    /// Processes the kernel killed at the box's memory limit.
    pub oom_kills: u64,
    /// Forks the kernel refused at the box's process limit.
    pub forks_refused: u64,
}

/// The bytes that start a report: a line break, the secret and a space.
fn marker(nonce: &str) -> String {
    format!("\n{nonce} ")
}

impl BoxReport {
    /// The report as written on stderr.
    pub fn line(&self, nonce: &str) -> String {
        format!(
            "{}status={} leaked={} oom={} refused={}\n",
            marker(nonce),
            self.status,
            self.leaked,
            self.oom_kills,
            self.forks_refused
        )
    }

    /// The last report in `tail` (the end of a stream), with where it starts.
    pub fn find(tail: &[u8], nonce: &str) -> Option<(BoxReport, usize)> {
        let marker = marker(nonce);
        let at = tail
            .windows(marker.len())
            .rposition(|w| w == marker.as_bytes())?;
        let rest = std::str::from_utf8(&tail[at + marker.len()..]).ok()?;
        let mut r = BoxReport::default();
        for pair in rest.trim_end().split(' ') {
            let (k, v) = pair.split_once('=')?;
            match k {
                "status" => r.status = v.parse().ok()?,
                "leaked" => r.leaked = v.parse().ok()?,
                "oom" => r.oom_kills = v.parse().ok()?,
                "refused" => r.forks_refused = v.parse().ok()?,
                _ => return None,
            }
        }
        Some((r, at))
    }
}

impl fmt::Display for BoxReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.line("-").trim())
    }
}

/// A new secret: 16 random bytes in hex.
pub fn nonce() -> String {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    if let Ok(mut f) = std::fs::File::open("/dev/urandom") {
        let _ = f.read_exact(&mut bytes);
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The longest report line, for the tail a reader keeps.
pub const MAX_LINE: usize = 200;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_is_found_at_the_end_and_only_with_its_secret() {
        let r = BoxReport {
            status: 9,
            leaked: 2,
            oom_kills: 1,
            forks_refused: 7,
        };
        let nonce = nonce();
        assert_eq!(nonce.len(), 32);
        let mut stream = b"log line\npartial".to_vec();
        let forged = BoxReport { leaked: 0, ..r }.line("guessed");
        stream.extend_from_slice(forged.as_bytes());
        let start = stream.len();
        stream.extend_from_slice(r.line(&nonce).as_bytes());
        assert!(r.line(&nonce).len() < MAX_LINE);
        assert_eq!(BoxReport::find(&stream, &nonce), Some((r, start)));
        assert_eq!(BoxReport::find(forged.as_bytes(), &nonce), None);
        assert_eq!(BoxReport::find(b"", &nonce), None);
    }
}
