//! Games people play on the server, through its API as the play page plays them (issue 49): a
//! whole game against each level, two players with a claimed win, the puzzle of the day solved
//! and failed, refusals in the rules' own words, and a game that is still there when asked for
//! again, from a server started again.

use std::process::Command;

use quads_bots::solver::Solver;
use quads_rules::{Move, Outcome, Position, Reason, Rules};
use serde_json::{json, Value};

use crate::harness::*;

/// An anonymous POST: (status, JSON).
pub(crate) fn post(server: &Server, path: &str, body: Value) -> (u16, Value) {
    call(ureq::post(&format!("{}{path}", server.url)), Some(body))
}

pub(crate) fn started(server: &Server, ask: Value) -> Value {
    let (code, body) = post(server, "/api/play", ask.clone());
    assert_eq!(code, 201, "{ask}: {body}");
    body["game"].clone()
}

pub(crate) fn moved(server: &Server, game: &Value, mv: &str) -> Value {
    let id = game["id"].as_str().unwrap();
    let after = game["moves"].as_array().unwrap().len();
    let (code, body) = post(
        server,
        &format!("/api/play/{id}/moves"),
        json!({ "move": mv, "after": after }),
    );
    assert_eq!(code, 200, "{mv} after {game}: {body}");
    body["game"].clone()
}

/// The game's moves replayed by the rules core from its start: each legal, and the position
/// the server shows the one they reach.
pub(crate) fn replayed(game: &Value) -> Position {
    let rules: Rules = game["rules"].as_str().unwrap().parse().unwrap();
    let mut pos: Position = game["start"].as_str().unwrap().parse().unwrap();
    for m in game["moves"].as_array().unwrap() {
        let mv: Move = m.as_str().unwrap().parse().unwrap();
        pos = pos
            .play(mv, &rules)
            .unwrap_or_else(|e| panic!("{mv}: {e:?}"));
    }
    assert_eq!(pos.to_string(), game["position"], "{game}");
    pos
}

#[test]
fn a_whole_game_against_each_level_and_the_same_game_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(dir.path());
    let server = start(&config);
    let mut ids = Vec::new();
    for level in 1..=5 {
        // The person gives first against odd levels, second against even ones.
        let first = level % 2 == 1;
        let mut game = started(
            &server,
            json!({ "mode": format!("level-{level}"), "first": first }),
        );
        assert_eq!(game["person"], if first { "first" } else { "second" });
        // Against a level that opens, the level has given when the game is answered.
        assert_eq!(game["moves"].as_array().unwrap().len(), usize::from(!first));
        let rules: Rules = game["rules"].as_str().unwrap().parse().unwrap();
        while game["result"].is_null() {
            assert_eq!(game["yours"], true, "{game}");
            let pos = replayed(&game);
            // The person plays the last legal move (the level's answers are its own).
            let mv = *pos.legal_moves(&rules).last().unwrap();
            let before = game["moves"].as_array().unwrap().len();
            game = moved(&server, &game, &mv.to_string());
            let now = game["moves"].as_array().unwrap();
            assert_eq!(now[before], mv.to_string());
            // The level answered unless the move ended the game, and said how long it thought.
            let over = !game["result"].is_null();
            assert!(over || now.len() == before + 2, "{game}");
            let answered = now.len() == before + 2;
            assert_eq!(
                game["thought_ms"].as_f64().unwrap() > 0.0,
                answered,
                "{game}"
            );
        }
        let pos = replayed(&game);
        assert_eq!(game["yours"], false);
        assert_eq!(game["to_move"], Value::Null);
        let want = match pos.outcome(&rules).unwrap() {
            Outcome::Win(quads_rules::Player::First) => "1-0",
            Outcome::Win(quads_rules::Player::Second) => "0-1",
            Outcome::Draw => "1/2-1/2",
        };
        assert_eq!(game["result"], want, "{game}");
        let winning = game["winning"].as_array().unwrap().len();
        assert!(
            if want == "1/2-1/2" {
                winning == 0
            } else {
                winning >= 4
            },
            "{game}"
        );
        // A move after the end is refused.
        let id = game["id"].as_str().unwrap().to_owned();
        let (code, body) = post(
            &server,
            &format!("/api/play/{id}/moves"),
            json!({ "move": "A1 BDQF", "after": game["moves"].as_array().unwrap().len() }),
        );
        assert_eq!((code, &body["error"]), (409, &json!("the game is over")));
        // Asked for later, it is the same game; only the thinking of the call differs (none).
        game["thought_ms"] = json!(0.0);
        ids.push((id.to_owned(), game));
    }
    // Every game is at its address, whole, after the server is stopped and started again.
    drop(server);
    let server = start(&config);
    for (id, game) in &ids {
        let (code, body) = server.get(&format!("/api/play/{id}"), None);
        assert_eq!((code, &body["game"]), (200, game));
    }
}

#[test]
fn two_players_and_a_claimed_win_refusals_in_the_rules_words() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    let mut game = started(
        &server,
        json!({ "mode": "two", "rules": "classic,claim=announce" }),
    );
    assert_eq!(game["person"], "both");
    let id = game["id"].as_str().unwrap().to_owned();
    let path = format!("/api/play/{id}/moves");
    // Row 1 filled with big pieces; D1's placer gives instead of announcing it.
    for mv in ["BDRF", "A1 BLRH", "B1 BLQF", "C1 BDQH", "D1 SLQH"] {
        assert_eq!(game["yours"], true);
        game = moved(&server, &game, mv);
    }
    assert_eq!(
        (&game["claimable"], &game["result"]),
        (&json!(true), &Value::Null)
    );
    // An illegal move is refused with the rules' reason, and nothing changes.
    let after = game["moves"].as_array().unwrap().len();
    let taken: quads_rules::Square = "A1".parse().unwrap();
    for (mv, code, why) in [
        (
            "A1 BLRF",
            422,
            format!("A1 BLRF: {}", Reason::Occupied(taken)),
        ),
        ("Z9", 400, "`Z9`: ".to_owned()),
    ] {
        let (got, body) = post(&server, &path, json!({ "move": mv, "after": after }));
        let error = body["error"].as_str().unwrap();
        assert!(got == code && error.starts_with(&why), "{mv}: {got} {body}");
    }
    // A move made on a position that has moved on (another tab) is refused.
    let (code, body) = post(
        &server,
        &path,
        json!({ "move": "quarto", "after": after - 1 }),
    );
    assert_eq!(code, 409, "{body}");
    assert_eq!(server.get(&format!("/api/play/{id}"), None).1["game"], game);
    // The second player calls it.
    game = moved(&server, &game, "quarto");
    assert_eq!(game["result"], "0-1");
    assert_eq!(game["winning"], json!(["A1", "B1", "C1", "D1"]));
    // Refusals of what is not a game.
    for (ask, code) in [
        (json!({ "mode": "level-6" }), 400),
        (json!({ "mode": "two", "first": true }), 400),
        (json!({ "mode": "two", "rules": "chess" }), 400),
        (json!({ "mode": "puzzle", "rules": "classic" }), 400),
        (json!({ "mode": "two", "colour": "red" }), 400),
    ] {
        let (got, body) = post(&server, "/api/play", ask.clone());
        assert_eq!(got, code, "{ask}: {body}");
        assert!(
            body["error"].as_str().is_some_and(|e| !e.contains('\n')),
            "{body}"
        );
    }
    for bad in ["0123456789abcdef01234567", "..%2Fquads.db", "x"] {
        let (code, _) = server.get(&format!("/api/play/{bad}"), None);
        assert_eq!(code, 404, "{bad}");
    }
}

/// Today's puzzle as `quads puzzle` gives it.
fn puzzle_of_day() -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_quads"))
        .args(["puzzle", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_puzzle_of_the_day_solved_and_failed() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    let puzzle = puzzle_of_day();
    let solution: Vec<&str> = puzzle["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    // Solved: the winning line played, the solver defending as `quads puzzle` says it does.
    let mut game = started(&server, json!({ "mode": "puzzle" }));
    assert_eq!(
        (&game["start"], &game["person"], &game["puzzle"]["date"]),
        (&puzzle["position"], &puzzle["to_move"], &puzzle["date"])
    );
    // The answer, then the winning move each time (the solver's, as the defence may choose
    // another of its equally slow losses than the puzzle's line shows).
    let rules: Rules = game["rules"].as_str().unwrap().parse().unwrap();
    let mut solver = Solver::new(&rules, 16);
    game = moved(&server, &game, solution[0]);
    while game["result"].is_null() {
        let mv = solver.best_move(&replayed(&game), &rules).unwrap();
        game = moved(&server, &game, &mv.to_string());
    }
    assert_eq!(game["puzzle"]["solved"], true, "{game}");
    // The slowest defence: the win took as many moves as the puzzle's line.
    assert_eq!(game["moves"].as_array().unwrap().len(), solution.len());
    // Failed: any other first move, then the last legal move each time to the end.
    let mut game = started(&server, json!({ "mode": "puzzle" }));
    let wrong = replayed(&game)
        .legal_moves(&rules)
        .into_iter()
        .find(|m| m.to_string() != solution[0])
        .unwrap();
    game = moved(&server, &game, &wrong.to_string());
    while game["result"].is_null() {
        let mv = *replayed(&game).legal_moves(&rules).last().unwrap();
        game = moved(&server, &game, &mv.to_string());
    }
    assert_eq!(game["puzzle"]["solved"], false, "{game}");
}

/// A page GET with `headers`: (status, the reader's choices it sets in cookies, its text).
fn page(server: &Server, path: &str, headers: &[(&str, &str)]) -> (u16, Vec<String>, String) {
    let mut req = ureq::get(&format!("{}{path}", server.url));
    for (k, v) in headers {
        req = req.set(k, v);
    }
    let r = match req.call() {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{e}"),
    };
    let cookies = r
        .all("set-cookie")
        .into_iter()
        .filter(|c| c.starts_with("quads_lang=") || c.starts_with("quads_view="))
        .map(str::to_owned)
        .collect();
    (r.status(), cookies, r.into_string().unwrap())
}

#[test]
fn the_play_pages_language_from_the_address_the_cookie_or_the_browser() {
    use quads_i18n::{Catalog, Lang};
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    let game = started(&server, json!({ "mode": "two" }));
    let at = format!("/play/{}", game["id"].as_str().unwrap());
    // The page's words are the catalogue's (maud escapes apostrophes; the test's words have none
    // that matter: the first player's name and the start button).
    let speaks = |text: &str, lang: Lang| {
        let c = Catalog::new(lang);
        text.contains(&format!("<html lang=\"{}\">", lang.code()))
            && text.contains(&c.text("player-one"))
    };
    for (headers, lang) in [
        (vec![], Lang::En),
        (
            vec![("Accept-Language", "sl-SI,sl;q=0.9,en;q=0.8")],
            Lang::Sl,
        ),
        (vec![("Accept-Language", "de-DE,pt-BR;q=0.8")], Lang::Pt),
        (vec![("Accept-Language", "de-DE,ja")], Lang::En),
        // A choice kept in the cookie wins over the browser's.
        (
            vec![("Accept-Language", "it"), ("Cookie", "quads_lang=fr")],
            Lang::Fr,
        ),
        // A cookie that is not one of the six is the browser's choice.
        (
            vec![("Accept-Language", "es"), ("Cookie", "quads_lang=xx")],
            Lang::Es,
        ),
    ] {
        let (code, cookies, text) = page(&server, &at, &headers);
        assert_eq!((code, cookies), (200, vec![]), "{headers:?}");
        assert!(speaks(&text, lang), "{headers:?}: not in {lang}");
    }
    // Asked in the address: it wins over the cookie, and is kept.
    let (code, cookies, text) = page(
        &server,
        &format!("{at}?lang=it"),
        &[("Cookie", "quads_lang=fr")],
    );
    assert_eq!(code, 200);
    assert!(speaks(&text, Lang::It));
    assert!(
        cookies.len() == 1 && cookies[0].starts_with("quads_lang=it;"),
        "{cookies:?}"
    );
    // The text mode, asked in the address, then kept: the board read row by row.
    let (code, cookies, text) = page(&server, &format!("{at}?view=text"), &[]);
    assert_eq!(code, 200);
    assert!(text.contains("id=\"rows\""));
    assert!(
        cookies.len() == 1 && cookies[0].starts_with("quads_view=text;"),
        "{cookies:?}"
    );
    let (_, _, text) = page(&server, &at, &[("Cookie", "quads_view=text")]);
    assert!(text.contains("id=\"rows\"") && !text.contains("class=\"grid\""));
    let (code, _, text) = page(&server, &format!("{at}?view=braille"), &[]);
    assert_eq!(code, 400);
    assert!(
        text.contains("unknown view `braille` (expected board or text)"),
        "{text}"
    );
    // A language that is not one of the six, refused in one line.
    let (code, _, text) = page(&server, "/play?lang=de", &[]);
    assert_eq!(code, 400);
    assert!(
        text.contains("unknown language `de` (expected one of en, it, pt, es, fr, sl)"),
        "{text}"
    );
    // A level's moves in words agree with it: in Slovenian a level (stopnja) is feminine.
    let level = started(&server, json!({ "mode": "level-2", "first": false }));
    let at = format!("/play/{}", level["id"].as_str().unwrap());
    let (_, _, text) = page(
        &server,
        &format!("{at}?view=text"),
        &[("Cookie", "quads_lang=sl")],
    );
    assert!(text.contains("Stopnja 2 je podala "), "{text}");
    assert!(!text.contains("je podal "), "{text}");
}

/// The value of `pos` for the player to move, as a sign: 1 a forced win, 0 a draw, -1 a loss.
fn sign_to_move(solver: &mut Solver, pos: &Position, rules: &Rules) -> i32 {
    match pos.outcome(rules) {
        Some(Outcome::Draw) => 0,
        Some(Outcome::Win(p)) if p == pos.to_move() => 1,
        Some(Outcome::Win(_)) => -1,
        None => solver.solve(pos, None, 0).unwrap().value.signum(),
    }
}

/// The mover's value after `mv` from `pos`, as a sign.
fn sign_after(solver: &mut Solver, pos: &Position, mv: Move, rules: &Rules) -> i32 {
    let next = pos.play(mv, rules).unwrap();
    match next.outcome(rules) {
        Some(Outcome::Draw) => 0,
        Some(Outcome::Win(p)) if p == pos.to_move() => 1,
        Some(Outcome::Win(_)) => -1,
        None => -sign_to_move(solver, &next, rules),
    }
}

fn word(sign: i32) -> &'static str {
    ["loss", "draw", "win"][(sign + 1) as usize]
}

#[test]
fn after_a_game_the_solvers_review_its_record_and_a_try_again_from_a_mistake() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    let get = |path: &str| call(ureq::get(&format!("{}{path}", server.url)), None);
    let rules: Rules = "classic".parse().unwrap();
    let mut solver = Solver::new(&rules, 16);
    // Two people, every move the first legal one (before the solver's window, the first that
    // does not end the game), but for one mistake once the window is reached: a move that
    // lowers its mover's value, found here by the solver.
    let mut game = started(&server, json!({ "mode": "two", "rules": "classic" }));
    let id = game["id"].as_str().unwrap().to_owned();
    let (code, body) = get(&format!("/api/play/{id}/review"));
    assert_eq!(code, 409, "not over yet: {body}");
    let mut pos = Position::START;
    let mut positions = vec![pos];
    let mut mistake = None;
    while game["result"].is_null() {
        let legal = pos.legal_moves(&rules);
        // Before the window, no move that ends the game.
        let mut mv = *legal
            .iter()
            .find(|&&m| {
                pos.board().empty().len() <= 11
                    || pos.play(m, &rules).unwrap().outcome(&rules).is_none()
            })
            .unwrap_or(&legal[0]);
        if mistake.is_none() && pos.board().empty().len() <= 11 {
            let before = sign_to_move(&mut solver, &pos, &rules);
            if let Some(&bad) = legal
                .iter()
                .find(|&&m| sign_after(&mut solver, &pos, m, &rules) < before)
            {
                mistake = Some(positions.len() - 1);
                mv = bad;
            }
        }
        game = moved(&server, &game, &mv.to_string());
        pos = pos.play(mv, &rules).unwrap();
        positions.push(pos);
    }
    let mistake = mistake.expect("a position in the window offered a mistake");
    let (code, body) = get(&format!("/api/play/{id}/review"));
    assert_eq!(code, 200, "{body}");
    let review = &body["review"];
    let judged = review["moves"].as_array().unwrap();
    assert_eq!(judged.len(), positions.len() - 1);
    let mut last_mistake = None;
    for (i, m) in judged.iter().enumerate() {
        let (pos, mv): (Position, Move) =
            (positions[i], m["move"].as_str().unwrap().parse().unwrap());
        assert_eq!(pos.play(mv, &rules).unwrap(), positions[i + 1]);
        if pos.board().empty().len() > 11 || pos.hand().is_none() {
            assert!(m["before"].is_null(), "{m}");
            continue;
        }
        // Each judged move as the solver, asked here, judges it.
        let before = sign_to_move(&mut solver, &pos, &rules);
        let after = sign_after(&mut solver, &pos, mv, &rules);
        assert_eq!(
            (m["before"].as_str(), m["after"].as_str()),
            (Some(word(before)), Some(word(after))),
            "{m}"
        );
        assert_eq!(m["blunder"].is_null(), after == before, "{m}");
        if after < before {
            last_mistake = Some(i);
            // The move offered instead keeps the value.
            let better: Move = m["better"].as_str().unwrap().parse().unwrap();
            assert_eq!(sign_after(&mut solver, &pos, better, &rules), before, "{m}");
        } else {
            assert!(m["better"].is_null(), "{m}");
        }
    }
    assert!(judged[mistake]["blunder"].is_string());
    assert_eq!(review["decided"]["by"], "blunder");
    assert_eq!(review["decided"]["index"], json!(last_mistake.unwrap()));
    // The record: a games.jsonl line that replays to the same end.
    let text = ureq::get(&format!("{}/api/play/{id}/games.jsonl", server.url))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    assert_eq!(text.lines().count(), 1);
    let record: quads_record::GameRecord = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(json!(record.moves), game["moves"]);
    assert_eq!(record.end, pos.to_string());
    assert_eq!(record.result.to_string(), game["result"].as_str().unwrap());
    let replay = quads_record::replay::replay(&record).into_result().unwrap();
    assert_eq!(*replay.positions.last().unwrap(), pos);
    // Try again from the mistake: a new game from the position before it, the better move
    // played there.
    let (code, body) = post(
        &server,
        &format!("/api/play/{id}/again"),
        json!({ "index": mistake }),
    );
    assert_eq!(code, 201, "{body}");
    let again = body["game"].clone();
    assert_ne!(again["id"], game["id"]);
    assert_eq!(again["start"], positions[mistake].to_string());
    assert_eq!(again["moves"], json!([]));
    assert_eq!(again["yours"], true);
    let better = judged[mistake]["better"].as_str().unwrap();
    let tried = moved(&server, &again, better);
    let (code, _) = post(
        &server,
        &format!("/api/play/{id}/again"),
        json!({ "index": judged.len() }),
    );
    assert_eq!(code, 400);
    // A game begun, not finished.
    let level_first = started(&server, json!({ "mode": "level-1", "first": false }));
    // The host's export has every finished game, this one among them; to no one else.
    let (code, _) = server.text("/api/admin/plays.jsonl", None);
    assert_eq!(code, 401);
    let (code, all) = server.text("/api/admin/plays.jsonl", Some(ADMIN));
    assert_eq!(code, 200);
    let records: Vec<quads_record::GameRecord> = all
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // The game, and the one tried again from its mistake if the better move ended it; never
    // the level's game just begun.
    let finished = 1 + usize::from(tried["result"].is_string());
    assert_eq!(records.len(), finished, "the finished games: {all}");
    assert!(records.iter().any(|r| r.moves == record.moves), "{all}");
    assert!(records.iter().all(|r| r.first.name != "level-1"), "{all}");
    let numbers: Vec<u32> = records.iter().map(|r| r.game).collect();
    assert_eq!(numbers, (1..=finished as u32).collect::<Vec<_>>());
    // A level's move is not the person's to try again.
    let (code, body) = post(
        &server,
        &format!("/api/play/{}/again", level_first["id"].as_str().unwrap()),
        json!({ "index": 0 }),
    );
    assert_eq!(code, 409, "{body}");
}

#[test]
fn an_address_starting_games_is_refused_for_the_rest_of_its_minute() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config_with(dir.path(), "play_starts = 3\n"));
    let games: Vec<Value> = (0..3)
        .map(|_| started(&server, json!({ "mode": "two" })))
        .collect();
    // The fourth start, by the API or by trying again, is refused in one line, with when to
    // come back.
    let answer =
        ureq::post(&format!("{}/api/play", server.url)).send_json(json!({ "mode": "two" }));
    let Err(ureq::Error::Status(429, r)) = answer else {
        panic!("not refused: {answer:?}");
    };
    let retry: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    let body: Value = r.into_json().unwrap();
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .starts_with("too many games started from this address: try again in "),
        "{body}"
    );
    let id = games[0]["id"].as_str().unwrap();
    let game = moved(&server, &games[0], "BDRF");
    let (code, _) = post(
        &server,
        &format!("/api/play/{id}/again"),
        json!({ "index": 0 }),
    );
    assert_eq!(code, 429);
    // Games begun go on: a move, and the game's page.
    moved(&server, &game, "A1 SLQH");
    let (code, _) = server.text(&format!("/play/{id}"), None);
    assert_eq!(code, 200);
}

/// Text as maud writes it into a page.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[test]
fn the_rules_of_each_variant_on_a_page_in_the_readers_language() {
    use quads_i18n::{rules_page, Catalog, Lang};
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    for (query, spec, lang) in [
        ("", "quads", Lang::En),
        ("?rules=classic&lang=it", "classic", Lang::It),
        (
            "?rules=classic%2Cclaim%3Dannounce&lang=fr",
            "classic,claim=announce",
            Lang::Fr,
        ),
    ] {
        let (code, text) = server.text(&format!("/play/rules{query}"), None);
        assert_eq!(code, 200, "{query}");
        // Every paragraph `quads rules` states, in the language asked.
        let rules: Rules = spec.parse().unwrap();
        for paragraph in rules_page(&Catalog::new(lang), &rules) {
            assert!(text.contains(&escaped(&paragraph)), "{query}: {paragraph}");
        }
        assert!(text.contains(&format!("<html lang=\"{}\">", lang.code())));
    }
    // The language switch keeps the variant.
    let (_, text) = server.text("/play/rules?rules=classic", None);
    assert!(
        text.contains("href=\"?lang=sl&amp;rules=classic\""),
        "{text}"
    );
    let (code, text) = server.text("/play/rules?rules=hexagons", None);
    assert_eq!(code, 400);
    assert!(text.contains("rules `hexagons`: "), "{text}");
}
