//! The log of `quads serve` and `quads worker`: tracing's events on stderr, as text or one JSON
//! object a line, at the level the host chooses (`--log`, `--log-format`). The project's crates
//! log at that level; every other crate (the database driver, hyper) at `warn` only.

use std::io::IsTerminal;

use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::prelude::*;

/// How much the log says.
#[derive(Copy, Clone, Debug, Default, clap::ValueEnum)]
pub enum Level {
    Error,
    Warn,
    /// What happened: a version checked, a match played.
    #[default]
    Info,
    /// Also a line per HTTP request (method, path, status, time).
    Debug,
    Trace,
}

/// How each line is written.
#[derive(Copy, Clone, Debug, Default, clap::ValueEnum)]
pub enum Format {
    /// For a person: time, level, message, fields.
    #[default]
    Text,
    /// One JSON object a line, for a log collector.
    Json,
}

/// The flags `quads serve` and `quads worker` share.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// How much the log (stderr) says.
    #[arg(long = "log", value_enum, default_value_t = Level::default())]
    level: Level,
    /// The log's format.
    #[arg(long = "log-format", value_enum, default_value_t = Format::default())]
    format: Format,
}

impl Level {
    fn filter(self) -> LevelFilter {
        match self {
            Level::Error => LevelFilter::ERROR,
            Level::Warn => LevelFilter::WARN,
            Level::Info => LevelFilter::INFO,
            Level::Debug => LevelFilter::DEBUG,
            Level::Trace => LevelFilter::TRACE,
        }
    }
}

/// Starts the log; called once, before the command's work.
pub fn start(args: &Args) -> Result<(), String> {
    let level = args.level.filter();
    // `quads` is a prefix of every crate of the project (quads_server, quads_referee...);
    // tower_http writes the request lines.
    let targets = Targets::new()
        .with_default(LevelFilter::WARN.min(level))
        .with_target("quads", level)
        .with_target("tower_http", level);
    let layer = tracing_subscriber::fmt::layer().with_writer(std::io::stderr);
    let started = match args.format {
        Format::Text => tracing_subscriber::registry()
            .with(
                layer
                    .with_ansi(std::io::stderr().is_terminal())
                    .with_filter(targets),
            )
            .try_init(),
        Format::Json => tracing_subscriber::registry()
            .with(layer.json().with_filter(targets))
            .try_init(),
    };
    started.map_err(|e| format!("cannot start the log: {e}"))
}
