//! What a key means on a person's turn: the cursor on the board and on the pieces, the typed
//! move, and the move or command they add up to. No terminal here: keys come in as [`Key`],
//! and the tests press them one by one.

use quads_rules::{Move, Piece, Position, Reason, Rules, Square, Then};

/// A key, as the game reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// The arrows.
    Up,
    /// Down arrow.
    Down,
    /// Left arrow.
    Left,
    /// Right arrow.
    Right,
    /// Enter.
    Enter,
    /// Escape.
    Esc,
    /// Backspace.
    Backspace,
    /// A character typed.
    Char(char),
    /// F1: the rules.
    Help,
    /// F2: "Quarto!" (announce with a chosen square, or claim before placing).
    Quarto,
    /// Ctrl-Z: take back.
    Undo,
    /// Ctrl-Q (or Ctrl-C): leave.
    Quit,
}

/// Where the cursor is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    /// Choosing the square for the piece in hand.
    Board,
    /// Choosing the piece to give, after placing on `square` (none for the opening give).
    Pieces {
        /// The square chosen for the piece in hand.
        square: Option<Square>,
    },
}

/// What the keys so far add up to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Nothing yet.
    Nothing,
    /// This move, to be checked by the rules.
    Play(Move),
    /// A square was chosen; now the piece to give.
    Chosen(Square),
    /// The move was refused before it was made, for this reason.
    Refused(Reason),
    /// The typed text is not a move.
    Unreadable(String),
    /// Take back.
    Undo,
    /// Show the rules.
    Help,
    /// Leave.
    Quit,
}

/// The cursor, the choices made so far in this turn, and the typed text.
#[derive(Clone, Debug)]
pub struct Input {
    /// The square under the cursor: column and row, 0 to 3 each.
    pub square: (u8, u8),
    /// The piece under the cursor, an index into [`Piece::ALL`].
    pub piece: usize,
    /// What is being chosen.
    pub focus: Focus,
    /// The move being typed.
    pub text: String,
}

impl Default for Input {
    fn default() -> Input {
        Input {
            square: (0, 0),
            piece: 0,
            focus: Focus::Board,
            text: String::new(),
        }
    }
}

impl Input {
    /// Gets ready for a turn in `pos`: the board if a piece is in hand, else the pieces; the
    /// cursor on a square and a piece that are free.
    pub fn begin(&mut self, pos: &Position) {
        self.text.clear();
        self.focus = if pos.hand().is_some() {
            Focus::Board
        } else {
            Focus::Pieces { square: None }
        };
        if pos.board().piece_at(self.cursor_square()).is_some() {
            if let Some(free) = pos.board().empty().iter().next() {
                self.square = (free.col(), free.row());
            }
        }
        self.free_piece(pos);
    }

    fn free_piece(&mut self, pos: &Position) {
        let remaining = pos.remaining();
        if !remaining.contains(Piece::ALL[self.piece]) {
            if let Some(i) = Piece::ALL.iter().position(|p| remaining.contains(*p)) {
                self.piece = i;
            }
        }
    }

    /// The square under the cursor.
    pub fn cursor_square(&self) -> Square {
        Square::at(self.square.0, self.square.1).expect("the cursor stays on the board")
    }

    /// The piece under the cursor.
    pub fn cursor_piece(&self) -> Piece {
        Piece::ALL[self.piece]
    }

    /// Reads one key in `pos` under `rules`.
    pub fn key(&mut self, key: Key, pos: &Position, rules: &Rules) -> Action {
        match key {
            Key::Char(c) if !c.is_control() => {
                self.text.push(c);
                Action::Nothing
            }
            Key::Char(_) => Action::Nothing,
            Key::Backspace => {
                self.text.pop();
                Action::Nothing
            }
            Key::Esc => {
                if !self.text.is_empty() {
                    self.text.clear();
                } else if let Focus::Pieces { square: Some(_) } = self.focus {
                    self.focus = Focus::Board;
                }
                Action::Nothing
            }
            Key::Undo => Action::Undo,
            Key::Help => Action::Help,
            Key::Quit => Action::Quit,
            Key::Up | Key::Down | Key::Left | Key::Right => {
                self.step(key);
                Action::Nothing
            }
            Key::Enter if !self.text.trim().is_empty() => {
                let text = std::mem::take(&mut self.text);
                match text.trim().parse::<Move>() {
                    Ok(mv) => Action::Play(mv),
                    Err(_) => Action::Unreadable(text.trim().to_owned()),
                }
            }
            Key::Enter => self.choose(pos, rules),
            Key::Quarto => match self.focus {
                Focus::Pieces { square: Some(to) } => Action::Play(Move::Place {
                    to,
                    then: Then::Quarto,
                }),
                // Before placing: claim an overlooked win if there is one, else announce the
                // win the square under the cursor completes (the last empty square included).
                Focus::Board if pos.claim_state() != quads_rules::ClaimState::Claimable => {
                    let to = self.cursor_square();
                    match pos.hand() {
                        Some(hand)
                            if pos.board().piece_at(to).is_none()
                                && pos.board().completes(to, hand, rules) =>
                        {
                            Action::Play(Move::Place {
                                to,
                                then: Then::Quarto,
                            })
                        }
                        _ => Action::Play(Move::Claim),
                    }
                }
                _ => Action::Play(Move::Claim),
            },
        }
    }

    /// Enter with nothing typed: the square or the piece under the cursor.
    fn choose(&mut self, pos: &Position, rules: &Rules) -> Action {
        match self.focus {
            Focus::Board => {
                let to = self.cursor_square();
                if pos.board().piece_at(to).is_some() {
                    return Action::Refused(Reason::Occupied(to));
                }
                let Some(hand) = pos.hand() else {
                    return Action::Refused(Reason::NothingToPlace);
                };
                let wins = pos.board().completes(to, hand, rules);
                let fills = pos.board().empty().len() == 1;
                if fills || (wins && rules.claim == quads_rules::Claim::Auto) {
                    return Action::Play(Move::Place {
                        to,
                        then: Then::Nothing,
                    });
                }
                self.focus = Focus::Pieces { square: Some(to) };
                self.free_piece(pos);
                Action::Chosen(to)
            }
            Focus::Pieces { square } => {
                let p = self.cursor_piece();
                Action::Play(match square {
                    None => Move::Give(p),
                    Some(to) => Move::Place {
                        to,
                        then: Then::Give(p),
                    },
                })
            }
        }
    }

    fn step(&mut self, key: Key) {
        match self.focus {
            Focus::Board => {
                let (c, r) = &mut self.square;
                match key {
                    Key::Up => *r = (*r + 1).min(3),
                    Key::Down => *r = r.saturating_sub(1),
                    Key::Left => *c = c.saturating_sub(1),
                    _ => *c = (*c + 1).min(3),
                }
            }
            Focus::Pieces { .. } => {
                let (mut c, mut r) = (self.piece % 4, self.piece / 4);
                match key {
                    Key::Up => r = r.saturating_sub(1),
                    Key::Down => r = (r + 1).min(3),
                    Key::Left => c = c.saturating_sub(1),
                    _ => c = (c + 1).min(3),
                }
                self.piece = r * 4 + c;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(text: &str) -> Position {
        text.parse().unwrap()
    }

    #[test]
    fn arrows_then_enter_choose_a_square_then_a_piece() {
        let p = pos("..../..../..../.... BDQF");
        let mut input = Input::default();
        input.begin(&p);
        assert_eq!(input.focus, Focus::Board);
        for k in [
            Key::Right,
            Key::Up,
            Key::Up,
            Key::Right,
            Key::Right,
            Key::Right,
        ] {
            assert_eq!(input.key(k, &p, &Rules::QUADS), Action::Nothing);
        }
        assert_eq!(input.cursor_square().to_string(), "D3");
        assert_eq!(
            input.key(Key::Enter, &p, &Rules::QUADS),
            Action::Chosen("D3".parse().unwrap())
        );
        // BDQF is in hand: the cursor starts on the first piece that can be given.
        assert_ne!(input.cursor_piece().to_string(), "BDQF");
        input.key(Key::Down, &p, &Rules::QUADS);
        let given = input.cursor_piece();
        assert_eq!(
            input.key(Key::Enter, &p, &Rules::QUADS),
            Action::Play(Move::Place {
                to: "D3".parse().unwrap(),
                then: Then::Give(given)
            })
        );
    }

    #[test]
    fn a_typed_move_is_read_whole_and_a_bad_one_is_returned() {
        let p = pos("..../..../..../.... BDQF");
        let mut input = Input::default();
        input.begin(&p);
        for c in "c2 slqh".chars() {
            input.key(Key::Char(c), &p, &Rules::QUADS);
        }
        assert_eq!(
            input.key(Key::Enter, &p, &Rules::QUADS),
            Action::Play("C2 SLQH".parse().unwrap())
        );
        for c in "Z9".chars() {
            input.key(Key::Char(c), &p, &Rules::QUADS);
        }
        input.key(Key::Backspace, &p, &Rules::QUADS);
        input.key(Key::Char('1'), &p, &Rules::QUADS);
        assert_eq!(
            input.key(Key::Enter, &p, &Rules::QUADS),
            Action::Unreadable("Z1".into())
        );
    }

    #[test]
    fn an_occupied_square_is_refused_and_a_winning_one_plays_at_once() {
        // BDQH in hand wins on D1 (row 1 all big).
        let p = pos("..../..../..../BDRFBLQHBLRF. BDQH");
        let mut input = Input::default();
        input.begin(&p);
        assert_eq!(input.cursor_square().to_string(), "D1");
        input.key(Key::Left, &p, &Rules::QUADS);
        assert_eq!(
            input.key(Key::Enter, &p, &Rules::QUADS),
            Action::Refused(Reason::Occupied("C1".parse().unwrap()))
        );
        input.key(Key::Right, &p, &Rules::QUADS);
        assert_eq!(
            input.key(Key::Enter, &p, &Rules::QUADS),
            Action::Play("D1".parse().unwrap())
        );
        // Under claim=announce the winner must still choose: announce (F2) or give.
        let announce: Rules = "quads,claim=announce".parse().unwrap();
        assert_eq!(
            input.key(Key::Enter, &p, &announce),
            Action::Chosen("D1".parse().unwrap())
        );
        assert_eq!(
            input.key(Key::Quarto, &p, &announce),
            Action::Play("D1 quarto".parse().unwrap())
        );
        input.key(Key::Esc, &p, &announce);
        assert_eq!(input.focus, Focus::Board);
        // F2 on the winning square itself announces too.
        assert_eq!(
            input.key(Key::Quarto, &p, &announce),
            Action::Play("D1 quarto".parse().unwrap())
        );
        // Elsewhere it claims (and the rules refuse a claim with nothing to claim).
        input.key(Key::Up, &p, &announce);
        assert_eq!(
            input.key(Key::Quarto, &p, &announce),
            Action::Play(Move::Claim)
        );
    }

    #[test]
    fn the_opening_give_is_chosen_among_the_pieces() {
        let mut input = Input::default();
        input.begin(&Position::START);
        assert_eq!(input.focus, Focus::Pieces { square: None });
        input.key(Key::Right, &Position::START, &Rules::QUADS);
        input.key(Key::Down, &Position::START, &Rules::QUADS);
        assert_eq!(
            input.key(Key::Enter, &Position::START, &Rules::QUADS),
            Action::Play(Move::Give(Piece::ALL[5]))
        );
    }
}
