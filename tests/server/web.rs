//! A whole event in a real browser (headless Chromium over WebDriver): the host logs in and
//! makes invites; one entrant signs up and uploads the Python starter kit by the page's form
//! and sees it built, checked and admitted; another uploads a broken bot and reads the failing
//! scenario explained, then a good one; games run and the leaderboard follows them by itself,
//! with intervals; a match replays; a logged-out visitor and the other entrant cannot open a
//! bot's logs or check report. No page logs an error (a CSP refusal would be one).

use std::path::Path;
use std::time::Duration;

use fantoccini::Locator;
use serde_json::Value;

use crate::browser::{self, Browser};
use crate::harness::*;

const WAIT: Duration = Duration::from_secs(100);

/// Opens `url`. A live page (the home page while games are played) reloads itself when the
/// standings change; should that reload win over the navigation, the browser is still where
/// it was, so it is sent again (a person would click again), a bounded number of times.
pub(crate) async fn go(b: &Browser, url: &str) {
    for _ in 0..5 {
        b.client.goto(url).await.unwrap();
        let at = b.client.current_url().await.unwrap();
        if at.as_str().trim_end_matches('/') == url.trim_end_matches('/') {
            return;
        }
    }
    panic!("the browser did not stay at {url}");
}

pub(crate) async fn wait_for(b: &Browser, css: &str) -> fantoccini::elements::Element {
    match b
        .client
        .wait()
        .at_most(WAIT)
        .for_element(Locator::Css(css))
        .await
    {
        Ok(element) => element,
        Err(e) => {
            // Where the browser was and what it showed, for the failure's message.
            let url = b.client.current_url().await.map(|u| u.to_string());
            let shown = b
                .client
                .execute(
                    "return document.body ? document.body.innerText : '';",
                    vec![],
                )
                .await;
            panic!("no `{css}` on the page: {e}\nat {url:?}, showing: {shown:?}")
        }
    }
}

pub(crate) async fn text(b: &Browser, css: &str) -> String {
    wait_for(b, css).await.text().await.unwrap()
}

pub(crate) async fn fill(b: &Browser, css: &str, value: &str) {
    wait_for(b, css).await.send_keys(value).await.unwrap();
}

pub(crate) async fn click(b: &Browser, css: &str) {
    let element = wait_for(b, css).await;
    // In the middle of the window, as a person scrolls to it: WebDriver's own scroll may leave
    // it under the pages' sticky header, which would take the click.
    let arg = serde_json::to_value(&element).unwrap();
    b.client
        .execute("arguments[0].scrollIntoView({block: 'center'});", vec![arg])
        .await
        .unwrap();
    element.click().await.unwrap();
}

/// Logs in with `token` on the log-in page.
async fn log_in(b: &Browser, server: &Server, token: &str) {
    go(b, &format!("{}/login", server.url)).await;
    fill(b, "input[name=token]", token).await;
    click(b, "form.box button[type=submit]").await;
    wait_for(b, "nav form.inline").await;
}

async fn log_out(b: &Browser) {
    click(b, "nav form.inline button").await;
    wait_for(b, "nav a[href='/login']").await;
}

/// Signs up `name` with `invite`: its token, as the page shows it.
async fn sign_up(b: &Browser, server: &Server, name: &str, invite: &str) -> String {
    go(b, &format!("{}/signup", server.url)).await;
    fill(b, "input[name=name]", name).await;
    fill(b, "input[name=invite]", invite).await;
    click(b, "form.box button[type=submit]").await;
    text(b, "#token").await
}

/// Uploads a file and its manifest by the entrant page's form.
async fn upload(b: &Browser, server: &Server, name: &str, file: &Path, manifest: &Path) {
    go(b, &format!("{}/entrants/{name}", server.url)).await;
    let form = "form#upload";
    fill(
        b,
        &format!("{form} input[name=file]"),
        &file.display().to_string(),
    )
    .await;
    fill(
        b,
        &format!("{form} input[name=manifest]"),
        &manifest.display().to_string(),
    )
    .await;
    click(b, &format!("{form} button[type=submit]")).await;
}

pub(crate) async fn errors(b: &Browser) -> Vec<String> {
    b.console()
        .await
        .into_iter()
        .filter(|e| e.starts_with("SEVERE"))
        .collect()
}

#[tokio::test(flavor = "current_thread")]
async fn an_event_in_a_real_browser() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config_with(dir.path(), "crash_streak = 0\n"));
    let b = browser::open(1280, 1000).await;
    // The host makes two invites on its page.
    log_in(&b, &server, ADMIN).await;
    let mut invites = Vec::new();
    for _ in 0..2 {
        go(&b, &format!("{}/admin", server.url)).await;
        click(&b, "form[action='/admin/invite'] button").await;
        invites.push(text(&b, "#invite").await);
    }
    log_out(&b).await;
    // ann uploads the Python starter kit as it is, with her bot.toml.
    let ann = sign_up(&b, &server, "ann", &invites[0]).await;
    assert_eq!(ann.len(), 64);
    let kit = Path::new(env!("CARGO_MANIFEST_DIR")).join("bots/starter/python/bot.py");
    let manifest = dir.path().join("ann.toml");
    std::fs::write(
        &manifest,
        "name = \"ann\"\nauthor = \"Ann\"\nlanguage = \"Python\"\ncommand = \"python3 bot.py\"\n",
    )
    .unwrap();
    upload(&b, &server, "ann", &kit, &manifest).await;
    wait_for(&b, "#v-1").await;
    assert_eq!(server.wait(&ann, 1, None)["status"], "admitted");
    b.client.refresh().await.unwrap();
    assert_eq!(text(&b, "#v-1 .badge").await, "admitted");
    let why = text(&b, "#v-1 td.left").await;
    assert!(why.starts_with("13 of 13 scenarios passed"), "{why}");
    log_out(&b).await;
    // eve uploads a bot that answers the handshake wrong: the page says which scenario failed.
    let eve = sign_up(&b, &server, "eve", &invites[1]).await;
    let broken = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/entrants/eve");
    upload(
        &b,
        &server,
        "eve",
        &broken.join("bot.py"),
        &broken.join("bot.toml"),
    )
    .await;
    wait_for(&b, "#v-1").await;
    assert_eq!(server.wait(&eve, 1, None)["status"], "failed");
    b.client.refresh().await.unwrap();
    assert_eq!(text(&b, "#v-1 .badge").await, "failed");
    let why = text(&b, "#v-1 td.left").await;
    assert!(why.starts_with("FAIL "), "{why}");
    click(&b, "#v-1 a[href='/entrants/eve/versions/1']").await;
    let report = text(&b, "pre.log").await;
    assert!(
        report.contains("| eve |") && report.contains("left out"),
        "{report}"
    );
    // Then a good one that writes to its stderr in every game: its logs are hers.
    let good = edited_bot(
        &dir.path().join("e"),
        "eve",
        (
            SEED_LINE,
            &format!(
                "{SEED_LINE}\n        print(\"eve's secret plan\", file=sys.stderr, flush=True)"
            ),
        ),
    );
    upload(
        &b,
        &server,
        "eve",
        &good.join("bot.py"),
        &good.join("bot.toml"),
    )
    .await;
    wait_for(&b, "#v-2").await;
    assert_eq!(server.wait(&eve, 2, None)["status"], "admitted");
    // The leaderboard follows the games by itself: open it, and it reloads once one more is
    // played (its long poll), showing both with their intervals.
    let (_, board) = server.get("/api/leaderboard?games=2&wait=100", None);
    go(&b, &format!("{}/", server.url)).await;
    let seen: u64 = wait_for(&b, "#leaderboard")
        .await
        .attr("data-live-now")
        .await
        .unwrap()
        .unwrap()
        .parse()
        .unwrap();
    assert!(seen >= board["games"].as_u64().unwrap());
    let (_, later) = server.get(
        &format!("/api/leaderboard?games={}&wait=100", seen + 1),
        None,
    );
    assert!(later["games"].as_u64().unwrap() > seen, "{later}");
    wait_for(&b, &format!("#leaderboard:not([data-live-now='{seen}'])")).await;
    let rows = b
        .js("return [...document.querySelectorAll('#leaderboard tbody tr')].map(r => [...r.cells].map(c => c.textContent));")
        .await;
    let rows = rows.as_array().unwrap();
    let mut names: Vec<&str> = rows.iter().map(|r| r[1].as_str().unwrap()).collect();
    names.sort_unstable();
    assert_eq!(names, ["ann", "eve"], "{rows:?}");
    for r in rows {
        let interval = r[3].as_str().unwrap();
        assert!(interval.contains(" … "), "{interval}");
    }
    // A match replays: its games listed as in report.html, one opened and played to its end.
    go(&b, &format!("{}/matches/1", server.url)).await;
    wait_for(&b, "body[data-ready='1']").await;
    let m = server.wait_match(1, None);
    let command = text(&b, "#replay-command").await;
    assert_eq!(command, m["replay"].as_str().unwrap());
    let games = m["games"].as_array().unwrap();
    assert_eq!(
        b.js("return document.querySelectorAll('#game-list tbody tr').length;")
            .await,
        Value::from(games.len())
    );
    click(&b, "#game-list tbody tr").await;
    wait_for(&b, "#replay:not([hidden])").await;
    click(&b, "#last").await;
    let ply = text(&b, "#ply").await;
    let moves = games[0]["moves"].as_u64().unwrap();
    assert_eq!(ply, format!("move {moves} of {moves}"));
    // No page so far logged an error (a script the CSP refused would have). The refusals
    // below are answers with an error status, which the browser logs.
    assert_eq!(errors(&b).await, Vec::<String>::new());
    let seat = if games[0]["first"] == "eve" {
        "first"
    } else {
        "second"
    };
    let log = format!("{}/api/matches/1/logs/game-0001-{seat}-eve.log", server.url);
    // A visitor not logged in cannot open eve's log or report; ann cannot either; eve can.
    let report = format!("{}/entrants/eve/versions/2", server.url);
    click(&b, "#close").await;
    log_out(&b).await;
    go(&b, &log).await;
    let body = text(&b, "body").await;
    assert!(body.contains("or log in"), "logged out, eve's log: {body}");
    go(&b, &report).await;
    assert!(text(&b, ".error").await.starts_with("log in first"));
    log_in(&b, &server, &ann).await;
    go(&b, &log).await;
    assert!(text(&b, "body")
        .await
        .contains("a bot's logs are for its owner and the host only"));
    go(&b, &report).await;
    assert!(text(&b, ".error")
        .await
        .starts_with("a version's report and build log are for its owner"));
    go(&b, &format!("{}/entrants/eve", server.url)).await;
    let links = b
        .js("return document.querySelectorAll(\"a[href$='/download'], #upload, #faults\").length;")
        .await;
    assert_eq!(links, Value::from(0), "ann sees nothing of eve's own");
    log_out(&b).await;
    log_in(&b, &server, &eve).await;
    go(&b, &log).await;
    assert!(text(&b, "body").await.contains("eve's secret plan"));
    // (The refusals above were logged as errors: read them out, so that what follows starts
    // clean.)
    let refused = errors(&b).await;
    assert!(
        refused.iter().all(|e| e.contains("status of 40")),
        "{refused:?}"
    );
    // The ladder paused and its last match over, the home page stops reloading itself (a
    // reload between looking and measuring would measure nothing).
    let (code, _) = server.post(
        "/api/admin/switches",
        ADMIN,
        serde_json::json!({ "ladder_paused": true }),
    );
    assert_eq!(code, 200);
    loop {
        // Again until none runs: a claim begun as the switch was set may start one more.
        let (_, list) = server.get("/api/matches?limit=500", None);
        let running: Vec<i64> = list["matches"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["state"] == "running")
            .map(|m| m["id"].as_i64().unwrap())
            .collect();
        if running.is_empty() {
            break;
        }
        for id in running {
            server.wait_match(id, Some("running"));
        }
    }
    // On a phone held upright, every page fits: no page wider than the screen, and a table
    // wider than the screen scrolls sideways in its own box, its last column within reach.
    b.client.set_window_size(390, 844).await.unwrap();
    let width = b
        .js("return document.documentElement.clientWidth;")
        .await
        .as_u64()
        .unwrap();
    assert!(width <= 390, "{width}");
    let own = [
        "/",
        "/entrants/eve",
        "/entrants/ann",
        "/matches/1",
        "/entrants/eve/versions/2",
    ];
    for (who, pages) in [
        (Some(eve.as_str()), &own[..]),
        (Some(ADMIN), &["/admin"][..]),
        (None, &["/login", "/signup", "/"][..]),
    ] {
        go(&b, &format!("{}/entrants/ann", server.url)).await;
        log_out(&b).await;
        if let Some(token) = who {
            log_in(&b, &server, token).await;
        }
        for page in pages {
            go(&b, &format!("{}{page}", server.url)).await;
            wait_for(&b, "main").await;
            if matches!(*page, "/entrants/eve" | "/entrants/ann") {
                // Rated on the ladder: the rating's chart is drawn, and checked with the rest.
                wait_for(&b, "#rating-chart svg polyline").await;
            }
            let cut = b.js(FITS).await;
            assert_eq!(cut, Value::Array(Vec::new()), "{page} at 390 px");
            accessible(&b, &format!("{page} at 390 px")).await;
        }
    }
    assert_eq!(errors(&b).await, Vec::<String>::new());
}

/// axe-core's violations on the page now: none. Installed by scripts/test (`npm ci --prefix
/// tests/axe`).
pub(crate) async fn accessible(b: &Browser, what: &str) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/axe/node_modules/axe-core/axe.min.js");
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (scripts/test installs it: npm ci --prefix tests/axe)",
            path.display()
        )
    });
    b.client.execute(&source, vec![]).await.unwrap();
    let found = b
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];\
             axe.run().then(r => done([r.passes.length, r.violations.map(v =>\
               `${v.id}: ${v.nodes.map(n => n.target.join(' ')).join(', ')}`)]));",
            vec![],
        )
        .await
        .unwrap();
    // It ran: rules passed (a page's language, its title, every form field labelled…).
    assert!(
        found[0].as_u64().unwrap() > 10,
        "axe-core on {what}: {found}"
    );
    assert_eq!(found[1], Value::Array(Vec::new()), "axe-core on {what}");
}

/// What of the page does not fit its window: the page itself wider than the window, or a table
/// whose box reaches past its edge or whose overflow cannot be scrolled to.
pub(crate) const FITS: &str = r#"
const width = document.documentElement.clientWidth;
const cut = [];
if (document.documentElement.scrollWidth > width) {
  cut.push(`the page is ${document.documentElement.scrollWidth} px wide`);
}
for (const table of document.querySelectorAll('table')) {
  const name = table.id || table.className || 'a table';
  const box = table.getBoundingClientRect();
  if (box.right > width + 0.5) cut.push(`${name} reaches ${box.right} px`);
  const scrolls = ['auto', 'scroll'].includes(getComputedStyle(table).overflowX);
  if (table.scrollWidth > table.clientWidth + 1 && !scrolls) cut.push(`${name} is cut off`);
}
return cut;
"#;
