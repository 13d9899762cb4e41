//! The pipeline: every version, `checks` at a time in upload order, is unpacked from its pack,
//! built in the sandbox (within the event's `build_timeout`, whatever its manifest asks) and
//! put through `quads check` under the event's variants, by the same admission `quads
//! tournament` gives its entrants; its verdict (`admitted`, or `failed` with the reason in
//! words that quote nothing of the bot's output) goes on the version, and the admission's report (entrants.md, the build log) stays in the job's
//! folder for its owner. A check is stopped, its box ended, when its version is superseded by
//! a newer upload, its entrant disabled or the host cancels it (crate::store::checks): an
//! entrant has at most one version waiting, so no entrant's uploads hold another's back by more
//! than the checks running. An admitted version's built copy stays on the ladder's
//! bench while the server runs (a restart builds and checks the active versions again).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use quads_record::files::ENTRANTS_JSON;
use quads_tournament::{EntrantsEvent, EventTime};
use tokio::sync::Notify;

use crate::hooks;
use crate::ladder::{Bench, Ready};
use crate::signals::Signals;
use crate::store::retry::until_answered;
use crate::store::{Job, Store};
use crate::wire::Event;
use crate::ServerConfig;

/// The job's folder: `DATA/jobs/ID`.
pub fn folder(config: &ServerConfig, job: i64) -> PathBuf {
    config.data.join("jobs").join(job.to_string())
}

/// The name checker `n` of the pipeline claims its jobs under.
fn holder(n: usize) -> String {
    format!("check-{n}")
}

/// Runs jobs as they come as checker `n`, until the server stops; an admitted version goes on
/// the bench and becomes its entrant's active one.
pub async fn run(
    n: usize,
    config: ServerConfig,
    store: Store,
    bench: Arc<Bench>,
    signals: Arc<Signals>,
) {
    let holder = holder(n);
    loop {
        // A database that fails is asked again: jobs may be queued, and no upload may come to
        // wake the pipeline. A claim asked again is given the job it took, if it took one.
        match until_answered("a job's claim", || store.claim(&holder)).await {
            Ok(Some(job)) => {
                signals.bump();
                let stop = signals.stop_of(job.id);
                // A stopped check ends as `failed`, which is not written: its version already
                // says why (superseded, cancelled).
                let (status, reason, ready) = check(&config, &job, stop).await;
                signals.done(job.id);
                if write_verdict(&store, &bench, &job, status, &reason, ready).await {
                    let word = hooks::Word::Checked {
                        entrant: job.entrant.clone(),
                        version: job.version,
                        admitted: status == "admitted",
                        reason: reason.clone(),
                    };
                    hooks::tell(&config, &store, word).await;
                }
                signals.bump();
            }
            Ok(None) => signals.queued.notified().await,
            Err(e) => {
                tracing::error!(error = %e, "the pipeline cannot claim a job");
                signals.queued.notified().await;
            }
        }
    }
}

/// Writes a check's verdict and, when admitted, puts the bot on the bench and makes it its
/// entrant's active version. Each write is tried again while the database fails
/// (crate::store::retry): a verdict is never dropped, which would leave its version `checking`
/// until the server's next start. Both writes may be repeated (`Store::finish` takes its own
/// verdict again as written; making a version active twice is making it active). Whether the
/// verdict was written (a check stopped is not).
async fn write_verdict(
    store: &Store,
    bench: &Bench,
    job: &Job,
    status: &'static str,
    reason: &str,
    ready: Option<Ready>,
) -> bool {
    let mut done =
        until_answered("a check's verdict", || store.finish(job.id, status, reason)).await;
    if let (Some(bot), Ok(true)) = (ready, &done) {
        bench.put(job.version_id, bot);
    }
    if let (Ok(true), "admitted") = (&done, status) {
        done = until_answered("an admitted version", || store.activate(job.version_id))
            .await
            .map(|()| true);
    }
    let written = matches!(done, Ok(true));
    match done {
        Ok(false) => tracing::info!(
            job = job.id,
            entrant = %job.entrant,
            version = job.version,
            "check stopped"
        ),
        Ok(true) => tracing::info!(
            job = job.id,
            entrant = %job.entrant,
            version = job.version,
            status,
            "version checked"
        ),
        Err(e) => tracing::error!(
            job = job.id,
            error = %e,
            "a check's result cannot be written"
        ),
    }
    written
}

/// Builds and checks one version: (`admitted` or `failed`, the reason in one line, the
/// built bot when admitted). Notifying `stop` ends the check and its boxes.
async fn check(
    config: &ServerConfig,
    job: &Job,
    stop: Arc<Notify>,
) -> (&'static str, String, Option<Ready>) {
    let dir = folder(config, job.id);
    let config = config.clone();
    let id = job.id;
    let job = job.clone();
    let done = tokio::task::spawn_blocking(move || admit(&config, &job, &dir, &stop)).await;
    match done {
        Ok(Ok((Some(ready), reason))) => ("admitted", reason, Some(ready)),
        Ok(Ok((None, reason))) => ("failed", reason, None),
        Ok(Err(why)) if why == STOPPED => ("failed", why, None),
        Ok(Err(why)) => {
            tracing::error!(job = id, error = %why, "the server could not check a version");
            let why = format!("the server could not check this version: {why}");
            ("failed", why, None)
        }
        Err(e) => ("failed", format!("the check stopped: {e}"), None),
    }
}

/// The admission of one entrant, in a runtime of its own, until `stop`: its bot if admitted,
/// and the reason.
fn admit(
    config: &ServerConfig,
    job: &Job,
    dir: &Path,
    stop: &Notify,
) -> Result<(Option<Ready>, String), String> {
    let pack = config.blob(&job.digest);
    admit_pack(&config.event(), &job.entrant, &pack, dir, Some(stop))
}

/// The admission of `entrant` from its pack under the event's rules, in `dir` (emptied first),
/// as the pipeline gives it and a remote worker (crate::remote) repeats it on its machine:
/// its bot if admitted, and the reason. Notifying `stop` ends it (its builds' and bots'
/// boxes with it).
pub fn admit_pack(
    event: &Event,
    entrant: &str,
    pack: &Path,
    dir: &Path,
    stop: Option<&Notify>,
) -> Result<(Option<Ready>, String), String> {
    let _ = std::fs::remove_dir_all(dir);
    let entrants = dir.join("entrants");
    let own = entrants.join(entrant);
    std::fs::create_dir_all(&own).map_err(|e| format!("{}: {e}", own.display()))?;
    let bytes = std::fs::read(pack).map_err(|e| format!("{}: {e}", pack.display()))?;
    crate::unpack::unpack(&bytes, &own, &event.limits).map_err(|e| e.to_string())?;
    let out = dir.join("out");
    let t = settings(event, &entrants, &out, None)
        .tournament(Path::new(EVENT))
        .map_err(|e| e.to_string())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let admission = runtime.block_on(async {
        let admit = quads_tournament::admit(&t, &entrants, |_| {});
        match stop {
            Some(stop) => tokio::select! {
                admitted = admit => admitted.map_err(|e| e.to_string()),
                () = stop.notified() => Err(STOPPED.to_owned()),
            },
            None => admit.await.map_err(|e| e.to_string()),
        }
    })?;
    let saved =
        quads_tournament::read_verdicts(&out.join(ENTRANTS_JSON)).map_err(|e| e.to_string())?;
    let verdict = saved
        .into_iter()
        .find(|s| s.name == entrant)
        .ok_or_else(|| format!("{ENTRANTS_JSON} does not name {entrant}"))?;
    // The reason every visitor sees: it quotes nothing the bot wrote (its build's log, its
    // lines, its stderr); the owner's report has the rest.
    let shown = verdict
        .public_reason
        .replace(&format!("{}/", dir.display()), "");
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

/// Why an admission ended early.
const STOPPED: &str = "the check was stopped";

/// What the event's settings are called in their errors.
const EVENT: &str = "the event";

/// The event as a tournament of the entrants in `entrants` (docs/tournaments.md), writing to
/// `out`, with `pairs` game pairs per pairing (the config's default if none).
pub fn settings(event: &Event, entrants: &Path, out: &Path, pairs: Option<u32>) -> EntrantsEvent {
    EntrantsEvent {
        name: event.name.clone(),
        seed: 1,
        out: out.to_owned(),
        entrants: entrants.to_owned(),
        entrants_build_timeout: event.build_timeout.clone(),
        variants: event.variants.clone(),
        pairs,
        time: EventTime {
            movetime: event.movetime.clone(),
        },
    }
}
