//! Entrants: invites, signing up (a name and its token), and the refusal of one the host
//! disabled.

use super::{App, DomainError};
use crate::secret::{hash, new_secret};
use crate::store::Entrant;
use crate::Signup;

/// A new secret (a token, an invite, a staging folder's name).
pub fn secret() -> Result<String, DomainError> {
    new_secret().map_err(|e| DomainError::failed(format!("no randomness: {e}")))
}

/// A new invite code (kept as its hash).
pub async fn new_invite(app: &App) -> Result<String, DomainError> {
    let code = secret()?;
    app.0.store.add_invite(&hash(&code)).await?;
    Ok(code)
}

/// A name as manifests have them: 1 to 32 letters, digits, `-`, `_`, `.`, not starting with
/// a dot.
pub fn check_name(name: &str) -> Result<(), DomainError> {
    let ok = (1..=32).contains(&name.len())
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(())
    } else {
        Err(DomainError::Invalid(
            "a name has 1 to 32 letters, digits, `-`, `_` or `.`, and does not start with `.`"
                .to_owned(),
        ))
    }
}

/// Signs up entrant `name` (with the invite, if given): its new API token.
pub async fn new_entrant(
    app: &App,
    name: &str,
    invite: Option<&str>,
) -> Result<String, DomainError> {
    check_name(name)?;
    let invite = match (app.0.config.signup, invite) {
        (_, Some(code)) => Some(hash(code)),
        (Signup::Open, None) => None,
        (Signup::Invite, None) => {
            return Err(DomainError::Forbidden(
                "signing up needs an invite from the host".to_owned(),
            ))
        }
    };
    let token = secret()?;
    app.0
        .store
        .sign_up(name, invite.as_deref(), &hash(&token))
        .await?;
    Ok(token)
}

/// A refusal if the host disabled the entrant.
pub fn enabled(who: &Entrant) -> Result<(), DomainError> {
    match &who.disabled {
        Some(why) => Err(DomainError::Forbidden(format!(
            "the host disabled this account: {why}"
        ))),
        None => Ok(()),
    }
}

/// Entrant `name`, or a refusal naming it.
pub async fn named(app: &App, name: &str) -> Result<Entrant, DomainError> {
    app.0
        .store
        .entrant_named(name)
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no entrant `{name}`")))
}

/// Sets (or, with none, removes) `who`'s webhook, which the event's config must allow
/// (crate::hooks): its word on its versions, its pauses and its test matches goes there.
pub async fn set_webhook(app: &App, who: &Entrant, url: Option<&str>) -> Result<(), DomainError> {
    let hooks = &app.0.config.webhooks;
    if let Some(url) = url {
        if !hooks.allows(url) {
            return Err(DomainError::Invalid(
                if hooks.off || hooks.allow.is_empty() {
                    "this event sends no webhooks".to_owned()
                } else {
                    format!(
                        "this event sends webhooks only to addresses beginning {}",
                        hooks.allow.join(", ")
                    )
                },
            ));
        }
    }
    app.0.store.set_webhook(&who.name, url).await?;
    Ok(())
}
