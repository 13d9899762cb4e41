//! A remote worker's slot plays a bot's turn in a person's game on the play page
//! (crate::wire::Turn): the version built and checked here as for a match (once per digest),
//! one move asked of it as the server's own worker of turns asks (crate::ladder::turn), and
//! the answer handed in.

use std::time::Duration;

use super::{CallError, Event, Shared};
use quads_record::ForfeitReason;

use crate::ladder::turn::{fault_line, fault_text, think};
use crate::wire::{Answer, Turn};

impl Shared<'_> {
    /// Plays and answers turn `t`. A version that cannot be built or started here loses the
    /// game as one whose set-up failed (the reason says it was this worker), as a match that
    /// cannot be played here is given up for good: the person is not left waiting.
    pub(super) fn turn(&self, slot: u32, t: &Turn) -> Result<(), CallError> {
        let played = self
            .built(&t.event, &t.side)
            .and_then(|ready| think(&ready.bot, &t.event.movetime, &t.game));
        let mut answer = Answer {
            slot: self.client.slot(slot),
            after: t.game.moves.len(),
            mv: None,
            took_ms: 0.0,
            fault: None,
        };
        let said = match played {
            Ok(Ok((mv, ms))) => {
                answer.mv = Some(mv.to_string());
                answer.took_ms = ms;
                mv.to_string()
            }
            Ok(Err(fault)) => {
                let line = fault_line(&fault);
                answer.fault = Some(line.clone());
                line
            }
            Err(why) => {
                let line = fault_text(
                    &ForfeitReason::Handshake.to_string(),
                    &format!("not started on this worker: {why}"),
                );
                answer.fault = Some(line.clone());
                line
            }
        };
        // Answered once the server hears it: if it was away too long, the lease is lost and
        // the answer says it does not count.
        let mut retry = Duration::from_secs(1);
        let counted = loop {
            match self.client.answer(&t.play, &answer) {
                Err(e @ CallError::Unreachable { .. }) => {
                    self.wait_out(slot, e.to_string(), &mut retry)
                }
                done => break done?,
            }
        };
        (self.events)(Event::Answered {
            slot,
            play: t.play.clone(),
            entrant: t.side.entrant.clone(),
            answer: said,
            counted,
        });
        Ok(())
    }
}
