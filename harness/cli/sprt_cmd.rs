//! `quads sprt` and `quads ladder`: sequential tests that one bot is stronger than another
//! (see `quads_results::sprt`).

use std::path::PathBuf;

use quads_referee::time_control;
use quads_reports::sprt::{Decision, Sprt};
use quads_results::sprt::{ladder as ladder_of, run_sprt, Climbed, Duel, Tested};
use quads_rules::Rules;
use quads_tournament::{check_sprt, cores, read_config, SprtSettings};

use crate::shown::Shown;

/// Arguments of `quads sprt`.
#[derive(clap::Args)]
pub struct Args {
    /// The bot under test, then the bot it must beat: names from the bots file or command lines.
    #[arg(long = "bot", value_name = "CMD")]
    bots: Vec<String>,
    /// Elo of the first bot over the second under H0.
    #[arg(long, allow_negative_numbers = true)]
    elo0: f64,
    /// Elo under H1.
    #[arg(long, allow_negative_numbers = true)]
    elo1: f64,
    /// The probability of accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// The probability of accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// The rules spec.
    #[arg(long, default_value = "quads", value_parser = crate::args::parse_rules)]
    rules: Rules,
    /// Stop undecided after this many game pairs.
    #[arg(long, default_value_t = 1000)]
    max_pairs: u32,
    /// The limit per move [default: 1s when no --clock].
    #[arg(long, value_name = "DURATION")]
    movetime: Option<String>,
    /// A game clock, base plus increment.
    #[arg(long, value_name = "BASE+INC")]
    clock: Option<String>,
    /// Games at once [default: the cores].
    #[arg(long)]
    concurrency: Option<usize>,
    /// Seeds the openings and the games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random moves before the bots take over, per pair.
    #[arg(long, default_value_t = 2)]
    opening_moves: u32,
    /// The folder for the journal of games; each run starts afresh.
    #[arg(long, default_value = "out/sprt")]
    out: PathBuf,
    /// The bots file that names bots [default: configs/bots.toml, if it exists].
    #[arg(long, value_name = "FILE")]
    bots_file: Option<PathBuf>,
    /// Print only the result.
    #[arg(long, short)]
    quiet: bool,
}

/// The exit code of a test: 0 H1 accepted, 1 H0 accepted, 2 undecided, 130 stopped by a
/// signal.
fn code(decision: Decision) -> u8 {
    match decision {
        Decision::H1 => 0,
        Decision::H0 => 1,
        Decision::Continue => 2,
    }
}

pub fn run_cmd(args: &Args) -> Result<u8, String> {
    let settings = SprtSettings {
        elo0: args.elo0,
        elo1: args.elo1,
        alpha: args.alpha,
        beta: args.beta,
        max_pairs: args.max_pairs,
    };
    check_sprt(&settings).map_err(|e| e.to_string())?;
    let [candidate, baseline] =
        crate::bots_file::two_bots(&args.bots, args.bots_file.as_deref(), false)?;
    let movetime = match (&args.movetime, &args.clock) {
        (None, None) => Some("1s"),
        (m, _) => m.as_deref(),
    };
    let time = time_control(movetime, args.clock.as_deref()).map_err(|e| e.to_string())?;
    let t = Duel {
        candidate,
        baseline,
        rules: args.rules,
        time,
        pairs: args.max_pairs,
        concurrency: args.concurrency.unwrap_or_else(cores),
        seed: args.seed,
        opening_moves: args.opening_moves,
        out: args.out.clone(),
    }
    .tournament();
    let test = Sprt {
        elo0: args.elo0,
        elo1: args.elo1,
        alpha: args.alpha,
        beta: args.beta,
    };
    let mut shown = Shown::new(args.quiet, "");
    match run_sprt(&t, test, &mut shown).map_err(|e| e.to_string())? {
        Tested::Decided { decision, verdict } => {
            crate::outln!("{verdict}");
            Ok(code(decision))
        }
        Tested::Interrupted => {
            eprintln!("quads: interrupted before the test decided");
            Ok(crate::INTERRUPTED)
        }
    }
}

/// Arguments of `quads ladder`.
#[derive(clap::Args)]
pub struct LadderArgs {
    /// The ladder config: bots from weakest to strongest, and an [sprt] section.
    #[arg(default_value = "configs/levels.toml")]
    config: PathBuf,
    #[command(flatten)]
    run: crate::tournament_cmd::RunOverrides,
    /// Print only each rung's result.
    #[arg(long, short)]
    quiet: bool,
}

pub fn ladder(args: &LadderArgs) -> Result<u8, String> {
    let t = read_config(&args.config, &args.run.with_pairs(None)).map_err(|e| e.to_string())?;
    let mut shown = Shown::new(args.quiet, "");
    let climbed = ladder_of(&args.config, &t, &mut shown, |rung, tested| {
        if let Tested::Decided { verdict, .. } = tested {
            crate::outln!("{} over {}: {verdict}", rung.upper, rung.lower);
        }
    })
    .map_err(|e| e.to_string())?;
    match climbed {
        Climbed::Holds => {
            crate::outln!("ladder holds: every bot is stronger than the one below it");
            Ok(0)
        }
        Climbed::Broken {
            rung,
            upper,
            lower,
            decision,
        } => {
            eprintln!(
                "quads: ladder broken at rung {rung}: {upper} is not shown stronger than {lower} ({})",
                if decision == Decision::H0 {
                    "H0 accepted"
                } else {
                    "undecided"
                }
            );
            Ok(code(decision))
        }
        Climbed::Interrupted => {
            eprintln!("quads: interrupted before the ladder was decided");
            Ok(crate::INTERRUPTED)
        }
    }
}
