//! The end of a game: the bots told and ended, the record written, the solver's word on where
//! it was decided; or, for a puzzle, solved or not.

use quads_protocol::{ResultWord, TimeControl, ToBot};
use quads_record::{ByPlayer, EndReason, Failure, GameResult};
use quads_referee::{Describe, Log};
use quads_rules::{Move, Outcome, Player};

use super::{App, Phase};
use crate::record;
use crate::sides::Kind;
use crate::Ending;

impl App {
    /// The end: tell the bots, end them, write the record, ask the solver where the game was
    /// decided.
    pub(super) async fn finish(&mut self) {
        self.phase = Phase::Over;
        if let Some(puzzle) = &self.setup.puzzle {
            let moves = puzzle.solution.join(", ");
            let won = self.game.outcome() == Some(Outcome::Win(puzzle.player()));
            self.end.push(if won {
                self.ending = Some(Ending::PuzzleSolved);
                let placements = self
                    .game
                    .moves()
                    .iter()
                    .filter(|m| matches!(m.mv, Move::Place { .. }))
                    .count();
                self.c
                    .with("puzzle-play-won", &[("placements", placements.into())])
            } else {
                self.ending = Some(Ending::PuzzleFailed);
                self.c.with("puzzle-play-lost", &[("moves", moves.into())])
            });
            return;
        }
        let (result, reason, failures) = self.result();
        let mut logs: ByPlayer<Log> = ByPlayer::default();
        let mut leaked = ByPlayer::<u32>::default();
        for &side in Player::ALL {
            if let Kind::Bot(Some(seat)) = &mut self.setup.sides[side].kind {
                let faulted = self.failures.iter().any(|(s, _)| *s == side);
                let told = (!faulted).then(|| ToBot::GameOver {
                    result: match result.winner() {
                        None => ResultWord::Draw,
                        Some(w) if w == side => ResultWord::Win,
                        Some(_) => ResultWord::Loss,
                    },
                    reason: reason.to_string(),
                    detail: self.failures.first().map(|(_, f)| f.detail.clone()),
                });
                let (left_behind, log) = seat.end_game(told, false, &self.setup.settings).await;
                logs[side] = log;
                leaked[side] = left_behind;
            }
        }
        if self.game.winning_squares().0 != 0 {
            self.end.push(self.c.text("end-shape"));
        }
        let facts = record::Facts {
            seed: self.setup.seed,
            time_control: time_control_text(&self.setup.times),
            entries: self.setup.sides.as_ref().map(|s| s.entry.clone()),
            result,
            reason,
            failures,
            started: humantime::format_rfc3339_millis(self.started_at).to_string(),
            duration_ms: self.started.elapsed().as_secs_f64() * 1000.0,
            leaked,
        };
        let Some(out) = self.setup.out.clone() else {
            return;
        };
        let number = record::next_number(&out);
        let rec = record::record(&self.game, number, facts, &logs);
        let names = ByPlayer::new_with(|p| self.name(p));
        self.end.push(record::decided(&self.c, &rec, &names));
        match record::save(&out, &rec, &logs) {
            Ok(path) => {
                self.end.push(
                    self.c
                        .with("msg-saved", &[("path", path.display().to_string().into())]),
                );
                self.ending = Some(Ending::Saved {
                    path,
                    result: self.result_line(),
                });
            }
            Err(e) => {
                self.end.push(e.clone());
                self.ending = Some(Ending::Failed(e));
            }
        }
    }

    pub(super) fn result(&self) -> (GameResult, EndReason, Vec<Failure>) {
        let failures: Vec<Failure> = self
            .failures
            .iter()
            .map(|(s, f)| Failure {
                seat: *s,
                reason: f.reason,
                detail: f.detail.clone(),
            })
            .collect();
        if let Some((side, f)) = self.failures.first() {
            return (
                GameResult::loss_of(*side),
                EndReason::Forfeit(f.reason),
                failures,
            );
        }
        match self.game.outcome() {
            Some(Outcome::Win(Player::First)) => {
                (GameResult::FirstWins, EndReason::Normal, failures)
            }
            Some(Outcome::Win(Player::Second)) => {
                (GameResult::SecondWins, EndReason::Normal, failures)
            }
            _ => (GameResult::Draw, EndReason::Draw, failures),
        }
    }
}

/// The record's time control: the bot's, or the two sides' when they differ.
fn time_control_text(times: &ByPlayer<TimeControl>) -> String {
    let text = |t: &TimeControl| {
        let s = Describe(t).to_string();
        if s.is_empty() {
            "none".to_owned()
        } else {
            s
        }
    };
    if times.first == times.second {
        text(&times.first)
    } else {
        format!(
            "first {}, second {}",
            text(&times.first),
            text(&times.second)
        )
    }
}
