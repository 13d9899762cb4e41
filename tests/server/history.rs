//! The leaderboard's history: every fit kept (`history_every = "0s"`) equals a refit by
//! `quads ratings` of the ladder's games cut at the same point, the standings at a past moment
//! are the fit kept then, and an entrant's rating over its games is its rows in those fits.

use std::collections::HashMap;
use std::process::Command;

use serde_json::json;

use crate::harness::*;

/// `quads ratings` on the first `n` of `lines` (the event's name, seed 1, as the leaderboard
/// fits; `flags` added): per bot, (games, elo, low end, high end) of its `all` row.
fn refit(
    dir: &std::path::Path,
    lines: &[&str],
    n: usize,
    flags: &[&str],
) -> HashMap<String, [Option<f64>; 4]> {
    let file = dir.join(format!("cut-{n}.jsonl"));
    std::fs::write(&file, lines[..n].join("\n") + "\n").unwrap();
    let out = dir.join(format!("rated-{n}"));
    let run = Command::new(env!("CARGO_BIN_EXE_quads"))
        .arg("ratings")
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .args(["--event", "test-cup", "--seed", "1"])
        .args(flags)
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    let csv = std::fs::read_to_string(out.join("standings.csv")).unwrap();
    let mut rows = HashMap::new();
    for line in csv.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        if cells[0] == "all" {
            let num = |i: usize| cells[i].parse::<f64>().ok().filter(|x| x.is_finite());
            rows.insert(cells[1].to_owned(), [num(2), num(7), num(8), num(9)]);
        }
    }
    rows
}

/// A board's row has the rating and interval ends `quads ratings` gave, to the tenth both
/// round to (an unbounded end is none on both).
fn same_rating(row: &serde_json::Value, refitted: [Option<f64>; 3], what: &str) {
    let close = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() <= 0.11,
        (None, None) => true,
        _ => false,
    };
    let served = ["elo", "elo_low", "elo_high"].map(|k| row[k].as_f64());
    assert!(
        served.iter().zip(refitted).all(|(&a, b)| close(a, b)),
        "{what}: served {served:?}, quads ratings {refitted:?}"
    );
}

#[test]
fn every_fit_kept_is_a_refit_of_the_games_cut_at_the_same_point() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config_with(dir.path(), "history_every = \"0s\"\n"));
    let names = ["ann", "bob", "cy"];
    for name in names {
        let token = server.entrant(name);
        assert_eq!(server.submit(&token, &bot_folder(dir.path(), name)).0, 0);
        assert_eq!(server.wait(&token, 1, None)["status"], "admitted");
    }
    let url = format!("{}/api/leaderboard?each=4&wait=100", server.url);
    let (code, board) = call(ureq::get(&url), None);
    assert_eq!(code, 200, "{board}");
    assert_eq!(board["rated"], board["games"], "{board}");
    // The ladder stops, so its games and fits stay as they are while they are compared.
    let games = paused_and_exported(&server);
    let lines: Vec<&str> = games.lines().collect();

    let (code, list) = server.get("/api/leaderboard/history", None);
    assert_eq!(code, 200, "{list}");
    let fits = list["fits"].as_array().unwrap();
    assert!(!fits.is_empty(), "{list}");
    let mut compared = 0;
    let mut last_at = i64::MIN;
    for fit in fits {
        let (at, n) = (fit["at"].as_i64().unwrap(), fit["games"].as_u64().unwrap());
        assert!(at >= last_at, "fits out of order: {list}");
        last_at = at;
        assert!(n as usize <= lines.len(), "{fit} of {} games", lines.len());
        // The standings at that moment are that fit (or one kept in the same millisecond).
        let (code, then) = server.get(&format!("/api/leaderboard/history?at={at}"), None);
        assert_eq!(code, 200, "{then}");
        assert_eq!(then["at"], at, "{then}");
        if then["games"] != fit["games"] {
            continue;
        }
        let rows = then["rows"].as_array().unwrap();
        let refitted = refit(dir.path(), &lines, n as usize, &[]);
        // Before everyone has played, the board also lists the entrants without a game.
        for r in rows {
            let name = r["name"].as_str().unwrap();
            let Some(&[played, elo, low, high]) = refitted.get(name) else {
                assert_eq!(
                    r["games"], 0,
                    "{name} is not in the first {n} games: {then}"
                );
                continue;
            };
            assert_eq!(r["games"].as_f64(), played, "{name} at {n} games: {then}");
            if refitted.len() == names.len() {
                same_rating(r, [elo, low, high], &format!("{name} at {n} games"));
                compared += 1;
            }
        }
    }
    assert!(
        compared >= names.len(),
        "no fit of every entrant compared: {list}"
    );
    // The last fit is the leaderboard's.
    let (_, now) = server.get("/api/leaderboard", None);
    let last = fits.last().unwrap();
    assert_eq!(last["games"], now["games"], "{list} {now}");

    // The home page shows the standings at a moment given to the second (UTC), as the API
    // gives them at that moment.
    let second = fits[0]["at"].as_i64().unwrap() / 1000 + 1;
    let date = Command::new("date")
        .args(["-u", "-d", &format!("@{second}"), "+%Y-%m-%dT%H:%M:%S"])
        .output()
        .unwrap();
    let date = String::from_utf8(date.stdout).unwrap().trim().to_owned();
    let (code, page) = server.text(&format!("/?at={date}"), None);
    assert_eq!(code, 200, "{page}");
    let (_, then) = server.get(
        &format!("/api/leaderboard/history?at={}", second * 1000),
        None,
    );
    assert!(
        page.contains(&format!(
            "as last fitted then, on {} ladder games",
            then["rated"]
        )),
        "{then} {page}"
    );
    let table = page.split("id=\"leaderboard\"").nth(1).unwrap();
    assert!(
        !table.split('>').next().unwrap().contains("data-live="),
        "a past board is not live"
    );
    let table = table.split("</table>").next().unwrap();
    let rows = then["rows"].as_array().unwrap();
    assert_eq!(table.matches("<tr>").count(), rows.len() + 1, "{table}");
    for r in rows {
        assert!(
            table.contains(&format!(">{}</a>", r["name"].as_str().unwrap())),
            "{table}"
        );
    }
    for (bad, why) in [
        (
            "/?at=yesterday",
            "`yesterday` is not a moment such as 2026-12-07T12:00 (UTC)",
        ),
        (
            "/?by=bot",
            "`bot` is not a way to show the board: entrant or version",
        ),
    ] {
        let (code, page) = server.text(bad, None);
        assert_eq!(code, 400, "{page}");
        assert!(page.contains(why), "{page}");
    }

    // Before the first fit, no standings; a bad moment is refused in one line.
    let first = fits[0]["at"].as_i64().unwrap();
    let (code, none) = server.get(&format!("/api/leaderboard/history?at={}", first - 1), None);
    assert_eq!(
        (code, none["error"].as_str()),
        (404, Some("no standings were kept at or before that moment"))
    );
    let (code, bad) = server.get("/api/leaderboard/history?at=yesterday", None);
    assert_eq!(code, 400, "{bad}");

    // ann's rating over its games: its row in each fit that has it, its games never fewer.
    let (code, rating) = server.get("/api/entrants/ann/rating", None);
    assert_eq!(code, 200, "{rating}");
    let points = rating["points"].as_array().unwrap();
    assert_eq!(points.len(), fits.len(), "{rating}");
    for (p, f) in points.iter().zip(fits) {
        assert_eq!(p["at"], f["at"]);
    }
    assert!(points
        .windows(2)
        .all(|w| w[0]["games"].as_u64() <= w[1]["games"].as_u64()));
    assert_eq!(rating["versions"], json!([{ "version": 1, "games": 0 }]));
    // Its page draws them: a point of the line per fit that rated it, its version marked,
    // and the latest figures in words.
    let (code, page) = server.text("/entrants/ann", None);
    assert_eq!(code, 200);
    let rated: Vec<&serde_json::Value> = points.iter().filter(|p| p["elo"].is_f64()).collect();
    let line = page
        .split("class=\"elo\" points=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("no rating line: {page}"));
    assert_eq!(line.split(' ').count(), rated.len(), "{line}");
    assert!(page.contains(">v1</text>"), "{page}");
    let last = rated.last().unwrap();
    let words = format!(
        "ann's rating after {} games: {:.1}, 95% interval",
        last["games"],
        last["elo"].as_f64().unwrap()
    );
    assert!(page.contains(&words), "{words} not in {page}");
    let (code, nobody) = server.get("/api/entrants/nobody/rating", None);
    assert_eq!(
        (code, nobody["error"].as_str()),
        (404, Some("no entrant is named nobody"))
    );
}

/// Pauses the ladder and waits until no match runs and the ratings are fitted on every game;
/// then exports the event: its games.jsonl.
fn paused_and_exported(server: &Server) -> String {
    let paused = json!({ "ladder_paused": true });
    assert_eq!(server.post("/api/admin/switches", ADMIN, paused).0, 200);
    until_none_running(server);
    // The export counts every game in the database; the board follows once it has read and
    // fitted them all (a board read just before a match's games were counted lags behind).
    let (code, export) = server.post("/api/admin/export", ADMIN, json!({}));
    assert_eq!(code, 201, "{export}");
    let url = format!(
        "{}/api/leaderboard?games={}&wait=100",
        server.url, export["games"]
    );
    let (_, board) = call(ureq::get(&url), None);
    assert_eq!(board["games"], export["games"], "{board}");
    assert_eq!(board["rated"], board["games"], "{board}");
    server.text("/api/admin/export/games.jsonl", Some(ADMIN)).1
}

#[test]
fn per_version_ratings_are_quads_ratings_with_each_version_a_player_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    let mut tokens = HashMap::new();
    for name in ["ann", "bob"] {
        let token = server.entrant(name);
        assert_eq!(server.submit(&token, &bot_folder(dir.path(), name)).0, 0);
        assert_eq!(server.wait(&token, 1, None)["status"], "admitted");
        tokens.insert(name, token);
    }
    let (_, board) = server.get("/api/leaderboard?games=4&wait=100", None);
    let before = board["games"].as_u64().unwrap();
    assert!(before >= 4, "{board}");
    // ann's second version plays on: its games are ann's on the board, and its own apart.
    let v2 = edited_bot(
        dir.path(),
        "ann",
        (SEED_LINE, &format!("{SEED_LINE}  # v2")),
    );
    assert_eq!(server.submit(&tokens["ann"], &v2).0, 0);
    assert_eq!(server.wait(&tokens["ann"], 2, None)["status"], "admitted");
    // A match of ann's second version, played to its end.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(100);
    let second = loop {
        let (_, list) = server.get("/api/matches?entrant=ann&limit=500", None);
        let found = list["matches"].as_array().unwrap().iter().find(|m| {
            m["kind"] == "ladder"
                && (m["first"] == "ann" && m["first_version"] == 2
                    || m["second"] == "ann" && m["second_version"] == 2)
        });
        if let Some(m) = found {
            break m["id"].as_i64().unwrap();
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no match of ann v2: {list}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert_eq!(server.wait_match(second, None)["match"]["state"], "done");
    let games = paused_and_exported(&server);
    let lines: Vec<&str> = games.lines().collect();
    for line in &lines {
        let r: serde_json::Value = serde_json::from_str(line).unwrap();
        for seat in ["first", "second"] {
            assert!(r[seat]["version"].is_u64(), "no version: {line}");
        }
    }

    let (code, by_version) = server.get("/api/leaderboard?by=version", None);
    assert_eq!(code, 200, "{by_version}");
    let rows = by_version["rows"].as_array().unwrap();
    let mut names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    names.sort_unstable();
    assert_eq!(names, ["ann v1", "ann v2", "bob v1"], "{by_version}");
    let refitted = refit(dir.path(), &lines, lines.len(), &["--by-version"]);
    assert_eq!(refitted.len(), 3, "{refitted:?}");
    for r in rows {
        let name = r["name"].as_str().unwrap();
        let [played, elo, low, high] = refitted[name];
        assert_eq!(r["games"].as_f64(), played, "{name}: {by_version}");
        same_rating(r, [elo, low, high], name);
    }
    // The entrants' board is still one row per entrant, ann's games both versions'.
    let (_, board) = server.get("/api/leaderboard", None);
    let ann = |rows: &serde_json::Value, prefix: &str| -> u64 {
        rows["rows"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["name"].as_str().unwrap().starts_with(prefix))
            .map(|r| r["games"].as_u64().unwrap())
            .sum()
    };
    assert_eq!(ann(&board, "ann"), ann(&by_version, "ann v"), "{board}");
    assert_eq!(board["rows"].as_array().unwrap().len(), 2, "{board}");
    // The home page shows them too.
    let (code, page) = server.text("/?by=version", None);
    assert_eq!(code, 200);
    assert!(
        page.contains("<a href=\"/entrants/ann\">ann v2</a>"),
        "{page}"
    );
    let (code, bad) = server.get("/api/leaderboard?by=bot", None);
    assert_eq!(code, 400, "{bad}");
}
