//! The page's guarantees that need no browser: record text never becomes markup, the same
//! inputs give the same bytes, and the games' data says what the records say.

use super::*;
use crate::report::build;
use quads_record::GameRecord;

const HOSTILE: &str = "<script>alert(1)</script>";

/// A record of `first` against `second`: a quads game the second player wins with four dark
/// solid pieces on row 1.
fn record(game: u32, first: &str, second: &str) -> GameRecord {
    let text = format!(
        r#"{{"game":{game},"rules":"quads","seed":1,"time_control":"movetime 1000","start":"..../..../..../.... -",
        "first":{{"name":{first},"command":"x","id":null}},"second":{{"name":{second},"command":"y","id":null}},
        "moves":["BDRF","A1 BLRF","A4 SDRF","B1 SLRF","B4 BDQF","C1 SLQF","C4 SDQF","D1"],
        "end":"BLRFSLRFSLQF./..../..../BDRFSDRFBDQFSDQF -","result":"0-1","reason":"normal","failures":[],
        "timing":{{"started":"2026-01-02T03:04:05.678Z","duration_ms":1.0,"moves_ms":[],"leaked":[0,0],"log_bytes":[10,0],"log_dropped":[0,0]}}}}"#,
        first = serde_json::to_string(first).unwrap(),
        second = serde_json::to_string(second).unwrap(),
    )
    .replace('\n', "");
    serde_json::from_str(&text).unwrap()
}

fn page(records: Vec<GameRecord>, name: &str) -> String {
    let report = build(
        name,
        records.into_iter().map(|r| (0, r)).collect(),
        &[],
        1,
        None,
    )
    .unwrap();
    let event = EventInfo {
        name: name.to_owned(),
        seed: Some(1),
        bots: report.bots.clone(),
        anchor: None,
        machine: Some(HOSTILE.to_owned()),
        games: vec!["games.jsonl".to_owned()],
    };
    render(&Page {
        report: &report,
        event: &event,
        log_bases: &[String::new()],
        analysis: None,
    })
}

#[test]
fn a_hostile_name_never_becomes_markup() {
    let html = page(
        vec![
            record(1, HOSTILE, "{{script}}"),
            record(2, "{{script}}", HOSTILE),
        ],
        HOSTILE,
    );
    // The only script elements are the page's own two.
    assert_eq!(html.matches("<script").count(), 2, "{html}");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(html.contains(r#""\u003cscript\u003ealert(1)\u003c/script\u003e""#));
    // A name that looks like a template slot is left as it is.
    assert!(html.contains("{{script}}"));
}

#[test]
fn the_same_inputs_give_the_same_bytes() {
    let make = || page(vec![record(1, "a", "b"), record(2, "b", "a")], "e");
    assert_eq!(make(), make());
}

#[test]
fn the_data_holds_each_game_compactly() {
    let report = build("e", vec![(0, record(7, "a", "b"))], &[], 1, None).unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&data::games_json(&report, &[String::new()], None)).unwrap();
    let game = &json["games"][0];
    let col = |name: &str| &game[data::COLUMNS.iter().position(|c| *c == name).unwrap()];
    assert_eq!(col("game"), 7);
    // BDRF is piece 0; `A1 BLRF` is square 0, piece 2; A4 is square 12; `D1` ends the game.
    assert_eq!(col("moves"), "-002c113d427e53-");
    // Row 1, A1 to D1.
    assert_eq!(col("win"), 0x000f);
    assert_eq!(col("logs"), 1);
    assert_eq!(col("note"), 0);
    assert_eq!(json["files"][0], "a");
}
