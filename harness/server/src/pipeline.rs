//! The pipeline: every version, one at a time, is unpacked from its pack, built in the
//! sandbox and put through `quads check` under the event's variants, by the same admission
//! `quads tournament` gives its entrants; its verdict (`admitted`, or `failed` with the
//! reason) goes on the version, and the admission's report (entrants.md, the build log) stays
//! in the job's folder for its owner. An admitted version's built copy stays on the ladder's
//! bench while the server runs (a restart builds and checks the active versions again).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use quads_record::files::ENTRANTS_JSON;
use tokio::sync::Notify;

use crate::ladder::{Bench, Ready};
use crate::store::{Job, Store};
use crate::wire::Event;
use crate::ServerConfig;

/// What wakes the pipeline (a new upload) and what it tells of a verdict (waiters).
#[derive(Default)]
pub struct Signals {
    /// A job was queued.
    pub queued: Notify,
    /// A version's status changed, games were played, or the host flipped a switch.
    pub changed: tokio::sync::watch::Sender<u64>,
}

/// The job's folder: `DATA/jobs/ID`.
pub fn folder(config: &ServerConfig, job: i64) -> PathBuf {
    config.data.join("jobs").join(job.to_string())
}

/// Runs jobs as they come, until the server stops; an admitted version goes on the bench
/// and becomes its entrant's active one.
pub async fn run(config: ServerConfig, store: Store, bench: Arc<Bench>, signals: Arc<Signals>) {
    loop {
        match store.claim().await {
            Ok(Some(job)) => {
                signals.changed.send_modify(|n| *n += 1);
                let (status, reason, ready) = check(&config, &job).await;
                let mut done = store.finish(job.id, status, &reason).await;
                if let (Some(ready), true) = (ready, done.is_ok()) {
                    bench.put(job.version_id, ready);
                    done = store.activate(job.version_id).await;
                }
                if let Err(e) = done {
                    eprintln!("quads serve: job {}: {}", job.id, e.message);
                }
                signals.changed.send_modify(|n| *n += 1);
            }
            Ok(None) => signals.queued.notified().await,
            Err(e) => {
                eprintln!(
                    "quads serve: the pipeline cannot claim a job: {}",
                    e.message
                );
                signals.queued.notified().await;
            }
        }
    }
}

/// Builds and checks one version: (`admitted` or `failed`, the reason in one line, the
/// built bot when admitted).
async fn check(config: &ServerConfig, job: &Job) -> (&'static str, String, Option<Ready>) {
    let dir = folder(config, job.id);
    let config = config.clone();
    let job = job.clone();
    let done = tokio::task::spawn_blocking(move || admit(&config, &job, &dir)).await;
    match done {
        Ok(Ok((Some(ready), reason))) => ("admitted", reason, Some(ready)),
        Ok(Ok((None, reason))) => ("failed", reason, None),
        Ok(Err(why)) => {
            eprintln!("quads serve: {why}");
            let why = format!("the server could not check this version: {why}");
            ("failed", why, None)
        }
        Err(e) => ("failed", format!("the check stopped: {e}"), None),
    }
}

/// The admission of one entrant, in a runtime of its own: its bot if admitted, and the reason.
fn admit(config: &ServerConfig, job: &Job, dir: &Path) -> Result<(Option<Ready>, String), String> {
    let pack = crate::http::blob(config, &job.digest);
    admit_pack(&config.event(), &job.entrant, &pack, dir)
}

/// The admission of `entrant` from its pack under the event's rules, in `dir` (emptied first),
/// as the pipeline gives it and a remote worker (crate::remote) repeats it on its machine:
/// its bot if admitted, and the reason.
pub fn admit_pack(
    event: &Event,
    entrant: &str,
    pack: &Path,
    dir: &Path,
) -> Result<(Option<Ready>, String), String> {
    let _ = std::fs::remove_dir_all(dir);
    let entrants = dir.join("entrants");
    let own = entrants.join(entrant);
    std::fs::create_dir_all(&own).map_err(|e| format!("{}: {e}", own.display()))?;
    let bytes = std::fs::read(pack).map_err(|e| format!("{}: {e}", pack.display()))?;
    crate::unpack::unpack(&bytes, &own, &event.limits).map_err(|e| e.to_string())?;
    let out = dir.join("out");
    let text = tournament(event, &entrants, &out);
    let source = dir.join("event.toml");
    std::fs::write(&source, &text).map_err(|e| format!("{}: {e}", source.display()))?;
    let t = quads_tournament::parse_config(&text, &source, &Default::default())
        .map_err(|e| e.to_string())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let admission = runtime
        .block_on(quads_tournament::admit(&t, &entrants, |_| {}))
        .map_err(|e| e.to_string())?;
    let saved =
        quads_tournament::read_verdicts(&out.join(ENTRANTS_JSON)).map_err(|e| e.to_string())?;
    let verdict = saved
        .into_iter()
        .find(|s| s.name == entrant)
        .ok_or_else(|| format!("{ENTRANTS_JSON} does not name {entrant}"))?;
    let shown = verdict.reason.replace(&format!("{}/", dir.display()), "");
    let bot = admission.bots.first().cloned();
    let ready = match (verdict.admitted, bot) {
        (true, Some(bot)) => Some(Ready {
            bot,
            _copy: admission,
        }),
        _ => None,
    };
    Ok((ready, shown))
}

/// The event as a tournament config (docs/tournaments.md) over `entrants`, writing to `out`.
pub fn event(config: &ServerConfig, entrants: &Path, out: &Path) -> String {
    tournament(&config.event(), entrants, out)
}

fn tournament(event: &Event, entrants: &Path, out: &Path) -> String {
    let quote = |s: &str| serde_json::to_string(s).expect("a string");
    let variants: Vec<String> = event.variants.iter().map(|v| quote(v)).collect();
    format!(
        "name = {}\nseed = 1\nout = {}\nentrants = {}\nvariants = [{}]\ntime = {{ movetime = {} }}\n",
        quote(&event.name),
        quote(&out.display().to_string()),
        quote(&entrants.display().to_string()),
        variants.join(", "),
        quote(&event.movetime),
    )
}
