//! `quads sprt` and `quads ladder`: sequential tests that one bot is stronger than another.
//!
//! Game pairs (two games from one random opening, seats swapped) are played through the
//! tournament runner, concurrently; after each complete pair the pentanomial LLR is updated,
//! and the run is stopped as soon as it crosses a bound.

use std::collections::HashMap;
use std::path::PathBuf;

use quads_referee::{defaults, time_control, BotSpec};
use quads_reports::sprt::{Decision, Pentanomial, Sprt};
use quads_rules::Rules;
use quads_tournament::{
    check_sprt, cores, read_config, run, schedule, Format, Openings, RunError, SprtSettings,
    Tournament,
};
use tokio::sync::watch;

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
    #[arg(long, default_value = "quads", value_parser = crate::perft_cmd::parse_rules)]
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

/// How a test ended.
pub struct Outcome {
    pub decision: Decision,
}

impl Outcome {
    /// The exit code: 0 H1 accepted, 1 H0 accepted, 2 undecided.
    pub fn code(&self) -> u8 {
        match self.decision {
            Decision::H1 => 0,
            Decision::H0 => 1,
            Decision::Continue => 2,
        }
    }
}

fn summary(test: &Sprt, pairs: &Pentanomial, llr: f64) -> String {
    let (lo, hi) = test.bounds();
    let (e, elo_lo, elo_hi) = pairs.elo();
    let c = pairs.0;
    format!(
        "pairs {} [{} {} {} {} {}]  LLR {llr:+.2} [{lo:.2}, {hi:.2}]  Elo {e:+.1} [{elo_lo:+.1}, {elo_hi:+.1}]",
        pairs.pairs(),
        c[0],
        c[1],
        c[2],
        c[3],
        c[4]
    )
}

/// Runs one SPRT of `t.bots[0]` against `t.bots[1]` (t.pairs is the pair limit).
pub fn run_sprt(t: &Tournament, test: Sprt, quiet: bool, label: &str) -> Result<Outcome, String> {
    std::fs::create_dir_all(&t.out)
        .map_err(|e| format!("cannot create {}: {e}", t.out.display()))?;
    let journal = t.out.join("journal.jsonl");
    match std::fs::remove_file(&journal) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(format!("cannot reset {}: {e}", journal.display()))
        }
        _ => {}
    }
    let games = schedule(t);
    let under_test = t.bots[0].name.clone();
    let runtime = crate::tournament_cmd::runtime(t.concurrency)?;
    let (cancel_tx, cancel_rx) = watch::channel(false);
    let mut halves: HashMap<u32, f64> = HashMap::new();
    let mut pairs = Pentanomial::default();
    let mut decision = Decision::Continue;
    let mut llr = 0.0;
    let stop = cancel_tx.clone();
    let result = runtime.block_on(async {
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                let _ = cancel_tx.send(true);
            }
        });
        run(t, &games, &journal, cancel_rx, |r, _| {
            if decision != Decision::Continue {
                return;
            }
            let first = r.result.score_of_first();
            let points = if r.first.name == under_test {
                first
            } else {
                1.0 - first
            };
            let pair = r.pair.unwrap_or(r.game.div_ceil(2));
            if let Some(other) = halves.remove(&pair) {
                pairs.add(other + points);
                llr = test.llr(&pairs);
                decision = test.decide(&pairs);
                if !quiet {
                    eprintln!("{label}{}", summary(&test, &pairs, llr));
                }
                if decision != Decision::Continue {
                    let _ = stop.send(true);
                }
            } else {
                halves.insert(pair, points);
            }
        })
        .await
    });
    match result {
        Ok(_) => {}
        Err(RunError::Interrupted { .. }) if decision != Decision::Continue => {}
        Err(RunError::Interrupted { .. }) => return Err("interrupted".into()),
        Err(e) => return Err(e.to_string()),
    }
    let verdict = match decision {
        Decision::H1 => format!(
            "H1 accepted: {} is stronger than {} by about {} Elo or more",
            t.bots[0].name, t.bots[1].name, test.elo1
        ),
        Decision::H0 => format!(
            "H0 accepted: {} is not stronger than {} by {} Elo",
            t.bots[0].name, t.bots[1].name, test.elo1
        ),
        Decision::Continue => format!("undecided after {} pairs (the limit)", pairs.pairs()),
    };
    crate::outln!("{label}{verdict}; {}", summary(&test, &pairs, llr));
    Ok(Outcome { decision })
}

/// A tournament of two bots, for an SPRT.
#[expect(
    clippy::too_many_arguments,
    reason = "a plain constructor of a two-bot schedule"
)]
fn duel(
    bots: [BotSpec; 2],
    rules: Rules,
    time: quads_protocol::TimeControl,
    pairs: u32,
    concurrency: usize,
    seed: u64,
    opening_moves: u32,
    out: PathBuf,
) -> Tournament {
    Tournament {
        name: format!("{} vs {}", bots[0].name, bots[1].name),
        seed,
        out,
        concurrency,
        format: Format::RoundRobin,
        pairs,
        variants: vec![rules],
        keep_alive: true,
        ponder: true,
        openings: Openings::Random(opening_moves),
        bots: bots.to_vec(),
        time,
        margin: defaults::MARGIN,
        handshake_timeout: defaults::HANDSHAKE,
        log_cap: defaults::LOG_CAP,
        anchor: None,
        sprt: None,
        entrants: None,
        entrants_ponder: false,
        sandbox: quads_referee::sandbox::SandboxSpec::default(),
        analyze: false,
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
    let [a, b] = crate::bots_file::two_bots(&args.bots, args.bots_file.as_deref(), false)?;
    let movetime = match (&args.movetime, &args.clock) {
        (None, None) => Some("1s"),
        (m, _) => m.as_deref(),
    };
    let time = time_control(movetime, args.clock.as_deref()).map_err(|e| e.to_string())?;
    let t = duel(
        [a, b],
        args.rules,
        time,
        args.max_pairs,
        args.concurrency.unwrap_or_else(cores),
        args.seed,
        args.opening_moves,
        args.out.clone(),
    );
    let test = Sprt {
        elo0: args.elo0,
        elo1: args.elo1,
        alpha: args.alpha,
        beta: args.beta,
    };
    Ok(run_sprt(&t, test, args.quiet, "")?.code())
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
    let s = t.sprt.ok_or_else(|| {
        format!(
            "{}: a ladder config needs an [sprt] section (elo0, elo1)",
            args.config.display()
        )
    })?;
    if t.entrants.is_some() {
        return Err(format!(
            "{}: a ladder takes its rungs from [[bot]] tables, not from `entrants`",
            args.config.display()
        ));
    }
    let test = Sprt {
        elo0: s.elo0,
        elo1: s.elo1,
        alpha: s.alpha,
        beta: s.beta,
    };
    let opening_moves = match t.openings {
        Openings::Random(n) => n,
        Openings::Listed(_) => {
            return Err(
                "a ladder draws random openings; use openings = { random_moves = N }".into(),
            )
        }
    };
    for rung in 1..t.bots.len() {
        let (upper, lower) = (t.bots[rung].clone(), t.bots[rung - 1].clone());
        let label = format!("{} over {}: ", upper.name, lower.name);
        let out = t.out.join(format!("rung-{}", rung + 1));
        let duel = duel(
            [upper.clone(), lower.clone()],
            t.variants[0],
            t.time,
            s.max_pairs,
            t.concurrency,
            t.seed,
            opening_moves,
            out,
        );
        let outcome = run_sprt(&duel, test, args.quiet, &label)?;
        if outcome.decision != Decision::H1 {
            eprintln!(
                "quads: ladder broken at rung {}: {} is not shown stronger than {} ({})",
                rung + 1,
                upper.name,
                lower.name,
                if outcome.decision == Decision::H0 {
                    "H0 accepted"
                } else {
                    "undecided"
                }
            );
            return Ok(outcome.code());
        }
    }
    crate::outln!("ladder holds: every bot is stronger than the one below it");
    Ok(0)
}
