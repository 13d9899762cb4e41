//! The batched environment's games in plain Rust: one game's state and step (its mask kept
//! up to date, its outcome known without asking the rules again), and a slice of games stepped
//! or reset into its share of the arrays. `vector.rs` is the Python class around them.

use quads_rules::{Outcome, Position, Rules, Square};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::actions::{Action, NUM_ACTIONS};
use crate::halfmove;
use crate::planes::{write_fast, BYTES, BYTE_BITS};

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
}

impl Game {
    pub fn new(rules: &Rules, seed: u64, index: usize) -> Game {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(index as u64);
        let mut g = Game {
            pos: Position::START,
            pending: None,
            mask: 0,
            over: false,
            live: true,
            rng,
        };
        g.restart(rules);
        g
    }

    fn restart(&mut self, rules: &Rules) {
        self.pos = Position::START;
        self.pending = None;
        self.over = false;
        self.live = true;
        self.mask = halfmove::legal_mask(rules, &self.pos, None);
    }

    /// Plays `a` (its mask kept up to date): what it gave each player and whether the game
    /// ended.
    fn act(&mut self, rules: &Rules, a: i64) -> ([f32; 2], bool) {
        let actor = self.pos.to_move().index();
        let legal = usize::try_from(a)
            .ok()
            .filter(|&i| i < NUM_ACTIONS && self.mask & (1 << i) != 0)
            .and_then(Action::of);
        let Some(action) = legal else {
            // As the AEC environment's TerminateIllegalWrapper: −1 to its maker, 0 to the other.
            let mut r = [0.0; 2];
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
            return ([0.0; 2], false);
        };
        // Legal: the mask allowed the action and `move_of_live` read it as a move.
        self.pos = self.pos.play_unchecked(m, rules);
        self.pending = None;
        if !halfmove::ends(&m) {
            self.mask = halfmove::live_mask(&self.pos, None);
            return ([0.0; 2], false);
        }
        self.live = false;
        self.mask = 0;
        match self.pos.outcome(rules) {
            None => ([0.0; 2], false),
            Some(Outcome::Draw) => ([0.0; 2], true),
            Some(Outcome::Win(p)) => {
                let mut r = [-1.0; 2];
                r[p.index()] = 1.0;
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

/// Steps one slice of the batch.
pub fn step_slice(
    rules: &Rules,
    auto_reset: bool,
    games: &mut [Game],
    actions: &[i64],
    mut out: Out,
) {
    for (i, g) in games.iter_mut().enumerate() {
        let (rewards, ended) = if g.over {
            ([0.0; 2], true)
        } else {
            let (r, ended) = g.act(rules, actions[i]);
            if ended {
                if auto_reset {
                    g.restart(rules);
                } else {
                    g.over = true;
                }
            }
            (r, ended)
        };
        out.rewards[2 * i..2 * i + 2].copy_from_slice(&rewards);
        out.terminations[i] = ended;
        out.show(i, g, rules);
    }
}

/// A reset: every game back to its start, its arrays written, rewards and terminations cleared.
pub fn reset_slice(rules: &Rules, _auto: bool, games: &mut [Game], _a: &[i64], mut out: Out) {
    for (i, g) in games.iter_mut().enumerate() {
        g.restart(rules);
        out.rewards[2 * i..2 * i + 2].fill(0.0);
        out.terminations[i] = false;
        out.show(i, g, rules);
    }
}
