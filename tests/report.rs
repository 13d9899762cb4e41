//! `report.html` in a real browser: a small tournament with a bot that crashes and a bot
//! named like a script, analysed, its report opened from file:// in headless Chromium over
//! WebDriver. The standings on the page are standings.csv's, a replayed game ends on the
//! record's `end` position, a forfeit shows its reason, the hostile name is text, and the
//! console stays clean. A screenshot is left in the target folder (report-screenshot.png).
//!
//! Needs Debian's `chromium` and `chromium-driver` (.ci/run installs them); without them the
//! browser test fails saying so. The rebuild test needs no browser.

mod common;

#[path = "common/browser.rs"]
mod browser;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use common::Quads;
use fantoccini::key::Key;
use fantoccini::Locator;
use serde_json::Value;

const HOSTILE: &str = "<script>alert(1)</script>";

/// Plays a small analysed tournament in the test's folder: the greedy bot, a random bot under
/// a hostile name, and a bot that crashes at its first move; returns the output folder.
fn tournament(q: &Quads) -> PathBuf {
    let bot = common::quads_bot();
    let bad =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("harness/referee/tests/fixtures/bad_bot.py");
    let config = format!(
        r#"name = "report test"
seed = 5
pairs = 1
concurrency = 2
variants = ["quads", "classic"]
openings = {{ random_moves = 2 }}
time = {{ movetime = "5s" }}

[[bot]]
name = "greedy"
command = "{bot} --strategy greedy"

[[bot]]
name = {hostile}
command = "{bot} --strategy random"

[[bot]]
name = "crasher"
command = "python3 {bad} crash"
"#,
        bot = bot.display(),
        bad = bad.display(),
        hostile = serde_json::to_string(HOSTILE).unwrap(),
    );
    std::fs::write(q.dir().join("report.toml"), config).unwrap();
    q.ok(&[
        "tournament",
        "report.toml",
        "--out",
        "t",
        "--quiet",
        "--analyze",
    ]);
    q.dir().join("t")
}

fn csv_rows(path: &Path) -> Vec<HashMap<String, String>> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    reader
        .records()
        .map(|r| {
            header
                .iter()
                .cloned()
                .zip(r.unwrap().iter().map(str::to_owned))
                .collect()
        })
        .collect()
}

/// The position the page's board shows, in the project's notation (board and hand).
async fn shown_position(b: &browser::Browser) -> String {
    let squares = b
        .js("return [...document.querySelectorAll('#board g.sq')].map(g => [g.dataset.square, g.dataset.piece]);")
        .await;
    let pieces: HashMap<String, String> = squares
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s[0].as_str().unwrap().to_owned(),
                s[1].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(pieces.len(), 16, "sixteen squares drawn");
    let mut rows = Vec::new();
    for row in (1..=4).rev() {
        let mut text = String::new();
        for col in ["A", "B", "C", "D"] {
            match pieces[&format!("{col}{row}")].as_str() {
                "" => text.push('.'),
                p => text.push_str(p),
            }
        }
        rows.push(text);
    }
    let hand = b
        .js("return document.getElementById('hand').dataset.piece;")
        .await;
    let hand = match hand.as_str().unwrap() {
        "" => "-",
        p => p,
    };
    format!("{} {hand}", rows.join("/"))
}

/// The board and hand of a position's notation (without a claim field).
fn board_and_hand(position: &str) -> String {
    position.split(' ').take(2).collect::<Vec<_>>().join(" ")
}

async fn press(b: &browser::Browser, key: Key) {
    let body = b.client.find(Locator::Css("body")).await.unwrap();
    body.send_keys(&char::from(key).to_string()).await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn the_report_shows_the_tournament_in_a_real_browser() {
    if !common::needs(&["chromium", "chromedriver"]) {
        return;
    }
    let q = Quads::new();
    let out = tournament(&q);
    let records = common::games(&out.join("games.jsonl"));
    let judged = common::games(&out.join("analysis.jsonl"));
    let b = browser::open(1280, 1000).await;
    let url = format!("file://{}", out.join("report.html").display());
    b.client.goto(&url).await.unwrap();
    b.client
        .wait()
        .for_element(Locator::Css("body[data-ready='1']"))
        .await
        .expect("the page's script ran to the end");

    // The standings are standings.csv's rows (those with games), every figure.
    let shown = b
        .js("return [...document.querySelectorAll('table.standings')].flatMap(t => [...t.tBodies[0].rows].map(r => [t.dataset.variant, ...[...r.cells].map(c => c.textContent)]));")
        .await;
    let shown = shown.as_array().unwrap();
    let csv: Vec<_> = csv_rows(&out.join("standings.csv"))
        .into_iter()
        .filter(|r| r["games"] != "0")
        .collect();
    assert_eq!(
        shown.len(),
        csv.len(),
        "one row per bot and variant that played"
    );
    for row in &csv {
        let cells = shown
            .iter()
            .find(|s| s[0] == row["variant"].as_str() && s[2] == row["bot"].as_str())
            .unwrap_or_else(|| panic!("no row for {} in {}", row["bot"], row["variant"]));
        for (k, key) in [
            "games",
            "wins",
            "draws",
            "losses",
            "score_pct",
            "elo",
            "elo_low",
            "elo_high",
        ]
        .iter()
        .enumerate()
        {
            assert_eq!(
                cells[3 + k],
                row[*key].as_str(),
                "{key} of {} in {}",
                row["bot"],
                row["variant"]
            );
        }
        let forfeits = if row["crash"] == "0" {
            "-".to_owned()
        } else {
            format!("crash {}", row["crash"])
        };
        assert_eq!(cells[11], forfeits.as_str());
    }

    // The hostile name is text: shown as written, and the page's two scripts are the only ones.
    assert!(
        shown.iter().any(|s| s[2] == HOSTILE),
        "the name shows as text"
    );
    assert_eq!(b.js("return document.scripts.length;").await, 2);

    // Open a won game with judged moves from the list, step through it from the start.
    let (index, game) = records
        .iter()
        .enumerate()
        .find(|(i, r)| {
            r["reason"] == "normal" && !judged[*i]["moves"].as_array().unwrap().is_empty()
        })
        .expect("a game won on the board, with judged moves");
    let row = format!("#game-list tbody tr[data-index='{index}']");
    b.client
        .find(Locator::Css(&row))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    b.client
        .wait()
        .for_element(Locator::Css("#replay:not([hidden])"))
        .await
        .unwrap();
    b.client
        .find(Locator::Id("first"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(
        shown_position(&b).await,
        board_and_hand(game["start"].as_str().unwrap())
    );
    let moves = game["moves"].as_array().unwrap().len();
    for _ in 0..moves {
        press(&b, Key::Right).await;
    }
    assert_eq!(
        b.js("return document.getElementById('board').dataset.ply;")
            .await,
        moves.to_string()
    );
    assert_eq!(
        shown_position(&b).await,
        board_and_hand(game["end"].as_str().unwrap())
    );
    let win = b
        .js("return document.querySelectorAll('#board g.sq.win').length;")
        .await;
    assert!(
        win.as_u64().unwrap() >= 4,
        "the winning shape is highlighted"
    );
    let marks = b
        .js("return document.querySelectorAll('#moves li[data-mark]').length;")
        .await;
    assert_eq!(
        marks.as_u64().unwrap() as usize,
        judged[index]["moves"].as_array().unwrap().len()
    );
    let value = b
        .js("return document.getElementById('value').textContent;")
        .await;
    assert!(value.as_str().unwrap().contains("last move:"), "{value}");
    std::fs::write(screenshot(), b.client.screenshot().await.unwrap()).unwrap();
    press(&b, Key::Left).await;
    assert_eq!(
        b.js("return document.getElementById('board').dataset.ply;")
            .await,
        (moves - 1).to_string()
    );
    press(&b, Key::Escape).await;
    assert_eq!(
        b.js("return document.getElementById('replay').hidden;")
            .await,
        true
    );

    // A forfeit shows its reason and detail; its bots' log links lead to files.
    let (index, game) = records
        .iter()
        .enumerate()
        .find(|(_, r)| r["reason"] == "crash")
        .expect("a crash");
    b.client.goto(&format!("{url}#game-{index}")).await.unwrap();
    b.client
        .wait()
        .for_element(Locator::Css("#replay:not([hidden])"))
        .await
        .unwrap();
    let forfeit = b
        .js("const f = document.getElementById('forfeit'); return f.hidden ? '' : f.textContent;")
        .await;
    let detail = game["failures"][0]["detail"].as_str().unwrap();
    assert!(
        forfeit.as_str().unwrap().contains(": crash: ")
            && forfeit.as_str().unwrap().contains(detail),
        "{forfeit}"
    );
    let links = b
        .js("return [...document.querySelectorAll('#logs a')].map(a => a.getAttribute('href'));")
        .await;
    for href in links.as_array().unwrap() {
        let file = out.join(href.as_str().unwrap());
        assert!(file.is_file(), "{} exists", file.display());
    }

    // The filters: the crasher's games, then its crashes only.
    let filter = |id: &str, text: &str| {
        format!("const s = document.getElementById('{id}'); s.value = [...s.options].find(o => o.textContent === {}).value; s.dispatchEvent(new Event('change', {{bubbles: true}})); return document.querySelectorAll('#game-list tbody tr').length;", serde_json::to_string(text).unwrap())
    };
    let crasher_games = records
        .iter()
        .filter(|r| r["first"]["name"] == "crasher" || r["second"]["name"] == "crasher")
        .count();
    assert_eq!(b.js(&filter("f-bot", "crasher")).await, crasher_games);
    let crashes = records.iter().filter(|r| r["reason"] == "crash").count();
    assert_eq!(b.js(&filter("f-reason", "crash")).await, crashes);

    let errors: Vec<String> = b
        .console()
        .await
        .into_iter()
        .filter(|e| e.starts_with("SEVERE"))
        .collect();
    assert!(errors.is_empty(), "console errors: {errors:?}");
    // The log is read for real: an error made now shows in it.
    b.js("console.error('probe'); return null;").await;
    let probe = b.console().await;
    assert!(
        probe
            .iter()
            .any(|e| e.starts_with("SEVERE") && e.contains("probe")),
        "{probe:?}"
    );
    b.client.close().await.unwrap();
}

/// Where the browser test leaves its screenshot: `report-screenshot.png` in the target folder.
fn screenshot() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("report-screenshot.png")
}

#[test]
fn quads_report_rebuilds_the_same_bytes() {
    let q = Quads::new();
    let bot = common::quads_bot();
    let bot = format!("{} --strategy greedy", bot.display());
    // A match's page is built from the games as they were played, `quads report` from the
    // folder: the two must agree, with games played out and games a bot lost by answering
    // nonsense (a reason and a stderr log in the record).
    let careless = "sh -c 'echo oops >&2; echo hello'";
    for (folder, second) in [("m", bot.as_str()), ("bad", careless)] {
        q.ok(&[
            "match",
            "--bot",
            &bot,
            "--bot",
            second,
            "--games",
            "2",
            "--movetime",
            "5s",
            "--out",
            folder,
            "--quiet",
        ]);
        let page = q.dir().join(folder).join("report.html");
        let written = std::fs::read(&page).unwrap();
        std::fs::remove_file(&page).unwrap();
        assert_eq!(
            q.ok(&["report", folder]),
            format!("report in {folder}/report.html\n")
        );
        assert_eq!(std::fs::read(&page).unwrap(), written, "{folder}");
    }
    let games = common::games(&q.dir().join("bad/games.jsonl"));
    assert!(
        games.iter().all(|g| g.to_string().contains("hello")),
        "{games:?}"
    );
    let event: Value =
        serde_json::from_str(&std::fs::read_to_string(q.dir().join("m/event.json")).unwrap())
            .unwrap();
    assert_eq!(event["games"][0], "games.jsonl");
}
