//! The whole event exported: the ladder's games as games.jsonl (test matches left out), rated
//! and reported as `quads ratings` does it, downloadable by the host alone.

use serde_json::{json, Value};
use std::process::Command;

use crate::harness::*;

#[test]
fn the_event_exports_its_ladder_games_rated_as_quads_ratings_rates_them() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    let admitted = |name: &str| {
        let token = server.entrant(name);
        assert_eq!(server.submit(&token, &bot_folder(dir.path(), name)).0, 0);
        assert_eq!(server.wait(&token, 1, None)["status"], "admitted");
        token
    };
    let ann = &admitted("ann");
    // One entrant alone plays no ladder game: nothing to export yet.
    let (code, body) = server.post("/api/admin/export", ADMIN, json!({}));
    assert_eq!(
        (code, body["error"].as_str()),
        (
            409,
            Some("no ladder game has been played yet: nothing to export")
        )
    );
    admitted("bob");
    let (_, board) = server.get("/api/leaderboard?games=4&wait=100", None);
    assert!(board["games"].as_u64().unwrap() >= 4, "{board}");
    let paused = json!({ "ladder_paused": true });
    assert_eq!(server.post("/api/admin/switches", ADMIN, paused).0, 200);
    // A test match of ann's is played while the ladder is paused: its games are not the event's.
    let (code, asked) = server.post("/api/matches", ann, json!({ "opponent": "bob" }));
    assert_eq!(code, 201, "{asked}");
    let test = server.wait_match(asked["match"].as_i64().unwrap(), None);
    assert_eq!(test["match"]["state"], "done", "{test}");
    let test_seeds: Vec<&Value> = test["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| &g["seed"])
        .collect();
    assert_eq!(test_seeds.len(), 2, "{test}");
    // A ladder match a worker took as the ladder was paused ends too; then nothing moves.
    until_none_running(&server);
    let ladder = server.get("/api/leaderboard", None).1["games"]
        .as_u64()
        .unwrap();

    // The host alone exports and downloads.
    let (code, body) = server.post("/api/admin/export", ann, json!({}));
    assert_eq!(
        (code, body["error"].as_str()),
        (403, Some("only the host may do this"))
    );
    let (code, _) = server.get("/api/admin/export/games.jsonl", Some(ann));
    assert_eq!(code, 403);
    let (code, _) = server.get("/api/admin/export/games.jsonl", None);
    assert_eq!(code, 401);
    let (code, export) = server.post("/api/admin/export", ADMIN, json!({}));
    assert_eq!(code, 201, "{export}");
    assert_eq!(export["games"], ladder);
    for file in [
        "games.jsonl",
        "report.html",
        "standings.csv",
        "pairwise.csv",
    ] {
        assert_eq!(
            export["files"][file],
            format!("/api/admin/export/{file}"),
            "{export}"
        );
    }
    let (code, body) = server.get("/api/admin/export/..%2Fserver.sqlite", Some(ADMIN));
    assert_eq!(
        (code, body["error"].as_str()),
        (404, Some("no such file in an export"))
    );

    let (code, games) = server.text("/api/admin/export/games.jsonl", Some(ADMIN));
    assert_eq!(code, 200);
    let records: Vec<Value> = games
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len() as u64, ladder);
    for r in &records {
        let mut names = [r["first"]["name"].as_str(), r["second"]["name"].as_str()];
        names.sort();
        assert_eq!(names, [Some("ann"), Some("bob")], "{r}");
        assert!(
            !test_seeds.contains(&&r["seed"]),
            "a test match's game: {r}"
        );
    }
    // The same file given to `quads ratings` with the event's name and seed 1: the same tables.
    let file = dir.path().join("downloaded.jsonl");
    std::fs::write(&file, &games).unwrap();
    let out = dir.path().join("rated");
    let status = Command::new(env!("CARGO_BIN_EXE_quads"))
        .arg("ratings")
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .args(["--event", "test-cup", "--seed", "1"])
        .output()
        .unwrap();
    assert!(status.status.success(), "{status:?}");
    for table in ["standings.csv", "standings.txt", "pairwise.csv"] {
        let (code, served) = server.text(&format!("/api/admin/export/{table}"), Some(ADMIN));
        assert_eq!(code, 200);
        assert_eq!(
            served,
            std::fs::read_to_string(out.join(table)).unwrap(),
            "{table}"
        );
    }
    let answer = with_token(
        ureq::get(&format!("{}/api/admin/export/report.html", server.url)),
        ADMIN,
    )
    .call()
    .unwrap();
    assert!(answer
        .header("content-security-policy")
        .is_some_and(|c| c.starts_with("default-src 'none'")));
    let page = answer.into_string().unwrap();
    assert!(page.contains("ann") && page.contains("bob"));
}
