//! The game loop: keys, bots' answers and the clock's ticks come in; the game, the cursor and
//! the messages change; the screen is drawn again. A bot is started, asked for its moves and
//! told the result through the referee's seat, in tasks of their own, so the screen answers
//! while it thinks. What the screen shows is in `screen.rs`, the end of a game in `ending.rs`.

mod ending;
mod screen;

use std::time::{Duration, Instant, SystemTime};

use quads_i18n::{Arg, Catalog};
use quads_protocol::{Go, NewGame, TimeControl};
use quads_record::ForfeitReason;
use quads_referee::{Answer, Bot, Clocks, Fault, Settings};
use quads_rules::{Move, Outcome, Player, Reason};
use tokio::sync::mpsc;

use crate::game::Game;
use crate::input::{Action, Input, Key};
use crate::sides::{solver_move, Kind};
use crate::view;
use crate::{Ending, Setup};

/// What a bot's task hands back.
enum BotEvent {
    Started {
        side: Player,
        seat: Box<Bot>,
        result: Result<Result<(), Fault>, String>,
    },
    Moved {
        side: Player,
        seat: Box<Bot>,
        result: Result<Answer, Fault>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Bots are starting; this many still to answer.
    Starting(usize),
    /// A person's turn.
    Turn,
    /// A bot thinks.
    Thinking,
    /// The game is over; the end is on the screen.
    Over,
    /// Leave now.
    Leave,
}

/// The state of a game on the screen.
pub struct App {
    c: Catalog,
    setup: Setup,
    game: Game,
    input: Input,
    clocks: Clocks,
    phase: Phase,
    turn_began: Instant,
    message: String,
    help: bool,
    failures: Vec<(Player, Fault)>,
    end: Vec<String>,
    ending: Option<Ending>,
    started_at: SystemTime,
    started: Instant,
    tx: mpsc::UnboundedSender<BotEvent>,
    rx: mpsc::UnboundedReceiver<BotEvent>,
}

impl App {
    /// A game ready to start.
    pub fn new(setup: Setup, c: Catalog) -> App {
        let (tx, rx) = mpsc::unbounded_channel();
        let clocks = Clocks::new(setup.times);
        App {
            game: Game::new(setup.rules, setup.start),
            input: Input::default(),
            clocks,
            phase: Phase::Starting(0),
            turn_began: Instant::now(),
            message: String::new(),
            help: false,
            failures: Vec::new(),
            end: Vec::new(),
            ending: None,
            started_at: SystemTime::now(),
            started: Instant::now(),
            tx,
            rx,
            c,
            setup,
        }
    }

    fn name(&self, side: Player) -> String {
        self.setup.sides[side].name.clone()
    }

    /// `player` and `who` (`you` or `other`) for the messages whose verb agrees with them.
    fn player_args(&self, side: Player) -> Vec<(&'static str, Arg<'static>)> {
        let who = if self.setup.sides[side].you {
            "you"
        } else {
            "other"
        };
        vec![("player", self.name(side).into()), ("who", who.into())]
    }

    /// Plays the game on `terminal` until the person leaves; returns how it ended.
    pub async fn run(
        mut self,
        terminal: &mut crate::terminal::Terminal,
        mut keys: mpsc::UnboundedReceiver<Option<Key>>,
    ) -> Result<Ending, String> {
        self.start();
        let mut tick = tokio::time::interval(Duration::from_millis(200));
        loop {
            self.draw(terminal)?;
            if self.phase == Phase::Leave {
                break;
            }
            tokio::select! {
                key = keys.recv() => match key {
                    Some(Some(k)) => self.key(k).await,
                    Some(None) => {}
                    None => self.phase = Phase::Leave,
                },
                Some(event) = self.rx.recv() => self.bot_event(event).await,
                _ = tick.tick() => self.tick().await,
            }
        }
        Ok(self.ending.unwrap_or(Ending::Left))
    }

    fn draw(&self, terminal: &mut crate::terminal::Terminal) -> Result<(), String> {
        let screen = self.screen();
        terminal
            .inner
            .draw(|f| view::draw(f, &screen, &self.c))
            .map(|_| ())
            .map_err(|e| format!("cannot draw on the terminal: {e}"))
    }

    /// Starts the bots, or the first turn if there are none.
    fn start(&mut self) {
        let mut pending = 0;
        for &side in Player::ALL {
            if let Kind::Bot(seat) = &mut self.setup.sides[side].kind {
                let mut seat = seat.take().expect("a bot's seat before the game");
                pending += 1;
                let settings = self.setup.settings.clone();
                let newgame = NewGame {
                    rules: self.setup.rules,
                    seat: side,
                    seed: self.setup.seed,
                    time: self.setup.times[side],
                };
                let tx = self.tx.clone();
                tokio::spawn(async move {
                    let result = seat
                        .start_game(&settings, newgame)
                        .await
                        .map(|(r, _)| r)
                        .map_err(|e| e.to_string());
                    let _ = tx.send(BotEvent::Started { side, seat, result });
                });
            }
        }
        self.phase = Phase::Starting(pending);
        if pending == 0 {
            self.next_turn();
        }
    }

    /// After a move (or at the start): the end, or the next player's turn.
    fn next_turn(&mut self) {
        if self.game.outcome().is_some() || !self.failures.is_empty() {
            self.phase = Phase::Over;
            return;
        }
        let side = self.game.to_move();
        self.turn_began = Instant::now();
        let pos = self.game.position();
        match &mut self.setup.sides[side].kind {
            Kind::Human => {
                self.phase = Phase::Turn;
                self.input.begin(&pos);
                if self.game.claimable() {
                    self.message = self.c.text("status-claimable");
                }
            }
            Kind::Solver(solver) => {
                let began = Instant::now();
                let mv = solver_move(solver, &pos, &self.setup.rules);
                let took = began.elapsed().as_secs_f64() * 1000.0;
                self.game
                    .play(mv, took)
                    .expect("the solver's move is legal");
                self.played(side, mv, took);
            }
            Kind::Bot(seat) => {
                let mut seat = seat.take().expect("a bot's seat between moves");
                self.phase = Phase::Thinking;
                let go = Go {
                    position: pos,
                    remaining: pos.remaining(),
                    last: self.game.last(),
                    time: self.clocks.left(side),
                    optime: self.clocks.left(side.other()),
                    movetime: self.clocks.limit(side),
                };
                let (rules, margin, tx) = (
                    self.setup.rules,
                    self.setup.settings.margin,
                    self.tx.clone(),
                );
                tokio::spawn(async move {
                    let result = seat.ask(&go, &rules, margin).await;
                    let _ = tx.send(BotEvent::Moved { side, seat, result });
                });
            }
        }
    }

    /// A move the rules took: charge the clock, say it, go on.
    fn played(&mut self, side: Player, mv: Move, took_ms: f64) {
        self.clocks.charge(side, took_ms);
        self.message = match mv {
            Move::Claim => self.c.with("msg-claimed", &self.player_args(side)),
            Move::Place {
                then: quads_rules::Then::Quarto,
                ..
            } => self.c.with("msg-announced", &self.player_args(side)),
            _ => self.c.with(
                "msg-played",
                &[
                    ("player", self.name(side).into()),
                    ("move", mv.to_string().into()),
                ],
            ),
        };
        if let Some(puzzle) = &self.setup.puzzle {
            if side == puzzle.player() && !self.still_won() {
                self.ending = Some(Ending::PuzzleFailed);
                self.phase = Phase::Over;
                return;
            }
        }
        self.next_turn();
    }

    /// In a puzzle: whether the person still has a forced win.
    fn still_won(&mut self) -> bool {
        let pos = self.game.position();
        let me = self.setup.puzzle.as_ref().expect("a puzzle").player();
        match pos.outcome(&self.setup.rules) {
            Some(Outcome::Win(p)) => return p == me,
            Some(Outcome::Draw) => return false,
            None => {}
        }
        let Some(Kind::Solver(solver)) = self
            .setup
            .sides
            .as_mut()
            .into_iter()
            .map(|s| &mut s.kind)
            .find(|k| matches!(k, Kind::Solver(_)))
        else {
            return true;
        };
        solver.solve(&pos, None, 0).is_some_and(|s| s.value < 0)
    }

    async fn key(&mut self, key: Key) {
        if self.help {
            self.help = false;
            return;
        }
        match self.phase {
            Phase::Over => {
                if matches!(key, Key::Enter | Key::Quit | Key::Esc) {
                    self.phase = Phase::Leave;
                }
            }
            Phase::Turn => {
                let pos = self.game.position();
                let action = self.input.key(key, &pos, &self.setup.rules);
                self.act(action).await;
            }
            Phase::Starting(_) | Phase::Thinking => match key {
                Key::Quit => self.phase = Phase::Leave,
                Key::Help => self.help = true,
                _ => {}
            },
            Phase::Leave => {}
        }
    }

    async fn act(&mut self, action: Action) {
        let side = self.game.to_move();
        match action {
            Action::Nothing => {}
            Action::Help => self.help = true,
            Action::Quit => self.phase = Phase::Leave,
            Action::Chosen(sq) => {
                self.message = self
                    .c
                    .with("msg-chosen", &[("square", sq.to_string().into())]);
            }
            Action::Refused(reason) => self.refuse(reason),
            Action::Unreadable(text) => {
                self.message = self.c.with("msg-unreadable", &[("text", text.into())]);
            }
            Action::Undo => self.undo(),
            Action::Play(mv) => {
                let took = self.turn_began.elapsed().as_secs_f64() * 1000.0;
                // A move made after the clock ran out (between two ticks) is too late.
                if self.out_of_time().await {
                    return;
                }
                match self.game.play(mv, took) {
                    Ok(()) => {
                        self.played(side, mv, took);
                        if self.phase == Phase::Over {
                            self.finish().await;
                        }
                    }
                    Err(reason) => self.refuse(reason),
                }
            }
        }
    }

    fn refuse(&mut self, reason: Reason) {
        self.message = self.c.with(
            "msg-illegal",
            &[("reason", quads_i18n::reason(&self.c, reason).into())],
        );
    }

    /// Takes back the bot's last move and the person's before it.
    fn undo(&mut self) {
        let me = self.game.to_move();
        if !self.setup.sides[me.other()].is_bot() {
            self.message = self.c.text("msg-no-undo-humans");
            return;
        }
        let moves = self.game.moves();
        let before = |k: usize| {
            if k == 0 {
                self.game.start()
            } else {
                moves[k - 1].after
            }
        };
        let Some(k) = (0..moves.len())
            .rev()
            .find(|&k| before(k).to_move() == self.game.to_move())
        else {
            self.message = self.c.text("msg-nothing-to-undo");
            return;
        };
        let n = self.game.undo(moves.len() - k);
        self.message = self.c.with("msg-undone", &[("count", n.into())]);
        self.next_turn();
    }

    async fn bot_event(&mut self, event: BotEvent) {
        match event {
            BotEvent::Started { side, seat, result } => {
                self.setup.sides[side].entry = seat.entry();
                self.setup.sides[side].kind = Kind::Bot(Some(seat));
                match result {
                    Ok(Ok(())) => {}
                    Ok(Err(f)) => self.failures.push((side, f)),
                    Err(e) => {
                        // The user's mistake (an option the bot lacks): no game.
                        self.message = e;
                        self.ending = Some(Ending::Failed(self.message.clone()));
                        self.phase = Phase::Leave;
                        return;
                    }
                }
                if let Phase::Starting(n) = self.phase {
                    self.phase = Phase::Starting(n - 1);
                    if n == 1 {
                        self.next_turn();
                        if self.phase == Phase::Over {
                            self.finish().await;
                        }
                    }
                }
            }
            BotEvent::Moved { side, seat, result } => {
                self.setup.sides[side].kind = Kind::Bot(Some(seat));
                match result {
                    Ok(answer) => {
                        let took = answer.took.as_secs_f64() * 1000.0;
                        self.game
                            .play(answer.mv, took)
                            .expect("the referee checked the bot's move");
                        self.played(side, answer.mv, took);
                    }
                    Err(f) => {
                        self.message = self.c.with(
                            "msg-bot-failed",
                            &[
                                ("player", self.name(side).into()),
                                ("detail", f.detail.clone().into()),
                            ],
                        );
                        self.failures.push((side, f));
                        self.phase = Phase::Over;
                    }
                }
                if self.phase == Phase::Over {
                    self.finish().await;
                }
            }
        }
    }

    /// A person's clock running out.
    async fn tick(&mut self) {
        if self.phase == Phase::Turn {
            self.out_of_time().await;
        }
    }

    /// Whether the person to move has run out of time; if so, the game ends on time.
    async fn out_of_time(&mut self) -> bool {
        if !self.setup.clock {
            return false;
        }
        let side = self.game.to_move();
        let Some(left) = self.clocks.left(side) else {
            return false;
        };
        if (self.turn_began.elapsed().as_millis() as u64) < left {
            return false;
        }
        self.failures.push((
            side,
            Fault {
                reason: ForfeitReason::Timeout,
                detail: format!("the clock ran out ({left} ms left at the move's start)"),
            },
        ));
        self.phase = Phase::Over;
        self.finish().await;
        true
    }
}

/// The settings a bot plays under here: the referee's, with this game's rules and time.
pub fn bot_settings(rules: quads_rules::Rules, time: TimeControl) -> Settings {
    Settings {
        rules,
        time,
        ..Settings::default()
    }
}
