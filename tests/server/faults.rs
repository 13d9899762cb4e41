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
    assert!(
        server.child.try_wait().unwrap().is_none(),
        "the server stopped"
    );
    each_game_once(&server);
}
