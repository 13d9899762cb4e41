//! A turn as its two decisions, in plain Rust: which whole move an action makes, which actions
//! are legal, and one action played. `State` (one game, for Python) and `VectorEnv` (many, in
//! arrays) both play through here, so they cannot disagree on the rules of the action space.

use quads_rules::{Claim, ClaimState, Move, Position, Reason, Rules, Square, Then};

use crate::actions::{Action, GIVE};

/// The whole move action `a` makes from (`pos`, a pending placement), or `None` when it only
/// starts a turn (a placement that awaits its give), or why it is illegal.
pub fn move_of(
    rules: &Rules,
    pos: &Position,
    pending: Option<Square>,
    a: Action,
) -> Result<Option<Move>, Reason> {
    if pos.outcome(rules).is_some() {
        return Err(Reason::GameOver);
    }
    move_of_live(rules, pos, pending, a)
}

/// [`move_of`] in a position known to be in play.
pub fn move_of_live(
    rules: &Rules,
    pos: &Position,
    pending: Option<Square>,
    a: Action,
) -> Result<Option<Move>, Reason> {
    let announce = rules.claim == Claim::Announce;
    match (pending, pos.hand(), a) {
        (Some(to), _, Action::Give(p)) => Ok(Some(Move::Place {
            to,
            then: Then::Give(p),
        })),
        (Some(_), _, Action::Place(_)) => Err(Reason::MustGive),
        (None, None, Action::Give(p)) => Ok(Some(Move::Give(p))),
        (None, None, Action::Place(_)) => Err(Reason::NothingToPlace),
        (None, Some(_), Action::Give(_)) => Err(Reason::MustPlace),
        (None, Some(hand), Action::Place(to)) => {
            if pos.board().occupied().contains(to) {
                return Err(Reason::Occupied(to));
            }
            if announce && pos.claim_state() == ClaimState::Claimable {
                return Ok(Some(Move::Claim));
            }
            let wins = pos.board().completes(to, hand, rules);
            let fills = pos.board().empty().len() == 1;
            Ok(match (wins, fills) {
                (true, _) if announce => Some(Move::Place {
                    to,
                    then: Then::Quarto,
                }),
                (true, _) | (_, true) => Some(Move::Place {
                    to,
                    then: Then::Nothing,
                }),
                _ => None,
            })
        }
    }
}

/// The legal actions as bits (bit `a` set when action `a` is legal); none once the game is
/// over.
pub fn legal_mask(rules: &Rules, pos: &Position, pending: Option<Square>) -> u32 {
    if pos.outcome(rules).is_some() {
        return 0;
    }
    live_mask(pos, pending)
}

/// [`legal_mask`] in a position known to be in play.
pub fn live_mask(pos: &Position, pending: Option<Square>) -> u32 {
    let gives = u32::from(pos.remaining().0) << GIVE;
    match (pending, pos.hand()) {
        (None, Some(_)) => u32::from(pos.board().empty().0),
        _ => gives,
    }
}

/// Whether move `m` ends the game (it is a claim, or a placement that gives nothing).
pub fn ends(m: &Move) -> bool {
    matches!(
        m,
        Move::Claim
            | Move::Place {
                then: Then::Nothing | Then::Quarto,
                ..
            }
    )
}

/// Plays action `a` on (`pos`, `pending`): the new whole position and pending placement, or
/// why it is illegal.
pub fn play(
    rules: &Rules,
    pos: &Position,
    pending: Option<Square>,
    a: Action,
) -> Result<(Position, Option<Square>), Reason> {
    match move_of(rules, pos, pending, a)? {
        Some(m) => pos
            .play(m, rules)
            .map(|next| (next, None))
            .map_err(|e| e.reason),
        None => {
            let Action::Place(to) = a else {
                unreachable!("only a placement awaits its give")
            };
            Ok((*pos, Some(to)))
        }
    }
}
