//! `quads match`: N games between two bots.

use std::path::PathBuf;
use std::time::Duration;

use quads_referee::{
    defaults, parse_duration, time_control, BotEntry, BotSpec, MatchConfig, Settings,
};
use quads_rules::{ByPlayer, Rules};

use crate::bots_file;

/// Arguments of `quads match`.
#[derive(clap::Args)]
pub struct Args {
    /// A bot: a name from the bots file, or a command line. Give exactly two.
    #[arg(long = "bot", value_name = "CMD")]
    bots: Vec<String>,
    /// Run bot command lines through `sh -c`.
    #[arg(long)]
    shell: bool,
    /// The bots file that names bots [default: configs/bots.toml, if it exists].
    #[arg(long, value_name = "FILE")]
    bots_file: Option<PathBuf>,
    /// The rules spec.
    #[arg(long, default_value = "quads", value_parser = crate::args::parse_rules)]
    rules: Rules,
    /// The limit per move, e.g. 60s, 500ms [default: 60s when no --clock].
    #[arg(long, value_name = "DURATION")]
    movetime: Option<String>,
    /// A game clock, base plus increment per move, e.g. 5m+2s.
    #[arg(long, value_name = "BASE+INC")]
    clock: Option<String>,
    /// How many games; the bots alternate moving first.
    #[arg(long, default_value_t = 2)]
    games: u32,
    /// The match seed; each game's seed is drawn from it.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The folder for games.jsonl and logs/.
    #[arg(long, default_value = "out/match")]
    out: PathBuf,
    /// Keep bots running across games (a bot that failed is restarted).
    #[arg(long)]
    keep_alive: bool,
    /// Time allowed past each move's limit for scheduling delays.
    #[arg(long, default_value_t = defaults::text(defaults::MARGIN), value_name = "DURATION")]
    margin: String,
    /// The limit for a bot's handshake.
    #[arg(long, default_value_t = defaults::text(defaults::HANDSHAKE), value_name = "DURATION")]
    handshake_timeout: String,
    /// The most of a bot's stderr kept per game, in bytes.
    #[arg(long, default_value_t = defaults::LOG_CAP)]
    log_cap: usize,
    /// Print only the summary.
    #[arg(long, short)]
    quiet: bool,
    /// Stop each bot (SIGSTOP) while its opponent thinks, so it cannot take CPU from it.
    #[arg(long)]
    no_ponder: bool,
    #[command(flatten)]
    sandbox: crate::sandbox_cmd::Flag,
    #[command(flatten)]
    dirs: bots_file::Dirs,
}

pub fn run(args: &Args) -> Result<(), String> {
    let mut bots = bots_file::two_bots(&args.bots, args.bots_file.as_deref(), args.shell)?;
    args.dirs
        .apply(&args.bots, &mut bots, args.bots_file.as_deref())?;
    args.sandbox
        .apply(bots.iter_mut().map(|b| &mut b.command))?;
    let default_movetime = defaults::text(defaults::MOVETIME);
    let movetime = match (&args.movetime, &args.clock) {
        (None, None) => Some(default_movetime.as_str()),
        (m, _) => m.as_deref(),
    };
    let settings = Settings {
        rules: args.rules,
        time: time_control(movetime, args.clock.as_deref()).map_err(|e| e.to_string())?,
        margin: parse_duration(&args.margin).map_err(|e| e.to_string())?,
        handshake_timeout: parse_duration(&args.handshake_timeout).map_err(|e| e.to_string())?,
        log_cap: args.log_cap,
        ponder: !args.no_ponder,
        ..Settings::default()
    };
    let config = MatchConfig {
        bots: bots.into(),
        settings,
        games: args.games,
        seed: args.seed,
        keep_alive: args.keep_alive,
        out: args.out.clone(),
    };
    let started = std::time::Instant::now();
    let mut moves = 0usize;
    let games = config.games;
    let quiet = args.quiet;
    // A bot given as a command line is shown by the name it gave in its handshake.
    let mut shown: ByPlayer<String> = config.bots.clone().map(|b| b.name);
    let played = quads_results::matches::play_match(&config, |r| {
        moves += r.moves.len();
        for entry in [&r.first, &r.second] {
            let bot = config.bots.iter().find(|(_, b)| b.name == entry.name);
            if let (Some((p, _)), Some(id)) = (bot, &entry.id) {
                if entry.name == entry.command {
                    shown[p].clone_from(id);
                }
            }
        }
        let names = distinct(&shown, &config.bots);
        let name = |entry: &BotEntry| {
            config
                .bots
                .iter()
                .find(|(_, b)| b.name == entry.name)
                .map_or(entry.name.clone(), |(p, _)| names[p].clone())
        };
        if !quiet {
            let how = match r.failures.first() {
                Some(f) => format!("{} ({}: {})", r.reason, f.seat, f.detail),
                None => r.reason.to_string(),
            };
            crate::outln!(
                "game {}/{games}: {} vs {}: {} {how}, {} moves",
                r.game,
                name(&r.first),
                name(&r.second),
                r.result,
                r.moves.len()
            );
        }
    })
    .map_err(|e| e.to_string())?;
    let elapsed = started.elapsed();
    for (name, s) in distinct(&shown, &config.bots)
        .into_iter()
        .zip(played.scores)
    {
        crate::outln!(
            "{}: {} wins, {} draws, {} losses",
            name,
            s.wins,
            s.draws,
            s.losses
        );
    }
    // The referee's own CPU, its end of the run (ratings, report) included: what a harness
    // costs per move, apart from its bots.
    let (referee, _) = crate::shown::cpu(nix::sys::resource::UsageWho::RUSAGE_SELF);
    crate::outln!(
        "{} games, {moves} moves in {:.2} s ({:.1} µs per move, referee and bots together; the referee's own CPU {:.1} µs per move); records in {}",
        games,
        elapsed.as_secs_f64(),
        per_move(elapsed, moves),
        per_move(Duration::from_secs_f64(referee), moves),
        config.out.join(quads_record::files::GAMES).display()
    );
    crate::outln!("report in {}", played.page.display());
    Ok(())
}

/// The names to show, unless two are the same: then the bots' own names.
fn distinct(shown: &ByPlayer<String>, bots: &ByPlayer<BotSpec>) -> ByPlayer<String> {
    if shown.first == shown.second {
        bots.clone().map(|b| b.name)
    } else {
        shown.clone()
    }
}

fn per_move(elapsed: Duration, moves: usize) -> f64 {
    if moves == 0 {
        0.0
    } else {
        elapsed.as_secs_f64() * 1e6 / moves as f64
    }
}
