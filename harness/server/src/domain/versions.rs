//! An entrant's versions: an upload taken (checked, unpacked under the server's limits, its
//! manifest read, packed and kept by digest, then queued for the pipeline), and a version's
//! check as its texts.

use std::path::{Path, PathBuf};

use quads_tournament::entrants::{read_entrants, Listed, MANIFEST};
use serde::Serialize;

use super::entrants::{enabled, secret};
use super::{App, DomainError};
use crate::pack;
use crate::pipeline;
use crate::store::Entrant;
use crate::unpack::{one_file, unpack, UnpackError};

/// The switch that stops uploads.
pub const FROZEN: &str = "frozen";

/// What a multipart upload held.
pub enum Upload {
    Archive(Vec<u8>),
    File {
        name: String,
        bytes: Vec<u8>,
        manifest: Vec<u8>,
    },
}

/// A version taken: queued for its check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Accepted {
    pub version: i64,
    pub digest: String,
    pub files: u64,
    pub bytes: u64,
    pub status: &'static str,
}

/// Takes an entrant's upload as its next version, queued for the pipeline: what the API
/// answers.
pub async fn accept(app: &App, who: &Entrant, upload: Upload) -> Result<Accepted, DomainError> {
    enabled(who)?;
    if app.0.store.switch(FROZEN).await? {
        return Err(DomainError::Forbidden(
            "uploads are frozen: the host has closed the event to new versions".to_owned(),
        ));
    }
    let config = &app.0.config;
    // Over a quota already: refused before anything is unpacked or stored. (The bound itself
    // is the one statement that records the version: a burst sent at once passes this
    // together, and is held there.)
    let usage = app.0.store.usage(who.id).await?;
    if let Some(refused) = crate::store::over_quota(&config.quotas, &usage, 0) {
        return Err(refused.into());
    }
    // A staging folder of its own, named by a secret: two uploads never share one.
    let staging = config.staging().join(secret()?);
    let folder = staging.join(&who.name);
    let (limits, name, blobs) = (config.limits, who.name.clone(), config.blobs());
    let checked = tokio::task::spawn_blocking({
        let (staging, folder) = (staging.clone(), folder.clone());
        move || check_and_keep(upload, &staging, &folder, &name, &limits, &blobs)
    })
    .await
    .map_err(DomainError::failed);
    let _ = std::fs::remove_dir_all(&staging);
    let (digest, files, bytes) = checked??;
    let (number, superseded) = app
        .0
        .store
        .add_version(who.id, &digest, files as i64, bytes as i64, &config.quotas)
        .await?;
    app.0.signals.stop(&superseded);
    app.0.signals.queued.notify_one();
    Ok(Accepted {
        version: number,
        digest,
        files,
        bytes,
        status: "queued",
    })
}

/// Unpacks, reads the manifest, packs the canonical form and keeps it: (digest, files, bytes).
fn check_and_keep(
    upload: Upload,
    staging: &Path,
    folder: &Path,
    entrant: &str,
    limits: &crate::Limits,
    blobs: &Path,
) -> Result<(String, u64, u64), DomainError> {
    std::fs::create_dir_all(folder).map_err(DomainError::failed)?;
    let unpacked = match upload {
        Upload::Archive(a) => unpack(&a, folder, limits),
        Upload::File {
            name,
            bytes,
            manifest,
        } => {
            if name == MANIFEST {
                return Err(DomainError::Invalid(format!(
                    "the file is named {MANIFEST}: give the bot's file and its manifest apart"
                )));
            }
            one_file(&name, &bytes, folder, limits)
                .and_then(|_| one_file(MANIFEST, &manifest, folder, limits))
                .map(|_| crate::unpack::Unpacked {
                    files: 2,
                    bytes: (bytes.len() + manifest.len()) as u64,
                })
        }
    };
    let unpacked = unpacked.map_err(|e| match e {
        UnpackError::Io(_) => DomainError::failed(&e),
        UnpackError::TooBig(_) | UnpackError::TooMany(_) => DomainError::TooLarge(e.to_string()),
        _ => DomainError::Invalid(e.to_string()),
    })?;
    let listed = read_entrants(staging, &[]).map_err(DomainError::failed)?;
    let shown = |why: &str| why.replace(&format!("{}/", folder.display()), "");
    match listed.as_slice() {
        [Listed::Entrant(e)] if e.about.name == entrant => {}
        [Listed::Entrant(e)] => {
            return Err(DomainError::Unacceptable(format!(
            "{MANIFEST} names the bot `{}`, but this is `{entrant}`'s account: name it `{entrant}`",
            e.about.name
        )))
        }
        [Listed::Rejected(_, why)] => return Err(DomainError::Unacceptable(shown(why))),
        _ => {
            return Err(DomainError::failed(
                "the staging folder holds more than the upload",
            ))
        }
    }
    let packed = pack::pack(folder).map_err(DomainError::failed)?;
    let digest = pack::digest(&packed);
    let path = blobs.join(format!("{digest}.tar.gz"));
    if !path.exists() {
        // A partial file named by this upload's own staging folder: never another's.
        let own = staging
            .file_name()
            .map(|n| n.to_string_lossy().into_owned());
        let part = blobs.join(format!("{digest}.part-{}", own.unwrap_or_default()));
        std::fs::write(&part, &packed)
            .and_then(|()| std::fs::rename(&part, &path))
            .map_err(|e| DomainError::failed(format!("{}: {e}", path.display())))?;
    }
    Ok((digest, unpacked.files, unpacked.bytes))
}

/// Version `n` of `who`'s check: its report and its build log, as far as there are any, with
/// the server's folders taken out.
pub async fn check_texts(
    app: &App,
    who: &Entrant,
    n: i64,
) -> Result<(Option<String>, Option<String>), DomainError> {
    let job = app
        .0
        .store
        .job_of(who.id, n)
        .await?
        .ok_or_else(no_version)?;
    let dir = pipeline::folder(&app.0.config, job);
    let read = |p: PathBuf| {
        std::fs::read_to_string(p)
            .ok()
            .map(|t| t.replace(&format!("{}/", dir.display()), ""))
    };
    Ok((
        read(dir.join("out").join(quads_record::files::ENTRANTS_MD)),
        read(quads_tournament::build_log(&dir.join("out"), &who.name)),
    ))
}

/// The refusal of a version the caller does not have.
pub fn no_version() -> DomainError {
    DomainError::NotFound("you have no such version".to_owned())
}
