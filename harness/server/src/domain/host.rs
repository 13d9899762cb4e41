//! The host's actions: freeze uploads and pause the ladder (switches), disable an entrant,
//! cancel a version's check, rerun or cancel a match, and the final tournament's snapshot:
//! the active versions as an entrants folder with a `quads tournament` config beside it, whose
//! report the server then publishes at `/final` (run on this machine, or as Slurm shards
//! merged in the final's folder).

use serde::Serialize;

use super::versions::FROZEN;
use super::{App, DomainError};
use crate::config::FINAL_SLURM;
use crate::hooks::{self, Word};
use crate::ladder::LADDER_PAUSED;
use crate::pipeline::settings;

/// The host's switches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Switches {
    pub frozen: bool,
    pub ladder_paused: bool,
}

/// The switches as they are now.
pub async fn switches_now(app: &App) -> Result<Switches, DomainError> {
    let store = &app.0.store;
    Ok(Switches {
        frozen: store.switch(FROZEN).await?,
        ladder_paused: store.switch(LADDER_PAUSED).await?,
    })
}

/// Flips the switches given.
pub async fn set_switches(
    app: &App,
    frozen: Option<bool>,
    ladder_paused: Option<bool>,
) -> Result<(), DomainError> {
    let store = &app.0.store;
    for (name, on) in [(FROZEN, frozen), (LADDER_PAUSED, ladder_paused)] {
        if let Some(on) = on {
            let was = store.switch(name).await?;
            store.set_switch(name, on).await?;
            if was != on {
                hooks::tell(&app.0.config, store, Word::Switch { name, on }).await;
            }
        }
    }
    app.0.signals.bump();
    Ok(())
}

/// Disables `name` with the reason (`None`: enables it).
pub async fn disable(app: &App, name: &str, why: Option<&str>) -> Result<(), DomainError> {
    if why.is_some_and(|w| w.trim().is_empty() || w.contains('\n')) {
        return Err(DomainError::Invalid(
            "give the reason in one line".to_owned(),
        ));
    }
    if !app.0.store.disable(name, why).await? {
        return Err(DomainError::NotFound(format!("no entrant `{name}`")));
    }
    if let Some(why) = why {
        let reason = format!("cancelled: the host disabled this entrant ({why})");
        let stopped = app.0.store.cancel_entrant(name, &reason).await?;
        app.0.signals.stop(&stopped);
    }
    app.0.signals.bump();
    Ok(())
}

/// A version's check cancelled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CancelledCheck {
    pub entrant: String,
    pub version: i64,
    pub status: &'static str,
}

/// Cancels the check of version `number` of entrant `name`, still to come or running.
pub async fn cancel_check(
    app: &App,
    name: &str,
    number: i64,
) -> Result<CancelledCheck, DomainError> {
    let store = &app.0.store;
    let entrant = store
        .entrant_named(name)
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no entrant `{name}`")))?;
    let stopped = store
        .cancel_version(entrant.id, number, "cancelled by the host")
        .await?
        .ok_or_else(|| {
            DomainError::Conflict(format!(
                "`{name}` has no version {number} waiting for its check or in it"
            ))
        })?;
    app.0.signals.stop(&stopped);
    app.0.signals.bump();
    Ok(CancelledCheck {
        entrant: name.to_owned(),
        version: number,
        status: crate::store::CANCELLED,
    })
}

/// What the host may do to a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchAction {
    /// Play it again (the old one stays, cancelled).
    Rerun,
    /// Stop it and count none of its games.
    Cancel,
}

impl std::str::FromStr for MatchAction {
    type Err = DomainError;

    fn from_str(word: &str) -> Result<MatchAction, DomainError> {
        match word {
            "rerun" => Ok(MatchAction::Rerun),
            "cancel" => Ok(MatchAction::Cancel),
            other => Err(DomainError::NotFound(format!(
                "no action `{other}`: rerun or cancel"
            ))),
        }
    }
}

/// A match acted on: cancelled, and the match that plays it again if it was rerun.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Acted {
    #[serde(rename = "match")]
    pub id: i64,
    pub state: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rerun: Option<i64>,
}

/// Reruns or cancels match `id`.
pub async fn act(app: &App, id: i64, action: MatchAction) -> Result<Acted, DomainError> {
    let store = &app.0.store;
    let answer = match action {
        MatchAction::Rerun => {
            let new = store.rerun_match(id).await?.ok_or_else(|| {
                DomainError::Conflict(format!(
                    "match {id} is not one, or is not over: cancel it first"
                ))
            })?;
            Acted {
                id,
                state: "cancelled",
                rerun: Some(new),
            }
        }
        MatchAction::Cancel => {
            if !store.cancel_match(id, "cancelled by the host").await? {
                return Err(DomainError::Conflict(format!(
                    "match {id} is not one, or is over: rerun it instead"
                )));
            }
            app.0.live.end(id, None, "cancelled");
            Acted {
                id,
                state: "cancelled",
                rerun: None,
            }
        }
    };
    app.0.signals.bump();
    Ok(answer)
}

/// The final's folder: `DATA/final`.
pub fn final_folder(app: &App) -> std::path::PathBuf {
    app.0.config.final_folder()
}

/// An entrant's version in the final.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Taken {
    pub name: String,
    pub version: i64,
}

/// The final's snapshot: who is in it, where, and the commands that run it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Snapshot {
    pub entrants: Vec<Taken>,
    /// The entrants folder.
    pub folder: String,
    /// The tournament's config.
    pub config: String,
    /// The command that runs it on this machine,
    pub command: String,
    /// or as Slurm shards (`slurm`), merged in `slurm_out`.
    pub slurm_out: String,
    pub slurm: String,
    /// Where its report is published.
    pub published_at: &'static str,
}

/// Writes the snapshot: every entrant not disabled with its active version, unpacked.
pub async fn snapshot(app: &App) -> Result<Snapshot, DomainError> {
    let config = app.0.config.clone();
    let dir = final_folder(app);
    let entrants = dir.join("entrants");
    let mut taken = Vec::new();
    for (name, version, disabled) in app.0.store.entrants().await? {
        let (Some(number), None) = (version, disabled) else {
            continue;
        };
        let who = app.0.store.entrant_named(&name).await?;
        let v = match who {
            Some(w) => app.0.store.version(w.id, number).await?,
            None => None,
        };
        if let Some(v) = v {
            taken.push((name, number, v.digest));
        }
    }
    let written = tokio::task::spawn_blocking({
        let (dir, entrants, taken) = (dir.clone(), entrants.clone(), taken.clone());
        move || -> Result<String, String> {
            let _ = std::fs::remove_dir_all(&entrants);
            for (name, _, digest) in &taken {
                let own = entrants.join(name);
                std::fs::create_dir_all(&own).map_err(|e| format!("{}: {e}", own.display()))?;
                let path = config.blob(digest);
                let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                crate::unpack::unpack(&bytes, &own, &config.limits).map_err(|e| e.to_string())?;
            }
            let file = dir.join("tournament.toml");
            let event = settings(
                &config.event(),
                &entrants,
                &dir.join("out"),
                Some(FINAL_PAIRS),
            );
            let text = event.to_toml(&file).map_err(|e| e.to_string())?;
            std::fs::write(&file, text).map_err(|e| format!("{}: {e}", file.display()))?;
            Ok(file.display().to_string())
        }
    })
    .await
    .map_err(DomainError::failed)?
    .map_err(DomainError::failed)?;
    let slurm = dir.join(FINAL_SLURM);
    Ok(Snapshot {
        entrants: taken
            .into_iter()
            .map(|(name, version, _)| Taken { name, version })
            .collect(),
        folder: entrants.display().to_string(),
        command: format!("quads tournament {written}"),
        slurm_out: slurm.display().to_string(),
        slurm: format!(
            "configs/slurm/submit.sh {written} {} SHARDS",
            slurm.display()
        ),
        config: written,
        published_at: "/final",
    })
}

/// Game pairs per pairing per variant in the final tournament's config (the host may edit it).
pub const FINAL_PAIRS: u32 = 10;

/// The final's report (crate::config::ServerConfig::final_report).
pub fn final_report_file(app: &App) -> std::path::PathBuf {
    app.0.config.final_report()
}
