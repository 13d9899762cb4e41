//! `quads check` on real bots: each scenario fails on a fixture bot with exactly that defect
//! (harness/referee/tests/fixtures/bad_bot.py), with its hint and the lines exchanged, and
//! every bundled strategy passes them all.

mod common;

use std::path::Path;

use common::{quads_bot, Quads};
use quads_referee::check::scenarios;

fn fixture() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("harness/referee/tests/fixtures/bad_bot.py")
        .display()
        .to_string()
}

/// Every scenario's name, in order, with the default rules.
fn names() -> Vec<String> {
    scenarios(&[]).iter().map(|s| s.name()).collect()
}

/// Runs `quads check` on a command; returns the exit code and the stdout lines.
fn check(q: &Quads, command: &[&str]) -> (Option<i32>, Vec<String>) {
    let fixtures = fixture();
    let fixtures = Path::new(&fixtures)
        .parent()
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    let mut args = vec![
        "check",
        "--movetime",
        "1s",
        "--handshake-timeout",
        "1s",
        "--dir",
        &fixtures,
        "--",
    ];
    args.extend(command);
    let out = q.run(&args);
    let text = String::from_utf8(out.stdout).unwrap();
    (out.status.code(), text.lines().map(str::to_owned).collect())
}

/// The scenario lines (`ok …`, `FAIL …`), without the exchanges and warnings.
fn verdicts(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.starts_with("ok ") || l.starts_with("FAIL "))
        .cloned()
        .collect()
}

/// The names of the scenarios that failed.
fn failed(lines: &[String]) -> Vec<String> {
    verdicts(lines)
        .iter()
        .filter_map(|l| l.strip_prefix("FAIL  "))
        .map(|l| l.split_once(": ").unwrap().0.to_owned())
        .collect()
}

#[test]
fn every_bundled_strategy_passes_every_scenario() {
    let q = Quads::new();
    let bot = quads_bot().display().to_string();
    let all_ok: Vec<String> = names().iter().map(|n| format!("ok    {n}")).collect();
    for strategy in ["first", "random", "greedy"] {
        let (code, lines) = check(&q, &[&bot, "--strategy", strategy]);
        assert_eq!(
            (code, verdicts(&lines)),
            (Some(0), all_ok.clone()),
            "{strategy}"
        );
    }
    let (code, lines) = check(&q, &[&bot, "--level", "5"]);
    assert_eq!((code, verdicts(&lines)), (Some(0), all_ok), "level 5");
    // Level 5 plays perfectly where these positions are: no warning about a move. (A warning
    // that a move took over half its time depends on the machine's load, not on the bot: on a
    // busy CI machine level 5 once earned two.)
    let about_moves: Vec<&String> = lines
        .iter()
        .filter(|l| l.trim_start().starts_with("warning: "))
        .filter(|l| !l.contains("more than half of the"))
        .collect();
    assert_eq!(about_moves, Vec::<&String>::new(), "level 5");
}

/// The scenarios that send `go`.
fn every_scenario_with_a_move() -> Vec<&'static str> {
    let no_move = [
        "handshake",
        "options take their defaults",
        "quit ends the process",
    ];
    let names: Vec<String> = names()
        .into_iter()
        .filter(|n| !no_move.contains(&n.as_str()))
        .collect();
    names.into_iter().map(|n| &*n.leak()).collect()
}

/// A defect: the fixture's mode, the scenarios it fails (every one a consequence of the
/// defect), and the hint of the scenario aimed at it.
struct Defect {
    mode: &'static str,
    fails: Vec<String>,
    aimed: &'static str,
    hint: &'static str,
}

fn defect<S: ToString>(
    mode: &'static str,
    fails: &[S],
    aimed: &'static str,
    hint: &'static str,
) -> Defect {
    Defect {
        mode,
        fails: fails.iter().map(S::to_string).collect(),
        aimed,
        hint,
    }
}

#[test]
fn each_scenario_fails_on_the_bot_with_its_defect() {
    let q = Quads::new();
    let fixture = fixture();
    let whole = [
        "a whole game in each seat (quads)",
        "a whole game in each seat (classic)",
        "a whole game in each seat (quads,claim=announce)",
    ];
    let defects = [
        defect(
            "rejects-setoption",
            &["options take their defaults"],
            "options take their defaults",
            "the bot exited with status 3 while the referee waited for `readyok`",
        ),
        defect(
            "stray-after-move",
            &[
                "isready at any time",
                "a second game on one process",
                whole[0],
                whole[1],
                whole[2],
                "2x2 blocks win in quads, not in classic",
                "only the traits in play win",
            ],
            "isready at any time",
            "the answer to `isready` is `readyok`, not `done` (stdout carries protocol lines only; log to stderr or with `info `)",
        ),
        defect(
            "needs-movetime",
            &["a game clock (base and inc)"],
            "a game clock (base and inc)",
            "the bot exited with status 1 while the referee waited for `readyok` (with a game clock `newgame` carries `base MS inc MS` and no `movetime`)",
        ),
        defect(
            "crash-on-last",
            &[
                "the last square fills the board (quads)",
                "the last square fills the board (classic)",
                "the last square fills the board (quads,claim=announce)",
            ],
            "the last square fills the board (classic)",
            "the bot exited with status 1 while the referee waited for `move …`",
        ),
        defect(
            "ignore-squares",
            &[
                "a piece that wins on every square (quads)",
                "2x2 blocks win in quads, not in classic",
            ],
            "2x2 blocks win in quads, not in classic",
            "`A2 BLRF` is not legal here: this placement ends the game: give nothing: in `quads` the nine 2x2 blocks win too: the piece in hand completes one on every empty square here, so the placement wins and gives nothing",
        ),
        defect(
            "ignore-traits",
            &["only the traits in play win"],
            "only the traits in play win",
            "`A1` is not legal here: the game goes on: give a piece after placing: under `classic,traits=color+shape+fill` the size does not count: the lines this piece completes share nothing else, so it wins nothing and gives a piece",
        ),
        defect(
            "ignore-announce",
            &["a piece that wins on every square (quads,claim=announce)"],
            "a piece that wins on every square (quads,claim=announce)",
            "`B2` is not legal here: the game goes on: give a piece after placing: under claim=announce a winning placement is announced: `move B2 quarto`",
        ),
        defect(
            "claim-any-shape",
            &["no false claim (quads,claim=announce)"],
            "no false claim (quads,claim=announce)",
            "`quarto` is not legal here: false claim: no winning shape to claim: a shape on the board that nobody claimed in time never counts again: claim only when the position says `claimable`, or when your own placement completes a shape",
        ),
        defect(
            "no-claimable",
            &[whole[2], "claiming the opponent's missed win (quads,claim=announce)"],
            "claiming the opponent's missed win (quads,claim=announce)",
            "the bot exited with status 1 while the referee waited for `move …`",
        ),
        defect(
            "first-seat-only",
            &[
                "second seat (quads)",
                whole[0],
                "second seat (classic)",
                whole[1],
                "second seat (quads,claim=announce)",
                whole[2],
            ],
            "second seat (classic)",
            "the bot exited with status 1 while the referee waited for `readyok`",
        ),
        defect(
            "give-on-win",
            &[
                "a piece that wins on every square (quads)",
                whole[0],
                "a piece that wins on every square (classic)",
                whole[1],
                "2x2 blocks win in quads, not in classic",
                "only the traits in play win",
            ],
            "a piece that wins on every square (classic)",
            "`B1 BDQF` is not legal here: this placement ends the game: give nothing: the piece in hand wins on every empty square: the placement wins, so the move gives nothing (`move B1`)",
        ),
        defect(
            "tab-info",
            &every_scenario_with_a_move(),
            "placement and give (quads)",
            "`info\tthinking` is not an `info` line: it starts with the word `info` in lower case at the very start of the line, then a space",
        ),
        defect(
            "ignore-quit",
            &["quit ends the process"],
            "quit ends the process",
            "the process was still running 2000 ms after `quit`: exit when you read it",
        ),
    ];
    for d in defects {
        let (code, lines) = check(&q, &["python3", &fixture, d.mode]);
        assert_eq!(code, Some(1), "{}", d.mode);
        assert_eq!(failed(&lines), d.fails, "{}", d.mode);
        let line = format!("FAIL  {}: {}", d.aimed, d.hint);
        assert!(
            lines.contains(&line),
            "{}: no `{line}` in {lines:#?}",
            d.mode
        );
    }
}

/// Regression: a bot that never answered the handshake had every scenario wait for it (31
/// handshake limits, over 5 minutes for one verdict); the others are now not run.
#[test]
fn a_defect_in_the_handshake_fails_it_with_the_lines_exchanged_and_runs_nothing_else() {
    let q = Quads::new();
    let fixture = fixture();
    let not_run: Vec<String> = names()[1..]
        .iter()
        .map(|n| format!("SKIP  {n}: not run: the handshake failed"))
        .collect();
    let (code, lines) = check(&q, &["python3", &fixture, "no-handshake"]);
    assert_eq!(code, Some(1));
    assert_eq!(failed(&lines), ["handshake"]);
    let skipped: Vec<&String> = lines.iter().filter(|l| l.starts_with("SKIP  ")).collect();
    assert_eq!(skipped, not_run.iter().collect::<Vec<_>>());
    assert_eq!(
        lines.last().unwrap(),
        &format!(
            "0 of {n} scenarios passed ({m} not run: the handshake failed), 0 warnings",
            n = names().len(),
            m = names().len() - 1
        )
    );
    assert_eq!(
        lines[..3],
        [
            "FAIL  handshake: nothing on stdout while waiting for `quadsok`: did you flush?",
            "      referee> quads 1",
            "      referee> quit",
        ]
    );
    let (_, lines) = check(&q, &["python3", &fixture, "bad-option-default"]);
    assert_eq!(failed(&lines), ["handshake"]);
    assert_eq!(
        lines[..5],
        [
            "FAIL  handshake: `option name depth type spin default 9 min 1 max 6` is not a valid option: bad default: option depth takes a whole number from 1 to 6 (e.g. `option name depth type spin default 3 min 1 max 8`, `option name fast type check default false`)",
            "      referee> quads 1",
            "          bot< id name bad-bad-option-default",
            "          bot< option name depth type spin default 9 min 1 max 6",
            "      referee> quit",
        ]
    );
}

#[test]
fn warnings_name_the_missed_win_and_the_losing_give_without_failing() {
    let q = Quads::new();
    let fixture = fixture();
    // The fixture plays the first empty square and the first piece left: legal, and blind.
    let (code, lines) = check(&q, &["python3", &fixture, "legal"]);
    assert_eq!(code, Some(0));
    let at = lines
        .iter()
        .position(|l| l == "ok    a whole game in each seat (quads)")
        .unwrap();
    assert_eq!(
        lines[at + 1..at + 5],
        [
            "      warning: missed a win in one: `move A2` wins here, `C1 SLRF` does not",
            "      warning: `C1 BLRF` lets the opponent win at once with `move C2`; `move C1 BDQF` gave nothing away",
            "      warning: `D1 BLQF` lets the opponent win at once with `move C2`; `move D1 SDQH` gave nothing away",
            "      warning: and 3 more in this scenario",
        ]
    );
    // A slow answer: 600 ms of the 1000 allowed, warned about in every scenario with a move.
    let fixtures = Path::new(&fixture)
        .parent()
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    let out = q.run(&[
        "check",
        "--rules",
        "classic",
        "--movetime",
        "1s",
        "--dir",
        &fixtures,
        "--",
        "python3",
        &fixture,
        "sleep",
        "600",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let warned: Vec<&str> = lines
        .windows(2)
        .filter(|w| w[1].contains("ms, more than half of the 1000 ms allowed"))
        .filter_map(|w| w[0].strip_prefix("ok    "))
        .collect();
    let with_a_move: Vec<String> = names()
        .into_iter()
        .filter(|n| {
            n.ends_with("(classic)")
                || n.starts_with("isready")
                || n.starts_with("a game clock")
                || n.starts_with("a second game")
        })
        .collect();
    assert_eq!(warned, with_a_move);
    // Stderr past the log cap.
    let (_, lines) = check(&q, &["python3", &fixture, "flood"]);
    assert!(lines.contains(&format!(
        "      warning: {} bytes of stderr in one short scenario: a game keeps the first {} and drops the rest",
        100 << 20,
        1 << 20
    )));
}

#[test]
fn json_reports_the_same() {
    let q = Quads::new();
    let fixture = fixture();
    let fixtures = Path::new(&fixture)
        .parent()
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    let out = q.run(&[
        "check",
        "--json",
        "--movetime",
        "1s",
        "--dir",
        &fixtures,
        "--",
        "python3",
        &fixture,
        "ignore-traits",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["ok"], false);
    let scenarios = report["scenarios"].as_array().unwrap();
    assert_eq!(scenarios.len(), names().len());
    let failed: Vec<&str> = scenarios
        .iter()
        .filter(|s| s["ok"] == false)
        .map(|s| s["scenario"].as_str().unwrap())
        .collect();
    assert_eq!(failed, ["only the traits in play win"]);
    let exchange = &scenarios.last().unwrap()["exchange"];
    assert_eq!(
        exchange[0],
        serde_json::json!({"from": "referee", "line": "quads 1"})
    );
    assert_eq!(
        exchange[1],
        serde_json::json!({"from": "bot", "line": "id name bad-ignore-traits"})
    );
    assert!(scenarios.iter().all(|s| s["warnings"].is_array()));
}

#[test]
fn rules_choose_the_game_scenarios() {
    let q = Quads::new();
    let bot = quads_bot().display().to_string();
    let out = q.run(&[
        "check",
        "--rules",
        "classic,traits=color",
        "--movetime",
        "1s",
        "--",
        &bot,
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let expected: Vec<String> = scenarios(&["classic,traits=color".parse().unwrap()])
        .iter()
        .map(|s| format!("ok    {}", s.name()))
        .collect();
    assert_eq!(verdicts(&lines), expected);
    assert_eq!(expected.len(), 13);
    assert_eq!(
        q.fails(&["check", "--rules", "chess", "--", &bot]),
        "quads: invalid value 'chess' for '--rules <SPEC>': unknown rules preset `chess` (a rules spec starts with quads or classic)"
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
