//! Bots that play over the protocol: a blocking read-eval-print driver ([`run`]) and the
//! strategies it can drive, from random play to an exact endgame solver, with five named
//! difficulty levels. Every random choice comes from the game's seed, so the same seed gives
//! the same game (given the same time to think).

pub mod mcts;
pub mod search;
pub mod solver;
pub mod symmetry;

use std::io::{self, BufRead, Write};

use std::time::{Duration, Instant};

use quads_protocol::{FromBot, Go, IdKey, OptionDecl, OptionType, ToBot, VERSION};
use quads_rules::{Claim, Move, Piece, Player, Position, Rules, Square, Then};

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use search::Search;
use solver::Solver;

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
    /// Alpha-beta to this many turns, safe gives only; ties broken at random.
    Minimax(u32),
    /// Monte Carlo tree search with this many playouts.
    Mcts(u32),
    /// The exact solver once at most `SOLVE_EMPTY` squares are empty; before that, MCTS with
    /// this many playouts.
    Solver(u32),
}

/// The solver takes over when this many squares or fewer are empty.
pub const SOLVE_EMPTY: u32 = 11;

/// With this many empty squares or fewer (but more than [`SOLVE_EMPTY`]), the solver first
/// tries with half the time; MCTS gets the rest if it does not finish.
pub const SOLVE_TRY: u32 = 12;

/// The size of level 5's solver table, in MiB (made on first use, kept for the game).
pub const SOLVER_TABLE_MIB: usize = 64;

/// The five difficulty levels, weakest first.
pub const LEVELS: [Strategy; 5] = [
    Strategy::Random,
    Strategy::Greedy,
    Strategy::Minimax(3),
    Strategy::Mcts(2000),
    Strategy::Solver(10_000),
];

impl Strategy {
    /// The strategy's name on the command line and as the `strategy` option: `first`,
    /// `random`, `greedy`, `minimax-D`, `mcts-N`, `solver-N`, or `level-1` to `level-5`.
    pub fn name(self) -> String {
        match self {
            Strategy::First => "first".into(),
            Strategy::Random => "random".into(),
            Strategy::Greedy => "greedy".into(),
            Strategy::Minimax(d) => format!("minimax-{d}"),
            Strategy::Mcts(n) => format!("mcts-{n}"),
            Strategy::Solver(n) => format!("solver-{n}"),
        }
    }

    /// The strategy with this name.
    pub fn from_name(name: &str) -> Option<Strategy> {
        let number = |prefix: &str| {
            name.strip_prefix(prefix)
                .and_then(|n| n.parse::<u32>().ok())
                .filter(|&n| n > 0)
        };
        match name {
            "first" => Some(Strategy::First),
            "random" => Some(Strategy::Random),
            "greedy" => Some(Strategy::Greedy),
            "minimax" => Some(Strategy::Minimax(3)),
            "mcts" => Some(Strategy::Mcts(2000)),
            "solver" => Some(Strategy::Solver(10_000)),
            _ => number("level-")
                .and_then(|l| LEVELS.get(l as usize - 1).copied())
                .or_else(|| number("minimax-").map(Strategy::Minimax))
                .or_else(|| number("mcts-").map(Strategy::Mcts))
                .or_else(|| number("solver-").map(Strategy::Solver)),
        }
    }

    /// Picks a move for the state in `go`, thinking until `deadline` at most. `solver` is the
    /// exact solver with its table, kept across the moves of a game (made on first use).
    pub fn choose(
        self,
        go: &Go,
        rules: &Rules,
        rng: &mut ChaCha8Rng,
        deadline: Instant,
        solver: &mut Option<Solver>,
    ) -> Move {
        let moves = go.position.legal_moves(rules);
        assert!(!moves.is_empty(), "asked to move in a finished game");
        let pos = &go.position;
        // Claiming an overlooked win always wins; every strategy but random and first does.
        let thinking = !matches!(self, Strategy::First | Strategy::Random);
        if thinking && moves.contains(&Move::Claim) {
            return Move::Claim;
        }
        let searched = match self {
            Strategy::First => return moves[0],
            Strategy::Random => return moves[pick(rng, moves.len())],
            Strategy::Greedy => None,
            Strategy::Minimax(depth) => {
                let mut s = Search::new(rules, Some(deadline));
                s.best(pos, Some(depth), rng.next_u64()).map(|f| f.mv)
            }
            Strategy::Mcts(playouts) => mcts_move(pos, rules, playouts, deadline, rng),
            Strategy::Solver(playouts) => {
                let empty = pos.board().empty().len();
                let now = Instant::now();
                let solve_until = if empty <= SOLVE_EMPTY {
                    Some(deadline)
                } else if empty <= SOLVE_TRY {
                    Some(now + deadline.saturating_duration_since(now) / 2)
                } else {
                    None
                };
                let solver = match solver {
                    Some(s) if s.solves(rules) => s,
                    _ => solver.insert(Solver::new(rules, SOLVER_TABLE_MIB)),
                };
                let seed = rng.next_u64();
                solve_until
                    .and_then(|until| solver.solve(pos, Some(until), seed).map(|f| f.mv))
                    .or_else(|| checked_mcts_move(pos, rules, playouts, deadline, rng, solver))
            }
        };
        let mv = searched
            .or_else(|| greedy(go, rules, rng))
            .unwrap_or_else(|| moves[pick(rng, moves.len())]);
        announce(mv, pos, rules)
    }
}

/// Under `claim=announce`, a winning placement must say so.
fn announce(mv: Move, pos: &Position, rules: &Rules) -> Move {
    match (mv, pos.hand()) {
        (
            Move::Place {
                to,
                then: Then::Nothing,
            },
            Some(hand),
        ) if rules.claim == Claim::Announce && pos.board().completes(to, hand, rules) => {
            Move::Place {
                to,
                then: Then::Quarto,
            }
        }
        _ => mv,
    }
}

/// MCTS for the first 60% of the time left, then the solver checks its moves, most visited
/// first, while the replies are small enough to solve: a move after which the opponent can
/// force a win is passed over for the next. (Measured: MCTS alone walked level 5 into a loss
/// in 11 placements that the solver proves in 3 ms.)
fn checked_mcts_move(
    pos: &Position,
    rules: &Rules,
    playouts: u32,
    deadline: Instant,
    rng: &mut ChaCha8Rng,
    solver: &mut Solver,
) -> Option<Move> {
    let hand = pos.hand()?;
    let board = pos.board();
    if !board.threats(rules).winning_squares(hand).is_empty() || pos.remaining().is_empty() {
        return mcts_move(pos, rules, playouts, deadline, rng);
    }
    let now = Instant::now();
    let mcts_until = now + deadline.saturating_duration_since(now) * 3 / 5;
    let (ranked, _) = mcts::ranked(
        board,
        hand,
        pos.remaining(),
        rules,
        playouts,
        Some(mcts_until),
        rng,
    );
    let auto = Rules {
        claim: Claim::Auto,
        ..*rules
    };
    let as_move = |(to, give): (Square, Piece)| Move::Place {
        to,
        then: Then::Give(give),
    };
    if board.empty().len() > SOLVE_TRY + 1 {
        return ranked.first().copied().map(as_move);
    }
    for &m in ranked.iter().take(8) {
        let Ok(after) = pos.play(as_move(m), &auto) else {
            continue;
        };
        if after.outcome(&auto).is_some() {
            return Some(as_move(m));
        }
        match solver.solve(&after, Some(deadline), 0) {
            // The opponent wins from there: try the next move.
            Some(s) if s.value > 0 => continue,
            // A draw or better, or no time left to tell: play it.
            _ => return Some(as_move(m)),
        }
    }
    ranked.first().copied().map(as_move)
}

fn mcts_move(
    pos: &Position,
    rules: &Rules,
    playouts: u32,
    deadline: Instant,
    rng: &mut ChaCha8Rng,
) -> Option<Move> {
    let hand = pos.hand()?;
    let board = pos.board();
    if let Some(to) = board.threats(rules).winning_squares(hand).iter().next() {
        return Some(Move::Place {
            to,
            then: Then::Nothing,
        });
    }
    if pos.remaining().is_empty() {
        return None;
    }
    let ((to, give), _) = mcts::search(
        board,
        hand,
        pos.remaining(),
        rules,
        playouts,
        Some(deadline),
        rng,
    );
    Some(Move::Place {
        to,
        then: Then::Give(give),
    })
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

/// The time to spend on this move: 40% of the move's limit (60% for the solver, the strongest
/// level, whose exact search gains most from time), and at most a twentieth of the clock,
/// less 20 ms for reading, writing and the referee's own delays.
fn budget(go: &Go, strategy: Strategy) -> Duration {
    let share = if matches!(strategy, Strategy::Solver(_)) {
        0.6
    } else {
        0.4
    };
    let mut ms = go.movetime as f64 * share;
    if let Some(clock) = go.time {
        ms = ms.min(clock as f64 / 20.0);
    }
    Duration::from_micros(((ms - 20.0).max(1.0) * 1000.0) as u64)
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
    let mut solver: Option<Solver> = None;
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
            }
            ToBot::Go(go) => {
                let received = Instant::now();
                if !delay.is_zero() {
                    think(delay);
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
