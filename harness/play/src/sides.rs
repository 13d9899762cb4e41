//! Who plays each side: a person at the keyboard, a bot spoken to over the protocol through
//! the referee's seat (its time limits, its forfeits), or the solver in this process (a
//! puzzle's defence).

use quads_bots::solver::Solver;
use quads_record::BotEntry;
use quads_referee::Bot;
use quads_rules::{Move, Position, Rules};

/// What plays a side.
pub enum Kind {
    /// A person: the keys.
    Human,
    /// A bot process. `None` while a task holds the seat (starting, or thinking).
    Bot(Option<Box<Bot>>),
    /// The exact solver: the fastest win, the slowest loss.
    Solver(Box<Solver>),
}

/// One side of the game.
pub struct Contestant {
    /// The name the screen shows, in the chosen language.
    pub name: String,
    /// The name and command the record keeps.
    pub entry: BotEntry,
    /// What plays it.
    pub kind: Kind,
    /// Whether the screen speaks to this side as "you" (the one person against a bot).
    pub you: bool,
}

impl Contestant {
    /// A person.
    pub fn human(name: String, record_name: &str, you: bool) -> Contestant {
        Contestant {
            name,
            entry: BotEntry {
                name: record_name.to_owned(),
                command: "(keyboard)".to_owned(),
                id: None,
                sandbox: None,
                ponder: None,
                version: None,
            },
            kind: Kind::Human,
            you,
        }
    }

    /// Whether a bot process plays it.
    pub fn is_bot(&self) -> bool {
        matches!(self.kind, Kind::Bot(_))
    }
}

/// The solver's move in `pos`: the fastest win, or the slowest loss, or one that keeps the
/// draw.
pub fn solver_move(solver: &mut Solver, pos: &Position, rules: &Rules) -> Move {
    solver
        .best_move(pos, rules)
        .expect("a game in progress has a move")
}
