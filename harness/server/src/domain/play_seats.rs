//! A play game's seats as kept (crate::store::PlayRow's `person`): a seat's word, and whether
//! a person plays it. A leaf, under the game as shown and its clocks.

use quads_rules::Player;

use crate::store::PlayRow;

/// A seat's word: `first` or `second`.
pub(super) fn seat(p: Player) -> &'static str {
    match p {
        Player::First => "first",
        Player::Second => "second",
    }
}

/// Whether a person plays the seat to move in `row`'s game.
pub(super) fn person_moves(row: &PlayRow, to_move: Player) -> bool {
    row.person == "both" || row.person == seat(to_move)
}
