//! `quads serve` (a competition on the web, quads_server), `quads submit` (an upload to it) and
//! `quads worker` (its matches played on another machine, quads_server::remote).

use std::path::{Path, PathBuf};

use quads_server::{pack, ServerConfig};

/// Arguments of `quads serve`.
#[derive(clap::Args)]
pub struct Args {
    /// The server's config (TOML), e.g. configs/server.toml. Without one, the server has no
    /// event: it serves only the play page, on the loopback at a port it prints.
    #[arg(long)]
    config: Option<PathBuf>,
    /// With no config: where the play page's games are kept [default: $XDG_DATA_HOME/quads/play,
    /// else ~/.local/share/quads/play].
    #[arg(long, conflicts_with = "config")]
    data: Option<PathBuf>,
    #[command(flatten)]
    log: crate::logs::Args,
}

/// Where a server with no event keeps its games by default (the XDG data folder's).
fn default_play_data() -> Result<PathBuf, String> {
    let var = |name| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    var("XDG_DATA_HOME")
        .or_else(|| var("HOME").map(|home| home.join(".local/share")))
        .map(|dir| dir.join("quads/play"))
        .ok_or_else(|| "no folder for the games (no HOME): give --data DIR".to_owned())
}

pub fn run(args: &Args) -> Result<(), String> {
    let config = match &args.config {
        Some(path) => ServerConfig::read(path),
        None => {
            let data = match &args.data {
                Some(d) => d.clone(),
                None => default_play_data()?,
            };
            ServerConfig::play_only(&data)
        }
    }
    .map_err(|e| e.to_string())?;
    crate::logs::start(&args.log)?;
    quads_server::memory::cap_arenas();
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("cannot start: {e}"))?;
    let said = if config.play_only {
        format!("the play page (games kept in {})", config.data.display())
    } else {
        config.name.clone()
    };
    let path = if config.play_only { "/play" } else { "" };
    runtime
        .block_on(quads_server::serve(config, |addr| {
            println!("quads serve: {said} at http://{addr}{path}");
        }))
        .map_err(|e| e.to_string())
}

/// Arguments of `quads submit`.
#[derive(clap::Args)]
pub struct SubmitArgs {
    /// The server, e.g. http://127.0.0.1:8080.
    #[arg(long)]
    server: String,
    /// Your API token (from signing up).
    #[arg(long)]
    token: String,
    /// The bot: its folder (with bot.toml), a .tar.gz or .zip of it, or one file (with a
    /// bot.toml beside it, or --manifest).
    path: PathBuf,
    /// The manifest of a one-file upload.
    #[arg(long)]
    manifest: Option<PathBuf>,
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// A part of the form: (field, file name, bytes).
type Part = (&'static str, String, Vec<u8>);

/// The form's parts.
fn parts(args: &SubmitArgs) -> Result<Vec<Part>, String> {
    let path = &args.path;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if path.is_dir() {
        let bytes = pack::pack(path).map_err(|e| e.to_string())?;
        return Ok(vec![("archive", format!("{name}.tar.gz"), bytes)]);
    }
    if [".tar.gz", ".tgz", ".zip"]
        .iter()
        .any(|x| name.ends_with(x))
    {
        return Ok(vec![("archive", name, read(path)?)]);
    }
    let manifest = match &args.manifest {
        Some(m) => m.clone(),
        None => path.with_file_name("bot.toml"),
    };
    Ok(vec![
        ("file", name, read(path)?),
        ("manifest", "bot.toml".to_owned(), read(&manifest)?),
    ])
}

pub fn submit(args: &SubmitArgs) -> Result<(), String> {
    let parts = parts(args)?;
    // A boundary no part holds.
    let all: Vec<u8> = parts.iter().flat_map(|p| p.2.iter().copied()).collect();
    let boundary = format!("quads-{}", pack::digest(&all));
    let mut body = Vec::new();
    for (field, file, bytes) in &parts {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{file}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    let url = format!("{}/api/versions", args.server.trim_end_matches('/'));
    let answer = ureq::post(&url)
        .set("Authorization", &format!("Bearer {}", args.token))
        .set(
            "Content-Type",
            &format!("multipart/form-data; boundary={boundary}"),
        )
        .send_bytes(&body);
    let json: serde_json::Value = match answer {
        Ok(r) => r.into_json().map_err(|e| format!("{url}: {e}"))?,
        Err(ureq::Error::Status(code, r)) => {
            let why = r
                .into_json::<serde_json::Value>()
                .ok()
                .and_then(|v| v["error"].as_str().map(str::to_owned))
                .unwrap_or_else(|| "no reason given".to_owned());
            return Err(format!(
                "the server refused the upload (HTTP {code}): {why}"
            ));
        }
        Err(e) => return Err(format!("cannot reach {url}: {e}")),
    };
    println!(
        "version {} uploaded: {} files, {} bytes, digest {} ({})",
        json["version"],
        json["files"],
        json["bytes"],
        json["digest"].as_str().unwrap_or("?"),
        json["status"].as_str().unwrap_or("?")
    );
    Ok(())
}

/// Arguments of `quads worker`.
#[derive(clap::Args)]
pub struct WorkerArgs {
    /// The server, e.g. http://10.0.0.1:8080.
    #[arg(long)]
    server: String,
    /// The worker's token (the host makes it: POST /api/admin/workers).
    #[arg(
        long,
        required_unless_present = "token_file",
        conflicts_with = "token_file"
    )]
    token: Option<String>,
    /// A file holding the token (kept out of the process list).
    #[arg(long)]
    token_file: Option<PathBuf>,
    /// Matches played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: u32,
    /// The worker's folder: packs, builds and the match being played.
    #[arg(long, default_value = "out/worker")]
    data: PathBuf,
    /// Stop after handing in this many matches (default: work until stopped).
    #[arg(long)]
    matches: Option<u64>,
    #[command(flatten)]
    log: crate::logs::Args,
}

pub fn worker(args: &WorkerArgs) -> Result<(), String> {
    use quads_server::remote::{run, Event, Options};
    let token = match (&args.token, &args.token_file) {
        (Some(t), _) => t.clone(),
        (None, Some(file)) => String::from_utf8(read(file)?)
            .map_err(|_| format!("{}: not text", file.display()))?
            .trim()
            .to_owned(),
        (None, None) => return Err("give --token or --token-file".to_owned()),
    };
    crate::logs::start(&args.log)?;
    let options = Options {
        server: args.server.clone(),
        token,
        concurrency: args.concurrency,
        data: args.data.clone(),
        matches: args.matches,
    };
    let shown = |e: Event| match e {
        Event::Took {
            slot,
            id,
            first,
            second,
            rules,
        } => {
            println!("slot {slot}: match {id}, {first} against {second} ({rules})")
        }
        Event::Built {
            entrant,
            version,
            admitted: true,
            ..
        } => {
            println!("built {entrant} (version {version}): admitted")
        }
        Event::Built {
            entrant,
            version,
            reason,
            ..
        } => {
            println!("built {entrant} (version {version}): failed: {reason}")
        }
        Event::HandedIn {
            slot,
            id,
            counted,
            result,
        } => {
            let counted = if counted {
                "counted"
            } else {
                "not counted: the lease was lost"
            };
            println!("slot {slot}: match {id} handed in, {result} ({counted})")
        }
        Event::GaveUp { slot, id, why } => println!("slot {slot}: match {id} given up: {why}"),
        Event::Answered {
            slot,
            play,
            entrant,
            answer,
            counted,
        } => {
            let counted = if counted {
                "counted"
            } else {
                "not counted: the lease was lost"
            };
            println!("slot {slot}: {entrant}'s turn in game {play}: {answer} ({counted})")
        }
        Event::Unreachable { slot, why, retry } => {
            tracing::warn!(slot, error = %why, retry_s = retry.as_secs(), "the server is unreachable")
        }
    };
    run(&options, &shown).map_err(|e| e.to_string())
}
