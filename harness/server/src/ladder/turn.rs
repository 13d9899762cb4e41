//! One bot's turn in a game a person plays on the play page (crate::domain::bot_turns), as the
//! server's worker of turns and a remote worker (crate::remote) both play it: the version's bot
//! started in its box, set up for the game (`newgame`), asked for one move in the position
//! (`go` carries the whole position, so nothing else is needed), and ended.

use quads_protocol::{Go, NewGame};
use quads_record::game::Game;
use quads_referee::{Bot, BotSpec, Fault, Settings};
use quads_rules::{Move, Player, Position, Rules};

use crate::wire::TurnGame;

/// The bot's move in `game`'s position and the milliseconds it took, or the referee's fault by
/// which it lost the game; an error (in one line) only if the bot could not be run at all
/// here. Blocking: the bot is played in a runtime of its own, as matches are
/// (super::worker::play).
pub fn think(
    spec: &BotSpec,
    movetime: &str,
    game: &TurnGame,
) -> Result<Result<(Move, f64), Fault>, String> {
    // The event's limit per move, and the game's clock if it has one (as `quads match
    // --movetime --clock` would give both).
    let time = quads_referee::time_control(Some(movetime), game.clock.as_deref())
        .map_err(|e| format!("the time control: {e}"))?;
    let played = replay(game)?;
    let rules: Rules = *played.rules();
    let pos: Position = played.position();
    let seat: Player = pos.to_move();
    let settings = Settings {
        rules,
        time,
        ..Settings::default()
    };
    let go = Go {
        position: pos,
        remaining: pos.remaining(),
        last: played.last(),
        time: game.time,
        optime: game.optime,
        movetime: time
            .movetime
            .unwrap_or(u64::MAX)
            .min(game.time.unwrap_or(u64::MAX)),
    };
    let new = NewGame {
        rules,
        seat,
        seed: game.seed,
        time,
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let mut bot = Bot::new(spec.clone());
        let (ready, _) = bot
            .start_game(&settings, new)
            .await
            .map_err(|e| e.to_string())?;
        let answer = match ready {
            Ok(()) => bot.ask(&go, &rules, settings.margin).await,
            Err(f) => Err(f),
        };
        bot.end_game(None, false, &settings).await;
        Ok(answer.map(|a| (a.mv, a.took.as_secs_f64() * 1000.0)))
    })
}

/// The game so far, replayed (each move's time is not needed for a turn), or why it cannot be.
pub fn replay(game: &TurnGame) -> Result<Game, String> {
    let rules: Rules = game
        .rules
        .parse()
        .map_err(|e| format!("variant `{}`: {e}", game.rules))?;
    let start: Position = game
        .start
        .parse()
        .map_err(|e| format!("position `{}`: {e}", game.start))?;
    let mut played = Game::new(rules, start);
    for m in &game.moves {
        let mv: Move = m.parse().map_err(|e| format!("move `{m}`: {e}"))?;
        played
            .play(mv, 0.0)
            .map_err(|e| format!("move `{m}`: {e}"))?;
    }
    Ok(played)
}

/// The longest fault a game against a bot keeps, in bytes.
pub const MAX_FAULT: usize = 1000;

/// A fault as a game against a bot keeps it: the referee's reason and its detail, in one line
/// of at most [`MAX_FAULT`] bytes (`crash: exited with status 3 while waiting for readyok`).
pub fn fault_line(fault: &Fault) -> String {
    fault_text(&fault.reason.to_string(), &fault.detail)
}

/// Reason `reason` (a referee's word) and `detail` in one line of at most [`MAX_FAULT`] bytes.
pub fn fault_text(reason: &str, detail: &str) -> String {
    let mut line = format!("{reason}: {}", detail.replace(['\n', '\r'], " "));
    if line.len() > MAX_FAULT {
        let mut cut = MAX_FAULT;
        while !line.is_char_boundary(cut) {
            cut -= 1;
        }
        line.truncate(cut);
    }
    line
}
