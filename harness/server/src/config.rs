//! The server's config, `server.toml`:
//!
//! ```toml
//! name = "spring-cup"                  # the event
//! listen = "127.0.0.1:8080"            # where it listens (port 0: any free port)
//! data = "out/server"                  # its folder: the database, the uploads
//! database = "sqlite://out/server/quads.db"   # default: data/quads.db
//! admin_token = "…"                    # the host's token (keep the file private)
//! signup = "invite"                    # or "open": anyone may sign up
//! [limits]
//! upload_bytes = 8388608               # the largest upload (8 MiB)
//! unpacked_bytes = 67108864            # what it may unpack to (64 MiB)
//! files = 2000                         # and how many files
//! ```

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::ServerError;

/// Who may sign up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Signup {
    /// With an invite the host made.
    Invite,
    /// Anyone.
    Open,
}

/// The bounds of one upload.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// The request's body, in bytes.
    pub upload_bytes: u64,
    /// The files it unpacks to, in bytes.
    pub unpacked_bytes: u64,
    /// How many files and folders it may hold.
    pub files: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            upload_bytes: 8 << 20,
            unpacked_bytes: 64 << 20,
            files: 2000,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    name: String,
    listen: Option<String>,
    data: PathBuf,
    database: Option<String>,
    admin_token: String,
    signup: Option<Signup>,
    #[serde(default)]
    limits: Limits,
}

/// A checked config.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// The event's name.
    pub name: String,
    /// Where to listen.
    pub listen: SocketAddr,
    /// The server's folder.
    pub data: PathBuf,
    /// The database's URL.
    pub database: String,
    /// The host's token.
    pub admin_token: String,
    /// Who may sign up.
    pub signup: Signup,
    /// The bounds of an upload.
    pub limits: Limits,
}

/// The default address.
pub const LISTEN: &str = "127.0.0.1:8080";
/// The database's file in the data folder, by default.
pub const DATABASE_FILE: &str = "quads.db";
/// The fewest characters an admin token may have.
pub const MIN_ADMIN_TOKEN: usize = 16;

impl ServerConfig {
    /// Reads and checks `path`.
    pub fn read(path: &Path) -> Result<ServerConfig, ServerError> {
        let text = std::fs::read_to_string(path).map_err(|source| ServerError::Read {
            path: path.to_owned(),
            source,
        })?;
        ServerConfig::parse(&text, path)
    }

    /// Checks a config given as text; `path` names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<ServerConfig, ServerError> {
        let bad = |why: String| ServerError::Config {
            path: path.to_owned(),
            why,
        };
        let file: File = toml::from_str(text).map_err(|e| bad(e.message().to_owned()))?;
        let listen = file.listen.as_deref().unwrap_or(LISTEN);
        let listen = listen.parse().map_err(|_| {
            bad(format!(
                "listen `{listen}` is not an address such as {LISTEN}"
            ))
        })?;
        if file.admin_token.len() < MIN_ADMIN_TOKEN {
            return Err(bad(format!(
                "admin_token must have {MIN_ADMIN_TOKEN} characters or more"
            )));
        }
        let database = file
            .database
            .unwrap_or_else(|| format!("sqlite://{}", file.data.join(DATABASE_FILE).display()));
        if !database.starts_with("sqlite:") {
            return Err(bad(format!(
                "database `{database}`: only sqlite: URLs for now (PostgreSQL is next)"
            )));
        }
        Ok(ServerConfig {
            name: file.name,
            listen,
            data: file.data,
            database,
            admin_token: file.admin_token,
            signup: file.signup.unwrap_or(Signup::Invite),
            limits: file.limits,
        })
    }

    /// Where uploads are kept, by digest.
    pub fn blobs(&self) -> PathBuf {
        self.data.join("blobs")
    }

    /// Where uploads are unpacked and checked.
    pub fn staging(&self) -> PathBuf {
        self.data.join("staging")
    }
}
