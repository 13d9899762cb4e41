//! A remote worker's calls to the server (crate::wire's types over HTTP, blocking: each slot
//! is a thread of its own). A refusal (4xx) is the worker's mistake and ends it; a server that
//! cannot be reached or answers 5xx is a [`CallError::Unreachable`], which the worker waits
//! out.

use std::io::Read;
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::wire::{Answer, Claim, Claimed, Finish, Held, Hold, LiveNews, News};

/// Why a call failed.
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    /// The server refused it: the token, or the worker's request, is wrong.
    #[error("{url}: the server refused (HTTP {code}): {why}")]
    Refused {
        /// The call.
        url: String,
        /// Its status.
        code: u16,
        /// The server's one line.
        why: String,
    },
    /// Not reached, or it failed on its side: worth trying again.
    #[error("{url}: {why}")]
    Unreachable {
        /// The call.
        url: String,
        /// What failed.
        why: String,
    },
}

/// The server and the worker's token.
#[derive(Clone)]
pub struct Client {
    base: String,
    token: String,
    /// This process's name in its slots' names (crate::wire::Claim::slot).
    label: String,
    agent: ureq::Agent,
}

/// How long one call may take beyond the long poll it asks for.
const SLACK: Duration = Duration::from_secs(30);
/// How long a heartbeat may take: an answer later than this is no use to the lease.
const HEARTBEAT: Duration = Duration::from_secs(5);

impl Client {
    /// A client of `server` (its base URL) with a worker's token.
    pub fn new(server: &str, token: &str) -> Client {
        Client {
            base: server.trim_end_matches('/').to_owned(),
            token: token.to_owned(),
            label: label(),
            agent: ureq::AgentBuilder::new()
                .timeout_connect(Duration::from_secs(10))
                .build(),
        }
    }

    /// Slot `n`'s name.
    pub fn slot(&self, n: u32) -> String {
        format!("{}-{n}", self.label)
    }

    fn post<B: Serialize, T: DeserializeOwned>(
        &self,
        path: &str,
        body: &B,
        timeout: Duration,
    ) -> Result<T, CallError> {
        let url = format!("{}{path}", self.base);
        let answer = self
            .agent
            .post(&url)
            .timeout(timeout)
            .set("Authorization", &format!("Bearer {}", self.token))
            .send_json(body);
        let r = answered(&url, answer)?;
        r.into_json().map_err(|e| CallError::Unreachable {
            url,
            why: format!("an answer that is not the API's: {e}"),
        })
    }

    /// The next work for `slot` (a bot's turn or a match), waiting up to `wait` seconds.
    pub fn claim(&self, slot: u32, wait: u64) -> Result<Claimed, CallError> {
        self.post(
            "/api/worker/claim",
            &Claim {
                slot: self.slot(slot),
                wait,
            },
            Duration::from_secs(wait) + SLACK,
        )
    }

    /// Answers the bot's turn in game `play`: whether it counted.
    pub fn answer(&self, play: &str, answer: &Answer) -> Result<bool, CallError> {
        let h: Held = self.post(&format!("/api/worker/turns/{play}/answer"), answer, SLACK)?;
        Ok(h.held)
    }

    /// Renews the lease: whether the slot still holds the match.
    pub fn heartbeat(&self, id: i64, slot: u32) -> Result<bool, CallError> {
        let h: Held = self.post(
            &format!("/api/worker/matches/{id}/heartbeat"),
            &Hold {
                slot: self.slot(slot),
                reason: None,
            },
            HEARTBEAT,
        )?;
        Ok(h.held)
    }

    /// Tells the server what the slot's match did since the last post (shown live): whether the
    /// slot still holds the match.
    pub fn live(&self, id: i64, slot: u32, news: Vec<News>) -> Result<bool, CallError> {
        let h: Held = self.post(
            &format!("/api/worker/matches/{id}/live"),
            &LiveNews {
                slot: self.slot(slot),
                news,
            },
            HEARTBEAT,
        )?;
        Ok(h.held)
    }

    /// Gives the match up as failed, with the reason.
    pub fn fail(&self, id: i64, slot: u32, reason: &str) -> Result<bool, CallError> {
        let h: Held = self.post(
            &format!("/api/worker/matches/{id}/fail"),
            &Hold {
                slot: self.slot(slot),
                reason: Some(reason.to_owned()),
            },
            SLACK,
        )?;
        Ok(h.held)
    }

    /// Hands in the games: whether they were counted.
    pub fn finish(&self, id: i64, finish: &Finish) -> Result<bool, CallError> {
        let h: Held = self.post(
            &format!("/api/worker/matches/{id}/finish"),
            finish,
            SLACK * 2,
        )?;
        Ok(h.held)
    }

    /// A version's pack, by digest.
    pub fn pack(&self, digest: &str) -> Result<Vec<u8>, CallError> {
        let url = format!("{}/api/worker/packs/{digest}", self.base);
        let answer = self
            .agent
            .get(&url)
            .timeout(SLACK * 4)
            .set("Authorization", &format!("Bearer {}", self.token))
            .call();
        let mut bytes = Vec::new();
        answered(&url, answer)?
            .into_reader()
            .read_to_end(&mut bytes)
            .map_err(|e| CallError::Unreachable {
                url: url.clone(),
                why: e.to_string(),
            })?;
        Ok(bytes)
    }
}

/// The answer, or the error it is.
fn answered(
    url: &str,
    answer: Result<ureq::Response, ureq::Error>,
) -> Result<ureq::Response, CallError> {
    match answer {
        Ok(r) => Ok(r),
        Err(ureq::Error::Status(code, r)) => {
            let why = r
                .into_json::<serde_json::Value>()
                .ok()
                .and_then(|v| v["error"].as_str().map(str::to_owned))
                .unwrap_or_else(|| "no reason given".to_owned());
            let url = url.to_owned();
            if code >= 500 {
                Err(CallError::Unreachable {
                    url,
                    why: format!("HTTP {code}: {why}"),
                })
            } else {
                Err(CallError::Refused { url, code, why })
            }
        }
        // ureq's own text of a failed connection repeats the URL: said once, here.
        Err(ureq::Error::Transport(t)) => Err(CallError::Unreachable {
            url: url.to_owned(),
            why: [
                Some(t.kind().to_string()),
                t.message().map(str::to_owned),
                std::error::Error::source(&t).map(|e| e.to_string()),
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(": "),
        }),
    }
}

/// A name for this process: the machine's (its first 16 letters, digits and `-`) and 8 random
/// hex digits, so that two processes with one token (on one machine or not) differ.
fn label() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    let host: String = host
        .trim()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .take(16)
        .collect();
    let mut random = [0u8; 4];
    let random = match getrandom::fill(&mut random) {
        Ok(()) => crate::secret::hex(&random),
        Err(_) => format!("{:08x}", std::process::id()),
    };
    if host.is_empty() {
        random
    } else {
        format!("{host}-{random}")
    }
}
