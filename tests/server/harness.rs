//! What the server tests share: a real `quads serve` on a free port with its own data
//! folder and SQLite file, and the calls an entrant and the host make.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::{json, Value};

pub const ADMIN: &str = "host-token-0123456789";

pub struct Server {
    pub child: Child,
    pub url: String,
    pub config: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A process the test started (a worker), killed and reaped when dropped, so a test that
/// fails part-way leaves none running.
pub struct Running(pub Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Running {
    /// How it ended and what it printed, if it ends within `limit` (None: it was still
    /// running, and is killed). Its output must be piped, and small.
    pub fn output_within(mut self, limit: std::time::Duration) -> Option<std::process::Output> {
        use std::io::Read;
        let deadline = std::time::Instant::now() + limit;
        let status = loop {
            if let Some(status) = self.0.try_wait().ok()? {
                break status;
            }
            if std::time::Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let read = |pipe: Option<&mut dyn Read>| {
            let mut bytes = Vec::new();
            if let Some(p) = pipe {
                let _ = p.read_to_end(&mut bytes);
            }
            bytes
        };
        let stdout = read(self.0.stdout.as_mut().map(|p| p as &mut dyn Read));
        let stderr = read(self.0.stderr.as_mut().map(|p| p as &mut dyn Read));
        Some(std::process::Output {
            status,
            stdout,
            stderr,
        })
    }
}

impl std::ops::Deref for Running {
    type Target = Child;
    fn deref(&self) -> &Child {
        &self.0
    }
}

impl std::ops::DerefMut for Running {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}

pub fn write_config(dir: &Path) -> PathBuf {
    write_config_with(dir, "")
}

/// The variable that runs these tests on PostgreSQL: `postgres` (scripts/test's second pass
/// sets it, with the server tests/postgres/up.sh started in QUADS_TEST_POSTGRES).
pub const BACKEND: &str = "QUADS_TEST_BACKEND";

/// The `database` line of a new test config: none (SQLite in the data folder), or a new
/// database of its own on the tests' PostgreSQL.
fn database_line() -> String {
    if std::env::var(BACKEND).as_deref() != Ok("postgres") {
        return String::new();
    }
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let base = std::env::var("QUADS_TEST_POSTGRES").expect(
        "QUADS_TEST_BACKEND=postgres needs QUADS_TEST_POSTGRES (tests/postgres/up.sh prints it)",
    );
    let name = format!(
        "server_{}_{}",
        std::process::id(),
        N.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
    );
    let made = Command::new("psql")
        .arg(format!("{base}/postgres"))
        .args(["-qc", &format!("CREATE DATABASE {name}")])
        .status()
        .expect("psql runs");
    assert!(made.success(), "CREATE DATABASE {name}");
    format!("database = \"{base}/{name}\"\n")
}

/// The test config with `extra` lines of top-level keys.
pub fn write_config_with(dir: &Path, extra: &str) -> PathBuf {
    let config = dir.join("server.toml");
    let text = format!(
        "name = \"test-cup\"\n{}data = \"{}\"\nadmin_token = \"{ADMIN}\"\n{}{extra}\
         [limits]\nupload_bytes = 200000\nunpacked_bytes = 1000000\nfiles = 100\n",
        // The loopback, unless `extra` says where.
        if extra.contains("listen = ") {
            ""
        } else {
            "listen = \"127.0.0.1:0\"\n"
        },
        dir.join("data").display(),
        database_line()
    );
    std::fs::write(&config, text).unwrap();
    config
}

/// Starts `quads serve` and waits for the line that says where it listens.
/// Its log says only what went wrong (`--log warn`): a test's output stays readable.
pub fn start(config: &Path) -> Server {
    start_with(config, &["--log", "warn"], Stdio::inherit())
}

/// Starts `quads serve` with more arguments, its log (stderr) written to `log`.
pub fn start_logged(config: &Path, args: &[&str], log: &Path) -> Server {
    start_with(config, args, std::fs::File::create(log).unwrap().into())
}

/// Spawns `serve` (a `quads serve` command, its arguments given) with its stdout piped, and
/// reads the first line it prints (where it listens).
pub fn spawn_serve(serve: &mut Command) -> (Child, String) {
    let mut child = serve.stdout(Stdio::piped()).spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    (child, line)
}

fn start_with(config: &Path, args: &[&str], stderr: Stdio) -> Server {
    let (child, line) = spawn_serve(
        Command::new(env!("CARGO_BIN_EXE_quads"))
            .args(["serve", "--config"])
            .arg(config)
            .args(args)
            .stderr(stderr),
    );
    let url = line
        .trim()
        .strip_prefix("quads serve: test-cup at ")
        .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
        .to_owned();
    Server {
        child,
        url,
        config: config.to_owned(),
    }
}

/// (status, JSON body) of a call.
pub fn call(req: ureq::Request, body: Option<Value>) -> (u16, Value) {
    let answer = match body {
        Some(b) => req.send_json(b),
        None => req.call(),
    };
    match answer {
        Ok(r) => (r.status(), r.into_json().unwrap()),
        Err(ureq::Error::Status(code, r)) => (code, r.into_json().unwrap()),
        Err(e) => panic!("{e}"),
    }
}

pub fn with_token(req: ureq::Request, token: &str) -> ureq::Request {
    req.set("Authorization", &format!("Bearer {token}"))
}

impl Server {
    pub fn invite(&self) -> String {
        let (code, body) = call(
            with_token(ureq::post(&format!("{}/api/invites", self.url)), ADMIN),
            None,
        );
        assert_eq!(code, 201, "{body}");
        body["invite"].as_str().unwrap().to_owned()
    }

    pub fn sign_up(&self, name: &str, invite: Option<&str>) -> (u16, Value) {
        call(
            ureq::post(&format!("{}/api/entrants", self.url)),
            Some(json!({ "name": name, "invite": invite })),
        )
    }

    pub fn entrant(&self, name: &str) -> String {
        let (code, body) = self.sign_up(name, Some(&self.invite()));
        assert_eq!(code, 201, "{body}");
        body["token"].as_str().unwrap().to_owned()
    }

    pub fn me(&self, token: &str) -> (u16, Value) {
        call(
            with_token(ureq::get(&format!("{}/api/me", self.url)), token),
            None,
        )
    }

    /// `quads submit`: (exit code, stdout, stderr).
    pub fn submit(&self, token: &str, path: &Path) -> (i32, String, String) {
        let out = Command::new(env!("CARGO_BIN_EXE_quads"))
            .args(["submit", "--server", &self.url, "--token", token])
            .arg(path)
            .output()
            .unwrap();
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        (
            out.status.code().unwrap(),
            text(&out.stdout),
            text(&out.stderr),
        )
    }

    /// An upload by hand: one multipart field `archive`.
    pub fn upload(&self, token: &str, archive: &[u8]) -> (u16, Value) {
        let (code, body, _) = self.upload_with_retry(token, archive);
        (code, body)
    }

    /// An upload by hand, with the answer's `Retry-After`.
    pub fn upload_with_retry(&self, token: &str, archive: &[u8]) -> (u16, Value, Option<String>) {
        let b = "xyzzy-boundary-42";
        let mut body = format!(
            "--{b}\r\nContent-Disposition: form-data; name=\"archive\"; filename=\"a\"\r\n\r\n"
        )
        .into_bytes();
        body.extend_from_slice(archive);
        body.extend_from_slice(format!("\r\n--{b}--\r\n").as_bytes());
        let req = with_token(ureq::post(&format!("{}/api/versions", self.url)), token).set(
            "Content-Type",
            &format!("multipart/form-data; boundary={b}"),
        );
        match req.send_bytes(&body) {
            Ok(r) | Err(ureq::Error::Status(_, r)) => {
                let retry = r.header("Retry-After").map(str::to_owned);
                (r.status(), r.into_json().unwrap(), retry)
            }
            Err(e) => panic!("{e}"),
        }
    }

    /// Version `n`, once its status is no longer `from` (or, without, once it is checked).
    pub fn wait(&self, token: &str, n: u32, from: Option<&str>) -> Value {
        let from = from.map_or(String::new(), |f| format!("&from={f}"));
        let url = format!("{}/api/versions/{n}?wait=100{from}", self.url);
        let (code, body) = call(with_token(ureq::get(&url), token), None);
        assert_eq!(code, 200, "{body}");
        body
    }

    pub fn report(&self, token: &str, n: u32) -> Value {
        let url = format!("{}/api/versions/{n}/report", self.url);
        let (code, body) = call(with_token(ureq::get(&url), token), None);
        assert_eq!(code, 200, "{body}");
        body
    }

    pub fn download(&self, token: &str, n: u32) -> (u16, Vec<u8>) {
        let req = with_token(
            ureq::get(&format!("{}/api/versions/{n}/download", self.url)),
            token,
        );
        let read = |r: ureq::Response| {
            let mut v = Vec::new();
            std::io::Read::read_to_end(&mut r.into_reader(), &mut v).unwrap();
            v
        };
        match req.call() {
            Ok(r) => (r.status(), read(r)),
            Err(ureq::Error::Status(code, r)) => (code, read(r)),
            Err(e) => panic!("{e}"),
        }
    }
}

/// The example entrant alice's folder, copied under `dir` as `name` with its manifest renamed.
pub fn bot_folder(dir: &Path, name: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/entrants/alice");
    let to = dir.join(name);
    std::fs::create_dir_all(&to).unwrap();
    std::fs::copy(src.join("bot.py"), to.join("bot.py")).unwrap();
    let manifest = std::fs::read_to_string(src.join("bot.toml")).unwrap();
    std::fs::write(
        to.join("bot.toml"),
        manifest.replace("\"alice\"", &format!("\"{name}\"")),
    )
    .unwrap();
    to
}

/// An archive made by Python's tarfile or zipfile from a script's entries.
pub fn python_archive(dir: &Path, script: &str) -> Vec<u8> {
    let out = dir.join("attack.bin");
    let status = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::read(out).unwrap()
}

/// Every path under `dir`.
pub fn tree(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        out.push(p.clone());
        if p.is_dir() && !p.is_symlink() {
            out.extend(tree(&p));
        }
    }
    out
}

/// A bot like `bot_folder`'s whose script is changed by `edit` (old, new), which must apply.
pub fn edited_bot(dir: &Path, name: &str, edit: (&str, &str)) -> PathBuf {
    let folder = bot_folder(dir, name);
    let script = std::fs::read_to_string(folder.join("bot.py")).unwrap();
    assert!(script.contains(edit.0), "the kit changed: {}", edit.0);
    std::fs::write(folder.join("bot.py"), script.replace(edit.0, edit.1)).unwrap();
    folder
}

/// The line of the kit where a game's seed is read.
pub const SEED_LINE: &str = "random.seed(int(words[words.index(\"seed\") + 1]))";

/// A bot that passes `quads check` (which always sends seed 1) and crashes, saying so on its
/// standard error, in every game the ladder plays.
pub fn crashing_bot(dir: &Path, name: &str) -> PathBuf {
    let crash = format!(
        "{SEED_LINE}\n        if words[words.index(\"seed\") + 1] != \"1\":\n            print(\"crashing on purpose\", file=sys.stderr, flush=True)\n            sys.exit(3)"
    );
    edited_bot(dir, name, (SEED_LINE, &crash))
}

impl Server {
    /// A GET as `token` (or the host, or no one): (status, JSON).
    pub fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        let req = ureq::get(&format!("{}{path}", self.url));
        call(
            match token {
                Some(t) => with_token(req, t),
                None => req,
            },
            None,
        )
    }

    /// A POST of `body` as `token`: (status, JSON).
    pub fn post(&self, path: &str, token: &str, body: Value) -> (u16, Value) {
        call(
            with_token(ureq::post(&format!("{}{path}", self.url)), token),
            Some(body),
        )
    }

    /// A GET of text as `token`: (status, text).
    pub fn text(&self, path: &str, token: Option<&str>) -> (u16, String) {
        let req = ureq::get(&format!("{}{path}", self.url));
        let req = match token {
            Some(t) => with_token(req, t),
            None => req,
        };
        match req.call() {
            Ok(r) => (r.status(), r.into_string().unwrap()),
            Err(ureq::Error::Status(code, r)) => (code, r.into_string().unwrap()),
            Err(e) => panic!("{e}"),
        }
    }

    /// Match `id` once it is no longer `from` (or, without, once it is over).
    pub fn wait_match(&self, id: i64, from: Option<&str>) -> Value {
        let from = from.map_or(String::new(), |f| format!("&from={f}"));
        let (code, body) = self.get(&format!("/api/matches/{id}?wait=100{from}"), None);
        assert_eq!(code, 200, "{body}");
        body
    }
}

/// Polls the match list until no match is being played (the ladder paused, the count then
/// stays); fails after a minute.
pub fn until_none_running(server: &Server) {
    let end = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let (_, list) = server.get("/api/matches?limit=500", None);
        let running = list["matches"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["state"] == "running" || m["state"] == "queued" && m["kind"] == "test");
        if !running {
            return;
        }
        assert!(
            std::time::Instant::now() < end,
            "a match still plays: {list}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}
