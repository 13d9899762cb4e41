//! The play page in a real browser (headless Chromium over WebDriver) at a small phone's, a
//! phone's and a desktop's size: a whole game against each level by choosing squares and
//! pieces, a move typed, refusals in the rules' words, a reload that finds the game as it was,
//! two players with a "Quarto!" called, and the puzzle of the day solved. Every page fits its
//! window and logs no error; a screenshot of each size is kept in the target folder
//! (`play-WxH.png`).

use std::path::{Path, PathBuf};
use std::process::Command;

use quads_bots::solver::Solver;
use quads_i18n::{reason, Arg, Catalog, Lang};
use quads_rules::{Position, Reason, Rules, Square};
use serde_json::{json, Value};

use crate::browser::{self, Browser};
use crate::harness::*;
use crate::web::{accessible, click, errors, fill, go, text, wait_for, FITS};

/// The moves the page lists.
async fn moves(b: &Browser) -> Vec<String> {
    let listed = b
        .js("return [...document.querySelectorAll('#moves li')].map(li => li.textContent);")
        .await;
    serde_json::from_value(listed).unwrap()
}

/// Presses a form's button and waits for the page that answers (its move count moved on, or a
/// refusal shown). The page pressed on is marked first, so a refusal already on it (the same
/// count, the same `#refused`) is never taken for the answer: only a new document lacks the mark.
async fn press(b: &Browser, button: &str) {
    let after: String = wait_for(b, "input[name=after]")
        .await
        .attr("value")
        .await
        .unwrap()
        .unwrap();
    b.js("document.documentElement.dataset.pressed = '1';")
        .await;
    click(b, button).await;
    wait_for(
        b,
        &format!(
            "html:not([data-pressed]) input[name=after]:not([value='{after}']), \
             html:not([data-pressed]) #refused"
        ),
    )
    .await;
}

async fn fits(b: &Browser, what: &str) {
    assert_eq!(b.js(FITS).await, Value::Array(Vec::new()), "{what}");
}

/// Starts a game from `/play`.
async fn start_game(b: &Browser, server: &Server, mode: &str, rules: &str, level_first: bool) {
    go(b, &format!("{}/play", server.url)).await;
    fits(b, "/play").await;
    let script = format!(
        "document.querySelector('select[name=mode]').value = '{mode}';\
         document.querySelector('select[name=rules]').value = '{rules}';\
         document.querySelector('input[name=second]').checked = {level_first};"
    );
    b.js(&script).await;
    click(b, "#new-game button[type=submit]").await;
    wait_for(b, "#status").await;
}

/// Plays the game on the page to its end, choosing the first free square and the first piece
/// each time; reloads once along the way. The status said at the end.
async fn play_out(b: &Browser, what: &str) -> String {
    let mut reloaded = false;
    while b.js("return !!document.querySelector('#play');").await == Value::Bool(true) {
        let picks = b
            .js("const s = document.querySelector('input[name=square]'), g = document.querySelector('input[name=give]');\
                 return [s && s.value, g && g.value];")
            .await;
        if let Some(sq) = picks[0].as_str() {
            click(b, &format!("input[name=square][value='{sq}']")).await;
        }
        if let Some(g) = picks[1].as_str() {
            click(b, &format!("input[name=give][value='{g}']")).await;
        }
        let before = moves(b).await.len();
        press(b, "#play").await;
        settled(b).await;
        assert!(moves(b).await.len() > before, "{what}: nothing was played");
        if !reloaded && before >= 2 {
            // Reloaded, the game is as it was.
            let seen = moves(b).await;
            b.client.refresh().await.unwrap();
            wait_for(b, "#status").await;
            assert_eq!(moves(b).await, seen, "{what}: after a reload");
            fits(b, what).await;
            reloaded = true;
        }
    }
    text(b, "#status").await
}

/// What the status says at a game's end, for the person: a win, a loss or a draw.
fn game_ends(c: &Catalog) -> [String; 3] {
    [
        c.with("end-win", &[("who", "you".into()), ("player", "".into())]),
        c.text("web-lose"),
        c.text("end-draw"),
    ]
}

fn screenshot(width: u32, height: u32) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join(format!("play-{width}x{height}.png"))
}

#[tokio::test(flavor = "current_thread")]
async fn the_play_page_in_a_real_browser_at_three_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    for (width, height) in [(320, 640), (390, 844), (1280, 800)] {
        let b = browser::open(width, height).await;
        for level in 1..=5 {
            let what = format!("level {level} at {width}x{height}");
            start_game(
                &b,
                &server,
                &format!("level-{level}"),
                "quads",
                level % 2 == 0,
            )
            .await;
            fits(&b, &what).await;
            if level == 1 {
                accessible(&b, &format!("a game begun at {width}x{height}")).await;
            }
            let said = play_out(&b, &what).await;
            let en = Catalog::new(Lang::En);
            let ends = game_ends(&en);
            assert!(ends.contains(&said), "{what}: {said}");
            fits(&b, &what).await;
        }
        accessible(&b, &format!("a game over at {width}x{height}")).await;
        // The game against level 5 at its end, as the README shows it.
        std::fs::write(
            screenshot(width, height),
            b.client.screenshot().await.unwrap(),
        )
        .unwrap();
        go(&b, &format!("{}/play", server.url)).await;
        accessible(&b, &format!("/play at {width}x{height}")).await;
        assert_eq!(errors(&b).await, Vec::<String>::new(), "{width}x{height}");
    }
}

#[tokio::test(flavor = "current_thread")]
async fn typed_moves_refusals_a_called_quarto_and_the_puzzle_in_a_browser() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    let b = browser::open(390, 844).await;
    let en = Catalog::new(Lang::En);
    // Two players under claim=announce, every move typed: row 1 filled, D1's placer gives
    // instead of calling it.
    start_game(&b, &server, "two", "classic,claim=announce", false).await;
    for mv in ["BDRF", "A1 BLRH", "B1 BLQF", "C1 BDQH", "D1 SLQH"] {
        fill(&b, "input[name=typed]", mv).await;
        press(&b, "#play").await;
    }
    assert_eq!(moves(&b).await.len(), 5);
    // Refused, with the rules' reason, and nothing played.
    let occupied = reason(&en, Reason::Occupied("A1".parse::<Square>().unwrap()));
    for (mv, why) in [
        ("A1 BLRF", format!("A1 BLRF: {occupied}")),
        ("Z9", en.with("msg-unreadable", &[("text", "Z9".into())])),
    ] {
        fill(&b, "input[name=typed]", mv).await;
        press(&b, "#play").await;
        assert_eq!(text(&b, "#refused").await, why, "{mv}");
        assert_eq!(moves(&b).await.len(), 5);
    }
    press(&b, "#claim").await;
    let second_wins = en.with(
        "end-win",
        &[
            ("who", "other".into()),
            ("player", en.text("player-two").into()),
        ],
    );
    assert_eq!(text(&b, "#status").await, second_wins);
    let won = b
        .js("return [...document.querySelectorAll('.sq.won .name')].map(n => n.textContent);")
        .await;
    assert_eq!(won, serde_json::json!(["A1", "B1", "C1", "D1"]));
    fits(&b, "a called quarto").await;
    // The puzzle of the day: the answer typed, then the winning move each time.
    let out = Command::new(env!("CARGO_BIN_EXE_quads"))
        .args(["puzzle", "--json"])
        .output()
        .unwrap();
    let puzzle: Value = serde_json::from_slice(&out.stdout).unwrap();
    start_game(&b, &server, "puzzle", "quads", false).await;
    let rules: Rules = puzzle["rules"].as_str().unwrap().parse().unwrap();
    let mut solver = Solver::new(&rules, 16);
    let mut typed = puzzle["solution"][0].as_str().unwrap().to_owned();
    loop {
        fill(&b, "input[name=typed]", &typed).await;
        press(&b, "#play").await;
        if b.js("return !!document.querySelector('#puzzle-result');")
            .await
            == Value::Bool(true)
        {
            break;
        }
        // The position now, from the moves the page lists.
        let mut pos: Position = puzzle["position"].as_str().unwrap().parse().unwrap();
        for m in moves(&b).await {
            pos = pos.play(m.parse().unwrap(), &rules).unwrap();
        }
        typed = solver.best_move(&pos, &rules).unwrap().to_string();
    }
    assert_eq!(text(&b, "#puzzle-result").await, en.text("web-solved"));
    // The two refusals answered 422, which the browser logs; nothing else.
    let logged = errors(&b).await;
    assert!(
        logged.len() == 2 && logged.iter().all(|e| e.contains("status of 422")),
        "{logged:?}"
    );
}

/// What the page should say while the person is to give the first piece, in `c`'s words.
fn opening(c: &Catalog) -> String {
    shown(c.with(
        "status-opening",
        &[("player", Arg::from(c.text("player-you")))],
    ))
}

/// `text` as WebDriver reads it off a page: a no-break space (French puts one before a colon)
/// read as a space.
fn shown(text: String) -> String {
    text.replace('\u{a0}', " ")
}

#[tokio::test(flavor = "current_thread")]
async fn the_play_page_in_each_language_switched_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    let b = browser::open(390, 844).await;
    start_game(&b, &server, "level-1", "quads", false).await;
    let game = b.client.current_url().await.unwrap().to_string();
    // Each language from the page's switch: the page says so, and speaks it.
    for lang in Lang::ALL {
        let c = Catalog::new(lang);
        click(&b, &format!("nav.langs a[hreflang={}]", lang.code())).await;
        wait_for(&b, &format!("html[lang={}] #status", lang.code())).await;
        assert_eq!(text(&b, "#status").await, opening(&c), "{lang}");
        assert_eq!(
            text(&b, "#play").await,
            shown(c.text("web-play-button")),
            "{lang}"
        );
        accessible(&b, &format!("a game in {lang}")).await;
    }
    // Kept: the game's own address, with no choice in it, is still in the last language; so is
    // a refusal, in the rules core's reason.
    let sl = Catalog::new(Lang::Sl);
    go(&b, &game).await;
    wait_for(&b, "html[lang=sl] #status").await;
    let mv: quads_rules::Move = "A1 BDRF".parse().unwrap();
    let why = Position::START.validate(mv, &Rules::QUADS).unwrap_err();
    fill(&b, "input[name=typed]", "A1 BDRF").await;
    press(&b, "#play").await;
    assert_eq!(
        text(&b, "#refused").await,
        shown(format!("{mv}: {}", reason(&sl, why)))
    );
    go(&b, &format!("{}/play", server.url)).await;
    assert_eq!(
        text(&b, "#new-game button[type=submit]").await,
        shown(sl.text("web-start"))
    );
    let logged = errors(&b).await;
    assert!(
        logged.len() == 1 && logged[0].contains("status of 422"),
        "{logged:?}"
    );
}

/// Types `keys` and Enter into the element that has the focus, which must be the move's field
/// (the text mode opens with it focused), and waits for the page that answers.
async fn keyed(b: &Browser, keys: &str) {
    assert_eq!(
        b.js("return document.activeElement && document.activeElement.id;")
            .await,
        Value::String("typed".into()),
        "the move's field has the focus"
    );
    b.js("document.documentElement.dataset.pressed = '1';")
        .await;
    let field = b.client.active_element().await.unwrap();
    field.send_keys(&format!("{keys}\u{E007}")).await.unwrap();
    wait_for(b, "html:not([data-pressed]) #status").await;
}

/// The text mode's board, read off its rows: each square's name and its piece's letters, if
/// one is on it.
async fn read_rows(b: &Browser, c: &Catalog) -> Vec<(String, Option<String>)> {
    let rows = b
        .js("return [...document.querySelectorAll('#rows li')].map(li => li.textContent);")
        .await;
    let rows: Vec<String> = serde_json::from_value(rows).unwrap();
    assert_eq!(rows.len(), 4, "{rows:?}");
    let empty = c.text("web-empty");
    let mut squares = Vec::new();
    for row in rows {
        let (_, said) = row.split_once(": ").unwrap();
        for sq in said.trim_end_matches('.').split(", ") {
            let (name, what) = sq.split_once(' ').unwrap();
            let piece = (what != empty).then(|| what[..4].to_owned());
            squares.push((name.to_owned(), piece));
        }
    }
    squares
}

#[tokio::test(flavor = "current_thread")]
async fn the_text_mode_played_to_the_end_from_the_keyboard_alone() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    let b = browser::open(390, 844).await;
    let en = Catalog::new(Lang::En);
    start_game(&b, &server, "level-3", "quads", false).await;
    click(&b, "#to-text").await;
    wait_for(&b, "#rows").await;
    accessible(&b, "the text mode at the start").await;
    let mut typed_moves = 0;
    while b.js("return !!document.querySelector('#move');").await == Value::Bool(true) {
        let squares = read_rows(&b, &en).await;
        let free = squares.iter().find(|(_, p)| p.is_none()).map(|(n, _)| n);
        let left = b
            .js("const l = document.querySelector('#left'); return l ? l.textContent : '';")
            .await;
        let give = left
            .as_str()
            .unwrap()
            .split_once(": ")
            .map(|(_, list)| list[..4].to_owned());
        let in_hand = b.js("return !!document.querySelector('#hand');").await == Value::Bool(true);
        let mv = match (in_hand, free, &give) {
            (false, _, Some(g)) => g.clone(),
            (true, Some(sq), Some(g)) => format!("{sq} {g}"),
            (true, Some(sq), None) => sq.clone(),
            other => panic!("nothing to play: {other:?}"),
        };
        keyed(&b, &mv).await;
        if b.js("return !!document.querySelector('#refused');").await == Value::Bool(true) {
            // A placement that ends the game gives nothing: said so, in words; then the square.
            assert_eq!(
                text(&b, "#refused").await,
                format!("{mv}: {}", reason(&en, Reason::MustNotGive))
            );
            keyed(&b, free.unwrap()).await;
        }
        typed_moves += 1;
        assert!(typed_moves <= 8, "more moves than a person has");
    }
    let said = text(&b, "#status").await;
    let ends = game_ends(&en);
    assert!(ends.contains(&said), "{said}");
    // Every move said in words, the last one also above; the board read has a piece for each
    // placement (every move but the opening give).
    let turns = b
        .js("return [...document.querySelectorAll('#turns li')].map(li => li.textContent);")
        .await;
    let turns: Vec<String> = serde_json::from_value(turns).unwrap();
    assert_eq!(
        text(&b, "#last").await,
        en.with(
            "web-last",
            &[("turn", turns.last().unwrap().as_str().into())]
        )
    );
    let placed = read_rows(&b, &en)
        .await
        .iter()
        .filter(|(_, p)| p.is_some())
        .count();
    assert_eq!(placed, turns.len() - 1, "{turns:?}");
    let gave = en.with(
        "web-turn-give",
        &[
            ("who", "you".into()),
            ("player", "".into()),
            ("piece", "".into()),
        ],
    );
    assert!(
        turns[0].starts_with(gave.trim_end_matches('.')),
        "{turns:?}"
    );
    accessible(&b, "the text mode at the end").await;
    // The solver's review: a row per move, where the game was decided; at a mistake of the
    // person's, trying again from there starts a game the person is to move in.
    click(&b, "#to-review").await;
    wait_for(&b, "#review").await;
    let rows = b
        .js("return document.querySelectorAll('#review tbody tr').length;")
        .await;
    assert_eq!(rows, json!(turns.len()));
    assert!(!text(&b, "#decided").await.is_empty());
    fits(&b, "the review").await;
    accessible(&b, "the review").await;
    if b.js("return !!document.querySelector('form.again');").await == Value::Bool(true) {
        let review = b.client.current_url().await.unwrap();
        click(&b, "form.again button").await;
        // A new game, at its own address, the person to move in it.
        wait_for(&b, "#typed").await;
        let again = b.client.current_url().await.unwrap();
        assert!(
            again.path().starts_with("/play/") && !again.path().ends_with("/review"),
            "{again}"
        );
        assert_ne!(again.path(), review.path().trim_end_matches("/review"));
    }
    // Nothing logged but the refusals' 422s.
    let logged = errors(&b).await;
    assert!(
        logged.iter().all(|e| e.contains("status of 422")),
        "{logged:?}"
    );
}

/// Waits until no bot's turn waits on the page (the live script reloads it once answered).
async fn settled(b: &Browser) {
    wait_for(b, "body:not(:has(#waiting)) #status").await;
}

#[tokio::test(flavor = "current_thread")]
async fn a_game_against_an_entrants_bot_in_a_browser() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config_with(dir.path(), "workers = 0\n"));
    crate::play_bots::ready(&server, "alice", &bot_folder(dir.path(), "alice"));
    let b = browser::open(390, 844).await;
    go(&b, &format!("{}/play", server.url)).await;
    accessible(&b, "/play with an entrant's bot offered").await;
    // The bot begins.
    start_game(&b, &server, "bot:alice", "quads", true).await;
    settled(&b).await;
    assert_eq!(moves(&b).await.len(), 1);
    let en = Catalog::new(Lang::En);
    assert_eq!(
        text(&b, "h2").await,
        en.with("web-title-bot", &[("name", "alice".into())])
    );
    accessible(&b, "a game against an entrant's bot").await;
    // Each move of the person's, the first free square and piece, answered by the bot (a
    // reload along the way finds the game as it was).
    let said = play_out(&b, "against alice's bot").await;
    let ends = game_ends(&en);
    assert!(ends.contains(&said), "{said}");
    accessible(&b, "a game against an entrant's bot, over").await;
    assert_eq!(errors(&b).await, Vec::<String>::new());
}

#[tokio::test(flavor = "current_thread")]
async fn a_game_with_a_clock_in_a_browser() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    let b = browser::open(320, 640).await;
    go(&b, &format!("{}/play", server.url)).await;
    b.js("document.querySelector('select[name=mode]').value = 'two';\
          document.querySelector('select[name=clock]').value = '1m';")
        .await;
    click(&b, "#new-game button[type=submit]").await;
    wait_for(&b, "#status").await;
    let en = Catalog::new(Lang::En);
    let player = |n: &str| en.text(if n == "1" { "player-one" } else { "player-two" });
    // Player 1's clock runs (counted down by the page's script from 1:00), player 2's waits.
    let running = text(&b, ".clock[data-running]").await;
    assert!(
        running == format!("{}: 1:00", player("1"))
            || running.starts_with(&format!("{}: 0:5", player("1"))),
        "{running}"
    );
    fits(&b, "a game with a clock").await;
    accessible(&b, "a game with a clock").await;
    fill(&b, "input[name=typed]", "BDRF").await;
    press(&b, "#play").await;
    let running = text(&b, ".clock[data-running]").await;
    assert!(
        running.starts_with(&format!("{}: ", player("2"))),
        "{running}"
    );
    // Player 1 was charged its move and given nothing (no increment): under a minute now.
    let waiting = wait_for(&b, ".clock:not([data-running])").await;
    let ms: u64 = waiting
        .attr("data-ms")
        .await
        .unwrap()
        .unwrap()
        .parse()
        .unwrap();
    assert!(ms < 60_000, "{ms}");
    let shown = waiting.text().await.unwrap();
    assert!(shown.starts_with(&format!("{}: ", player("1"))), "{shown}");
    assert_eq!(errors(&b).await, Vec::<String>::new());
}
