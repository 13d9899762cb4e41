//! The batched environment's games in plain Rust: one game's state and step (its mask kept
//! up to date, its outcome known without asking the rules again), optionally against a level
//! that answers inside the step, and a slice of games stepped or reset into its share of the
//! arrays. `vector.rs` is the Python class around them.

use quads_bots::{Limit, Strategy};
use quads_protocol::Go;
use quads_rules::{ByPlayer, Move, Outcome, Player, Position, Rules, Square};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::actions::{Action, NUM_ACTIONS};
use crate::halfmove;
use crate::planes::{write_fast, BYTES, BYTE_BITS};

/// When a game that a step ended starts again (Gymnasium's `AutoresetMode`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Autoreset {
    /// In the same step: its arrays show the new game's start.
    SameStep,
    /// In the next step, whose action for it is ignored: its arrays show the final position.
    NextStep,
    /// Never: it stays ended until `reset`.
    Disabled,
}

impl Autoreset {
    pub const NAMES: [(&'static str, Autoreset); 3] = [
        ("same-step", Autoreset::SameStep),
        ("next-step", Autoreset::NextStep),
        ("disabled", Autoreset::Disabled),
    ];

    pub fn name(self) -> &'static str {
        Autoreset::NAMES
            .iter()
            .find(|(_, m)| *m == self)
            .map_or("same-step", |(n, _)| n)
    }
}

/// What a step gave each player.
type Rewards = ByPlayer<f32>;

/// Nothing to either player.
const NOTHING: Rewards = ByPlayer {
    first: 0.0,
    second: 0.0,
};

/// A level that plays the other seat of every game: its strategy and its move's node budget.
#[derive(Copy, Clone, Debug)]
pub struct Opponent {
    pub strategy: Strategy,
    pub nodes: u64,
    /// The agent's seat, or `None` for one drawn at each start from the game's RNG.
    pub seat: Option<Player>,
}

/// The opponent's side of one game: its own RNG, so the agent's samples do not move it.
struct Answering {
    opponent: Opponent,
    rng: ChaCha8Rng,
    /// The agent's seat in this game.
    seat: Player,
}

/// One game of the batch.
pub struct Game {
    pub pos: Position,
    pub pending: Option<Square>,
    /// Its legal actions, as bits.
    mask: u32,
    /// Ended and waiting for `reset` (without auto-reset only).
    over: bool,
    /// In play (neither ended nor `over`).
    live: bool,
    rng: ChaCha8Rng,
    /// Boxed: a game of a batch without an opponent stays as small as before.
    against: Option<Box<Answering>>,
}

impl Game {
    /// Game `index` of a batch seeded with `seed`: seeded with `seed + index`, as Gymnasium
    /// seeds the environments of a vector, so game `i` is the one game of a batch seeded with
    /// `seed + i`.
    pub fn new(rules: &Rules, seed: u64, index: usize, opponent: Option<Opponent>) -> Game {
        let seed = seed.wrapping_add(index as u64);
        let rng = ChaCha8Rng::seed_from_u64(seed);
        let against = opponent.map(|opponent| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            rng.set_stream(1);
            Box::new(Answering {
                opponent,
                rng,
                seat: Player::First,
            })
        });
        let mut g = Game {
            pos: Position::START,
            pending: None,
            mask: 0,
            over: false,
            live: true,
            rng,
            against,
        };
        g.restart(rules);
        g
    }

    /// Back to the start; against an opponent, the agent's seat chosen and the opponent's
    /// moves played until the agent decides.
    fn restart(&mut self, rules: &Rules) {
        self.pos = Position::START;
        self.pending = None;
        self.over = false;
        self.live = true;
        self.mask = halfmove::legal_mask(rules, &self.pos, None);
        if let Some(a) = &mut self.against {
            a.seat = match a.opponent.seat {
                Some(seat) => seat,
                None => Player::from_index((self.rng.next_u32() & 1) as usize),
            };
            // The start cannot end a game.
            self.answer(rules);
        }
    }

    /// The agent's seat, or `None` when both seats are the caller's.
    pub fn seat(&self) -> Option<Player> {
        self.against.as_ref().map(|a| a.seat)
    }

    /// The opponent's whole moves while it is to move: what they gave each player and
    /// whether the game ended.
    fn answer(&mut self, rules: &Rules) -> (Rewards, bool) {
        loop {
            let Some(a) = &mut self.against else {
                return (NOTHING, false);
            };
            if !self.live || self.pending.is_some() || self.pos.to_move() == a.seat {
                return (NOTHING, false);
            }
            let go = Go {
                position: self.pos,
                remaining: self.pos.remaining(),
                last: None,
                time: None,
                optime: None,
                movetime: 60_000,
            };
            let Opponent {
                strategy, nodes, ..
            } = a.opponent;
            // A solver's table lives for one move: a batch of games cannot keep one each.
            let m = strategy.choose_within(&go, rules, &mut a.rng, Limit::Nodes(nodes), &mut None);
            let (r, ended) = self.finish(rules, m);
            if ended || !self.live {
                return (r, ended);
            }
        }
    }

    /// Plays `a` (its mask kept up to date): what it gave each player and whether the game
    /// ended.
    fn act(&mut self, rules: &Rules, a: i64) -> (Rewards, bool) {
        let actor = self.pos.to_move();
        let legal = usize::try_from(a)
            .ok()
            .filter(|&i| i < NUM_ACTIONS && self.mask & (1 << i) != 0)
            .and_then(Action::of);
        let Some(action) = legal else {
            // As the AEC environment's TerminateIllegalWrapper: −1 to its maker, 0 to the other.
            let mut r = NOTHING;
            r[actor] = -1.0;
            self.live = false;
            self.mask = 0;
            return (r, true);
        };
        let m = halfmove::move_of_live(rules, &self.pos, self.pending, action)
            .expect("the mask holds only legal actions");
        let Some(m) = m else {
            let Action::Place(to) = action else {
                unreachable!("only a placement awaits its give")
            };
            self.pending = Some(to);
            self.mask = halfmove::live_mask(&self.pos, self.pending);
            return (NOTHING, false);
        };
        // Legal: the mask allowed the action and `move_of_live` read it as a move.
        let (r, ended) = self.finish(rules, m);
        if ended || !self.live {
            return (r, ended);
        }
        self.answer(rules)
    }

    /// Plays the legal whole move `m`: what it gave each player and whether the game ended.
    fn finish(&mut self, rules: &Rules, m: Move) -> (Rewards, bool) {
        self.pos = self.pos.play_unchecked(m, rules);
        self.pending = None;
        if !halfmove::ends(&m) {
            self.mask = halfmove::live_mask(&self.pos, None);
            return (NOTHING, false);
        }
        self.live = false;
        self.mask = 0;
        match self.pos.outcome(rules) {
            None => (NOTHING, false),
            Some(Outcome::Draw) => (NOTHING, true),
            Some(Outcome::Win(p)) => {
                let mut r = ByPlayer::from([-1.0; 2]);
                r[p] = 1.0;
                (r, true)
            }
        }
    }

    /// A uniform legal action from its own RNG, or −1 when it has none.
    pub fn sample(&mut self) -> i64 {
        let mut m = self.mask;
        let count = m.count_ones();
        if count == 0 {
            return -1;
        }
        // Multiply-shift: uniform to within count / 2^32.
        let k = (u64::from(self.rng.next_u32()) * u64::from(count)) >> 32;
        for _ in 0..k {
            m &= m - 1;
        }
        i64::from(m.trailing_zeros())
    }
}

/// The arrays of one slice of the batch.
pub struct Out<'a> {
    pub obs: &'a mut [u8],
    pub masks: &'a mut [bool],
    pub rewards: &'a mut [f32],
    pub terminations: &'a mut [bool],
    pub player: &'a mut [i8],
}

impl Out<'_> {
    /// Writes game `i`'s view.
    fn show(&mut self, i: usize, g: &Game, rules: &Rules) {
        write_fast(
            &g.pos,
            g.pending,
            g.live,
            rules,
            &mut self.obs[i * BYTES..(i + 1) * BYTES],
        );
        let masks = &mut self.masks[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS];
        for (k, eight) in masks.chunks_exact_mut(8).enumerate() {
            let bits = &BYTE_BITS[((g.mask >> (8 * k)) & 0xff) as usize];
            for (m, &b) in eight.iter_mut().zip(bits) {
                *m = b != 0;
            }
        }
        self.player[i] = g.pos.to_move().index() as i8;
    }
}

/// Steps one slice of the batch. Against an opponent, a game's rewards are the agent's and
/// the opponent's, in that order; else the first player's and the second's.
pub fn step_slice(
    rules: &Rules,
    mode: Autoreset,
    games: &mut [Game],
    actions: &[i64],
    mut out: Out,
) {
    for (i, g) in games.iter_mut().enumerate() {
        let (rewards, ended) = if g.over {
            if mode == Autoreset::NextStep {
                g.restart(rules);
                ([0.0; 2], false)
            } else {
                ([0.0; 2], true)
            }
        } else {
            let seat = g.seat();
            let (r, ended) = g.act(rules, actions[i]);
            if ended {
                if mode == Autoreset::SameStep {
                    g.restart(rules);
                } else {
                    g.over = true;
                }
            }
            // The row of the rewards array: the agent's and the opponent's, or by seat.
            match seat {
                Some(s) => ([r[s], r[s.other()]], ended),
                None => (r.into_array(), ended),
            }
        };
        out.rewards[2 * i..2 * i + 2].copy_from_slice(&rewards);
        out.terminations[i] = ended;
        out.show(i, g, rules);
    }
}

/// A reset: every game back to its start, its arrays written, rewards and terminations cleared.
pub fn reset_slice(rules: &Rules, _mode: Autoreset, games: &mut [Game], _a: &[i64], mut out: Out) {
    for (i, g) in games.iter_mut().enumerate() {
        g.restart(rules);
        out.rewards[2 * i..2 * i + 2].fill(0.0);
        out.terminations[i] = false;
        out.show(i, g, rules);
    }
}
