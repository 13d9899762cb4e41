//! A game being played, without a screen: the moves so far, each checked by the rules core,
//! taking moves back, and what the end looks like. `quads play` draws it in a terminal and the
//! server's play API; both read everything they show from here.

use quads_rules::{Bitboard, Move, Outcome, Player, Position, Reason, Rules, Square};

/// One move made, with the position after it and the time it took.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Made {
    /// The move.
    pub mv: Move,
    /// The position after it.
    pub after: Position,
    /// From the moment the player had to move to the move, in ms.
    pub took_ms: f64,
}

/// A game in progress or over.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    start: Position,
    made: Vec<Made>,
}

impl Game {
    /// A game under `rules` from `start`.
    pub fn new(rules: Rules, start: Position) -> Game {
        Game {
            rules,
            start,
            made: Vec::new(),
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The position the game started from.
    pub fn start(&self) -> Position {
        self.start
    }

    /// The position now.
    pub fn position(&self) -> Position {
        self.made.last().map_or(self.start, |m| m.after)
    }

    /// The moves made, in order.
    pub fn moves(&self) -> &[Made] {
        &self.made
    }

    /// The last move made, if any.
    pub fn last(&self) -> Option<Move> {
        self.made.last().map(|m| m.mv)
    }

    /// The player to move now.
    pub fn to_move(&self) -> Player {
        self.position().to_move()
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.position().outcome(&self.rules)
    }

    /// Plays `mv`, or says why the rules refuse it (and changes nothing).
    pub fn play(&mut self, mv: Move, took_ms: f64) -> Result<(), Reason> {
        let after = self
            .position()
            .play(mv, &self.rules)
            .map_err(|illegal| illegal.reason)?;
        self.made.push(Made { mv, after, took_ms });
        Ok(())
    }

    /// Takes back the last `n` moves (fewer if there are fewer); returns how many.
    pub fn undo(&mut self, n: usize) -> usize {
        let n = n.min(self.made.len());
        self.made.truncate(self.made.len() - n);
        n
    }

    /// The square of the last placement, if any.
    pub fn last_square(&self) -> Option<Square> {
        self.made.iter().rev().find_map(|m| match m.mv {
            Move::Place { to, .. } => Some(to),
            _ => None,
        })
    }

    /// The squares of the shapes that won: the completed winning shapes through the last
    /// placement (the shape the winner completed, or announced, or claimed). Empty unless the
    /// game was won.
    pub fn winning_squares(&self) -> Bitboard {
        if !matches!(self.outcome(), Some(Outcome::Win(_))) {
            return Bitboard(0);
        }
        // A claim before placing wins with the shape the previous placement completed.
        let last = self.last_square();
        let board = self.position().board().to_owned();
        let mut squares = 0u16;
        for shape in board.winning_shapes(&self.rules) {
            if last.map_or(true, |sq| shape.0 & sq.bb().0 != 0) {
                squares |= shape.0;
            }
        }
        Bitboard(squares)
    }

    /// Whether the player to move may claim an overlooked win now.
    pub fn claimable(&self) -> bool {
        self.position()
            .legal_moves(&self.rules)
            .contains(&Move::Claim)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    #[test]
    fn a_refused_move_changes_nothing_and_says_why() {
        let mut g = Game::new(Rules::QUADS, Position::START);
        assert_eq!(g.play(mv("A1 BDQF"), 0.0), Err(Reason::NothingToPlace));
        g.play(mv("BDQF"), 1.0).unwrap();
        assert_eq!(
            g.play(mv("A1 BDQF"), 0.0),
            Err(Reason::Unavailable(mv_piece("BDQF")))
        );
        g.play(mv("A1 SLRH"), 2.0).unwrap();
        assert_eq!(
            g.play(mv("A1 BLRH"), 0.0),
            Err(Reason::Occupied("A1".parse().unwrap()))
        );
        assert_eq!(g.moves().len(), 2);
        assert_eq!(g.position().to_string(), "..../..../..../BDQF... SLRH");
    }

    fn mv_piece(text: &str) -> quads_rules::Piece {
        text.parse().unwrap()
    }

    #[test]
    fn undo_takes_back_moves_and_no_more_than_were_made() {
        let mut g = Game::new(Rules::CLASSIC, Position::START);
        for m in ["BDQF", "A1 SLRH", "B1 BLRH"] {
            g.play(mv(m), 0.0).unwrap();
        }
        assert_eq!(g.undo(2), 2);
        assert_eq!(g.position().to_string(), "..../..../..../.... BDQF");
        assert_eq!(g.undo(5), 1);
        assert_eq!(g.position(), Position::START);
        assert_eq!(g.undo(1), 0);
    }

    #[test]
    fn the_winning_shape_is_the_one_through_the_last_placement() {
        // Row 1 gets four big pieces.
        let mut g = Game::new(Rules::CLASSIC, Position::START);
        for m in ["BDRF", "A1 BLRH", "B1 BLQF", "C1 BDQH", "D1"] {
            g.play(mv(m), 0.0).unwrap();
        }
        assert_eq!(g.outcome(), Some(Outcome::Win(Player::First)));
        assert_eq!(g.winning_squares(), Bitboard(0x000f));
        assert_eq!(g.last_square(), Some("D1".parse().unwrap()));
    }

    #[test]
    fn an_overlooked_shape_can_be_claimed_and_then_shows_as_won() {
        let rules: Rules = "classic,claim=announce".parse().unwrap();
        let mut g = Game::new(rules, Position::START);
        for m in ["BDRF", "A1 BLRH", "B1 BLQF", "C1 BDQH"] {
            g.play(mv(m), 0.0).unwrap();
        }
        // D1 completes row 1, but the placer gives instead of announcing.
        g.play(mv("D1 SLQH"), 0.0).unwrap();
        assert!(g.claimable());
        assert_eq!(g.winning_squares(), Bitboard(0));
        g.play(mv("quarto"), 0.0).unwrap();
        assert_eq!(g.outcome(), Some(Outcome::Win(Player::Second)));
        assert_eq!(g.winning_squares(), Bitboard(0x000f));
    }
}
