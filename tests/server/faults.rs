//! Faults under a running event: its PostgreSQL restarted under it. Each time no game is lost,
//! none is counted twice, and the ladder goes on.

use std::process::Command;

use serde_json::Value;

use crate::harness::*;

/// Every game the server counts, once each: the done matches' games and nothing else. The
/// ladder is paused first, so that the two looks agree.
fn each_game_once(server: &Server) -> usize {
    let (code, body) = server.post(
        "/api/admin/switches",
        ADMIN,
        serde_json::json!({ "ladder_paused": true }),
    );
    assert_eq!(code, 200, "{body}");
    loop {
        let done = || {
            let (_, list) = server.get("/api/matches?limit=5000", None);
            let list = list["matches"].as_array().unwrap().clone();
            list.iter().filter(|m| m["state"] == "done").count()
        };
        let before = done();
        let (_, all) = server.text("/api/games.jsonl", Some(ADMIN));
        let rated = server.get("/api/leaderboard", None).1["games"]
            .as_u64()
            .unwrap() as usize;
        if done() != before {
            continue;
        }
        let mut seen = std::collections::HashSet::new();
        for line in all.lines() {
            let r: Value = serde_json::from_str(line).unwrap();
            assert!(
                seen.insert((r["seed"].clone(), r["game"].clone())),
                "twice: {r}"
            );
        }
        assert_eq!(seen.len(), 2 * before);
        assert_eq!(rated, seen.len());
        return seen.len();
    }
}

#[test]
fn postgresql_restarted_under_the_server_loses_and_doubles_nothing() {
    // On SQLite the database is a file of the server's own: its faults are the server's
    // (matches.rs and uploads.rs kill it mid-event). scripts/test runs this file again on
    // PostgreSQL.
    if std::env::var(BACKEND).as_deref() != Ok("postgres") {
        return;
    }
    let data = std::env::var("QUADS_TEST_POSTGRES_DATA")
        .expect("the tests' PostgreSQL's folder (tests/postgres/up.sh prints it)");
    let dir = tempfile::tempdir().unwrap();
    let mut server = start(&write_config_with(dir.path(), "lease = \"2s\"\n"));
    for name in ["ann", "bob"] {
        let token = server.entrant(name);
        assert_eq!(server.submit(&token, &bot_folder(dir.path(), name)).0, 0);
        assert_eq!(server.wait(&token, 1, None)["status"], "admitted");
    }
    let (_, board) = server.get("/api/leaderboard?games=10&wait=100", None);
    let before = board["games"].as_u64().unwrap();
    assert!(before >= 10, "{board}");
    // A bot whose check takes seconds (it thinks over each move), in its check when the
    // database goes: its verdict is written once the database is back, never dropped.
    let cy = server.entrant("cy");
    let slow = edited_bot(
        dir.path(),
        "cy",
        ("print(\"move\",", "time.sleep(0.2); print(\"move\","),
    );
    let script = std::fs::read_to_string(slow.join("bot.py")).unwrap();
    std::fs::write(slow.join("bot.py"), format!("import time\n{script}")).unwrap();
    assert_eq!(server.submit(&cy, &slow).0, 0);
    assert_eq!(server.wait(&cy, 1, Some("queued"))["status"], "checking");
    // A fast restart: every connection is cut, the server refuses them meanwhile.
    let bin = std::fs::read_dir("/usr/lib/postgresql")
        .unwrap()
        .flatten()
        .map(|e| e.path().join("bin/pg_ctl"))
        .max()
        .unwrap();
    let restarted = Command::new("runuser")
        .args(["-u", "postgres", "--"])
        .arg(bin)
        .args(["-D", &data, "-m", "fast", "-w", "restart", "-l"])
        .arg(std::path::Path::new(&data).with_file_name("server.log"))
        // Its output to files: the server it starts keeps pipes open for good.
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(
        restarted.success(),
        "pg_ctl restart: see {data}/../server.log"
    );
    // The server is still up, and its ladder goes on past where it was.
    let want = before + 10;
    let (code, board) = server.get(&format!("/api/leaderboard?games={want}&wait=100"), None);
    assert_eq!(code, 200, "{board}");
    assert!(board["games"].as_u64().unwrap() >= want, "{board}");
    assert_eq!(server.wait(&cy, 1, None)["status"], "admitted");
    assert!(
        server.child.try_wait().unwrap().is_none(),
        "the server stopped"
    );
    each_game_once(&server);
    // Nor was a match played twice: the server's worker kept its lease and handed in its games
    // across the restart (it asks the database again), rather than dropping them and leaving
    // the match to be reaped and played again.
    let (_, list) = server.get("/api/matches?limit=5000", None);
    for m in list["matches"].as_array().unwrap() {
        assert_eq!(m["attempts"], 1, "played again: {m}");
    }
}

/// A network namespace with a veth pair to this one (`10.213.X.1` here, `.2` there), removed
/// when dropped.
struct Netns {
    name: String,
    inside: String,
    host_ip: String,
}

fn ip(args: &[&str]) {
    let out = Command::new("ip").args(args).output().expect("ip runs");
    assert!(
        out.status.success(),
        "ip {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

impl Netns {
    fn new() -> Netns {
        let pid = std::process::id();
        let (name, outside, inside) = (
            format!("quads-cut-{pid}"),
            format!("qc{}h", pid % 100_000),
            format!("qc{}n", pid % 100_000),
        );
        let net = format!("10.213.{}", pid % 250);
        let ns = Netns {
            name: name.clone(),
            inside: inside.clone(),
            host_ip: format!("{net}.1"),
        };
        ip(&["netns", "add", &name]);
        ip(&[
            "link", "add", &outside, "type", "veth", "peer", "name", &inside,
        ]);
        ip(&["link", "set", &inside, "netns", &name]);
        ip(&["addr", "add", &format!("{net}.1/30"), "dev", &outside]);
        ip(&["link", "set", &outside, "up"]);
        ns.inside_ip(&["addr", "add", &format!("{net}.2/30"), "dev", &inside]);
        ns.inside_ip(&["link", "set", &inside, "up"]);
        ns.inside_ip(&["link", "set", "lo", "up"]);
        ns
    }

    /// `ip ARGS` inside.
    fn inside_ip(&self, args: &[&str]) {
        let mut all = vec!["netns", "exec", &self.name, "ip"];
        all.extend_from_slice(args);
        ip(&all);
    }

    /// Cuts the link (`false`) or mends it.
    fn link(&self, up: bool) {
        self.inside_ip(&["link", "set", &self.inside, if up { "up" } else { "down" }]);
    }
}

impl Drop for Netns {
    fn drop(&mut self) {
        // Removing the namespace removes its end of the pair, and so the pair.
        let _ = Command::new("ip")
            .args(["netns", "delete", &self.name])
            .status();
    }
}

/// The pid of the process whose command line holds every one of `words`.
fn pid_with(words: &[&str]) -> Option<u32> {
    std::fs::read_dir("/proc").unwrap().flatten().find_map(|e| {
        let pid: u32 = e.file_name().to_str()?.parse().ok()?;
        let cmd = std::fs::read(e.path().join("cmdline")).ok()?;
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        words.iter().all(|w| cmd.contains(w)).then_some(pid)
    })
}

/// Waits (a minute at most) for `done` to hold; what it holds.
fn until<T>(what: &str, mut done: impl FnMut() -> Option<T>) -> T {
    let end = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        if let Some(t) = done() {
            return t;
        }
        assert!(std::time::Instant::now() < end, "{what}, after a minute");
        std::thread::yield_now();
    }
}

#[test]
fn a_worker_cut_off_loses_its_lease_and_its_late_games_do_not_count() {
    let ns = Netns::new();
    let dir = tempfile::tempdir().unwrap();
    // Listening everywhere: here on the loopback, there on the pair's address.
    let config = write_config_with(
        dir.path(),
        "listen = \"0.0.0.0:0\"\nworkers = 0\nlease = \"2s\"\nmovetime = \"2s\"\n",
    );
    let server = start(&config);
    // Bots that take a while over each move, so that the cut comes mid-match.
    for name in ["ann", "bob"] {
        let folder = edited_bot(
            dir.path(),
            name,
            ("print(\"move\",", "time.sleep(0.2); print(\"move\","),
        );
        let script = std::fs::read_to_string(folder.join("bot.py")).unwrap();
        std::fs::write(folder.join("bot.py"), format!("import time\n{script}")).unwrap();
        let token = server.entrant(name);
        assert_eq!(server.submit(&token, &folder).0, 0);
        assert_eq!(server.wait(&token, 1, None)["status"], "admitted");
    }
    let token_of = |name: &str| {
        let (code, body) = server.post(
            "/api/admin/workers",
            ADMIN,
            serde_json::json!({ "name": name }),
        );
        assert_eq!(code, 201, "{body}");
        body["token"].as_str().unwrap().to_owned()
    };
    let port = server.url.rsplit(':').next().unwrap();
    let far = format!("http://{}:{port}", ns.host_ip);
    let cut_dir = dir.path().join("cut");
    let printed = dir.path().join("cut.out");
    let mut cut = Running(
        Command::new("ip")
            .args([
                "netns",
                "exec",
                &ns.name,
                env!("CARGO_BIN_EXE_quads"),
                "worker",
            ])
            .args(["--server", &far, "--token", &token_of("box-cut"), "--data"])
            .arg(&cut_dir)
            .stdout(std::fs::File::create(&printed).unwrap())
            .spawn()
            .unwrap(),
    );
    let m = server.wait_match(1, Some("queued"));
    assert!(
        m["match"]["worker"]
            .as_str()
            .unwrap()
            .starts_with("box-cut/"),
        "{m}"
    );
    // Once both bots are built there (their packs fetched) and playing, its link goes down.
    let cut_dir_text = cut_dir.display().to_string();
    until("box-cut never built both bots", || {
        let text = std::fs::read_to_string(&printed).unwrap();
        (text.contains("built ann") && text.contains("built bob")).then_some(())
    });
    until("box-cut never ran a bot", || {
        let worker = pid_with(&["worker", &cut_dir_text])?;
        pid_with(&[&format!(" --parent {worker} ")])
    });
    ns.link(false);
    // Another worker takes match 1 once box-cut's lease has run out, and plays it again.
    let mut near = Running(
        Command::new(env!("CARGO_BIN_EXE_quads"))
            .args([
                "worker",
                "--server",
                &server.url,
                "--token",
                &token_of("box-near"),
            ])
            .arg("--data")
            .arg(dir.path().join("near"))
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap(),
    );
    let m = server.wait_match(1, None);
    assert_eq!(
        (&m["match"]["state"], &m["match"]["attempts"]),
        (&serde_json::json!("done"), &serde_json::json!(2)),
        "{m}"
    );
    assert!(
        m["match"]["worker"]
            .as_str()
            .unwrap()
            .starts_with("box-near/"),
        "{m}"
    );
    // The link mended, box-cut hands its games in late, and they do not count.
    ns.link(true);
    until("box-cut never handed match 1 in", || {
        let text = std::fs::read_to_string(&printed).unwrap();
        text.contains("match 1 handed in").then_some(())
    });
    let text = std::fs::read_to_string(&printed).unwrap();
    let line = text
        .lines()
        .find(|l| l.contains("match 1 handed in"))
        .unwrap();
    assert!(
        line.ends_with("(not counted: the lease was lost)"),
        "{text}"
    );
    let _ = cut.kill();
    let _ = cut.wait();
    let _ = near.kill();
    let _ = near.wait();
    each_game_once(&server);
}

/// A tmpfs of `mib` MiB mounted at a new folder `at`, unmounted when dropped.
struct Tmpfs(std::path::PathBuf);

impl Tmpfs {
    fn new(at: &std::path::Path, mib: u32) -> Tmpfs {
        std::fs::create_dir_all(at).unwrap();
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={mib}m"), "tmpfs"])
            .arg(at)
            .status()
            .expect("mount runs");
        assert!(status.success(), "mount a tmpfs (needs root)");
        Tmpfs(at.to_owned())
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

/// Writes `file` until its disk is full (ENOSPC); the bytes written.
fn fill(file: &std::path::Path) -> u64 {
    use std::io::Write;
    let mut f = std::fs::File::create(file).unwrap();
    let block = vec![0x5a_u8; 64 * 1024];
    let mut written = 0;
    loop {
        match f.write(&block) {
            Ok(0) => return written,
            Ok(n) => written += n as u64,
            Err(e) if e.raw_os_error() == Some(28) => return written,
            Err(e) => panic!("filling {}: {e}", file.display()),
        }
    }
}

#[test]
fn a_full_disk_refuses_in_one_line_and_loses_no_game() {
    let dir = tempfile::tempdir().unwrap();
    // The server's data folder (its SQLite file, packs, builds and logs) on a disk of 64 MiB.
    let disk = Tmpfs::new(&dir.path().join("data"), 64);
    let config = write_config_with(dir.path(), "lease = \"3s\"\ncrash_streak = 0\n");
    let mut server = start(&config);
    for name in ["ann", "bob"] {
        let token = server.entrant(name);
        assert_eq!(server.submit(&token, &bot_folder(dir.path(), name)).0, 0);
        assert_eq!(server.wait(&token, 1, None)["status"], "admitted");
    }
    let cy = server.entrant("cy");
    let (_, board) = server.get("/api/leaderboard?games=4&wait=100", None);
    assert!(board["games"].as_u64().unwrap() >= 4, "{board}");
    // The disk fills: a careless host's backup, a bot's flood of logs.
    let filler = disk.0.join("filler");
    assert!(fill(&filler) > 0);
    // An upload has nowhere to go: refused in one line, and the server stays up.
    let archive = crate::visitor::tar_gz(&bot_folder(dir.path(), "cy"));
    let (code, body) = server.upload(&cy, &archive);
    assert!(code >= 500, "{code} {body}");
    let why = body["error"].as_str().unwrap_or_default();
    assert!(!why.is_empty() && !why.contains('\n'), "one line: {body}");
    assert_eq!(server.get("/api/leaderboard", None).0, 200);
    assert!(
        server.child.try_wait().unwrap().is_none(),
        "the server stopped"
    );
    // Room again: the ladder goes on, nobody lost a game to the disk, every game counted
    // once, and the upload goes through.
    std::fs::remove_file(&filler).unwrap();
    let (_, board) = server.get("/api/leaderboard", None);
    let want = board["games"].as_u64().unwrap() + 6;
    let (code, board) = server.get(&format!("/api/leaderboard?games={want}&wait=100"), None);
    assert_eq!(code, 200, "{board}");
    assert!(board["games"].as_u64().unwrap() >= want, "{board}");
    let (_, all) = server.text("/api/games.jsonl", Some(ADMIN));
    for line in all.lines() {
        let r: Value = serde_json::from_str(line).unwrap();
        assert_eq!(
            r["failures"],
            serde_json::json!([]),
            "a game lost to the disk: {r}"
        );
    }
    let (code, body) = server.upload(&cy, &archive);
    assert_eq!(code, 201, "{body}");
    assert_eq!(server.wait(&cy, 1, None)["status"], "admitted");
    each_game_once(&server);
    let _ = server.child.kill();
    let _ = server.child.wait();
}
