//! Bots that play over the protocol: a blocking read-eval-print driver ([`run`]) and the
//! strategies it can drive. Every random choice comes from the game's seed, so the same seed
//! gives the same game.

use std::io::{self, BufRead, Write};

use quads_protocol::{FromBot, Go, IdKey, OptionDecl, OptionType, ToBot, VERSION};
use quads_rules::{Claim, Move, Player, Rules, Then};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// How a bot picks its moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// The first legal move, instantly: a trivial opponent for measuring the referee.
    First,
    /// A uniformly random legal move.
    Random,
    /// Wins at once when it can (claiming under `claim=announce`), otherwise never gives a
    /// piece that lets the opponent win at once while a safe one exists, otherwise random.
    Greedy,
}

impl Strategy {
    /// The strategy's name on the command line and as the `strategy` option.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::First => "first",
            Strategy::Random => "random",
            Strategy::Greedy => "greedy",
        }
    }

    /// The strategy with this name.
    pub fn from_name(name: &str) -> Option<Strategy> {
        [Strategy::First, Strategy::Random, Strategy::Greedy]
            .into_iter()
            .find(|s| s.name() == name)
    }

    /// Picks a move for the state in `go`.
    pub fn choose(self, go: &Go, rules: &Rules, rng: &mut ChaCha8Rng) -> Move {
        let moves = go.position.legal_moves(rules);
        assert!(!moves.is_empty(), "asked to move in a finished game");
        match self {
            Strategy::First => moves[0],
            Strategy::Random => moves[pick(rng, moves.len())],
            Strategy::Greedy => {
                greedy(go, rules, rng).unwrap_or_else(|| moves[pick(rng, moves.len())])
            }
        }
    }
}

/// A uniform index below `n` (multiply-shift; the bias is below 2^-56 for the sizes here).
fn pick(rng: &mut ChaCha8Rng, n: usize) -> usize {
    ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize
}

fn greedy(go: &Go, rules: &Rules, rng: &mut ChaCha8Rng) -> Option<Move> {
    let pos = &go.position;
    let announce = rules.claim == Claim::Announce;
    let moves = pos.legal_moves(rules);
    if moves.contains(&Move::Claim) {
        return Some(Move::Claim);
    }
    let hand = pos.hand()?;
    let board = pos.board();
    let wins = board.threats(rules).winning_squares(hand);
    if let Some(to) = wins.iter().next() {
        let then = if announce {
            Then::Quarto
        } else {
            Then::Nothing
        };
        return Some(Move::Place { to, then });
    }
    let mut safe = Vec::new();
    for to in board.empty().iter() {
        let mut after = *board;
        after.place(to, hand);
        let unsafe_pieces = after.threats(rules).winning_pieces();
        for p in pos.remaining().iter() {
            if !unsafe_pieces.contains(p) {
                safe.push(Move::Place {
                    to,
                    then: Then::Give(p),
                });
            }
        }
    }
    (!safe.is_empty()).then(|| safe[pick(rng, safe.len())])
}

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

/// Plays the protocol on stdin/stdout until `quit` or end of input, thinking `delay` per move.
pub fn run(name: &str, mut strategy: Strategy, delay: std::time::Duration) -> io::Result<()> {
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    let mut rules = Rules::QUADS;
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let say = |out: &mut io::StdoutLock<'_>, msg: FromBot| -> io::Result<()> {
        writeln!(out, "{msg}")?;
        out.flush()
    };
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
                        default: strategy.name().to_owned(),
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
            }
            ToBot::Go(go) => {
                if !delay.is_zero() {
                    think(delay);
                }
                let mv = strategy.choose(&go, &rules, &mut rng);
                say(&mut out, FromBot::Move(mv))?;
            }
            ToBot::Quit => break,
        }
    }
    Ok(())
}
