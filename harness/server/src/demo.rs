//! A demo event's entrants: with `demo_entrants` in the config, each bot folder in it (one
//! with a bot.toml) is signed up and uploaded when the server starts, unless an entrant of that
//! name is there already, so that `quads serve --config configs/server.toml` shows a ladder
//! with no one at the keyboard. Each goes through the pipeline as any upload does (a broken
//! one fails its check, as it would for an entrant). Their tokens are made and forgotten: the
//! host sees them on the pages; nobody logs in as them.

use std::path::Path;

use crate::domain::entrants::secret;
use crate::domain::versions::{accept, Upload};
use crate::domain::{App, DomainError};
use crate::secret::hash;

/// Signs up and uploads the folders of `dir` not signed up yet: the names, in order.
pub async fn seed(app: &App, dir: &Path) -> Result<Vec<String>, DomainError> {
    let mut folders: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| DomainError::Invalid(format!("demo_entrants {}: {e}", dir.display())))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join(quads_tournament::entrants::MANIFEST).is_file())
        .collect();
    folders.sort();
    let mut added = Vec::new();
    for folder in folders {
        let name = folder
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let store = &app.0.store;
        if store.entrant_named(&name).await?.is_some() {
            continue;
        }
        let bytes = crate::pack::pack(&folder).map_err(|e| {
            DomainError::Invalid(format!("demo_entrants {}: {e}", folder.display()))
        })?;
        store.sign_up(&name, None, &hash(&secret()?)).await?;
        let who = store
            .entrant_named(&name)
            .await?
            .ok_or_else(|| DomainError::failed("a demo entrant vanished"))?;
        accept(app, &who, Upload::Archive(bytes)).await?;
        added.push(name);
    }
    Ok(added)
}
