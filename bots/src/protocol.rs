//! The protocol loop ([`run`]): reads the referee's messages from stdin, answers on stdout,
//! keeps the game's rules, seed and solver table between messages, and asks the
//! [`Strategy`] for each move within the time [`budget`] allows. Nothing here chooses moves.

use std::io::{self, BufRead, Write};
use std::time::Instant;

use quads_protocol::{FromBot, IdKey, OptionDecl, OptionType, ToBot, VERSION};
use quads_rules::{Player, Rules};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::levels::budget;
use crate::solver::Solver;
use crate::Strategy;

/// Keeps the CPU busy for `how_long`, as a searching engine would.
fn think(how_long: std::time::Duration) {
    let start = std::time::Instant::now();
    let mut x = 0u64;
    while start.elapsed() < how_long {
        for _ in 0..1000 {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
    }
}

/// What a bot does before each move besides choosing it, to stand in for a real engine in
/// benchmarks and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delay {
    /// Computes busily, on its CPU, for this long once, before reading its first line (an
    /// engine loading its tables: the start gate's benchmark, docs/scale.md).
    pub start: std::time::Duration,
    /// Computes busily, on its CPU, for this long (an engine searching on the referee's cores).
    pub think: std::time::Duration,
    /// Then sleeps this long, using no CPU (an engine searching on cores of its own: the
    /// referee's load at scale, docs/scale.md).
    pub wait: std::time::Duration,
}

/// Plays the protocol on stdin/stdout until `quit` or end of input, with `delay` per move.
pub fn run(name: &str, mut strategy: Strategy, delay: Delay) -> io::Result<()> {
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    let mut rules = Rules::QUADS;
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut solver: Option<Solver> = None;
    let say = |out: &mut io::StdoutLock<'_>, msg: FromBot| -> io::Result<()> {
        writeln!(out, "{msg}")?;
        out.flush()
    };
    if !delay.start.is_zero() {
        think(delay.start);
    }
    for line in stdin.lock().lines() {
        let line = line?;
        let msg: ToBot = match line.parse() {
            Ok(msg) => msg,
            Err(e) => {
                eprintln!("{name}: ignoring a line I do not understand: {e}");
                continue;
            }
        };
        match msg {
            ToBot::Quads { version } if version != VERSION => say(&mut out, FromBot::Unsupported)?,
            ToBot::Quads { .. } => {
                say(
                    &mut out,
                    FromBot::Id {
                        key: IdKey::Name,
                        value: name.to_owned(),
                    },
                )?;
                say(
                    &mut out,
                    FromBot::Id {
                        key: IdKey::Author,
                        value: "Quads Arena".to_owned(),
                    },
                )?;
                say(
                    &mut out,
                    FromBot::Id {
                        key: IdKey::Version,
                        value: env!("CARGO_PKG_VERSION").to_owned(),
                    },
                )?;
                say(
                    &mut out,
                    FromBot::Option(OptionDecl {
                        name: "strategy".to_owned(),
                        kind: OptionType::String,
                        default: strategy.name(),
                    }),
                )?;
                say(&mut out, FromBot::QuadsOk)?;
            }
            ToBot::SetOption {
                name: option,
                value,
            } if option == "strategy" => match Strategy::from_name(&value) {
                Some(s) => strategy = s,
                None => eprintln!(
                    "{name}: unknown strategy {value}, keeping {}",
                    strategy.name()
                ),
            },
            ToBot::SetOption { .. } | ToBot::GameOver { .. } => {}
            ToBot::IsReady => say(&mut out, FromBot::ReadyOk)?,
            ToBot::NewGame(game) => {
                rules = game.rules;
                // The two seats draw from different streams of the same seed.
                let seat = u64::from(game.seat == Player::Second);
                rng = ChaCha8Rng::seed_from_u64(game.seed ^ (seat << 63));
                // A new game (maybe new rules): the solver starts from an empty table, cleared
                // here, outside the clock.
                if let Some(s) = solver.as_mut() {
                    s.clear();
                }
                // Level 5 reads its book (once) here, outside the clock.
                if matches!(strategy, Strategy::Solver(_)) && crate::book::enabled() {
                    let _ = crate::book::Book::shipped(&rules);
                }
            }
            ToBot::Go(go) => {
                let received = Instant::now();
                if !delay.think.is_zero() {
                    think(delay.think);
                }
                if !delay.wait.is_zero() {
                    std::thread::sleep(delay.wait);
                }
                let mv = strategy.choose(
                    &go,
                    &rules,
                    &mut rng,
                    received + budget(&go, strategy),
                    &mut solver,
                );
                say(&mut out, FromBot::Move(mv))?;
            }
            ToBot::Quit => break,
        }
    }
    Ok(())
}
