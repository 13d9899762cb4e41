//! The entrants' bots a person may play on the play page (crate::domain::play, `bot:NAME`):
//! those whose active version is built, admitted and not paused; their turns are
//! crate::domain::bot_turns'.

use super::{App, DomainError};

/// The start of a game's mode against an entrant's bot: `bot:NAME`.
pub const BOT: &str = "bot:";

/// The version of entrant `name`'s active bot, if it is ready to play (built and admitted
/// here, not paused), or a one-line refusal.
pub(super) async fn ready_bot(app: &App, name: &str) -> Result<i64, DomainError> {
    if app.0.config.play_only {
        return Err(DomainError::Invalid(
            "games against entrants' bots are played in an event: this server has none".to_owned(),
        ));
    }
    bots(app)
        .await?
        .into_iter()
        .find(|(entrant, _)| entrant == name)
        .map(|(_, version)| version)
        .ok_or_else(|| DomainError::NotFound(format!("{name} has no bot ready to play")))
}

/// The entrants whose active bots can be played now, with their versions, by name.
pub async fn bots(app: &App) -> Result<Vec<(String, i64)>, DomainError> {
    if app.0.config.play_only {
        return Ok(Vec::new());
    }
    let mut ready: Vec<(String, i64)> = app
        .0
        .store
        .players()
        .await?
        .into_iter()
        .filter(|a| app.0.bench.get(a.version).is_some())
        .map(|a| (a.entrant, a.version))
        .collect();
    ready.sort();
    Ok(ready)
}
