//! `quads check` on real bots: each scenario fails on a fixture bot with exactly that defect
//! (harness/referee/tests/fixtures/bad_bot.py), with its hint and the lines exchanged, and
//! every bundled strategy passes them all.

mod common;

use std::path::Path;

use common::{quads_bot, Quads};
use quads_referee::check::SCENARIOS;

fn fixture() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("harness/referee/tests/fixtures/bad_bot.py")
        .display()
        .to_string()
}

/// Runs `quads check` on a command; returns the exit code and the scenario lines (the
/// exchange lines, indented, left out).
fn check(q: &Quads, command: &[&str]) -> (Option<i32>, Vec<String>) {
    let mut args = vec!["check", "--movetime", "1s", "--"];
    args.extend(command);
    let out = q.run(&args);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines = text
        .lines()
        .filter(|l| !l.starts_with(' '))
        .map(str::to_owned)
        .collect();
    (out.status.code(), lines)
}

/// The report when `failed` scenarios fail with `hint` and the rest pass.
fn expected(failed: &[(&str, &str)]) -> Vec<String> {
    SCENARIOS
        .iter()
        .map(|s| match failed.iter().find(|(name, _)| name == s) {
            Some((_, hint)) => format!("FAIL  {s}: {hint}"),
            None => format!("ok    {s}"),
        })
        .collect()
}

#[test]
fn every_bundled_strategy_passes_every_scenario() {
    let q = Quads::new();
    let bot = quads_bot().display().to_string();
    for strategy in ["first", "random", "greedy"] {
        let (code, lines) = check(&q, &[&bot, "--strategy", strategy]);
        assert_eq!((code, lines), (Some(0), expected(&[])), "{strategy}");
    }
    let (code, lines) = check(&q, &[&bot, "--level", "5"]);
    assert_eq!((code, lines), (Some(0), expected(&[])), "level 5");
}

#[test]
fn each_scenario_fails_on_the_bot_with_its_defect() {
    let q = Quads::new();
    let fixture = fixture();
    let no_readyok = "nothing on stdout while waiting for `readyok`: did you flush?";
    let piece_taken = "`A1 BDRF` is not legal here: piece BDRF is not available";
    let opening = "`A1 BDRF` is not legal here: no piece in hand: the opening move is a give";
    let cases: [(&str, Vec<(&str, &str)>); 7] = [
        (
            "no-readyok",
            SCENARIOS[1..].iter().map(|s| (*s, no_readyok)).collect(),
        ),
        (
            "opening-place",
            // The second game opens with the same give.
            vec![
                ("opening give", opening),
                ("a second game on one process", opening),
            ],
        ),
        (
            "give-own",
            vec![
                ("placement and give", piece_taken),
                (
                    "winning placement gives nothing",
                    "`D1 BDQH` is not legal here: this placement ends the game: give nothing",
                ),
                ("second seat", piece_taken),
                ("a second game on one process", piece_taken),
            ],
        ),
        (
            "first-seat-only",
            vec![(
                "second seat",
                "the bot exited with status 1 while the referee waited for `readyok`",
            )],
        ),
        (
            "one-game",
            vec![(
                "a second game on one process",
                "the bot exited with status 0 while the referee waited for `readyok`",
            )],
        ),
        (
            "give-on-win",
            vec![(
                "winning placement gives nothing",
                "`D1 SDRF` is not legal here: this placement ends the game: give nothing",
            )],
        ),
        (
            "ignore-quit",
            vec![(
                "quit ends the process",
                "the process was still running 250 ms after `quit`: exit when you read it",
            )],
        ),
    ];
    for (mode, failed) in cases {
        let (code, lines) = check(&q, &["python3", &fixture, mode]);
        assert_eq!((code, lines), (Some(1), expected(&failed)), "{mode}");
    }
}

#[test]
fn a_silent_bot_fails_the_handshake_with_the_lines_exchanged() {
    let q = Quads::new();
    let fixture = fixture();
    let out = q.run(&[
        "check",
        "--movetime",
        "1s",
        "--",
        "python3",
        &fixture,
        "no-handshake",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let first: Vec<&str> = text.lines().take(3).collect();
    assert_eq!(
        first,
        [
            "FAIL  handshake: nothing on stdout while waiting for `quadsok`: did you flush?",
            "      referee> quads 1",
            "      referee> quit",
        ]
    );
}

#[test]
fn json_reports_the_same() {
    let q = Quads::new();
    let fixture = fixture();
    let out = q.run(&[
        "check",
        "--json",
        "--movetime",
        "1s",
        "--",
        "python3",
        &fixture,
        "give-on-win",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["ok"], false);
    let failed: Vec<&str> = report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["ok"] == false)
        .map(|s| s["scenario"].as_str().unwrap())
        .collect();
    assert_eq!(failed, ["winning placement gives nothing"]);
    let exchange = &report["scenarios"][4]["exchange"];
    assert_eq!(
        report["scenarios"].as_array().unwrap().len(),
        SCENARIOS.len()
    );
    assert_eq!(
        exchange[0],
        serde_json::json!({"from": "referee", "line": "quads 1"})
    );
    assert_eq!(
        exchange[1],
        serde_json::json!({"from": "bot", "line": "id name bad-give-on-win"})
    );
}

#[test]
fn naming_no_bot_is_a_usage_error() {
    let q = Quads::new();
    assert_eq!(
        q.fails(&["check"]),
        "quads: name the bot: --bot NAME, or -- CMD [ARGS...]"
    );
}
