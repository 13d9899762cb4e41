//! Word to entrants and the host: a message on each thing they would otherwise come back to
//! look for (a version admitted or failed with its public reason, a bot paused and why, a test
//! match done, the ladder frozen or paused, the final published), sent to each entrant's
//! webhook and the host's as JSON that Discord (`content`) and Slack (`text`) both take, with
//! the event's fields beside. A message is queued in the database ([`tell`]) and sent by one
//! task of the server's ([`run`]), never by a request: each hook has `webhooks.timeout` to
//! answer, a failure is tried again later (1 s, 2 s, 4 s … at most 5 min apart, 10 tries; a
//! redirect or a 4xx but 429 is not tried again), and a hook that never answers holds only its
//! own message. Nothing is sent to an address the
//! config's `webhooks.allow` does not list (checked when it is set and again when it is sent),
//! and no redirect is followed.

use std::time::Duration;

use serde_json::{json, Value};
use tokio::task::JoinSet;

use crate::store::{now_ms, Hook, Store};
use crate::ServerConfig;

/// What happened, for whom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Word {
    /// A version's check ended: admitted, or failed with its public reason.
    Checked {
        entrant: String,
        version: i64,
        admitted: bool,
        reason: String,
    },
    /// A version was paused (a crash streak), and why.
    Paused {
        entrant: String,
        version: i64,
        reason: String,
    },
    /// A test match the entrant asked for is over: its results, its first's first.
    TestMatch {
        entrant: String,
        opponent: String,
        id: i64,
        results: Vec<String>,
    },
    /// The host flipped a switch: `frozen` (uploads refused) or `ladder_paused`.
    Switch { name: &'static str, on: bool },
    /// The final tournament's report is published at `/final`.
    Final,
}

impl Word {
    /// Its kind, as the JSON's `event.kind` says it.
    fn kind(&self) -> &'static str {
        match self {
            Word::Checked { admitted: true, .. } => "version_admitted",
            Word::Checked { .. } => "version_failed",
            Word::Paused { .. } => "version_paused",
            Word::TestMatch { .. } => "test_match_done",
            Word::Switch { .. } => "switch",
            Word::Final => "final_published",
        }
    }

    /// The entrant it is for alone, if it is not for everyone.
    fn entrant(&self) -> Option<&str> {
        match self {
            Word::Checked { entrant, .. }
            | Word::Paused { entrant, .. }
            | Word::TestMatch { entrant, .. } => Some(entrant),
            Word::Switch { .. } | Word::Final => None,
        }
    }

    /// The message in one line.
    fn line(&self, event: &str) -> String {
        match self {
            Word::Checked {
                entrant,
                version,
                admitted: true,
                ..
            } => format!(
                "{event}: {entrant}'s version {version} is admitted and plays on the ladder"
            ),
            Word::Checked {
                entrant,
                version,
                reason,
                ..
            } => format!("{event}: {entrant}'s version {version} failed its check: {reason}"),
            Word::Paused {
                entrant,
                version,
                reason,
            } => format!("{event}: {entrant}'s version {version} is {reason}"),
            Word::TestMatch {
                entrant,
                opponent,
                id,
                results,
            } => format!(
                "{event}: {entrant}'s test match {id} against {opponent} is over: {}",
                results.join(" ")
            ),
            Word::Switch { name, on } => {
                let what = match (*name, on) {
                    ("frozen", true) => "uploads are frozen",
                    ("frozen", false) => "uploads are open again",
                    (_, true) => "the ladder is paused",
                    (_, false) => "the ladder plays again",
                };
                format!("{event}: {what}")
            }
            Word::Final => format!("{event}: the final tournament's report is published at /final"),
        }
    }

    /// The JSON sent: Discord's `content`, Slack's `text`, and the event's own fields.
    fn body(&self, event: &str) -> Value {
        let line = self.line(event);
        let mut fields = match self {
            Word::Checked {
                entrant,
                version,
                reason,
                ..
            } => json!({ "entrant": entrant, "version": version, "reason": reason }),
            Word::Paused {
                entrant,
                version,
                reason,
            } => json!({ "entrant": entrant, "version": version, "reason": reason }),
            Word::TestMatch {
                entrant,
                opponent,
                id,
                results,
            } => {
                json!({ "entrant": entrant, "opponent": opponent, "match": id, "results": results })
            }
            Word::Switch { name, on } => json!({ "switch": name, "on": on }),
            Word::Final => json!({}),
        };
        fields["kind"] = json!(self.kind());
        fields["event"] = json!(event);
        json!({ "content": line, "text": line, "quads": fields })
    }
}

/// Queues `word` for the hooks it is for: its entrant's (or every entrant's, for word to all)
/// and the host's, each only if the config allows it. A queue that fails is logged: the event
/// itself has happened and stands.
pub async fn tell(config: &ServerConfig, store: &Store, word: Word) {
    let hooks = &config.webhooks;
    if hooks.off || hooks.allow.is_empty() {
        return;
    }
    let mut to: Vec<String> = hooks.host.iter().cloned().collect();
    let entrants = match word.entrant() {
        Some(name) => store.webhook(name).await.map(|h| h.into_iter().collect()),
        None => store.webhooks().await,
    };
    match entrants {
        Ok(urls) => to.extend(urls),
        Err(e) => tracing::error!(error = %e, "an entrant's webhook cannot be read"),
    }
    to.retain(|url| hooks.allows(url));
    to.dedup();
    let body = word.body(&config.name).to_string();
    for url in to {
        if let Err(e) = store.queue_hook(&url, &body, now_ms()).await {
            tracing::error!(error = %e, kind = word.kind(), "a webhook's message cannot be queued");
        }
    }
}

/// Messages sent at once, at most.
const AT_ONCE: i64 = 8;
/// Tries of one message, at most.
const TRIES: i64 = 10;
/// The longest pause between two tries.
const LONGEST: Duration = Duration::from_secs(300);
/// How often the sender looks for work when none is due.
const IDLE: Duration = Duration::from_secs(1);
/// The switch that says the final's publication was told.
const FINAL_TOLD: &str = "final_told";

/// Sends the queued messages until the server stops.
pub async fn run(config: ServerConfig, store: Store) {
    // No connection is kept for the next message: one the hook has closed meanwhile would fail
    // a POST, which is not sent again on a fresh one.
    let agent = ureq::AgentBuilder::new()
        .timeout(config.webhooks.timeout())
        .redirects(0)
        .max_idle_connections(0)
        .build();
    // The final's publication, once told, is not looked for again (a read a second otherwise).
    let mut final_told = false;
    loop {
        if !final_told {
            final_told = final_published(&config, &store).await;
        }
        let due = match store.due_hooks(now_ms(), AT_ONCE).await {
            Ok(due) => due,
            Err(e) => {
                tracing::error!(error = %e, "the webhooks' queue cannot be read");
                tokio::time::sleep(IDLE).await;
                continue;
            }
        };
        if due.is_empty() {
            tokio::time::sleep(IDLE).await;
            continue;
        }
        let mut sends = JoinSet::new();
        for hook in due {
            let agent = agent.clone();
            let allowed = config.webhooks.allows(&hook.url);
            sends.spawn_blocking(move || {
                let sent = if allowed {
                    send(&agent, &hook)
                } else {
                    Err(Failed::For(
                        "the event's config does not allow this address".to_owned(),
                    ))
                };
                (hook, sent)
            });
        }
        while let Some(done) = sends.join_next().await {
            let Ok((hook, sent)) = done else { continue };
            let now = now_ms();
            let written = match sent {
                Ok(()) => store.hook_sent(hook.id, now).await,
                Err(failed) => {
                    let tries = hook.tries + 1;
                    let pause = Duration::from_secs(1 << (tries - 1).min(9)).min(LONGEST);
                    let (why, again) = match failed {
                        Failed::For(why) => (why, None),
                        Failed::Now(why) => {
                            (why, (tries < TRIES).then(|| now + pause.as_millis() as i64))
                        }
                    };
                    tracing::warn!(url = %hook.url, tries, error = %why, "a webhook failed");
                    store.hook_failed(hook.id, &why, again, now).await
                }
            };
            if let Err(e) = written {
                tracing::error!(error = %e, "a webhook's outcome cannot be written");
            }
        }
    }
}

/// Why a message was not taken.
enum Failed {
    /// For now (no answer in time, a refused connection, 429 or 5xx): tried again later.
    Now(String),
    /// For good (a redirect, 4xx: a hook removed or never there): not tried again.
    For(String),
}

/// One message to its hook: any 2xx is taken.
fn send(agent: &ureq::Agent, hook: &Hook) -> Result<(), Failed> {
    let code = match agent
        .post(&hook.url)
        .set("Content-Type", "application/json")
        .send_string(&hook.body)
    {
        Ok(r) => r.status(),
        Err(ureq::Error::Status(code, _)) => code,
        Err(e) => return Err(Failed::Now(e.to_string())),
    };
    let why = format!("answered {code}");
    match code {
        200..=299 => Ok(()),
        429 | 500..=599 => Err(Failed::Now(why)),
        _ => Err(Failed::For(why)),
    }
}

/// Tells everyone once the final's report is there (looked for at each round of the sender).
/// Whether it has been told (then it is not looked for again while the server runs).
async fn final_published(config: &ServerConfig, store: &Store) -> bool {
    if !config.final_report().is_file() {
        return false;
    }
    match store.switch(FINAL_TOLD).await {
        Ok(false) => {}
        Ok(true) => return true,
        Err(_) => return false,
    }
    if store.set_switch(FINAL_TOLD, true).await.is_ok() {
        tell(config, store, Word::Final).await;
        return true;
    }
    false
}
