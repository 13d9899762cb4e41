//! Why a move is illegal, in a language: the rules core's [`Reason`], for people.

use quads_rules::Reason;

use crate::Catalog;

/// `why`, in `c`'s language.
pub fn reason(c: &Catalog, why: Reason) -> String {
    match why {
        Reason::GameOver => c.text("reason-game-over"),
        Reason::NothingToPlace => c.text("reason-nothing-to-place"),
        Reason::MustPlace => c.text("reason-must-place"),
        Reason::Occupied(sq) => c.with("reason-occupied", &[("square", sq.to_string().into())]),
        Reason::Unavailable(p) => c.with("reason-unavailable", &[("piece", p.to_string().into())]),
        Reason::MustGive => c.text("reason-must-give"),
        Reason::MustNotGive => c.text("reason-must-not-give"),
        Reason::NoClaims => c.text("reason-no-claims"),
        Reason::FalseClaim => c.text("reason-false-claim"),
    }
}
