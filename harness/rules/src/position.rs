//! Positions: the board, the piece in hand, and the state of a "Quarto!" claim; their notation;
//! and the rules of play (legal moves, playing a move, the outcome).
//!
//! Notation: the four rows from row 4 down to row 1 separated by `/`, each square a piece's
//! four letters or `.`; a space and the piece in hand (`-` before the first give and after the
//! game ends); under `claim=announce` only, a third field:
//!
//! - `claimable`: the last placement completed a winning shape and its placer did not announce
//!   it. The player to move may claim it (move `quarto`) before placing, and wins.
//! - `claimed`: the game was won by a claim. With `-` in hand the last placer announced its own
//!   win; with a piece in hand the player who received it claimed an overlooked win.
//!
//! The start is `..../..../..../.... -`.

use std::fmt;
use std::str::FromStr;

use crate::board::Board;
use crate::moves::{Move, Then};
use crate::piece::{Piece, PieceSet};
use crate::player::Player;
use crate::rules::{Claim, Rules};
use crate::square::Square;

/// How a finished game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This player won.
    Win(Player),
    /// The board filled with no win.
    Draw,
}

/// Where a "Quarto!" claim stands (always [`ClaimState::None`] under automatic claims).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum ClaimState {
    /// Nothing to claim.
    #[default]
    None,
    /// The last placement completed a winning shape that was not announced; the player to
    /// move may claim it before placing.
    Claimable,
    /// The game was won by a claim.
    Claimed,
}

/// A game position: everything needed to go on playing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Position {
    board: Board,
    hand: Option<Piece>,
    claim: ClaimState,
}

/// Why a move is illegal.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The game is already over.
    GameOver,
    /// No piece is in hand: the opening move is a give.
    NothingToPlace,
    /// A piece is in hand and must be placed; only the opening move is a bare give.
    MustPlace,
    /// The square already holds a piece.
    Occupied(Square),
    /// The piece is on the board or in hand.
    Unavailable(Piece),
    /// The game goes on after this placement, so a piece must be given.
    MustGive,
    /// This placement ends the game (it wins, or fills the board): nothing may be given.
    MustNotGive,
    /// Claims exist only under `claim=announce`.
    NoClaims,
    /// There is no winning shape to claim.
    FalseClaim,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::GameOver => f.write_str("the game is over"),
            Reason::NothingToPlace => f.write_str("no piece in hand: the opening move is a give"),
            Reason::MustPlace => f.write_str("a piece is in hand: place it, then give"),
            Reason::Occupied(sq) => write!(f, "square {sq} is occupied"),
            Reason::Unavailable(p) => write!(f, "piece {p} is not available"),
            Reason::MustGive => f.write_str("the game goes on: give a piece after placing"),
            Reason::MustNotGive => f.write_str("this placement ends the game: give nothing"),
            Reason::NoClaims => f.write_str("claims are only made under claim=announce"),
            Reason::FalseClaim => f.write_str("false claim: no winning shape to claim"),
        }
    }
}

/// An illegal move, with the position it was tried in (which is left unchanged).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move that was tried.
    pub mv: Move,
    /// The position it was tried in.
    pub position: Position,
    /// Why it is illegal.
    pub reason: Reason,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "illegal move `{}` in `{}`: {}",
            self.mv, self.position, self.reason
        )
    }
}

impl std::error::Error for IllegalMove {}

/// Why a position cannot arise in a game under given rules ([`Position::check`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Impossible {
    /// A claim state under rules where wins are automatic.
    ClaimWithoutAnnounce,
    /// A claim state with no completed winning shape.
    ClaimWithoutShape,
    /// A claimable win with no piece in hand.
    ClaimableWithoutHand,
    /// No piece in hand in a game that has started and is not over.
    EmptyHandMidGame,
    /// A piece in hand in a game that is over.
    HandAfterTheEnd,
}

impl fmt::Display for Impossible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Impossible::ClaimWithoutAnnounce => "claim states exist only under claim=announce",
            Impossible::ClaimWithoutShape => "a claim needs a completed winning shape on the board",
            Impossible::ClaimableWithoutHand => "a claimable win needs a piece in hand",
            Impossible::EmptyHandMidGame => {
                "no piece in hand, but the game has started and is not over"
            }
            Impossible::HandAfterTheEnd => "a piece is in hand, but the game is over",
        })
    }
}

impl std::error::Error for Impossible {}

impl Position {
    /// The start: an empty board, nothing in hand.
    pub const START: Position = Position {
        board: Board::EMPTY,
        hand: None,
        claim: ClaimState::None,
    };

    /// A position from its parts. [`Position::check`] says whether it can arise in a game.
    pub fn from_parts(board: Board, hand: Option<Piece>, claim: ClaimState) -> Position {
        Position { board, hand, claim }
    }

    /// The board.
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// The piece the player to move must place.
    pub const fn hand(&self) -> Option<Piece> {
        self.hand
    }

    /// The state of a "Quarto!" claim.
    pub const fn claim_state(&self) -> ClaimState {
        self.claim
    }

    /// The pieces neither on the board nor in hand: those that can still be given.
    pub fn remaining(&self) -> PieceSet {
        let mut used = self.board.pieces();
        if let Some(h) = self.hand {
            used = used.with(h);
        }
        used.complement()
    }

    /// The number of pieces on the board.
    pub fn placed(&self) -> u32 {
        self.board.occupied().len()
    }

    /// The player who moves now: the first player gives first, the second places the first
    /// piece, and the players then alternate.
    pub fn to_move(&self) -> Player {
        // After the game ends this is who would have moved next.
        if self.placed() == 0 && self.hand.is_none() {
            Player::First
        } else {
            self.last_placer().other()
        }
    }

    /// The player who placed the last piece (the first player if nothing is placed yet).
    pub fn last_placer(&self) -> Player {
        if self.placed() % 2 == 1 {
            Player::Second
        } else {
            Player::First
        }
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self, rules: &Rules) -> Option<Outcome> {
        if self.claim == ClaimState::Claimed {
            // With nothing handed over the last placer claimed its own placement; otherwise
            // the player holding the piece claimed before placing it.
            return Some(Outcome::Win(match self.hand {
                None => self.last_placer(),
                Some(_) => self.last_placer().other(),
            }));
        }
        if rules.claim == Claim::Auto && self.board.has_win(rules) {
            return Some(Outcome::Win(self.last_placer()));
        }
        if self.board.is_full() {
            return Some(Outcome::Draw);
        }
        None
    }

    /// Whether the position can arise in a game under `rules`; if not, says why.
    pub fn check(&self, rules: &Rules) -> Result<(), Impossible> {
        let started = self.placed() > 0;
        let ended = self.board.is_full()
            || self.claim == ClaimState::Claimed
            || (rules.claim == Claim::Auto && self.board.has_win(rules));
        if rules.claim == Claim::Auto && self.claim != ClaimState::None {
            return Err(Impossible::ClaimWithoutAnnounce);
        }
        if self.claim != ClaimState::None && !self.board.has_win(rules) {
            return Err(Impossible::ClaimWithoutShape);
        }
        if self.claim == ClaimState::Claimable && self.hand.is_none() {
            return Err(Impossible::ClaimableWithoutHand);
        }
        match self.hand {
            None if started && !ended => Err(Impossible::EmptyHandMidGame),
            Some(_) if ended && self.claim != ClaimState::Claimed => {
                Err(Impossible::HandAfterTheEnd)
            }
            _ => Ok(()),
        }
    }

    /// Whether `mv` is legal here, and why not.
    pub fn validate(&self, mv: Move, rules: &Rules) -> Result<(), Reason> {
        if self.outcome(rules).is_some() {
            return Err(Reason::GameOver);
        }
        let announce = rules.claim == Claim::Announce;
        let Some(hand) = self.hand else {
            return match mv {
                Move::Give(p) if self.remaining().contains(p) => Ok(()),
                Move::Give(p) => Err(Reason::Unavailable(p)),
                Move::Place { .. } => Err(Reason::NothingToPlace),
                Move::Claim if announce => Err(Reason::FalseClaim),
                Move::Claim => Err(Reason::NoClaims),
            };
        };
        match mv {
            Move::Give(_) => Err(Reason::MustPlace),
            Move::Claim if !announce => Err(Reason::NoClaims),
            Move::Claim if self.claim == ClaimState::Claimable => Ok(()),
            Move::Claim => Err(Reason::FalseClaim),
            Move::Place { to, then } => {
                if self.board.occupied().contains(to) {
                    return Err(Reason::Occupied(to));
                }
                let wins = self.board.completes(to, hand, rules);
                let fills = self.board.empty().len() == 1;
                match then {
                    Then::Quarto if !announce => Err(Reason::NoClaims),
                    Then::Quarto if wins => Ok(()),
                    Then::Quarto => Err(Reason::FalseClaim),
                    Then::Nothing if fills || (wins && !announce) => Ok(()),
                    Then::Nothing => Err(Reason::MustGive),
                    Then::Give(_) if fills || (wins && !announce) => Err(Reason::MustNotGive),
                    Then::Give(p) if self.remaining().contains(p) => Ok(()),
                    Then::Give(p) => Err(Reason::Unavailable(p)),
                }
            }
        }
    }

    /// Plays `mv`, or says why it is illegal.
    pub fn play(&self, mv: Move, rules: &Rules) -> Result<Position, IllegalMove> {
        if let Err(reason) = self.validate(mv, rules) {
            return Err(IllegalMove {
                mv,
                position: *self,
                reason,
            });
        }
        Ok(self.play_unchecked(mv, rules))
    }

    /// Plays a move already known to be legal (by [`Position::validate`], or because it was
    /// drawn from [`Position::legal_moves`]), without checking it again: for a caller's inner
    /// loop. An illegal move gives a position that cannot arise.
    pub fn play_unchecked(&self, mv: Move, rules: &Rules) -> Position {
        let mut next = *self;
        match mv {
            Move::Give(p) => next.hand = Some(p),
            Move::Claim => next.claim = ClaimState::Claimed,
            Move::Place { to, then } => {
                let hand = self.hand.expect("validated: a piece is in hand");
                let wins = rules.claim == Claim::Announce && self.board.completes(to, hand, rules);
                next.board.place(to, hand);
                next.hand = None;
                // An unclaimed shape from the previous placement is now overlooked by both
                // players and never counts again: it needs no record, since a claim before
                // placing is the only way to use it.
                next.claim = ClaimState::None;
                match then {
                    Then::Give(p) => {
                        next.hand = Some(p);
                        if wins {
                            next.claim = ClaimState::Claimable;
                        }
                    }
                    Then::Quarto => next.claim = ClaimState::Claimed,
                    Then::Nothing => {}
                }
            }
        }
        next
    }

    /// Every legal move, in a fixed order: a claim first, then by square, then by piece.
    pub fn legal_moves(&self, rules: &Rules) -> Vec<Move> {
        let mut moves = Vec::new();
        if self.outcome(rules).is_some() {
            return moves;
        }
        let Some(hand) = self.hand else {
            moves.extend(self.remaining().iter().map(Move::Give));
            return moves;
        };
        let announce = rules.claim == Claim::Announce;
        if announce && self.claim == ClaimState::Claimable {
            moves.push(Move::Claim);
        }
        let fills = self.board.empty().len() == 1;
        for to in self.board.empty().iter() {
            let wins = self.board.completes(to, hand, rules);
            if announce && wins {
                moves.push(Move::Place {
                    to,
                    then: Then::Quarto,
                });
            }
            if fills || (wins && !announce) {
                moves.push(Move::Place {
                    to,
                    then: Then::Nothing,
                });
            } else {
                moves.extend(self.remaining().iter().map(|p| Move::Place {
                    to,
                    then: Then::Give(p),
                }));
            }
        }
        moves
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Built in one buffer and written at once: a `go` line carries a position every move.
        let mut text = [0u8; 72];
        let mut len = 0;
        let mut put = |bytes: &[u8]| {
            text[len..len + bytes.len()].copy_from_slice(bytes);
            len += bytes.len();
        };
        for row in (0..4).rev() {
            for col in 0..4 {
                let sq = Square::at(col, row).expect("in range");
                match self.board.piece_at(sq) {
                    Some(p) => put(&p.letters()),
                    None => put(b"."),
                }
            }
            if row > 0 {
                put(b"/");
            }
        }
        match self.hand {
            Some(p) => {
                put(b" ");
                put(&p.letters());
            }
            None => put(b" -"),
        }
        f.write_str(std::str::from_utf8(&text[..len]).expect("a position's text is ASCII"))?;
        match self.claim {
            ClaimState::None => Ok(()),
            ClaimState::Claimable => f.write_str(" claimable"),
            ClaimState::Claimed => f.write_str(" claimed"),
        }
    }
}

/// Why a position did not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePositionError {
    /// The text given.
    pub text: String,
    /// What is wrong with it.
    pub problem: String,
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid position `{}`: {}", self.text, self.problem)
    }
}

impl std::error::Error for ParsePositionError {}

impl FromStr for Position {
    type Err = ParsePositionError;

    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        parse_position(s).map_err(|problem| ParsePositionError {
            text: s.to_owned(),
            problem,
        })
    }
}

fn parse_position(s: &str) -> Result<Position, String> {
    let fields: Vec<&str> = s.split_ascii_whitespace().collect();
    let (rows, hand, claim) = match fields[..] {
        [rows, hand] => (rows, hand, None),
        [rows, hand, claim] => (rows, hand, Some(claim)),
        _ => {
            return Err(
                "expected ROWS HAND [claimable|claimed], e.g. `..../..../..../.... -`".into(),
            )
        }
    };
    let rows: Vec<&str> = rows.split('/').collect();
    if rows.len() != 4 {
        return Err(format!(
            "expected 4 rows separated by /, found {}",
            rows.len()
        ));
    }
    let mut board = Board::EMPTY;
    for (i, text) in rows.iter().enumerate() {
        let row = 3 - i as u8;
        let mut col = 0u8;
        let mut rest = *text;
        while !rest.is_empty() {
            if col == 4 {
                return Err(format!("row {} has more than 4 squares: `{text}`", row + 1));
            }
            let sq = Square::at(col, row).expect("in range");
            if let Some(after) = rest.strip_prefix('.') {
                rest = after;
            } else {
                let letters = rest
                    .get(..4)
                    .ok_or_else(|| format!("bad piece in row {}: `{rest}`", row + 1))?;
                let p: Piece = letters.parse().map_err(|e| format!("{e}"))?;
                if board.pieces().contains(p) {
                    return Err(format!("piece {p} is on the board twice"));
                }
                board.place(sq, p);
                rest = &rest[4..];
            }
            col += 1;
        }
        if col != 4 {
            return Err(format!(
                "row {} has {col} squares, expected 4: `{text}`",
                row + 1
            ));
        }
    }
    let hand = match hand {
        "-" => None,
        text => {
            let p: Piece = text.parse().map_err(|e| format!("{e}"))?;
            if board.pieces().contains(p) {
                return Err(format!("piece {p} is both in hand and on the board"));
            }
            Some(p)
        }
    };
    let claim = match claim {
        None => ClaimState::None,
        Some("claimable") => ClaimState::Claimable,
        Some("claimed") => ClaimState::Claimed,
        Some(other) => {
            return Err(format!(
                "unknown claim state `{other}` (expected claimable or claimed)"
            ))
        }
    };
    if claim != ClaimState::None && board.occupied().is_empty() {
        return Err("a claim state needs pieces on the board".into());
    }
    Ok(Position { board, hand, claim })
}
