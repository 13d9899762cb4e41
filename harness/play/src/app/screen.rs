//! What the screen shows of the game now: the status line, the clocks, the keys that work.

use quads_i18n::Arg;
use quads_record::ForfeitReason;
use quads_rules::{Outcome, Player};

use super::{App, Phase};
use crate::input::Focus;
use crate::view::Screen;

impl App {
    /// What the screen shows now.
    pub fn screen(&self) -> Screen<'_> {
        let human_turn = self.phase == Phase::Turn;
        let mut keys = Vec::new();
        if self.phase == Phase::Over {
            keys.push(self.c.text("keys-end"));
        } else {
            if human_turn {
                keys.push(self.c.text(match self.input.focus {
                    Focus::Board => "keys-place",
                    Focus::Pieces { .. } => "keys-give",
                }));
            }
            keys.push(self.c.text("keys-common"));
        }
        Screen {
            title: self.c.with(
                "title",
                &[(
                    "variant",
                    quads_i18n::variant_name(&self.c, &self.setup.rules).into(),
                )],
            ),
            game: &self.game,
            input: human_turn.then_some(&self.input),
            status: self.status(),
            message: self.message.clone(),
            clocks: self.clock_lines(),
            keys,
            help: self
                .help
                .then(|| quads_i18n::rules_page(&self.c, &self.setup.rules)),
            end: self.end.clone(),
            colours: self.setup.colours,
        }
    }

    fn status(&self) -> String {
        let side = self.game.to_move();
        let player: Arg<'_> = self.name(side).into();
        match self.phase {
            Phase::Starting(_) | Phase::Thinking => {
                self.c.with("status-thinking", &[("player", player)])
            }
            Phase::Turn => {
                let pos = self.game.position();
                match (pos.hand(), self.input.focus) {
                    (None, _) => self.c.with("status-opening", &[("player", player)]),
                    (Some(_), Focus::Pieces { .. }) => {
                        self.c.with("status-give", &[("player", player)])
                    }
                    (Some(p), Focus::Board) => self.c.with(
                        "status-place",
                        &[("player", player), ("piece", p.to_string().into())],
                    ),
                }
            }
            Phase::Over | Phase::Leave => self.result_line(),
        }
    }

    pub(super) fn result_line(&self) -> String {
        if let Some((side, f)) = self.failures.first() {
            let player: Arg<'_> = self.name(*side).into();
            return if f.reason == ForfeitReason::Timeout {
                self.c.with("end-timeout", &[("player", player)])
            } else {
                self.c.with(
                    "end-forfeit",
                    &[("player", player), ("reason", f.reason.to_string().into())],
                )
            };
        }
        match self.game.outcome() {
            Some(Outcome::Win(p)) => self.c.with("end-win", &self.player_args(p)),
            Some(Outcome::Draw) => self.c.text("end-draw"),
            None => String::new(),
        }
    }

    fn clock_lines(&self) -> Vec<String> {
        if !self.setup.clock {
            return Vec::new();
        }
        Player::ALL
            .iter()
            .filter_map(|&side| {
                let mut left = self.clocks.left(side)? as f64;
                if self.phase == Phase::Turn && self.game.to_move() == side {
                    left -= self.turn_began.elapsed().as_secs_f64() * 1000.0;
                }
                let s = (left.max(0.0) / 1000.0) as u64;
                Some(format!("{}: {}:{:02}", self.name(side), s / 60, s % 60))
            })
            .collect()
    }
}
