//! The referee: plays Quads games between bot processes over the protocol, enforcing the
//! rules and the clock, and records every game. A bot that fails in any way loses its game
//! with the reason recorded; only the user's own mistakes (a command that cannot start, an
//! option the bot does not have, an unwritable output folder) stop a match.

mod bot;
mod boxed;
pub mod check;
pub mod defaults;
mod descendants;
mod fault;
mod game;
mod matchrun;
pub mod open_files;
mod plain;
mod process;
mod reaping;
mod settings;
mod shared;
mod starting;
mod stdio;
mod time_control;

pub use bot::{Answer, Bot, BotSpec};
pub use boxed::wait_for_dropped_boxes;
pub use descendants::TOKEN_VAR;
pub use fault::{describe_exit, Fault};
pub use game::{play_game, GameSpec, Moved, Played};
pub use matchrun::{run_match, run_match_watched, swapped, write_logs, MatchConfig, Score};
pub use process::{BotCommand, BotProcess, Exit, Log, Reply, Shutdown, SpawnError};
pub use quads_record::{
    BotEntry, EndReason, Failure, ForfeitReason, GameRecord, GameResult, Timing,
};
/// The box around every bot ([`quads_sandbox`]), as the referee's own.
pub use quads_sandbox as sandbox;
pub use reaping::{group_exists, group_members};
pub use settings::{MatchError, Settings};
pub use time_control::{parse_clock, parse_duration, time_control, Clocks, Describe, TimeError};
