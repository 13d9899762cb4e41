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
fn post(server: &Server, path: &str, body: Value) -> (u16, Value) {
    call(ureq::post(&format!("{}{path}", server.url)), Some(body))
}

fn started(server: &Server, ask: Value) -> Value {
    let (code, body) = post(server, "/api/play", ask.clone());
    assert_eq!(code, 201, "{ask}: {body}");
    body["game"].clone()
}

fn moved(server: &Server, game: &Value, mv: &str) -> Value {
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
fn replayed(game: &Value) -> Position {
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
            // The level answered unless the move ended the game.
            let over = !game["result"].is_null();
            assert!(over || now.len() == before + 2, "{game}");
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
        let id = game["id"].as_str().unwrap();
        let (code, body) = post(
            &server,
            &format!("/api/play/{id}/moves"),
            json!({ "move": "A1 BDQF", "after": game["moves"].as_array().unwrap().len() }),
        );
        assert_eq!((code, &body["error"]), (409, &json!("the game is over")));
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

/// A page GET with `headers`: (status, its `Set-Cookie`, its text).
fn page(server: &Server, path: &str, headers: &[(&str, &str)]) -> (u16, Option<String>, String) {
    let mut req = ureq::get(&format!("{}{path}", server.url));
    for (k, v) in headers {
        req = req.set(k, v);
    }
    let r = match req.call() {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{e}"),
    };
    let cookie = r
        .all("set-cookie")
        .into_iter()
        .find(|c| c.starts_with("quads_lang="))
        .map(str::to_owned);
    (r.status(), cookie, r.into_string().unwrap())
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
        let (code, cookie, text) = page(&server, &at, &headers);
        assert_eq!((code, cookie), (200, None), "{headers:?}");
        assert!(speaks(&text, lang), "{headers:?}: not in {lang}");
    }
    // Asked in the address: it wins over the cookie, and is kept.
    let (code, cookie, text) = page(
        &server,
        &format!("{at}?lang=it"),
        &[("Cookie", "quads_lang=fr")],
    );
    assert_eq!(code, 200);
    assert!(speaks(&text, Lang::It));
    assert!(cookie.unwrap().starts_with("quads_lang=it;"));
    // A language that is not one of the six, refused in one line.
    let (code, _, text) = page(&server, "/play?lang=de", &[]);
    assert_eq!(code, 400);
    assert!(
        text.contains("unknown language `de` (expected one of en, it, pt, es, fr, sl)"),
        "{text}"
    );
}
