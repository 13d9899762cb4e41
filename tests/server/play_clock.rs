//! Games with a clock on the play page (issue 49), through the API: each side charged what
//! its moves took (a person's by the server's time, a level's its thinking) plus the
//! increment, the running clock the side to move's; a clock that runs out loses the game on
//! time, found by a long poll that wakes when it does, kept as a timeout in the record; a
//! clock that is not one refused in one line.

use serde_json::{json, Value};

use crate::harness::*;
use crate::play::{moved, post, replayed, started};

/// Each side's clock in `game`, and the milliseconds its moves were charged, in all.
fn charged(game: &Value) -> [(u64, f64); 2] {
    let k = &game["clock"];
    let spent = |seat: &str| -> f64 {
        game["turns"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["seat"] == seat)
            .map(|t| t["ms"].as_f64().unwrap())
            .sum()
    };
    [
        (k["first_ms"].as_u64().unwrap(), spent("first")),
        (k["second_ms"].as_u64().unwrap(), spent("second")),
    ]
}

fn moves_of(game: &Value, seat: &str) -> u64 {
    game["turns"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["seat"] == seat)
        .count() as u64
}

#[test]
fn each_side_is_charged_its_moves_and_the_increment() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    let rules = quads_rules::Rules::QUADS;
    // Two people: the side not to move has exactly its time, less what it spent, plus the
    // increment for each of its moves; the side to move, that less the time since.
    let mut game = started(&server, json!({ "mode": "two", "clock": "10m+5s" }));
    assert_eq!(game["clock"]["clock"], "10m+5s");
    for _ in 0..4 {
        assert_eq!(game["clock"]["running"], game["to_move"], "{game}");
        let mv = replayed(&game).legal_moves(&rules)[0];
        game = moved(&server, &game, &mv.to_string());
        let [(first, first_spent), (second, second_spent)] = charged(&game);
        // As the clocks count: in fractions of a millisecond, shown whole (rounded down).
        let full = |seat: &str, spent: f64| {
            (600_000.0 + 5_000.0 * moves_of(&game, seat) as f64 - spent).floor() as u64
        };
        let (waiting, to_move) = if game["to_move"] == "first" {
            (
                (second, full("second", second_spent)),
                (first, full("first", first_spent)),
            )
        } else {
            (
                (first, full("first", first_spent)),
                (second, full("second", second_spent)),
            )
        };
        assert_eq!(waiting.0, waiting.1, "{game}");
        assert!(to_move.0 <= to_move.1, "{game}");
    }
    // Against a level: its moves are charged its thinking, and its clock does not run.
    let game = started(&server, json!({ "mode": "level-2", "clock": "5m" }));
    let mv = replayed(&game).legal_moves(&rules)[0];
    let game = moved(&server, &game, &mv.to_string());
    let [_, (second, second_spent)] = charged(&game);
    assert_eq!(second, (300_000.0 - second_spent).floor() as u64, "{game}");
    assert_eq!(game["clock"]["running"], "first");
    // Without a clock, none.
    let game = started(&server, json!({ "mode": "two" }));
    assert!(game["clock"].is_null(), "{game}");
}

#[test]
fn a_clock_that_runs_out_loses_on_time_and_bad_clocks_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    let game = started(&server, json!({ "mode": "two", "clock": "1s" }));
    let id = game["id"].as_str().unwrap();
    // The long poll wakes when the first player's second is up.
    let (code, body) = server.get(&format!("/api/play/{id}?wait=30"), None);
    assert_eq!(code, 200, "{body}");
    let game = &body["game"];
    assert_eq!(game["clock"]["flagged"], "first", "{game}");
    assert_eq!(game["clock"]["first_ms"], 0, "{game}");
    assert!(game["clock"]["running"].is_null(), "{game}");
    assert_eq!(
        (&game["result"], &game["yours"]),
        (&json!("0-1"), &json!(false))
    );
    // Too late: a move now is refused, and the record says the first lost on time.
    let (code, body) = post(
        &server,
        &format!("/api/play/{id}/moves"),
        json!({ "move": "BDRF", "after": 0 }),
    );
    assert_eq!(code, 409, "{body}");
    let (_, text) = server.text(&format!("/api/play/{id}/games.jsonl"), None);
    let record: quads_record::GameRecord = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(record.time_control, "base 1000 inc 0");
    assert_eq!(record.result.to_string(), "0-1");
    assert_eq!(record.failures.len(), 1, "{text}");
    assert_eq!(record.failures[0].reason.to_string(), "timeout");
    assert!(quads_record::replay::replay(&record).error.is_none());
    let (_, page) = server.text(&format!("/play/{id}"), None);
    assert!(
        page.contains("Player 1 ran out of time and loses."),
        "{page}"
    );
    // A clock that is not one, and the puzzle's, refused in one line.
    for (ask, says) in [
        (
            json!({ "mode": "two", "clock": "fast" }),
            "clock `fast`: bad duration",
        ),
        (
            json!({ "mode": "two", "clock": "0s" }),
            "clock `0s`: a time limit must be more than zero",
        ),
        (json!({ "mode": "puzzle", "clock": "5m" }), "has no clock"),
    ] {
        let (code, body) = post(&server, "/api/play", ask.clone());
        assert_eq!(code, 400, "{ask}: {body}");
        assert!(body["error"].as_str().unwrap().contains(says), "{body}");
    }
}
