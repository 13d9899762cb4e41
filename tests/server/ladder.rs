//! The ladder: every pair in turn, rated with intervals.

use std::path::Path;

use serde_json::Value;

use crate::harness::*;

#[test]
fn the_ladder_plays_every_pair_in_turn_and_rates_them_with_intervals() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    let names = ["ann", "bob", "cy"];
    for name in names {
        let token = server.entrant(name);
        assert_eq!(server.submit(&token, &bot_folder(dir.path(), name)).0, 0);
        assert_eq!(server.wait(&token, 1, None)["status"], "admitted");
    }
    // A version that fails its check never plays.
    let eve = server.entrant("eve");
    let broken = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/entrants/eve");
    assert_eq!(server.submit(&eve, &broken).0, 0);
    assert_eq!(server.wait(&eve, 1, None)["status"], "failed");
    // Once cy (checked last) has played 4 games, it has met both others: a newcomer meets
    // everyone before any pair meets again.
    let url = format!("{}/api/leaderboard?each=4&wait=100&pairs=true", server.url);
    let (code, board) = call(ureq::get(&url), None);
    assert_eq!(code, 200, "{board}");
    assert!(board["games"].as_u64().unwrap() >= 6, "{board}");
    // A wait is also for the ratings of those games (they are fitted in the background).
    assert_eq!(board["rated"], board["games"], "{board}");
    let rows = board["rows"].as_array().unwrap();
    let mut listed: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    listed.sort();
    assert_eq!(listed, names);
    // Listed by rating, the highest first, each with its rank (shared by equal ratings).
    let elo = |r: &Value| r["elo"].as_f64().unwrap();
    for (i, r) in rows.iter().enumerate() {
        assert!(i == 0 || elo(&rows[i - 1]) >= elo(r), "{board}");
        let above = rows.iter().filter(|o| elo(o) > elo(r)).count();
        assert_eq!(r["rank"], above + 1, "{board}");
    }
    let count = |r: &Value, k: &str| r[k].as_u64().unwrap();
    for r in rows {
        assert_eq!(
            count(r, "wins") + count(r, "draws") + count(r, "losses"),
            count(r, "games")
        );
        let (elo, low, high) = (
            r["elo"].as_f64().unwrap(),
            r["elo_low"].as_f64(),
            r["elo_high"].as_f64(),
        );
        assert!(
            low.map_or(true, |l| l <= elo) && high.map_or(true, |h| elo <= h),
            "{r}"
        );
    }
    let total: u64 = rows.iter().map(|r| count(r, "games")).sum();
    assert_eq!(total, 2 * board["games"].as_u64().unwrap());
    assert_eq!(
        rows.iter().map(|r| count(r, "wins")).sum::<u64>(),
        rows.iter().map(|r| count(r, "losses")).sum::<u64>()
    );
    // Every pair has met (the exact order of meetings is the scheduler's unit test); the pairs
    // are given to those who ask.
    let (_, plain) = server.get("/api/leaderboard", None);
    assert_eq!(plain.get("pairs"), None, "{plain}");
    let pairs = board["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 3, "{board}");
    assert!(pairs.iter().all(|p| count(p, "games") >= 2), "{board}");
}
