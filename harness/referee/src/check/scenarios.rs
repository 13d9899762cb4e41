//! The scenarios: what each sends, and what it expects back.

use std::fmt;

use quads_protocol::{Go, ResultWord, TimeControl, ToBot};
use quads_rules::{Claim, Move, Outcome, Player, Position, Rules, Trait, TraitSet};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::positions;
use super::talk::{Failed, Talk};
use super::DEFAULT_RULES;

/// One scenario of `quads check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scenario {
    /// `quads 1` answered with `quadsok`; `id` and `option` lines well formed.
    Handshake,
    /// Every declared option set to its default, then `isready`.
    Options,
    /// `isready` before a game, after `newgame`, after a move and after `gameover`.
    IsReady,
    /// A game clock (`base`/`inc`) with no per-move limit.
    Clock,
    /// `newgame` after `gameover` on the same process.
    SecondGame,
    /// `quit` ends the process within the grace period.
    Quit,
    /// The opening give.
    Opening(Rules),
    /// A placement and a give.
    PlaceAndGive(Rules),
    /// The second seat: place the opening give.
    SecondSeat(Rules),
    /// The piece in hand wins on every empty square.
    WinsEverywhere(Rules),
    /// One empty square: the placement fills the board.
    LastSquare(Rules),
    /// Every give loses, and one must still be made.
    EveryGiveLoses(Rules),
    /// A whole game in each seat against the referee's own random player.
    WholeGames(Rules),
    /// `claimable`: the opponent's win to claim (`claim=announce`).
    Overlooked(Rules),
    /// A win on the board that no longer counts: no claim (`claim=announce`).
    PassedOver(Rules),
    /// The 2×2 blocks win in `quads` and not in `classic`.
    Blocks,
    /// Each trait wins when it counts and not when it does not.
    Traits,
}

impl Scenario {
    /// What the scenario checks, with its rules.
    pub fn name(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Scenario {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scenario::Handshake => f.write_str("handshake"),
            Scenario::Options => f.write_str("options take their defaults"),
            Scenario::IsReady => f.write_str("isready at any time"),
            Scenario::Clock => f.write_str("a game clock (base and inc)"),
            Scenario::SecondGame => f.write_str("a second game on one process"),
            Scenario::Quit => f.write_str("quit ends the process"),
            Scenario::Opening(r) => write!(f, "opening give ({r})"),
            Scenario::PlaceAndGive(r) => write!(f, "placement and give ({r})"),
            Scenario::SecondSeat(r) => write!(f, "second seat ({r})"),
            Scenario::WinsEverywhere(r) => write!(f, "a piece that wins on every square ({r})"),
            Scenario::LastSquare(r) => write!(f, "the last square fills the board ({r})"),
            Scenario::EveryGiveLoses(r) => write!(f, "every give loses ({r})"),
            Scenario::WholeGames(r) => write!(f, "a whole game in each seat ({r})"),
            Scenario::Overlooked(r) => write!(f, "claiming the opponent's missed win ({r})"),
            Scenario::PassedOver(r) => write!(f, "no false claim ({r})"),
            Scenario::Blocks => f.write_str("2x2 blocks win in quads, not in classic"),
            Scenario::Traits => f.write_str("only the traits in play win"),
        }
    }
}

/// The scenarios for these game rules, in the order they run. With no rules given, the game
/// scenarios run under [`DEFAULT_RULES`], followed by the rule-variant scenarios.
pub fn list(rules: &[Rules]) -> Vec<Scenario> {
    let defaults: Vec<Rules> = DEFAULT_RULES
        .iter()
        .map(|s| s.parse().expect("the default rules parse"))
        .collect();
    let chosen = if rules.is_empty() { &defaults } else { rules };
    let mut out = vec![
        Scenario::Handshake,
        Scenario::Options,
        Scenario::IsReady,
        Scenario::Clock,
        Scenario::SecondGame,
        Scenario::Quit,
    ];
    for &r in chosen {
        out.extend([
            Scenario::Opening(r),
            Scenario::PlaceAndGive(r),
            Scenario::SecondSeat(r),
            Scenario::WinsEverywhere(r),
            Scenario::LastSquare(r),
            Scenario::EveryGiveLoses(r),
            Scenario::WholeGames(r),
        ]);
        if r.claim == Claim::Announce {
            out.extend([Scenario::Overlooked(r), Scenario::PassedOver(r)]);
        }
    }
    if rules.is_empty() {
        out.extend([Scenario::Blocks, Scenario::Traits]);
    }
    out
}

/// The opening give made: a big dark round solid piece to place on an empty board.
const AFTER_THE_GIVE: &str = "..../..../..../.... BDRF";

fn after_the_give() -> Position {
    AFTER_THE_GIVE.parse().expect("a valid position")
}

impl Scenario {
    /// The rules of the protocol scenarios: the first of those given.
    fn first_rules(talk: &Talk) -> Rules {
        talk.rules.first().copied().unwrap_or(Rules::QUADS)
    }

    pub(super) async fn run(self, talk: &mut Talk) -> Result<(), Failed> {
        talk.handshake().await?;
        let r0 = Scenario::first_rules(talk);
        match self {
            Scenario::Handshake => Ok(()),
            Scenario::Options => {
                for o in talk.options.clone() {
                    talk.send(&ToBot::SetOption {
                        name: o.name,
                        value: o.default,
                    })
                    .await?;
                }
                talk.ready().await
            }
            Scenario::IsReady => {
                talk.ready().await?;
                talk.new_game(r0, Player::First).await?;
                talk.ready().await?;
                talk.go(Position::START, &r0).await?;
                talk.ready().await?;
                talk.game_over(ResultWord::Draw).await?;
                talk.ready().await
            }
            Scenario::Clock => {
                let ms = talk.ms();
                let time = TimeControl {
                    movetime: None,
                    base: Some(ms),
                    inc: ms / 10,
                };
                let go = Go {
                    position: after_the_give(),
                    remaining: after_the_give().remaining(),
                    last: None,
                    time: Some(ms),
                    optime: Some(ms - ms / 20),
                    movetime: ms,
                };
                let played = async {
                    talk.new_game_timed(r0, Player::First, time).await?;
                    talk.go_full(go, &r0).await
                };
                played.await.map(drop).map_err(|mut e| {
                    if e.kind != super::talk::ILLEGAL {
                        e.hint = format!("{} (with a game clock `newgame` carries `base MS inc MS` and no `movetime`)", e.hint);
                    }
                    e
                })
            }
            Scenario::SecondGame => {
                talk.new_game(r0, Player::First).await?;
                talk.go(Position::START, &r0).await?;
                talk.game_over(ResultWord::Draw).await?;
                talk.ready().await?;
                talk.new_game(Rules::CLASSIC, Player::First).await?;
                talk.go(after_the_give(), &Rules::CLASSIC).await.map(drop)
            }
            Scenario::Quit => {
                talk.ready().await?;
                talk.send(&ToBot::Quit).await
            }
            Scenario::Opening(r) => {
                talk.new_game(r, Player::First).await?;
                match talk.go(Position::START, &r).await? {
                    Move::Give(_) => Ok(()),
                    _ => unreachable!("only a give is legal at the start"),
                }
            }
            Scenario::PlaceAndGive(r) => {
                talk.new_game(r, Player::First).await?;
                talk.go(after_the_give(), &r).await.map(drop)
            }
            Scenario::SecondSeat(r) => {
                talk.new_game(r, Player::Second).await?;
                let give = Move::Give(after_the_give().hand().expect("a piece in hand"));
                talk.go_after(after_the_give(), Some(give), &r)
                    .await
                    .map(drop)
            }
            Scenario::WinsEverywhere(r) => {
                let pos = positions::wins_on_every_square(&r).ok_or_else(|| none(self))?;
                talk.new_game(r, Player::First).await?;
                let sq = first_empty(&pos);
                let tip = match r.claim {
                    Claim::Auto => format!("the piece in hand wins on every empty square: the placement wins, so the move gives nothing (`move {sq}`)"),
                    Claim::Announce => format!("under claim=announce a winning placement is announced: `move {sq} quarto`"),
                };
                talk.go(pos, &r)
                    .await
                    .map(drop)
                    .map_err(|e| with_tip(e, &tip))
            }
            Scenario::LastSquare(r) => {
                let pos = positions::last_square(&r).ok_or_else(|| none(self))?;
                talk.new_game(r, Player::First).await?;
                let tip = format!("the last placement fills the board: there is nothing left to give, so the move is the square alone (`move {}`)", first_empty(&pos));
                talk.go(pos, &r)
                    .await
                    .map(drop)
                    .map_err(|e| with_tip(e, &tip))
            }
            Scenario::EveryGiveLoses(r) => {
                let pos = positions::every_give_loses(&r).ok_or_else(|| none(self))?;
                talk.new_game(r, Player::First).await?;
                let tip = "every piece left wins for the opponent, and one must still be given";
                talk.go(pos, &r)
                    .await
                    .map(drop)
                    .map_err(|e| with_tip(e, tip))
            }
            Scenario::WholeGames(r) => {
                for seat in [Player::First, Player::Second] {
                    whole_game(talk, r, seat).await?;
                }
                Ok(())
            }
            Scenario::Overlooked(r) => {
                let pos = positions::overlooked_win(&r).ok_or_else(|| none(self))?;
                talk.new_game(r, Player::First).await?;
                let tip = "`claimable` comes after the piece in hand, before `remaining`: the opponent completed a shape and did not announce it; `move quarto` claims it";
                talk.go(pos, &r)
                    .await
                    .map(drop)
                    .map_err(|e| with_tip(e, tip))
            }
            Scenario::PassedOver(r) => {
                let pos = positions::passed_over_win(&r).ok_or_else(|| none(self))?;
                talk.new_game(r, Player::First).await?;
                let tip = "a shape on the board that nobody claimed in time never counts again: claim only when the position says `claimable`, or when your own placement completes a shape";
                talk.go(pos, &r)
                    .await
                    .map(drop)
                    .map_err(|e| with_tip(e, tip))
            }
            Scenario::Blocks => {
                let pos = positions::blocks_only().ok_or_else(|| none(self))?;
                talk.new_game(Rules::QUADS, Player::First).await?;
                talk.go(pos, &Rules::QUADS).await.map_err(|e| {
                    with_tip(e, "in `quads` the nine 2x2 blocks win too: the piece in hand completes one on every empty square here, so the placement wins and gives nothing")
                })?;
                talk.game_over(ResultWord::Win).await?;
                talk.new_game(Rules::CLASSIC, Player::First).await?;
                talk.go(pos, &Rules::CLASSIC).await.map(drop).map_err(|e| {
                    with_tip(e, "in `classic` only rows, columns and diagonals win: this placement completes only a 2x2 block, so it wins nothing and gives a piece")
                })
            }
            Scenario::Traits => {
                for t in Trait::ALL {
                    let pos = positions::by_one_trait(t).ok_or_else(|| none(self))?;
                    let only = positions::classic_with(TraitSet::EMPTY.with(t));
                    let others = positions::classic_with(TraitSet::from_mask(
                        TraitSet::ALL.mask() & !t.bit(),
                    ));
                    talk.new_game(only, Player::First).await?;
                    talk.go(pos, &only).await.map_err(|e| {
                        with_tip(e, &format!("under `{only}` four pieces sharing the {} win: the piece in hand completes such a line on every empty square", t.name()))
                    })?;
                    talk.game_over(ResultWord::Win).await?;
                    talk.new_game(others, Player::First).await?;
                    talk.go(pos, &others).await.map_err(|e| {
                        with_tip(e, &format!("under `{others}` the {} does not count: the lines this piece completes share nothing else, so it wins nothing and gives a piece", t.name()))
                    })?;
                    talk.game_over(ResultWord::Draw).await?;
                }
                Ok(())
            }
        }
    }
}

/// One whole game: the bot in `seat`, the referee's random player (seeded) in the other.
async fn whole_game(talk: &mut Talk, rules: Rules, seat: Player) -> Result<(), Failed> {
    let mut rng = ChaCha8Rng::seed_from_u64(match seat {
        Player::First => 1,
        Player::Second => 2,
    });
    talk.new_game(rules, seat).await?;
    let mut pos = Position::START;
    let mut last = None;
    let outcome = loop {
        if let Some(outcome) = pos.outcome(&rules) {
            break outcome;
        }
        let mv = if pos.to_move() == seat {
            talk.go_after(pos, last, &rules).await?
        } else {
            let moves = pos.legal_moves(&rules);
            moves[(rng.next_u64() % moves.len() as u64) as usize]
        };
        pos = pos
            .play(mv, &rules)
            .expect("checked or chosen among the legal moves");
        last = Some(mv);
    };
    let result = match outcome {
        Outcome::Draw => ResultWord::Draw,
        Outcome::Win(p) if p == seat => ResultWord::Win,
        Outcome::Win(_) => ResultWord::Loss,
    };
    talk.game_over(result).await?;
    talk.ready().await
}

/// The hint, and what the position needed, for an illegal move.
fn with_tip(mut failed: Failed, tip: &str) -> Failed {
    if failed.kind == super::talk::ILLEGAL {
        failed.hint = format!("{}: {tip}", failed.hint);
    }
    failed
}

fn first_empty(pos: &Position) -> quads_rules::Square {
    pos.board().empty().iter().next().expect("an empty square")
}

fn none(s: Scenario) -> Failed {
    let why = format!("no position for `{s}` was found under these rules: the scenario cannot run");
    Failed::new(why.clone(), why)
}
