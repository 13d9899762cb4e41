//! Tournament configs and bots files (TOML), checked completely before anything runs.
//!
//! ```toml
//! name = "demo"                 # the event name in reports
//! seed = 2026                   # every random choice flows from it
//! out = "out/demo"              # the output folder
//! concurrency = 2               # games at once (default: the number of cores)
//! format = "round-robin"        # or "gauntlet", with gauntlet = ["bot", ...]
//! pairs = 4                     # game pairs per pairing per variant
//! variants = ["quads", "classic"]
//! keep_alive = true             # reuse bot processes across games
//! openings = { random_moves = 2 }   # or { file = "configs/openings.txt" }
//! time = { movetime = "1s", margin = "50ms" }   # and/or clock = "5m+2s"
//! anchor = { bot = "greedy", elo = 1500 }       # optional; otherwise the mean rating is 0
//! entrants = "examples/entrants"   # optional: a folder of entrants, see [`crate::entrants`]
//! entrants_ponder = false       # entrants think only on their own time (the default)
//! entrants_build_timeout = "5m"  # the most an entrant's build may take, whatever its bot.toml asks
//! analyze = true                # judge every game's endgame moves afterwards (`quads analyze`)
//!
//! [[bot]]
//! name = "greedy"
//! command = "target/release/quads-bot --strategy greedy"
//! time = { movetime = "2s" }    # optional, this bot's own time control
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use quads_protocol::TimeControl;
use quads_record::Anchor;
use quads_referee::check::DEFAULT_MOVETIME;
use quads_referee::sandbox::SandboxSpec;
use quads_referee::{defaults, parse_duration, time_control, BotCommand, BotSpec, TimeError};
use quads_rules::{Position, Rules};

pub(crate) use crate::config_error::one_line;
use crate::config_error::{invalid, within};
pub use crate::config_error::{ConfigError, OpeningProblem, Problem};
use crate::config_file::{
    BotEntry, BotsFile, ConfigFile, FormatName, OpeningsSection, TimeSection,
};

/// SPRT settings of a ladder config: each rung tests "this bot is stronger than the one
/// below by `elo1`" against "by `elo0`".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtSettings {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False acceptance of H1.
    pub alpha: f64,
    /// False acceptance of H0.
    pub beta: f64,
    /// Game pairs at most per rung.
    pub max_pairs: u32,
}

/// How bots are paired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// Every bot against every other.
    RoundRobin,
    /// These bots (by index) against all the others.
    Gauntlet(Vec<usize>),
}

/// Where openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// This many random moves from the start, drawn from the seed, one opening per game pair.
    Random(u32),
    /// Positions from a file, used in turn.
    Listed(Vec<Position>),
}

/// A tournament, checked and ready to schedule.
#[derive(Clone, Debug)]
pub struct Tournament {
    /// The event name.
    pub name: String,
    /// The seed.
    pub seed: u64,
    /// The output folder.
    pub out: PathBuf,
    /// Games at once.
    pub concurrency: usize,
    /// Pairing format.
    pub format: Format,
    /// Game pairs per pairing per variant.
    pub pairs: u32,
    /// The rule variants, each played in full.
    pub variants: Vec<Rules>,
    /// Reuse bot processes across games.
    pub keep_alive: bool,
    /// Whether bots may think on the opponent's time (`ponder = false` stops them).
    pub ponder: bool,
    /// Openings.
    pub openings: Openings,
    /// The bots.
    pub bots: Vec<BotSpec>,
    /// The default time control.
    pub time: TimeControl,
    /// Allowed past each move's limit.
    pub margin: Duration,
    /// The handshake limit.
    pub handshake_timeout: Duration,
    /// Stderr kept per bot per game.
    pub log_cap: usize,
    /// Ratings pin this bot at this Elo (otherwise the mean is 0).
    pub anchor: Option<Anchor>,
    /// SPRT settings (ladder configs).
    pub sprt: Option<SprtSettings>,
    /// A folder of entrants, each built and checked before the first game and, if admitted,
    /// added after the `[[bot]]` bots ([`crate::entrants`]).
    pub entrants: Option<PathBuf>,
    /// Whether the entrants may think on their opponents' time (`entrants_ponder`; not by
    /// default: strangers' bots are stopped whole then).
    pub entrants_ponder: bool,
    /// The most an entrant's build may take (`entrants_build_timeout`): the event's cap on the
    /// `build_timeout` a manifest asks for, and what a manifest that asks nothing gets.
    pub entrants_build_timeout: Duration,
    /// The walls of every bot that does not name its own, the entrants' included.
    pub sandbox: SandboxSpec,
    /// Whether `quads tournament` judges the games with the solver after playing them.
    pub analyze: bool,
}

/// Command-line overrides of a config.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// Replaces `seed`.
    pub seed: Option<u64>,
    /// Replaces `concurrency`.
    pub concurrency: Option<usize>,
    /// Replaces `out`.
    pub out: Option<PathBuf>,
    /// Replaces `pairs`.
    pub pairs: Option<u32>,
    /// Replaces the per-move limit of `time` (a clock, if the config has one, stays).
    pub movetime: Option<Duration>,
}

fn parse_toml<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_owned(),
        source,
    })?;
    parse_toml_text(&text, path)
}

/// Parses TOML `text`, naming `path` (and the line) in an error.
fn parse_toml_text<T: serde::de::DeserializeOwned>(
    text: &str,
    path: &Path,
) -> Result<T, ConfigError> {
    toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_of(text, s.start));
        ConfigError::Syntax {
            path: path.to_owned(),
            line,
            message: one_line(e.message()),
        }
    })
}

/// The line (from 1) holding byte `offset` of `text`: one more than the line breaks before it.
pub(crate) fn line_of(text: &str, offset: usize) -> usize {
    1 + text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

/// Bot options as the protocol sends them: strings as they are, other values as TOML writes
/// them.
pub(crate) fn option_texts(options: BTreeMap<String, toml::Value>) -> Vec<(String, String)> {
    options
        .into_iter()
        .map(|(k, v)| match v {
            toml::Value::String(s) => (k, s),
            other => (k, other.to_string()),
        })
        .collect()
}

fn time_section(
    t: &TimeSection,
    default_movetime: Option<&str>,
) -> Result<TimeControl, ConfigError> {
    let movetime = match (&t.movetime, &t.clock) {
        (None, None) => default_movetime,
        (m, _) => m.as_deref(),
    };
    Ok(time_control(movetime, t.clock.as_deref())?)
}

/// The duration written, or `default` when none is.
fn duration_or(text: Option<&str>, default: Duration) -> Result<Duration, TimeError> {
    text.map_or(Ok(default), parse_duration)
}

/// How long a build may take when neither the manifest nor the event says: the event's
/// `entrants_build_timeout` by default.
pub const BUILD_TIMEOUT: Duration = Duration::from_secs(5 * 60);

/// The checker's limit per answer ([`DEFAULT_MOVETIME`]), or the event's when it is shorter.
pub(crate) fn check_movetime(t: &Tournament) -> Duration {
    t.time
        .movetime
        .map(Duration::from_millis)
        .map_or(DEFAULT_MOVETIME, |m| m.min(DEFAULT_MOVETIME))
}

/// A bot command from one string: split like a shell would, or kept whole for `sh -c`.
pub fn command(text: &str, shell: bool, dir: Option<PathBuf>) -> Result<BotCommand, ConfigError> {
    let argv = if shell {
        vec![text.to_owned()]
    } else {
        shlex::split(text).ok_or_else(|| ConfigError::Unsplittable(one_line(text)))?
    };
    if argv.is_empty() || argv[0].is_empty() {
        return Err(ConfigError::EmptyCommand);
    }
    Ok(BotCommand {
        argv,
        shell,
        dir,
        env: Vec::new(),
        sandbox: SandboxSpec::default(),
        ponder: true,
    })
}

/// A sandbox spec from a config, or the default.
fn sandbox_spec(
    text: Option<&str>,
    default: &SandboxSpec,
    path: &Path,
) -> Result<SandboxSpec, ConfigError> {
    match text {
        None => Ok(default.clone()),
        Some(t) => t.parse().map_err(|source| ConfigError::Sandbox {
            path: path.to_owned(),
            source,
        }),
    }
}

fn bot_specs(
    entries: Vec<BotEntry>,
    path: &Path,
    sandbox: &SandboxSpec,
) -> Result<Vec<BotSpec>, ConfigError> {
    let mut bots: Vec<BotSpec> = Vec::new();
    for entry in entries {
        if bots.iter().any(|b| b.name == entry.name) {
            return Err(invalid(path, Problem::NamedTwice(one_line(&entry.name))));
        }
        let options = option_texts(entry.options);
        let in_bot = |source: ConfigError| ConfigError::Bot {
            path: path.to_owned(),
            bot: one_line(&entry.name),
            source: Box::new(source),
        };
        let time = match &entry.time {
            Some(t) => Some(time_section(t, None).map_err(in_bot)?),
            None => None,
        };
        let mut bot_command =
            command(&entry.command, entry.shell, entry.dir.clone()).map_err(in_bot)?;
        bot_command.sandbox = sandbox_spec(entry.sandbox.as_deref(), sandbox, path)?;
        bot_command.env = entry.env.into_iter().collect();
        bot_command.ponder = entry.ponder.unwrap_or(true);
        bots.push(BotSpec {
            command: bot_command,
            name: entry.name,
            options,
            time,
        });
    }
    Ok(bots)
}

/// The bots a bots file names.
pub fn read_bots_file(path: &Path) -> Result<Vec<BotSpec>, ConfigError> {
    let file: BotsFile = parse_toml(path)?;
    bot_specs(file.bot, path, &SandboxSpec::default())
}

/// The number of cores, for the default concurrency.
pub fn cores() -> usize {
    std::thread::available_parallelism()
        .map(usize::from)
        .unwrap_or(1)
}

/// Reads and checks a tournament config.
pub fn read_config(path: &Path, overrides: &Overrides) -> Result<Tournament, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_owned(),
        source,
    })?;
    parse_config(&text, path, overrides)
}

/// Checks a tournament config given as text (say, received over HTTP); `source` names it in
/// errors, as a file's path would. Paths in it are relative to the current folder, as a
/// file's are.
pub fn parse_config(
    text: &str,
    source: &Path,
    overrides: &Overrides,
) -> Result<Tournament, ConfigError> {
    let file: ConfigFile = parse_toml_text(text, source)?;
    check_file(file, source, overrides)
}

/// Checks a config as serde read it (or as typed settings made it: crate::event); `path`
/// names it in errors.
pub(crate) fn check_file(
    file: ConfigFile,
    path: &Path,
    overrides: &Overrides,
) -> Result<Tournament, ConfigError> {
    let at = |problem: Problem| invalid(path, problem);
    let sandbox = sandbox_spec(file.sandbox.as_deref(), &SandboxSpec::default(), path)?;
    let bots = bot_specs(file.bot, path, &sandbox)?;
    // With entrants, the count is checked once they are admitted.
    if bots.len() < 2 && file.entrants.is_none() {
        return Err(at(Problem::TooFewBots(bots.len())));
    }
    let index = |name: &str| {
        bots.iter()
            .position(|b| b.name == name)
            .ok_or_else(|| at(Problem::UnknownGauntletBot(one_line(name))))
    };
    let format = match file.format.unwrap_or(FormatName::RoundRobin) {
        FormatName::RoundRobin if !file.gauntlet.is_empty() => {
            return Err(at(Problem::GauntletInRoundRobin))
        }
        FormatName::RoundRobin => Format::RoundRobin,
        FormatName::Gauntlet => {
            let chosen = file
                .gauntlet
                .iter()
                .map(|n| index(n))
                .collect::<Result<Vec<_>, _>>()?;
            if chosen.is_empty() || (chosen.len() == bots.len() && file.entrants.is_none()) {
                return Err(at(Problem::GauntletSize));
            }
            Format::Gauntlet(chosen)
        }
    };
    let variants = file
        .variants
        .unwrap_or_else(|| vec!["quads".to_owned()])
        .iter()
        .map(|v| {
            v.parse::<Rules>().map_err(|source| {
                at(Problem::Variant {
                    spec: one_line(v),
                    source,
                })
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    if variants.is_empty() {
        return Err(at(Problem::NoVariants));
    }
    let anchor = match file.anchor {
        Some(a) => {
            index(&a.bot).map_err(|_| at(Problem::UnknownAnchor(one_line(&a.bot))))?;
            Some(a)
        }
        None => None,
    };
    let sprt = match file.sprt {
        Some(x) => {
            let settings = SprtSettings {
                elo0: x.elo0,
                elo1: x.elo1,
                alpha: x.alpha.unwrap_or(0.05),
                beta: x.beta.unwrap_or(0.05),
                max_pairs: x.max_pairs.unwrap_or(1000),
            };
            check_sprt(&settings).map_err(|e| within(path, e))?;
            Some(settings)
        }
        None => None,
    };
    let openings = match file.openings.unwrap_or_default() {
        OpeningsSection {
            random_moves: Some(_),
            file: Some(_),
        } => return Err(at(Problem::OpeningsBoth)),
        OpeningsSection { file: Some(f), .. } => {
            Openings::Listed(read_openings(&f, &variants).map_err(|e| within(path, e))?)
        }
        OpeningsSection { random_moves, .. } => Openings::Random(random_moves.unwrap_or(0)),
    };
    let time = file.time.unwrap_or_default();
    if let Some(folder) = &file.entrants {
        if !folder.is_dir() {
            return Err(at(Problem::NoEntrantsFolder(one_line(
                &folder.display().to_string(),
            ))));
        }
    }
    let mut event_time = time_section(&time, Some(&defaults::text(defaults::MOVETIME)))
        .map_err(|e| within(path, e))?;
    if let Some(movetime) = overrides.movetime {
        event_time.movetime = Some(movetime.as_millis().try_into().unwrap_or(u64::MAX).max(1));
    }
    let pairs = overrides.pairs.or(file.pairs).unwrap_or(1);
    let concurrency = overrides
        .concurrency
        .or(file.concurrency)
        .unwrap_or_else(cores);
    if pairs == 0 || concurrency == 0 {
        return Err(at(Problem::ZeroPairs));
    }
    let name = file.name.unwrap_or_else(|| {
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "tournament".into())
    });
    Ok(Tournament {
        out: overrides
            .out
            .clone()
            .or(file.out)
            .unwrap_or_else(|| PathBuf::from("out").join(&name)),
        name,
        seed: overrides.seed.or(file.seed).unwrap_or(1),
        concurrency,
        format,
        pairs,
        variants,
        keep_alive: file.keep_alive.unwrap_or(true),
        ponder: file.ponder.unwrap_or(true),
        openings,
        time: event_time,
        margin: duration_or(time.margin.as_deref(), defaults::MARGIN)
            .map_err(|e| within(path, e))?,
        handshake_timeout: duration_or(file.handshake_timeout.as_deref(), defaults::HANDSHAKE)
            .map_err(|e| within(path, e))?,
        log_cap: file.log_cap.unwrap_or(defaults::LOG_CAP),
        anchor,
        sprt,
        entrants: file.entrants,
        entrants_ponder: file.entrants_ponder.unwrap_or(false),
        entrants_build_timeout: duration_or(file.entrants_build_timeout.as_deref(), BUILD_TIMEOUT)
            .map_err(|e| within(path, e))?,
        sandbox,
        analyze: file.analyze.unwrap_or(false),
        bots,
    })
}

/// An openings file: one position per line in the project's notation; `#` starts a comment.
fn read_openings(path: &Path, variants: &[Rules]) -> Result<Vec<Position>, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::ReadOpenings {
        path: path.to_owned(),
        source,
    })?;
    let mut positions = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let opening = |problem: OpeningProblem| ConfigError::Opening {
            path: path.to_owned(),
            line: i + 1,
            problem,
        };
        let pos: Position = line
            .parse()
            .map_err(|e| opening(OpeningProblem::Parse(e)))?;
        for rules in variants {
            pos.check(rules)
                .map_err(|why| opening(OpeningProblem::Impossible { rules: *rules, why }))?;
            if pos.outcome(rules).is_some() {
                return Err(opening(OpeningProblem::Over(*rules)));
            }
        }
        positions.push(pos);
    }
    if positions.is_empty() {
        return Err(ConfigError::NoOpenings(path.to_owned()));
    }
    Ok(positions)
}

/// Checks SPRT settings: elo0 below elo1, error rates strictly between 0 and 1/2.
pub fn check_sprt(s: &SprtSettings) -> Result<(), ConfigError> {
    if s.elo0.partial_cmp(&s.elo1) != Some(std::cmp::Ordering::Less) {
        return Err(ConfigError::SprtBounds {
            elo0: s.elo0,
            elo1: s.elo1,
        });
    }
    for (name, v) in [("alpha", s.alpha), ("beta", s.beta)] {
        if !(v > 0.0 && v < 0.5) {
            return Err(ConfigError::SprtRate { name, value: v });
        }
    }
    if s.max_pairs == 0 {
        return Err(ConfigError::SprtPairs);
    }
    Ok(())
}
