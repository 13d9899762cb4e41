//! Before the first game: each entrant is built (its `build` command, once, with a time limit)
//! and run through `quads check` under the event's variants; those that pass are admitted.
//! The verdicts go into `OUT/entrants.md` and `OUT/entrants.json`.
//!
//! On a resumed run (`OUT/entrants.json` exists) nothing is checked again: the admitted list
//! is read back, so that the schedule stays the same, and only the admitted entrants' builds
//! run again (their binaries may be gone).

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use quads_referee::check::{check, render, CheckConfig, ScenarioReport};
use quads_referee::{defaults, BotSpec};

use crate::config::{check_movetime, Tournament};
use crate::entrants::{read_entrants, Entrant, EntrantsError, Listed};
use crate::entrants_report::{self, Verdict};

/// The entrants admitted, in the order of their folders, and a one-line summary.
#[derive(Debug)]
pub struct Admission {
    /// The admitted entrants' bots, to add after the `[[bot]]` bots.
    pub bots: Vec<BotSpec>,
    /// `entrants: 4 admitted, 1 left out (eve: FAIL …)`.
    pub summary: String,
    /// The copies the admitted entrants run from (each its own folder, built): keep it until
    /// the last game has been played.
    pub staging: Option<Staging>,
}

/// The folder of the entrants' copies, removed when dropped. With the sandbox on, each
/// entrant's folder is copied into a box of its own and built there (its build sees its own
/// copy, writable, and nothing else); the bot then runs from that copy.
#[derive(Debug)]
pub struct Staging(tempfile::TempDir);

impl Staging {
    fn new() -> Result<Staging, EntrantsError> {
        tempfile::Builder::new()
            .prefix("quads-entrants-")
            .tempdir()
            .map(Staging)
            .map_err(EntrantsError::Staging)
    }

    /// Where `name`'s copy goes.
    fn folder(&self, name: &str) -> PathBuf {
        self.0.path().join(name)
    }
}

/// The lines of a failed build's log quoted in `entrants.md`.
const LOG_TAIL: usize = 20;
/// The lines of a failed build's log quoted in its one-line reason.
const REASON_TAIL: usize = 3;

/// Builds and checks the entrants of `folder` (or, when `OUT/entrants.json` exists, builds
/// the ones it admitted), writes the reports, and says which are admitted. `progress` gets a
/// line as each build and check starts.
pub async fn admit(
    t: &Tournament,
    folder: &Path,
    mut progress: impl FnMut(&str),
) -> Result<Admission, EntrantsError> {
    let taken: Vec<String> = t.bots.iter().map(|b| b.name.clone()).collect();
    let mut listed = read_entrants(folder, &taken)?;
    for item in &mut listed {
        if let Listed::Entrant(e) = item {
            e.bot.command.sandbox = t.sandbox.clone();
            e.bot.command.ponder = t.entrants_ponder;
        }
    }
    let staging = if t.sandbox.sandbox.is_on() {
        Some(Staging::new()?)
    } else {
        None
    };
    let logs = t.out.join("entrants");
    std::fs::create_dir_all(&logs).map_err(|source| EntrantsError::Create {
        path: logs.clone(),
        source,
    })?;
    let json = t.out.join(quads_record::files::ENTRANTS_JSON);
    if json.exists() {
        return resume(t, &json, listed, staging, &mut progress).await;
    }
    let mut verdicts = Vec::new();
    let mut bots = Vec::new();
    for item in listed {
        let entrant = match item {
            Listed::Rejected(about, reason) => {
                verdicts.push(Verdict::left_out(about, reason));
                continue;
            }
            Listed::Entrant(e) => e,
        };
        let mut entrant = entrant;
        let mut verdict = Verdict::left_out(entrant.about.clone(), String::new());
        if entrant.build.is_some() {
            progress(&format!("entrants: building {}", entrant.about.name));
            verdict.build_log = Some(build_log(&t.out, &entrant.about.name));
        }
        if let Err(failed) = prepare(t, &mut entrant, staging.as_ref()).await {
            verdict.reason = failed.reason;
            verdict.public_reason = failed.public;
            verdict.build_tail = failed.tail;
            verdicts.push(verdict);
            continue;
        }
        progress(&format!("entrants: checking {}", entrant.about.name));
        match check(&check_config(t, &entrant)).await {
            Err(e) => {
                verdict.reason = e.to_string();
                verdict.public_reason = "the bot could not be started".to_owned();
            }
            Ok(reports) => {
                verdict.admitted = quads_referee::check::passed(&reports);
                (verdict.reason, verdict.public_reason) = if verdict.admitted {
                    let summary = render::summary(&reports);
                    (summary.clone(), summary)
                } else {
                    (failure(&reports, false), failure(&reports, true))
                };
                verdict.reports = Some(reports);
            }
        }
        if verdict.admitted {
            bots.push(entrant.bot);
        }
        verdicts.push(verdict);
    }
    entrants_report::write(t, folder, &verdicts)?;
    Ok(Admission {
        bots,
        summary: summary(
            verdicts
                .iter()
                .map(|v| (v.about.name.as_str(), v.admitted, v.reason.as_str())),
        ),
        staging,
    })
}

/// A resumed run: the entrants `entrants.json` admitted, built again, nothing checked.
async fn resume(
    t: &Tournament,
    json: &Path,
    listed: Vec<Listed>,
    staging: Option<Staging>,
    progress: &mut impl FnMut(&str),
) -> Result<Admission, EntrantsError> {
    let saved = entrants_report::read(json)?;
    let mut bots = Vec::new();
    for s in saved.iter().filter(|s| s.admitted) {
        let found = listed
            .iter()
            .find(|l| l.about().name == s.name && l.about().folder == s.folder);
        let entrant = match found {
            Some(Listed::Entrant(e)) => e,
            Some(Listed::Rejected(_, why)) => {
                return Err(EntrantsError::NoLongerUsable {
                    saved: json.to_owned(),
                    name: s.name.clone(),
                    why: why.to_string(),
                    out: t.out.clone(),
                })
            }
            None => {
                return Err(EntrantsError::Gone {
                    saved: json.to_owned(),
                    name: s.name.clone(),
                    folder: s.folder.clone(),
                    out: t.out.clone(),
                })
            }
        };
        let mut entrant = (**entrant).clone();
        if entrant.build.is_some() {
            progress(&format!("entrants: building {}", s.name));
        }
        if let Err(failed) = prepare(t, &mut entrant, staging.as_ref()).await {
            return Err(EntrantsError::NowFails {
                name: s.name.clone(),
                reason: failed.reason,
                out: t.out.clone(),
            });
        }
        bots.push(entrant.bot);
    }
    let line = summary(
        saved
            .iter()
            .map(|s| (s.name.as_str(), s.admitted, s.reason.as_str())),
    );
    Ok(Admission {
        bots,
        summary: format!(
            "{line}; as {} says (a resumed run checks nothing again)",
            json.display()
        ),
        staging,
    })
}

/// What `quads check` runs an entrant with: the event's variants and handshake limit, and
/// the checker's own limit per answer unless the event's is shorter.
fn check_config(t: &Tournament, entrant: &Entrant) -> CheckConfig {
    CheckConfig {
        command: entrant.bot.command.clone(),
        movetime: check_movetime(t),
        handshake: t.handshake_timeout,
        rules: t.variants.clone(),
    }
}

/// The reason an entrant that failed the check is left out: its first failing scenario, with
/// the hint for its author, or (`public`) the kind of failure only, which quotes nothing the
/// bot said or wrote.
fn failure(reports: &[ScenarioReport], public: bool) -> String {
    let failing: Vec<&ScenarioReport> = reports
        .iter()
        .filter(|r| r.failure.is_some() && r.run)
        .collect();
    let Some(first) = failing.first() else {
        return String::new();
    };
    let hint = if public {
        first.failure_kind.as_deref()
    } else {
        first.failure.as_deref()
    };
    let hint = hint.unwrap_or_default();
    let hint = hint.split_whitespace().collect::<Vec<_>>().join(" ");
    let skipped = reports.iter().filter(|r| !r.run).count();
    let more = match (failing.len(), skipped) {
        (_, n) if n > 0 => format!(" (the other {n} scenarios not run)"),
        (1, _) => String::new(),
        (2, _) => " (and 1 more failing scenario)".to_owned(),
        (n, _) => format!(" (and {} more failing scenarios)", n - 1),
    };
    format!("FAIL {}: {hint}{more}", first.name)
}

/// `entrants: 4 admitted, 1 left out (eve: reason)`.
fn summary<'a>(verdicts: impl Iterator<Item = (&'a str, bool, &'a str)>) -> String {
    let (mut admitted, mut out) = (0, Vec::new());
    for (name, ok, reason) in verdicts {
        if ok {
            admitted += 1;
        } else {
            out.push(format!("{name}: {reason}"));
        }
    }
    match out.len() {
        0 => format!("entrants: {admitted} admitted, none left out"),
        n => format!(
            "entrants: {admitted} admitted, {n} left out ({})",
            out.join("; ")
        ),
    }
}

/// Why a build failed: one line, the same quoting nothing of the build's output (for anyone
/// to see), and the log's last lines for the report.
struct BuildFailure {
    reason: String,
    public: String,
    tail: Option<String>,
}

impl BuildFailure {
    /// A failure whose reason quotes nothing of the entrant's output, shown as it is.
    fn plain(reason: String) -> BuildFailure {
        BuildFailure {
            public: reason.clone(),
            reason,
            tail: None,
        }
    }
}

/// Kills a build's process group when dropped: after the build, on its timeout, and when the
/// event is abandoned (Ctrl-C) while it runs.
struct Group(Pid);

impl Drop for Group {
    fn drop(&mut self) {
        let _ = killpg(self.0, Signal::SIGKILL);
    }
}

/// Ends a build's box when dropped while armed: a build whose admission is dropped before it
/// ends (the event abandoned, the server's check stopped) leaves nothing of the box running
/// (the launcher's own end, by `kill_on_drop`, does not reach into the box).
struct Abandoned<'a>(Option<&'a quads_referee::sandbox::BoxHandle>);

impl Drop for Abandoned<'_> {
    fn drop(&mut self) {
        if let Some(handle) = self.0 {
            handle.kill();
        }
    }
}

/// Gets an entrant ready to run: with the sandbox on, its folder copied into its staging
/// folder and built there in a box (or only copied, without a build), the bot then run from
/// the copy; with the sandbox off, built in its own folder. Then its command must name a
/// program of the system or a file of its folder.
async fn prepare(
    t: &Tournament,
    entrant: &mut Entrant,
    staging: Option<&Staging>,
) -> Result<(), BuildFailure> {
    let log = build_log(&t.out, &entrant.about.name);
    let limit = entrant.build_limit(t.entrants_build_timeout);
    match staging {
        Some(staging) => {
            let copy = staging.folder(&entrant.about.name);
            // Without a build the box only copies: its log stays with the copies.
            let log = if entrant.build.is_some() {
                log
            } else {
                staging.folder(&format!(".{}.copy.log", entrant.about.name))
            };
            boxed_build(entrant, limit, &copy, &log).await?;
            entrant.bot.command.dir = Some(copy);
        }
        None => {
            if let Some(command) = entrant.build.clone() {
                build(&command, entrant, limit, &log).await?;
            }
        }
    }
    runs_its_own(entrant)
}

/// Whether the command runs a program of the system or a file of the entrant's folder (as
/// built), and the files it needs are there.
fn runs_its_own(entrant: &Entrant) -> Result<(), BuildFailure> {
    let fail = BuildFailure::plain;
    let folder = entrant
        .bot
        .command
        .folder()
        .map_err(|e| fail(format!("its folder: {e}")))?;
    let argv = &entrant.bot.command.argv;
    let search = std::env::var_os("PATH").unwrap_or_default();
    match quads_referee::sandbox::resolve::find(&argv[0], &folder, &search) {
        Ok(p) if p.admissible() => Ok(()),
        Ok(p) => Err(BuildFailure {
            reason: format!(
                "command `{}` runs {}, which is neither a program of the system nor a file of the entrant's folder",
                argv[0],
                p.path.display()
            ),
            public: "its command runs neither a program of the system nor a file of its folder"
                .to_owned(),
            tail: None,
        }),
        Err(e) => Err(BuildFailure {
            reason: format!("command `{}`: {e}", argv[0]),
            public: "its command cannot be run".to_owned(),
            tail: None,
        }),
    }
}

/// Copies the entrant's folder into `copy` inside a box of build walls, and there runs its
/// build (if any) with `sh -c`: network off, its copy (a tmpfs) writable and nothing else,
/// time, memory and process limits; its stdout and stderr into `log`; everything it started
/// ends with it. The copy comes out only when the build succeeds.
async fn boxed_build(
    entrant: &Entrant,
    limit: Duration,
    copy: &Path,
    log: &Path,
) -> Result<(), BuildFailure> {
    use quads_referee::sandbox::{self, Sandbox, SandboxSpec};
    let fail = BuildFailure::plain;
    std::fs::create_dir(copy)
        .map_err(|e| fail(format!("cannot create {}: {e}", copy.display())))?;
    let spec = SandboxSpec {
        sandbox: Sandbox::build(),
        named: Vec::new(),
    };
    let (walls, _) = sandbox::enforce(&spec).map_err(|e| fail(e.to_string()))?;
    let command = entrant.build.clone().unwrap_or_else(|| "true".to_owned());
    let request = sandbox::Request {
        argv: std::slice::from_ref(&command),
        shell: true,
        folder: copy,
        env: &[],
        walls: &walls,
        work_from: Some(&entrant.about.folder),
    };
    let prepared =
        sandbox::prepare(&request).map_err(|e| fail(format!("build cannot start: {e}")))?;
    if let Some(id) = sandbox::owner(&prepared) {
        let id = Some(nix::unistd::Uid::from_raw(id));
        nix::unistd::chown(copy, id, id.map(|u| nix::unistd::Gid::from_raw(u.as_raw())))
            .map_err(|e| fail(format!("cannot hand {} to the build: {e}", copy.display())))?;
    }
    let file = std::fs::File::create(log)
        .map_err(|e| fail(format!("cannot create {}: {e}", log.display())))?;
    let copy_of = file
        .try_clone()
        .map_err(|e| fail(format!("cannot write {}: {e}", log.display())))?;
    let sandbox::Prepared {
        command: launcher,
        mut handle,
        ..
    } = prepared;
    let mut launcher = tokio::process::Command::from(launcher);
    let mut child = launcher
        .stdin(Stdio::null())
        .stdout(file)
        .stderr(copy_of)
        .process_group(0)
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| fail(format!("build cannot start: {e}")))?;
    let Some(pid) = child.id() else {
        return Err(fail("build ended before it started".into()));
    };
    handle.started(pid);
    let mut abandoned = Abandoned(Some(&handle));
    let waited = tokio::time::timeout(limit, child.wait()).await;
    abandoned.0 = None;
    let status = match waited {
        Ok(Ok(status)) => status,
        Ok(Err(e)) => return Err(fail(format!("build: cannot wait for it: {e}"))),
        Err(_) => {
            handle.kill();
            let _ = child.wait().await;
            let _ = take_report(log, handle.nonce());
            let reason = format!("build took more than {}", defaults::text(limit));
            return Err(BuildFailure {
                public: reason.clone(),
                reason,
                tail: Some(tail(log, LOG_TAIL)),
            });
        }
    };
    let report = take_report(log, handle.nonce());
    if status.success() {
        return Ok(());
    }
    let what = match report {
        Some(r) if r.oom_kills > 0 => format!(
            "reached its memory limit of {}",
            walls
                .memory
                .map_or("?".to_owned(), |m| format!("{} MiB", m >> 20))
        ),
        Some(r) if r.forks_refused > 0 => "reached its process limit".to_owned(),
        _ => exit(status),
    };
    Err(failed_build(&what, log))
}

/// A build that ended badly (`what`: `exit status 3`), with its log's last lines.
fn failed_build(what: &str, log: &Path) -> BuildFailure {
    let quoted = tail(log, REASON_TAIL);
    let quoted = if quoted.is_empty() {
        format!("{} is empty", log.display())
    } else {
        let line = quoted.lines().collect::<Vec<_>>().join(" / ");
        format!("last lines of {}: {line}", log.display())
    };
    BuildFailure {
        reason: format!("build failed: {what} ({quoted})"),
        public: format!("build failed: {what}"),
        tail: Some(tail(log, LOG_TAIL)),
    }
}

/// Takes the sandbox launcher's report (marked by `nonce`) off the end of a build's log.
fn take_report(log: &Path, nonce: &str) -> Option<quads_referee::sandbox::BoxReport> {
    let bytes = std::fs::read(log).ok()?;
    let from = bytes
        .len()
        .saturating_sub(quads_referee::sandbox::report::MAX_LINE * 2);
    let (report, at) = quads_referee::sandbox::BoxReport::find(&bytes[from..], nonce)?;
    let file = std::fs::OpenOptions::new().write(true).open(log).ok()?;
    let _ = file.set_len((from + at) as u64);
    Some(report)
}

/// Runs an entrant's build with `sh -c` in its folder, in a process group of its own, its
/// stdout and stderr into `log` (the sandbox off: no box, no copy).
async fn build(
    command: &str,
    entrant: &Entrant,
    limit: Duration,
    log: &Path,
) -> Result<(), BuildFailure> {
    let fail = BuildFailure::plain;
    let file = std::fs::File::create(log)
        .map_err(|e| fail(format!("cannot create {}: {e}", log.display())))?;
    let copy = file
        .try_clone()
        .map_err(|e| fail(format!("cannot write {}: {e}", log.display())))?;
    let mut child = tokio::process::Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(&entrant.about.folder)
        .stdin(Stdio::null())
        .stdout(file)
        .stderr(copy)
        .process_group(0)
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| fail(format!("build cannot start: {e}")))?;
    let Some(pid) = child.id() else {
        return Err(fail("build ended before it started".into()));
    };
    let _group = Group(Pid::from_raw(pid as i32));
    let status = match tokio::time::timeout(limit, child.wait()).await {
        Ok(Ok(status)) => status,
        Ok(Err(e)) => return Err(fail(format!("build: cannot wait for it: {e}"))),
        Err(_) => {
            drop(_group);
            let _ = child.wait().await;
            let reason = format!("build took more than {}", defaults::text(limit));
            return Err(BuildFailure {
                public: reason.clone(),
                reason,
                tail: Some(tail(log, LOG_TAIL)),
            });
        }
    };
    if status.success() {
        return Ok(());
    }
    Err(failed_build(&exit(status), log))
}

/// `exit status 3`, `killed by signal 9`.
fn exit(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit status {code}"),
        (None, Some(signal)) => format!("killed by signal {signal}"),
        _ => "ended".to_owned(),
    }
}

/// The last `n` non-blank lines of a log, each cut at 200 characters.
fn tail(log: &Path, n: usize) -> String {
    let bytes = std::fs::read(log).unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<String> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.trim_end().chars().take(200).collect())
        .collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// Where an entrant's build writes its output.
pub fn build_log(out: &Path, name: &str) -> PathBuf {
    out.join("entrants").join(format!("{name}.build.log"))
}
