//! Messages from the referee to a bot.

use std::fmt;
use std::str::FromStr;

use quads_rules::{Move, PieceSet, Player, Position, Rules};

use crate::{fields, millis, one, ParseError};

/// A time control, in milliseconds: a limit per move, a game clock (base plus increment per
/// move), or both.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct TimeControl {
    /// The most a single move may take.
    pub movetime: Option<u64>,
    /// The game clock's starting time.
    pub base: Option<u64>,
    /// Added to the clock after each move (only with a game clock).
    pub inc: u64,
}

/// `newgame`: a game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    /// The rules spec.
    pub rules: Rules,
    /// The bot's seat: the first player makes the opening give.
    pub seat: Player,
    /// The game's seed, for bots that play at random and want to be reproducible.
    pub seed: u64,
    /// The time control.
    pub time: TimeControl,
}

/// `go`: the bot's turn, with the full state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Go {
    /// The position, in the rules core's notation.
    pub position: Position,
    /// The pieces that can still be given (as in the position; sent for convenience).
    pub remaining: PieceSet,
    /// The opponent's last move, if any.
    pub last: Option<Move>,
    /// The bot's clock, if the game has one.
    pub time: Option<u64>,
    /// The opponent's clock, if the game has one.
    pub optime: Option<u64>,
    /// The time this move may take: the per-move limit or the clock, whichever is less.
    pub movetime: u64,
}

/// A game's result from the point of view of the bot told.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ResultWord {
    /// You won.
    Win,
    /// You lost.
    Loss,
    /// A draw.
    Draw,
}

/// A message from the referee to a bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToBot {
    /// `quads VERSION`: the handshake opens.
    Quads {
        /// The protocol version the referee speaks.
        version: u32,
    },
    /// `setoption name NAME value VALUE`: set one of the bot's declared options.
    SetOption {
        /// The option's name.
        name: String,
        /// Its new value (may contain spaces).
        value: String,
    },
    /// `isready`: answer `readyok` when ready.
    IsReady,
    /// `newgame …`: a game starts.
    NewGame(NewGame),
    /// `go …`: your move.
    Go(Go),
    /// `gameover result win|loss|draw reason REASON [detail TEXT]`.
    GameOver {
        /// The result for this bot.
        result: ResultWord,
        /// Why the game ended: `normal`, `draw`, or a forfeit reason.
        reason: String,
        /// More about a forfeit, free text to the end of the line.
        detail: Option<String>,
    },
    /// `quit`: exit now.
    Quit,
}

fn seat_word(p: Player) -> &'static str {
    match p {
        Player::First => "first",
        Player::Second => "second",
    }
}

fn opt_ms(f: &mut fmt::Formatter<'_>, key: &str, v: Option<u64>) -> fmt::Result {
    match v {
        Some(ms) => write!(f, " {key} {ms}"),
        None => write!(f, " {key} -"),
    }
}

impl fmt::Display for ToBot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToBot::Quads { version } => write!(f, "quads {version}"),
            ToBot::SetOption { name, value } => write!(f, "setoption name {name} value {value}"),
            ToBot::IsReady => f.write_str("isready"),
            ToBot::NewGame(g) => {
                write!(
                    f,
                    "newgame rules {} seat {} seed {}",
                    g.rules,
                    seat_word(g.seat),
                    g.seed
                )?;
                if let Some(ms) = g.time.movetime {
                    write!(f, " movetime {ms}")?;
                }
                if let Some(ms) = g.time.base {
                    write!(f, " base {ms} inc {}", g.time.inc)?;
                }
                Ok(())
            }
            ToBot::Go(g) => {
                write!(f, "go position {} remaining", g.position)?;
                if g.remaining.is_empty() {
                    f.write_str(" -")?;
                }
                // The pieces in one buffer, written at once (this line goes out every move).
                let mut text = [0u8; 16 * 5];
                let mut len = 0;
                for p in g.remaining.iter().take(16) {
                    text[len] = b' ';
                    text[len + 1..len + 5].copy_from_slice(&p.letters());
                    len += 5;
                }
                f.write_str(std::str::from_utf8(&text[..len]).expect("pieces are ASCII"))?;
                match g.last {
                    Some(mv) => write!(f, " last {mv}")?,
                    None => f.write_str(" last -")?,
                }
                opt_ms(f, "time", g.time)?;
                opt_ms(f, "optime", g.optime)?;
                write!(f, " movetime {}", g.movetime)
            }
            ToBot::GameOver {
                result,
                reason,
                detail,
            } => {
                let word = match result {
                    ResultWord::Win => "win",
                    ResultWord::Loss => "loss",
                    ResultWord::Draw => "draw",
                };
                write!(f, "gameover result {word} reason {reason}")?;
                if let Some(d) = detail {
                    write!(f, " detail {d}")?;
                }
                Ok(())
            }
            ToBot::Quit => f.write_str("quit"),
        }
    }
}

impl FromStr for ToBot {
    type Err = ParseError;

    fn from_str(line: &str) -> Result<ToBot, ParseError> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        let err = |problem: &str| ParseError::new(line, problem);
        match words.as_slice() {
            ["quads", v] => Ok(ToBot::Quads {
                version: v.parse().map_err(|_| err("the version is a number"))?,
            }),
            ["isready"] => Ok(ToBot::IsReady),
            ["quit"] => Ok(ToBot::Quit),
            ["setoption", "name", name, "value", ..] => {
                let value = line
                    .split_once(" value ")
                    .map(|(_, v)| v.trim().to_owned())
                    .unwrap_or_default();
                Ok(ToBot::SetOption {
                    name: (*name).to_owned(),
                    value,
                })
            }
            ["setoption", "name", _name] => Err(err("setoption needs `value`")),
            ["newgame", rest @ ..] => parse_newgame(line, rest).map(ToBot::NewGame),
            ["go", rest @ ..] => parse_go(line, rest).map(ToBot::Go),
            ["gameover", "result", result, "reason", reason, rest @ ..] => {
                let result = match *result {
                    "win" => ResultWord::Win,
                    "loss" => ResultWord::Loss,
                    "draw" => ResultWord::Draw,
                    _ => return Err(err("result is win, loss or draw")),
                };
                let detail = match rest {
                    [] => None,
                    ["detail", ..] => Some(
                        line.split_once(" detail ")
                            .map(|(_, d)| d.trim().to_owned())
                            .unwrap_or_default(),
                    ),
                    _ => return Err(err("expected `detail` after the reason")),
                };
                Ok(ToBot::GameOver {
                    result,
                    reason: (*reason).to_owned(),
                    detail,
                })
            }
            [] => Err(err("empty line")),
            [command, ..] => Err(err(&format!("unknown or malformed command `{command}`"))),
        }
    }
}

fn parse_newgame(line: &str, words: &[&str]) -> Result<NewGame, ParseError> {
    let keys = ["rules", "seat", "seed", "movetime", "base", "inc"];
    let mut game = NewGame {
        rules: Rules::QUADS,
        seat: Player::First,
        seed: 0,
        time: TimeControl::default(),
    };
    let mut seen = Vec::new();
    for (key, values) in fields(line, words, &keys)? {
        seen.push(key);
        let v = one(line, key, &values)?;
        let number = || {
            v.parse::<u64>()
                .map_err(|_| ParseError::new(line, format!("`{key}` takes a number")))
        };
        match key {
            "rules" => {
                game.rules = v
                    .parse()
                    .map_err(|e| ParseError::new(line, format!("{e}")))?
            }
            "seat" => {
                game.seat = match v {
                    "first" => Player::First,
                    "second" => Player::Second,
                    _ => return Err(ParseError::new(line, "seat is first or second")),
                }
            }
            "seed" => game.seed = number()?,
            "movetime" => game.time.movetime = Some(number()?),
            "base" => game.time.base = Some(number()?),
            _ => game.time.inc = number()?,
        }
    }
    for required in ["rules", "seat", "seed"] {
        if !seen.contains(&required) {
            return Err(ParseError::new(line, format!("newgame needs `{required}`")));
        }
    }
    Ok(game)
}

fn parse_go(line: &str, words: &[&str]) -> Result<Go, ParseError> {
    let keys = [
        "position",
        "remaining",
        "last",
        "time",
        "optime",
        "movetime",
    ];
    let mut position = None;
    let mut remaining = None;
    let mut last = None;
    let (mut time, mut optime, mut movetime) = (None, None, None);
    for (key, values) in fields(line, words, &keys)? {
        match key {
            "position" => {
                let text = values.join(" ");
                position = Some(
                    text.parse::<Position>()
                        .map_err(|e| ParseError::new(line, format!("{e}")))?,
                );
            }
            "remaining" => {
                let mut set = PieceSet::EMPTY;
                if values != ["-"] {
                    for v in &values {
                        set = set.with(
                            v.parse()
                                .map_err(|e| ParseError::new(line, format!("{e}")))?,
                        );
                    }
                }
                remaining = Some(set);
            }
            "last" => {
                last = Some(match values.as_slice() {
                    ["-"] => None,
                    _ => Some(
                        values
                            .join(" ")
                            .parse::<Move>()
                            .map_err(|e| ParseError::new(line, format!("{e}")))?,
                    ),
                });
            }
            "time" => time = Some(millis(line, key, &values)?),
            "optime" => optime = Some(millis(line, key, &values)?),
            _ => movetime = millis(line, key, &values)?,
        }
    }
    let missing = |k: &str| ParseError::new(line, format!("go needs `{k}`"));
    let position = position.ok_or_else(|| missing("position"))?;
    let remaining = remaining.ok_or_else(|| missing("remaining"))?;
    if remaining != position.remaining() {
        return Err(ParseError::new(
            line,
            "`remaining` does not match the position",
        ));
    }
    Ok(Go {
        position,
        remaining,
        last: last.ok_or_else(|| missing("last"))?,
        time: time.ok_or_else(|| missing("time"))?,
        optime: optime.ok_or_else(|| missing("optime"))?,
        movetime: movetime.ok_or_else(|| missing("movetime"))?,
    })
}
