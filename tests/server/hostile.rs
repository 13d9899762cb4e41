//! A hostile bot on a remote worker: it looks for the server, the database and the worker's
//! token from inside its box, on a worker whose host was careless (the token on the command
//! line and in the environment, a file of it beside the worker's folder). The bot says on
//! stderr what it reached; its log, handed in with the match, must say it reached nothing.

use serde_json::json;

use crate::harness::*;

/// What the bot tries, each a line `WHAT reached` or `WHAT closed` on its stderr.
const PROBES: &str = r#"
        def probe(what, act):
            try:
                found = act()
            except Exception:
                found = False
            print(what, "reached" if found else "closed", file=sys.stderr, flush=True)
        def seen(path):
            try:
                with open(path, "rb") as f:
                    return TOKEN.encode() in f.read()
            except OSError:
                return False
        def in_proc():
            return any(seen(f"/proc/{p}/{f}") for p in os.listdir("/proc") if p.isdigit() for f in ("cmdline", "environ"))
        probe("server", lambda: socket.create_connection(("127.0.0.1", PORT), 2) and True)
        def database():
            if isinstance(DATABASE, tuple):
                return socket.create_connection(DATABASE, 2) and True
            return os.path.exists(DATABASE)
        probe("database", database)
        probe("token-file", lambda: seen(TOKEN_FILE))
        probe("worker-folder", lambda: "packs" in os.listdir(WORKER_DATA))
        probe("environment", lambda: any(TOKEN in v for v in os.environ.values()))
        probe("processes", in_proc)
"#;

#[test]
fn a_hostile_bot_on_a_worker_reaches_neither_the_server_nor_the_database_nor_the_token() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config_with(
        dir.path(),
        "workers = 0\nlease = \"5s\"\nmovetime = \"5s\"\n",
    );
    let server = start(&config);
    let token = server.worker_token("box-1");
    let token_file = dir.path().join("worker-token");
    std::fs::write(&token_file, &token).unwrap();
    // The worker's folder, where it keeps every entrant's pack.
    let data = dir.path().join("w");
    std::fs::create_dir_all(data.join("packs")).unwrap();
    let port = server.url.rsplit(':').next().unwrap();
    let database = database_probe(dir.path());
    let header = format!(
        "import os, socket\nTOKEN = {token:?}\nPORT = {port}\nDATABASE = {database}\nTOKEN_FILE = {token_file:?}\nWORKER_DATA = {data:?}\n"
    );
    for name in ["ann", "bob"] {
        let folder = edited_bot(
            dir.path(),
            name,
            (SEED_LINE, &format!("{SEED_LINE}{PROBES}")),
        );
        let script = std::fs::read_to_string(folder.join("bot.py")).unwrap();
        std::fs::write(folder.join("bot.py"), format!("{header}{script}")).unwrap();
        let entrant = server.entrant(name);
        assert_eq!(server.submit(&entrant, &folder).0, 0);
        assert_eq!(server.wait(&entrant, 1, None)["status"], "admitted");
    }
    // The probes are not toothless: run outside any box, each one reaches.
    let bare = std::process::Command::new("python3")
        .arg(dir.path().join("ann").join("bot.py"))
        .env("QUADS_LEAK", &token)
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let probed = bare_probes(bare);
    assert_eq!(probed, expected("reached"), "outside a box");
    // A careless host: the token on the command line, in the environment, in a file.
    let out = server
        .worker(&token, &data, &["--matches", "1"])
        .env("QUADS_WORKER_TOKEN", &token)
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "{printed}");
    let m = server.wait_match(1, None);
    assert_eq!(m["match"]["state"], "done", "{m}");
    for log in ["game-0001-first-ann.log", "game-0001-second-bob.log"] {
        let (code, text) = server.text(&format!("/api/matches/1/logs/{log}"), Some(ADMIN));
        assert_eq!((code, text), (200, expected("closed")), "{log}, {m}");
    }
    assert_eq!(m["games"].as_array().map(Vec::len), Some(2), "{}", json!(m));
}

/// Where the bot looks for the database, as Python: SQLite's file in the data folder, or the
/// tests' PostgreSQL as a (host, port) to connect to.
fn database_probe(dir: &std::path::Path) -> String {
    if std::env::var(BACKEND).as_deref() == Ok("postgres") {
        let url = std::env::var("QUADS_TEST_POSTGRES").unwrap();
        let at = url.rsplit('@').next().unwrap();
        let (host, port) = at.split_once(':').unwrap();
        let port: u16 = port.trim_end_matches('/').parse().unwrap();
        return format!("({host:?}, {port})");
    }
    format!("{:?}", dir.join("data").join("quads.db"))
}

/// The probes' lines, all with one verdict.
fn expected(verdict: &str) -> String {
    [
        "server",
        "database",
        "token-file",
        "worker-folder",
        "environment",
        "processes",
    ]
    .iter()
    .map(|w| format!("{w} {verdict}\n"))
    .collect()
}

/// Starts a game for the bot run by hand and reads what its probes said (they run once the
/// game's seed is read), then ends it.
fn bare_probes(mut bot: std::process::Child) -> String {
    use std::io::{BufRead, Write};
    let mut stdin = bot.stdin.take().unwrap();
    writeln!(stdin, "newgame rules quads seat first seed 1").unwrap();
    stdin.flush().unwrap();
    let mut err = std::io::BufReader::new(bot.stderr.take().unwrap());
    let mut text = String::new();
    for _ in 0..6 {
        err.read_line(&mut text).unwrap();
    }
    drop(stdin);
    let _ = bot.kill();
    let _ = bot.wait();
    text
}
