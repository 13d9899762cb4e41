//! The matches being played, as their watchers see them: each match a worker holds is kept in
//! memory from the moves its worker reports ([`News`]: the server's own workers directly, a
//! remote worker over HTTP while it holds the lease), and every change is sent to the match's
//! watchers as a [`Frame`]. Nothing here is written to the database: a finished match's games
//! are its record, replayed at the same address. The moves are checked by the rules as they
//! come (a move that does not follow is dropped), and a game's end carries the record's own
//! moves, so a watcher who missed one is put right. What is kept is bounded: a match's games
//! (two on the ladder), each at most sixteen moves, for the matches held now.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use quads_record::game::Game;
use quads_record::{ByPlayer, Player};
use quads_rules::{Move, Position, Rules, Square};
use serde::Serialize;
use tokio::sync::{broadcast, watch, OwnedSemaphorePermit, Semaphore};

use crate::wire::News;

/// One change a watcher is sent (one server-sent event, its JSON the data).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Frame {
    /// A game begins (and the first frame a watcher gets): who sits where.
    Game {
        /// The match.
        #[serde(rename = "match")]
        id: i64,
        /// The game's number in the match, from 1.
        game: u32,
        /// Who moves first in it.
        first: String,
        /// The other.
        second: String,
        /// The variant.
        rules: String,
    },
    /// A move, and the position after it.
    Move {
        /// The match.
        #[serde(rename = "match")]
        id: i64,
        /// The game.
        game: u32,
        /// The move's place in the game, from 1.
        ply: usize,
        /// The move, in notation.
        mv: String,
        /// Who made it: `first` or `second`.
        by: Player,
        /// The sixteen squares A1, B1 … D4, each the piece on it (`BDRH`…) or nothing.
        board: Vec<Option<String>>,
        /// The piece given to the side to move, if any.
        hand: Option<String>,
    },
    /// A game ended.
    Result {
        /// The match.
        #[serde(rename = "match")]
        id: i64,
        /// The game.
        game: u32,
        /// `1-0`, `0-1` or `1/2-1/2`.
        result: String,
        /// How it ended.
        reason: String,
    },
    /// The match is no longer played here: its state (`done`, `failed`, `cancelled`, or
    /// `queued` when its worker lost it and it waits to be played again).
    End {
        /// The match.
        #[serde(rename = "match")]
        id: i64,
        /// Its state.
        state: String,
    },
}

impl Frame {
    /// The SSE event's name.
    pub fn name(&self) -> &'static str {
        match self {
            Frame::Game { .. } => "game",
            Frame::Move { .. } => "move",
            Frame::Result { .. } => "result",
            Frame::End { .. } => "end",
        }
    }
}

/// How many frames a slow watcher may fall behind before its stream ends (it reconnects and
/// starts again from the match as it is).
const BEHIND: usize = 64;

/// A match being played.
struct Watched {
    /// Who plays it (a worker of the server's, or a remote worker's slot): only its news counts.
    holder: String,
    /// Its entrants as the match names them, the first seat of game 1 first.
    names: ByPlayer<String>,
    rules: Rules,
    /// The current game's number (0 before the first move).
    game: u32,
    /// How many games the match has.
    games: u32,
    /// The current game.
    play: Game,
    /// The current game's frames: its `Game` and its moves.
    frames: Vec<Frame>,
    /// The ended games' results.
    results: Vec<Frame>,
    tx: broadcast::Sender<Frame>,
    /// When its worker last said something.
    heard: Instant,
}

/// A match as the home page's choice sees it.
#[derive(Clone, Debug)]
pub struct Running {
    /// The match.
    pub id: i64,
    /// Its two entrants.
    pub names: ByPlayer<String>,
    /// When its worker last said something.
    pub heard: Instant,
}

/// The most watchers at once (each a stream held open and a task).
pub const MAX_WATCHERS: usize = 512;

/// The matches being played now.
pub struct Live {
    matches: Mutex<HashMap<i64, Watched>>,
    /// A place per watcher.
    watchers: Arc<Semaphore>,
    /// Counts the matches begun, so a watcher of "whatever is played now" wakes for the next.
    begun: watch::Sender<u64>,
    /// The server is stopping: every watcher is let go (their streams would hold its stop).
    closed: watch::Sender<bool>,
}

impl Default for Live {
    fn default() -> Live {
        Live {
            matches: Mutex::new(HashMap::new()),
            watchers: Arc::new(Semaphore::new(MAX_WATCHERS)),
            begun: watch::Sender::new(0),
            closed: watch::Sender::new(false),
        }
    }
}

impl Live {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Watched>> {
        self.matches.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Match `id`, `games` games between `first` and `second` (the first seat of game 1 first),
    /// is played from now by `holder`: anything kept of an earlier try of it goes (its
    /// watchers' streams end, and they come back to this one).
    pub fn begin(&self, id: i64, holder: &str, names: [&str; 2], rules: &str, games: u32) {
        let [first, second] = names;
        let Ok(parsed) = rules.parse::<Rules>() else {
            return; // the worker refuses such a match; nothing to show
        };
        let watched = Watched {
            holder: holder.to_owned(),
            names: ByPlayer {
                first: first.to_owned(),
                second: second.to_owned(),
            },
            play: Game::new(parsed, Position::START),
            rules: parsed,
            game: 0,
            games,
            frames: Vec::new(),
            results: Vec::new(),
            tx: broadcast::channel(BEHIND).0,
            heard: Instant::now(),
        };
        self.lock().insert(id, watched);
        self.begun.send_modify(|n| *n += 1);
    }

    /// What match `id`'s `holder` reports. Ignored for a match not begun here or by another
    /// holder, a game not of the match, or one that has ended.
    pub fn news(&self, id: i64, holder: &str, news: News) {
        let mut matches = self.lock();
        let Some(w) = matches.get_mut(&id).filter(|w| w.holder == holder) else {
            return;
        };
        w.heard = Instant::now();
        match news {
            News::Moved { game, mv } => {
                if let Ok(mv) = mv.parse::<Move>() {
                    if w.at(id, game) {
                        w.play_move(id, mv);
                    }
                }
            }
            News::Ended {
                game,
                result,
                reason,
                moves,
            } => {
                if !w.at(id, game) {
                    return;
                }
                let played: Vec<String> = w.play.moves().iter().map(|m| m.mv.to_string()).collect();
                if !moves.starts_with(&played) {
                    // A move was missed or went astray: the game from its start, as recorded.
                    w.game = 0;
                    w.at(id, game);
                }
                let known = w.play.moves().len();
                for mv in moves.iter().skip(known) {
                    match mv.parse::<Move>() {
                        Ok(mv) => w.play_move(id, mv),
                        Err(_) => break,
                    }
                }
                w.send(
                    Frame::Result {
                        id,
                        game,
                        result,
                        reason,
                    },
                    false,
                );
            }
        }
    }

    /// Match `id` is no longer played by `holder` (by anyone: none, the host cancelled it): its
    /// watchers are told its `state`, and it goes.
    pub fn end(&self, id: i64, holder: Option<&str>, state: &str) {
        let mut matches = self.lock();
        if holder.is_some_and(|h| matches.get(&id).is_some_and(|w| w.holder != h)) {
            return; // played again by another since
        }
        if let Some(w) = matches.remove(&id) {
            let _ = w.tx.send(Frame::End {
                id,
                state: state.to_owned(),
            });
        }
    }

    /// Match `id` as it stands (its frames so far, for a new watcher) and what comes next; none
    /// if it is not being played here.
    pub fn watch(&self, id: i64) -> Option<(Vec<Frame>, broadcast::Receiver<Frame>)> {
        let matches = self.lock();
        let w = matches.get(&id)?;
        let mut now = w.frames.clone();
        now.extend(w.results.iter().cloned());
        Some((now, w.tx.subscribe()))
    }

    /// The matches being played, by id.
    pub fn running(&self) -> Vec<Running> {
        let mut all: Vec<Running> = self
            .lock()
            .iter()
            .map(|(&id, w)| Running {
                id,
                names: w.names.clone(),
                heard: w.heard,
            })
            .collect();
        all.sort_by_key(|r| r.id);
        all
    }

    /// A watcher's place, held while it watches; none when all are taken.
    pub fn admit(&self) -> Option<OwnedSemaphorePermit> {
        self.watchers.clone().try_acquire_owned().ok()
    }

    /// The server stops: every watcher is let go.
    pub fn close(&self) {
        self.closed.send_replace(true);
    }

    /// Resolves once the server stops.
    pub async fn closing(&self) {
        let mut closed = self.closed.subscribe();
        let _ = closed.wait_for(|c| *c).await;
    }

    /// Changes when a match begins.
    pub fn begun(&self) -> watch::Receiver<u64> {
        self.begun.subscribe()
    }
}

impl Watched {
    /// Whether game `game` is the one being played, beginning it if it is the next: false for a
    /// game past the match's, or one already ended or left behind.
    fn at(&mut self, id: i64, game: u32) -> bool {
        if game == 0 || game > self.games || game < self.game {
            return false;
        }
        if self
            .results
            .iter()
            .any(|r| matches!(r, Frame::Result { game: g, .. } if *g == game))
        {
            return false;
        }
        if game > self.game || self.frames.is_empty() {
            self.game = game;
            self.play = Game::new(self.rules, Position::START);
            self.frames.clear();
            let seats = if quads_referee::swapped(game) {
                (&self.names.second, &self.names.first)
            } else {
                (&self.names.first, &self.names.second)
            };
            let begins = Frame::Game {
                id,
                game,
                first: seats.0.clone(),
                second: seats.1.clone(),
                rules: self.rules.to_string(),
            };
            self.send(begins, true);
        }
        true
    }

    /// Plays `mv` in the current game, if the rules allow it, and sends it.
    fn play_move(&mut self, id: i64, mv: Move) {
        let by = self.play.to_move();
        if self.play.play(mv, 0.0).is_err() {
            return;
        }
        let pos = self.play.position();
        let frame = Frame::Move {
            id,
            game: self.game,
            ply: self.play.moves().len(),
            mv: mv.to_string(),
            by,
            board: Square::ALL
                .iter()
                .map(|&sq| pos.board().piece_at(sq).map(|p| p.to_string()))
                .collect(),
            hand: pos.hand().map(|p| p.to_string()),
        };
        self.send(frame, true);
    }

    /// Sends `frame` to the watchers, and keeps it for those to come (with the current game's
    /// frames when `current`, else with the results).
    fn send(&mut self, frame: Frame, current: bool) {
        let _ = self.tx.send(frame.clone());
        if current {
            self.frames.push(frame);
        } else {
            self.results.push(frame);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moved(game: u32, mv: &str) -> News {
        News::Moved {
            game,
            mv: mv.to_owned(),
        }
    }

    /// A game's moves in notation, played by the first legal move each turn.
    fn some_moves(n: usize) -> Vec<String> {
        let rules: Rules = "classic".parse().unwrap();
        let mut game = Game::new(rules, Position::START);
        let mut out = Vec::new();
        for _ in 0..n {
            let mv = game.position().legal_moves(game.rules())[0];
            game.play(mv, 0.0).unwrap();
            out.push(mv.to_string());
        }
        out
    }

    #[test]
    fn a_watcher_sees_the_game_so_far_then_each_move_and_a_missed_move_is_put_right() {
        let live = Live::default();
        live.begin(7, "w1", ["ann", "bob"], "classic", 2);
        let moves = some_moves(4);
        live.news(7, "w1", moved(1, &moves[0]));
        let (now, mut rx) = live.watch(7).unwrap();
        assert!(matches!(&now[0], Frame::Game { game: 1, first, .. } if first == "ann"));
        assert!(matches!(&now[1], Frame::Move { ply: 1, mv, .. } if *mv == moves[0]));
        assert_eq!(now.len(), 2);
        // Move 2 is lost on the way; move 1 again does not follow (its square is taken), so it
        // is dropped.
        live.news(7, "w1", moved(1, &moves[0]));
        assert!(rx.try_recv().is_err());
        live.news(
            7,
            "w1",
            News::Ended {
                game: 1,
                result: "1-0".into(),
                reason: "quarto".into(),
                moves: moves.clone(),
            },
        );
        let sent: Vec<Frame> = std::iter::from_fn(|| rx.try_recv().ok()).collect();
        let plies: Vec<usize> = sent
            .iter()
            .filter_map(|f| match f {
                Frame::Move { ply, .. } => Some(*ply),
                _ => None,
            })
            .collect();
        assert_eq!(plies, vec![2, 3, 4]);
        assert!(matches!(sent.last(), Some(Frame::Result { game: 1, .. })));
        // A late move of an ended game changes nothing; game 2 has the seats swapped.
        live.news(7, "w1", moved(1, &moves[0]));
        assert!(rx.try_recv().is_err());
        live.news(7, "w1", moved(2, &moves[0]));
        assert!(matches!(rx.try_recv(), Ok(Frame::Game { game: 2, first, .. }) if first == "bob"));
        live.end(7, Some("w2"), "done");
        assert!(live.watch(7).is_some(), "only its holder ends it");
        live.end(7, Some("w1"), "done");
        assert!(matches!(rx.try_recv(), Ok(Frame::Move { .. })));
        assert!(matches!(rx.try_recv(), Ok(Frame::End { state, .. }) if state == "done"));
        assert!(live.watch(7).is_none());
    }

    #[test]
    fn news_of_matches_and_games_not_begun_here_is_dropped() {
        let live = Live::default();
        live.news(1, "w1", moved(1, "a1 bdrh"));
        assert!(live.watch(1).is_none());
        live.begin(1, "w1", ["ann", "bob"], "classic", 2);
        live.news(1, "w2", moved(1, &some_moves(1)[0]));
        live.news(1, "w1", moved(3, &some_moves(1)[0]));
        live.news(1, "w1", moved(1, "not a move"));
        let (now, _) = live.watch(1).unwrap();
        assert!(now.is_empty(), "{now:?}");
    }
}
