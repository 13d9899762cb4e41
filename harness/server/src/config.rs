//! The server's config, `server.toml`:
//!
//! ```toml
//! name = "spring-cup"                  # the event
//! listen = "127.0.0.1:8080"            # where it listens (port 0: any free port)
//! data = "out/server"                  # its folder: the database, the uploads
//! database = "sqlite://out/server/quads.db"   # default: data/quads.db; or PostgreSQL:
//!                                      # "postgres://quads:PASSWORD@db.example/quads"
//! admin_token = "…"                    # the host's token (keep the file private)
//! signup = "invite"                    # or "open": anyone may sign up
//! variants = ["quads", "classic"]      # what an upload is checked under (default: quads)
//! movetime = "1s"                      # the event's limit per move (the check uses it)
//! workers = 1                          # matches played at once by the server itself
//! turn_workers = 1                     # bots' turns in people's games played at once by the
//!                                      # server itself (0: by remote workers only)
//! checks = 1                           # versions built and checked at once
//! build_timeout = "5m"                 # the most a version's build may take (a bot.toml's
//!                                      # build_timeout may ask for less, never more)
//! crash_streak = 3                     # games in a row lost by faults that pause a bot (0: never)
//! secure_cookies = false               # true behind HTTPS: the pages' cookies are then Secure
//! demo_entrants = "examples/entrants"  # a demo: these bots are signed up and uploaded at start
//! analysis = false                     # judge every move of each match with the exact solver
//! lease = "60s"                        # a worker's hold on a match, renewed by its heartbeat
//! history_every = "60s"                # the leaderboard's history: a fit kept at most this
//!                                      # often, and the last one always ("0s": every fit)
//! guesses = 30                         # wrong tokens an address may send a minute (0: any)
//! play_starts = 30                     # play-page games an address may start a minute (0: any)
//! client_timeout = "20s"               # for a request's headers, and between parts of a body
//! [limits]
//! upload_bytes = 8388608               # the largest upload (8 MiB)
//! unpacked_bytes = 67108864            # what it may unpack to (64 MiB)
//! files = 2000                         # and how many files
//! [webhooks]                           # word to entrants and the host (crate::hooks)
//! allow = ["https://discord.com/api/webhooks/", "https://hooks.slack.com/"]
//!                                      # where a webhook may point (none: no webhooks)
//! host = "https://hooks.slack.com/services/…"   # the host's own (one `allow` lists)
//! timeout = "5s"                       # a hook's time to answer
//! off = false                          # true: nothing is queued or sent
//! [quotas]                             # each entrant's, set by the host
//! uploads_per_hour = 20                # versions uploaded in any hour
//! stored_bytes = 268435456             # its versions' files, unpacked, all told (256 MiB)
//! versions = 100                       # versions kept
//! ```

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::ServerError;

/// Who may sign up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Signup {
    /// With an invite the host made.
    Invite,
    /// Anyone.
    Open,
}

/// The bounds of one upload.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// The request's body, in bytes.
    pub upload_bytes: u64,
    /// The files it unpacks to, in bytes.
    pub unpacked_bytes: u64,
    /// How many files and folders it may hold.
    pub files: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            upload_bytes: 8 << 20,
            unpacked_bytes: 64 << 20,
            files: 2000,
        }
    }
}

/// What each entrant may use of the server, set by the host: more is refused (429 with
/// `Retry-After`, or 413), each bound checked and acted on in one statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Quotas {
    /// Versions uploaded in any hour.
    pub uploads_per_hour: u32,
    /// The entrant's versions' files, unpacked, all told, in bytes.
    pub stored_bytes: u64,
    /// Versions kept.
    pub versions: u32,
}

impl Default for Quotas {
    fn default() -> Quotas {
        Quotas {
            uploads_per_hour: 20,
            stored_bytes: 256 << 20,
            versions: 100,
        }
    }
}

/// Word to entrants and the host by webhook (crate::hooks). Nothing is sent anywhere `allow`
/// does not list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Webhooks {
    /// The beginnings a webhook's address must have, each a scheme, a host and a path that
    /// ends with `/` (`https://discord.com/api/webhooks/`), so a server is not made a way to
    /// reach its own network. None: no webhooks.
    #[serde(default)]
    pub allow: Vec<String>,
    /// The host's own webhook.
    pub host: Option<String>,
    /// How long a hook has to answer (default [`WEBHOOK_TIMEOUT`]).
    timeout: Option<String>,
    /// Nothing is queued or sent (the host turned them off).
    #[serde(default)]
    pub off: bool,
}

/// The longest address a webhook may have.
pub const WEBHOOK_URL_MAX: usize = 2000;

impl Webhooks {
    /// Whether a message may be sent to `url`: webhooks are on and `allow` lists its beginning.
    pub fn allows(&self, url: &str) -> bool {
        !self.off
            && url.len() <= WEBHOOK_URL_MAX
            && !url.chars().any(|c| c.is_whitespace() || c.is_control())
            && self.allow.iter().any(|a| url.starts_with(a.as_str()))
    }

    /// How long a hook has to answer.
    pub fn timeout(&self) -> std::time::Duration {
        let text = self.timeout.as_deref().unwrap_or(WEBHOOK_TIMEOUT);
        quads_referee::parse_duration(text).unwrap_or(std::time::Duration::from_secs(5))
    }

    /// Why the section is wrong, if it is.
    fn check(&self) -> Result<(), String> {
        for a in &self.allow {
            let rest = a
                .strip_prefix("https://")
                .or_else(|| a.strip_prefix("http://"));
            // The host ends at the first `/`: an entry without one would also allow
            // `https://hooks.slack.com.attacker.example/`.
            if !rest.is_some_and(|r| r.find('/').is_some_and(|i| i > 0)) || !a.ends_with('/') {
                return Err(format!(
                    "webhooks.allow `{a}` is not a scheme, host and path ending with / such as https://hooks.slack.com/"
                ));
            }
        }
        if let Some(host) = &self.host {
            if !self.off && !self.allows(host) {
                return Err(format!(
                    "webhooks.host `{host}` is not an address webhooks.allow lists"
                ));
            }
        }
        let timeout = self.timeout.as_deref().unwrap_or(WEBHOOK_TIMEOUT);
        match quads_referee::parse_duration(timeout) {
            Ok(d) if !d.is_zero() => Ok(()),
            _ => Err(format!(
                "webhooks.timeout `{timeout}` is not a duration such as 5s"
            )),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    name: String,
    listen: Option<String>,
    data: PathBuf,
    database: Option<String>,
    admin_token: String,
    signup: Option<Signup>,
    variants: Option<Vec<String>>,
    movetime: Option<String>,
    workers: Option<usize>,
    turn_workers: Option<usize>,
    checks: Option<usize>,
    build_timeout: Option<String>,
    crash_streak: Option<u32>,
    #[serde(default)]
    secure_cookies: bool,
    demo_entrants: Option<PathBuf>,
    #[serde(default)]
    analysis: bool,
    lease: Option<String>,
    history_every: Option<String>,
    guesses: Option<u32>,
    play_starts: Option<u32>,
    client_timeout: Option<String>,
    #[serde(default)]
    limits: Limits,
    #[serde(default)]
    quotas: Quotas,
    #[serde(default)]
    webhooks: Webhooks,
}

/// A checked config.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// The event's name.
    pub name: String,
    /// Where to listen.
    pub listen: SocketAddr,
    /// The server's folder.
    pub data: PathBuf,
    /// The database's URL.
    pub database: String,
    /// The host's token.
    pub admin_token: String,
    /// Who may sign up.
    pub signup: Signup,
    /// The bounds of an upload.
    pub limits: Limits,
    /// What each entrant may use.
    pub quotas: Quotas,
    /// The event's variants.
    pub variants: Vec<quads_rules::Rules>,
    /// The event's limit per move, as written (`1s`).
    pub movetime: String,
    /// How many matches the server plays at once itself.
    pub workers: usize,
    /// How many bots' turns in people's games the server plays at once itself (0: remote
    /// workers play them all).
    pub turn_workers: usize,
    /// How many versions the pipeline builds and checks at once.
    pub checks: usize,
    /// The most a version's build may take, as written (`5m`): the event's, whatever the
    /// version's manifest asks (it may ask for less).
    pub build_timeout: String,
    /// A version that loses this many games in a row by faults of its own is paused (0: never).
    pub crash_streak: u32,
    /// The pages' cookies are marked `Secure` (sent over HTTPS only): for a server behind TLS.
    pub secure_cookies: bool,
    /// A demo's entrants folder: its bots are signed up and uploaded at start (crate::demo).
    pub demo_entrants: Option<PathBuf>,
    /// Every move of each match is judged by the exact solver (as `quads analyze` judges), and
    /// the match's page shows the marks.
    pub analysis: bool,
    /// How long a worker holds a match without a heartbeat, in whole seconds; then the match
    /// is queued again (once).
    pub lease: i64,
    /// The leaderboard's history: a fit kept at most this often (the last one always).
    pub history_every: std::time::Duration,
    /// Wrong tokens an address may send in a minute before its calls with a token are refused
    /// for the rest of it (0: no bound).
    pub guesses: u32,
    /// Games on the play page an address may start in a minute before it is refused for the
    /// rest of it (0: no bound; crate::http::starts).
    pub play_starts: u32,
    /// How long a client may take to send a request's headers, or between two parts of its
    /// body, before its connection is closed (crate::http::accept).
    pub client_timeout: std::time::Duration,
    /// Word to entrants and the host by webhook.
    pub webhooks: Webhooks,
    /// No event: the server serves only the play page and its API (`quads serve` with no
    /// config), with no pipeline, ladder or accounts.
    pub play_only: bool,
}

/// The name a server with no event shows.
pub const PLAY_ONLY_NAME: &str = "Quads Arena";
/// Where a server with no event listens: the loopback, on a port the system gives.
pub const PLAY_ONLY_LISTEN: &str = "127.0.0.1:0";

/// The default address.
pub const LISTEN: &str = "127.0.0.1:8080";
/// The database's file in the data folder, by default.
pub const DATABASE_FILE: &str = "quads.db";
/// The server's own workers, by default.
pub const WORKERS: usize = 1;
/// Bots' turns in people's games played at once by the server itself, by default.
pub const TURN_WORKERS: usize = 1;
/// Checks at once, by default.
pub const CHECKS: usize = 1;
/// A version's build time, at most, by default (as `quads tournament` gives its entrants).
pub const BUILD_TIMEOUT: &str = "5m";
/// Games in a row lost by faults that pause a version, by default.
pub const CRASH_STREAK: u32 = 3;
/// Wrong tokens an address may send in a minute, by default.
pub const GUESSES: u32 = 30;
/// Games on the play page an address may start in a minute, by default.
pub const PLAY_STARTS: u32 = 30;
/// A client's time for a request's headers, and between parts of a body, by default.
pub const CLIENT_TIMEOUT: &str = "20s";
/// A worker's lease, by default.
pub const LEASE: &str = "60s";
/// A webhook's time to answer, by default.
pub const WEBHOOK_TIMEOUT: &str = "5s";
/// How often the leaderboard's history keeps a fit, at most, by default.
pub const HISTORY_EVERY: &str = "60s";
/// The final's Slurm run, in the final's folder: its shards, and their merge in `merged`
/// (configs/slurm/submit.sh's layout).
pub const FINAL_SLURM: &str = "slurm";
/// The fewest characters an admin token may have.
pub const MIN_ADMIN_TOKEN: usize = 16;

impl ServerConfig {
    /// Reads and checks `path`.
    pub fn read(path: &Path) -> Result<ServerConfig, ServerError> {
        let text = std::fs::read_to_string(path).map_err(|source| ServerError::Read {
            path: path.to_owned(),
            source,
        })?;
        ServerConfig::parse(&text, path)
    }

    /// Checks a config given as text; `path` names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<ServerConfig, ServerError> {
        let bad = |why: String| ServerError::Config {
            path: path.to_owned(),
            why,
        };
        let file: File = toml::from_str(text).map_err(|e| bad(e.message().to_owned()))?;
        let listen = file.listen.as_deref().unwrap_or(LISTEN);
        let listen = listen.parse().map_err(|_| {
            bad(format!(
                "listen `{listen}` is not an address such as {LISTEN}"
            ))
        })?;
        if file.admin_token.len() < MIN_ADMIN_TOKEN {
            return Err(bad(format!(
                "admin_token must have {MIN_ADMIN_TOKEN} characters or more"
            )));
        }
        let database = file
            .database
            .unwrap_or_else(|| format!("sqlite://{}", file.data.join(DATABASE_FILE).display()));
        if crate::store::Backend::of(&database).is_none() {
            return Err(bad(format!(
                "database `{}`: give a sqlite: or postgres:// URL",
                crate::store::redacted(&database)
            )));
        }
        let variants = file
            .variants
            .unwrap_or_else(|| vec!["quads".to_owned()])
            .iter()
            .map(|v| v.parse().map_err(|e| bad(format!("variant `{v}`: {e}"))))
            .collect::<Result<Vec<_>, _>>()?;
        if variants.is_empty() {
            return Err(bad("variants must name one variant or more".to_owned()));
        }
        let movetime = file.movetime.unwrap_or_else(|| "1s".to_owned());
        match quads_referee::parse_duration(&movetime) {
            Ok(d) if !d.is_zero() => {}
            _ => {
                return Err(bad(format!(
                    "movetime `{movetime}` is not a duration such as 1s or 200ms"
                )))
            }
        }
        let build_timeout = file
            .build_timeout
            .unwrap_or_else(|| BUILD_TIMEOUT.to_owned());
        match quads_referee::parse_duration(&build_timeout) {
            Ok(d) if !d.is_zero() => {}
            _ => {
                return Err(bad(format!(
                    "build_timeout `{build_timeout}` is not a duration such as 5m or 90s"
                )))
            }
        }
        let checks = file.checks.unwrap_or(CHECKS);
        if checks == 0 {
            return Err(bad(
                "checks must be 1 or more: with 0 no version would ever be checked".to_owned(),
            ));
        }
        let lease = file.lease.unwrap_or_else(|| LEASE.to_owned());
        let lease = match quads_referee::parse_duration(&lease) {
            Ok(d) if d.as_secs() >= 1 && d.subsec_nanos() == 0 => d.as_secs() as i64,
            _ => {
                return Err(bad(format!(
                    "lease `{lease}` is not a whole number of seconds such as 60s"
                )))
            }
        };
        let history_every = file
            .history_every
            .unwrap_or_else(|| HISTORY_EVERY.to_owned());
        let history_every = quads_referee::parse_duration(&history_every).map_err(|_| {
            bad(format!(
                "history_every `{history_every}` is not a duration such as 60s"
            ))
        })?;
        let client_timeout = file
            .client_timeout
            .unwrap_or_else(|| CLIENT_TIMEOUT.to_owned());
        let client_timeout = match quads_referee::parse_duration(&client_timeout) {
            Ok(d) if !d.is_zero() => d,
            _ => {
                return Err(bad(format!(
                    "client_timeout `{client_timeout}` is not a duration such as 20s"
                )))
            }
        };
        file.webhooks.check().map_err(bad)?;
        Ok(ServerConfig {
            webhooks: file.webhooks,
            lease,
            history_every,
            client_timeout,
            guesses: file.guesses.unwrap_or(GUESSES),
            play_starts: file.play_starts.unwrap_or(PLAY_STARTS),
            workers: file.workers.unwrap_or(WORKERS),
            turn_workers: file.turn_workers.unwrap_or(TURN_WORKERS),
            checks,
            build_timeout,
            crash_streak: file.crash_streak.unwrap_or(CRASH_STREAK),
            secure_cookies: file.secure_cookies,
            demo_entrants: file.demo_entrants,
            analysis: file.analysis,
            variants,
            movetime,
            name: file.name,
            listen,
            data: file.data,
            database,
            admin_token: file.admin_token,
            signup: file.signup.unwrap_or(Signup::Invite),
            limits: file.limits,
            quotas: file.quotas,
            play_only: false,
        })
    }

    /// The config of a server with no event: the play page only, its games kept in `data`,
    /// on the loopback at a port the system gives (the server says which when it listens).
    pub fn play_only(data: &Path) -> Result<ServerConfig, ServerError> {
        // Nobody is the host: no page or call takes a token, so it is a secret no one knows.
        let token = crate::secret::new_secret().map_err(|e| ServerError::Config {
            path: data.to_owned(),
            why: format!("no secret for the host's token: {e}"),
        })?;
        let mut table = toml::Table::new();
        table.insert("name".into(), PLAY_ONLY_NAME.into());
        table.insert("listen".into(), PLAY_ONLY_LISTEN.into());
        table.insert("admin_token".into(), token.into());
        table.insert("data".into(), data.display().to_string().into());
        let text = table.to_string();
        let mut config = ServerConfig::parse(&text, data)?;
        config.play_only = true;
        // Only this machine reaches the loopback: its games are its own user's, unbounded.
        config.play_starts = 0;
        Ok(config)
    }

    /// The final tournament's folder: its snapshot, config and runs.
    pub fn final_folder(&self) -> PathBuf {
        self.data.join("final")
    }

    /// The final's report: the one machine's run (`out`, as the snapshot's config says) or the
    /// Slurm shards' merge (`slurm/merged`), whichever was written last.
    pub fn final_report(&self) -> PathBuf {
        let dir = self.final_folder();
        let file = quads_reports::html::REPORT_FILE;
        let candidates = [
            dir.join("out").join(file),
            dir.join(FINAL_SLURM).join("merged").join(file),
        ];
        let written = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        candidates
            .iter()
            .filter_map(|p| Some((written(p)?, p.clone())))
            .max()
            .map_or_else(|| candidates[0].clone(), |(_, p)| p)
    }

    /// The event's rules for building and checking a version (a remote worker gets them too).
    pub fn event(&self) -> crate::wire::Event {
        crate::wire::Event {
            name: self.name.clone(),
            variants: self.variants.iter().map(ToString::to_string).collect(),
            movetime: self.movetime.clone(),
            build_timeout: self.build_timeout.clone(),
            limits: self.limits,
        }
    }

    /// Where uploads are kept, by digest.
    pub fn blobs(&self) -> PathBuf {
        self.data.join("blobs")
    }

    /// Where the upload with this digest is kept (its pack, .tar.gz).
    pub fn blob(&self, digest: &str) -> PathBuf {
        self.blobs().join(format!("{digest}.tar.gz"))
    }

    /// Where uploads are unpacked and checked.
    pub fn staging(&self) -> PathBuf {
        self.data.join("staging")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<ServerConfig, String> {
        ServerConfig::parse(text, Path::new("s.toml")).map_err(|e| e.to_string())
    }

    const BASE: &str = "name = \"cup\"\ndata = \"d\"\nadmin_token = \"0123456789abcdef\"\n";

    /// The server's default build limit is written as text (it is shown as written); it must
    /// say what `quads tournament` gives its entrants.
    #[test]
    fn the_default_build_limit_is_the_tournaments() {
        assert_eq!(
            quads_referee::parse_duration(BUILD_TIMEOUT).ok(),
            Some(quads_tournament::config::BUILD_TIMEOUT)
        );
    }

    #[test]
    fn defaults_and_every_refusal_in_one_line() {
        let c = parse(BASE).unwrap();
        assert_eq!(c.listen.to_string(), LISTEN);
        assert_eq!(c.database, "sqlite://d/quads.db");
        assert_eq!((c.signup, c.movetime.as_str()), (Signup::Invite, "1s"));
        assert_eq!(c.variants, vec![quads_rules::Rules::QUADS]);
        assert_eq!(c.limits, Limits::default());
        assert_eq!(c.quotas, Quotas::default());
        assert_eq!((c.workers, c.crash_streak), (WORKERS, CRASH_STREAK));
        assert!(!c.secure_cookies && !c.analysis && c.demo_entrants.is_none());
        assert_eq!(c.lease, 60);
        assert_eq!(
            (c.checks, c.build_timeout.as_str()),
            (CHECKS, BUILD_TIMEOUT)
        );
        assert_eq!(c.client_timeout, std::time::Duration::from_secs(20));
        let bad = [
            (
                "admin_token = \"short\"",
                "s.toml: admin_token must have 16 characters or more",
            ),
            (
                "listen = \"here\"",
                "s.toml: listen `here` is not an address such as 127.0.0.1:8080",
            ),
            ("variants = [\"quadz\"]", "s.toml: variant `quadz`: "),
            (
                "variants = []",
                "s.toml: variants must name one variant or more",
            ),
            (
                "movetime = \"0s\"",
                "s.toml: movetime `0s` is not a duration such as 1s or 200ms",
            ),
            (
                "database = \"mysql://u:secret@h/db\"",
                "s.toml: database `mysql://u:***@h/db`: give a sqlite: or postgres:// URL",
            ),
            (
                "lease = \"1500ms\"",
                "s.toml: lease `1500ms` is not a whole number of seconds such as 60s",
            ),
            (
                "client_timeout = \"0s\"",
                "s.toml: client_timeout `0s` is not a duration such as 20s",
            ),
            (
                "build_timeout = \"soon\"",
                "s.toml: build_timeout `soon` is not a duration such as 5m or 90s",
            ),
            (
                "checks = 0",
                "s.toml: checks must be 1 or more: with 0 no version would ever be checked",
            ),
            ("colour = 1", "s.toml: unknown field `colour`"),
        ];
        for (line, want) in bad {
            let text = if line.starts_with("admin_token") {
                format!("name = \"cup\"\ndata = \"d\"\n{line}\n")
            } else {
                format!("{BASE}{line}\n")
            };
            let got = parse(&text).unwrap_err();
            assert!(got.starts_with(want), "{line}: {got}");
            assert!(!got.contains('\n'), "{line}: {got}");
        }
    }
}
