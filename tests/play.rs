//! `quads play` as a person plays it: in a real terminal (tmux), keys sent one by one, the
//! screen read back, the saved record checked. A game against each level, two people at one
//! keyboard with a missed win claimed, the puzzle of the day, and the languages. Needs tmux
//! (Debian's; .ci/run installs it).

#[allow(dead_code, reason = "the play tests use only the games reader")]
mod common;
#[path = "common/tmux.rs"]
mod tmux;

use std::path::Path;

use quads_i18n::{Catalog, Lang};
use quads_rules::{Move, Position, Rules};
use tmux::Tmux;

const QUADS: &str = env!("CARGO_BIN_EXE_quads");

/// The position the screen shows (its `Position` line).
fn position(screen: &str, label: &str) -> Position {
    let line = screen
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{label}  ")))
        .unwrap_or_else(|| panic!("no position line on the screen:\n{screen}"));
    line.trim().parse().expect("the screen's position parses")
}

/// A move a careful beginner would make: the first legal one that does not hand the opponent
/// a win at once, if there is one.
fn sensible(pos: &Position, rules: &Rules) -> Move {
    let moves = pos.legal_moves(rules);
    let safe = |mv: &Move| {
        let next = pos.play(*mv, rules).expect("legal");
        next.outcome(rules).is_some()
            || next.hand().map_or(true, |p| {
                next.board().threats(rules).winning_squares(p).is_empty()
            })
    };
    moves.iter().copied().find(safe).unwrap_or(moves[0])
}

fn record(out: &Path) -> serde_json::Value {
    let games = common::games(&out.join("games.jsonl"));
    assert_eq!(games.len(), 1, "one game saved");
    games.into_iter().next().unwrap()
}

/// Replays a record's moves from its start; the end must be its `end`.
fn replay(rec: &serde_json::Value) -> Position {
    let rules: Rules = rec["rules"].as_str().unwrap().parse().unwrap();
    let mut pos: Position = rec["start"].as_str().unwrap().parse().unwrap();
    for mv in rec["moves"].as_array().unwrap() {
        pos = pos
            .play(mv.as_str().unwrap().parse().unwrap(), &rules)
            .unwrap();
    }
    assert_eq!(pos.to_string(), rec["end"].as_str().unwrap());
    pos
}

/// Plays a whole game against `quads-bot --level N`: the opening give with Enter, the rest
/// typed, one illegal move on the way; returns the screen at the end and the saved record.
fn game_against(level: u8) -> (String, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("saved");
    let level_text = level.to_string();
    let args = [
        "play",
        "--level",
        level_text.as_str(),
        "--seed",
        "7",
        "--movetime",
        "300ms",
        "--lang",
        "en",
        "--out",
        out.to_str().unwrap(),
    ];
    let t = Tmux::start(dir.path(), Path::new(QUADS), &args, &[]);
    let screen = t.wait_for("You: choose the first piece to give");
    for part in [
        "Board",
        "Pieces to give",
        "In hand",
        "Legend",
        "letters: B/S D/L R/Q F/H",
    ] {
        assert!(screen.contains(part), "{part} missing:\n{screen}");
    }
    // Enter gives the piece under the cursor, the first one: BDRF.
    t.press(&["Enter"]);
    let rules = Rules::QUADS;
    let mut refused = false;
    loop {
        let screen = t.wait("your turn or the end", |s| {
            s.contains("You: place") || s.contains("Enter or Ctrl-Q: leave")
        });
        if screen.contains("Enter or Ctrl-Q: leave") {
            break;
        }
        let pos = position(&screen, "Position");
        if !refused {
            if let Some(taken) = pos.board().occupied().iter().next() {
                t.type_text(&format!(
                    "{taken} {}",
                    pos.remaining().iter().next().unwrap()
                ));
                t.press(&["Enter"]);
                t.wait_for(&format!("Not allowed: square {taken} is taken"));
                refused = true;
            }
        }
        let mv = sensible(&pos, &rules);
        t.type_text(&mv.to_string());
        t.press(&["Enter"]);
        t.wait("the move on the screen", |s| {
            s.lines()
                .any(|l| l.starts_with("Position  ") && !l.contains(&pos.to_string()))
        });
    }
    let end = t.wait_for("Game saved in");
    t.press(&["Enter"]);
    t.wait_for("exited 0");
    let rec = record(&out);
    (end, rec)
}

#[test]
fn a_person_plays_a_whole_game_against_each_level() {
    if !common::needs(&["tmux"]) {
        return;
    }
    for level in 1..=5u8 {
        let (end, rec) = game_against(level);
        assert_eq!(rec["first"]["name"], "human");
        assert_eq!(rec["first"]["command"], "(keyboard)");
        assert_eq!(rec["second"]["name"], format!("level-{level}"));
        assert_eq!(rec["moves"][0], "BDRF");
        assert_eq!(rec["failures"], serde_json::json!([]), "level {level}");
        let pos = replay(&rec);
        let said = match rec["result"].as_str().unwrap() {
            "1-0" => "You win!".to_owned(),
            "0-1" => format!("Level {level} wins!"),
            _ => "A draw: the board is full.".to_owned(),
        };
        assert!(end.contains(&said), "level {level}: {said} not on\n{end}");
        assert_eq!(position(&end, "Position"), pos);
        // The solver's word on where the game was decided.
        assert!(
            [
                "Decided by move",
                "No move from 11 empty squares on",
                "The game ended before"
            ]
            .iter()
            .any(|w| end.contains(w)),
            "{end}"
        );
        if rec["result"] != "1/2-1/2" {
            assert!(end.contains("The winning shape is marked on the board."));
            assert!(
                end.contains('['),
                "the winning shape's pieces are bracketed:\n{end}"
            );
        }
    }
}

#[test]
fn two_people_play_on_one_keyboard_and_one_claims_the_win_the_other_missed() {
    if !common::needs(&["tmux"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("saved");
    let args = [
        "play",
        "--human",
        "--rules",
        "quads,claim=announce",
        "--lang",
        "en",
        "--out",
        out.to_str().unwrap(),
    ];
    let t = Tmux::start(dir.path(), Path::new(QUADS), &args, &[]);
    t.wait_for("Player 1: choose the first piece to give");
    t.type_text("BDRF");
    t.press(&["Enter"]);
    t.wait_for("Player 2: place BDRF");
    // Nothing to claim yet: refused with the reason, the game goes on.
    t.press(&["F2"]);
    t.wait_for("Not allowed: there is no completed shape to claim");
    t.press(&["C-z"]);
    t.wait_for("Undo is for games against a bot.");
    // F1 shows the rules of this variant; any key closes them.
    t.press(&["F1"]);
    t.wait_for("The \"Quarto!\" rule");
    t.press(&["Escape"]);
    t.wait("the rules closed", |s| !s.contains("The \"Quarto!\" rule"));
    for (mv, next) in [
        ("A1 BLRH", "Player 1: place BLRH"),
        ("B1 BLQF", "Player 2: place BLQF"),
        ("C1 BDQH", "Player 1: place BDQH"),
    ] {
        t.type_text(mv);
        t.press(&["Enter"]);
        t.wait_for(next);
    }
    // D1 completes row 1 (all big); Player 1 gives instead of announcing.
    t.type_text("D1 SLQH");
    t.press(&["Enter"]);
    t.wait_for("The last piece completed a shape that was not announced: F2 claims it.");
    t.press(&["F2"]);
    let end = t.wait_for("Player 2 wins!");
    assert!(
        end.contains("Player 2 claims the shape the other player missed"),
        "{end}"
    );
    for piece in ["[BDRF]", "[BLRH]", "[BLQF]", "[BDQH]"] {
        assert!(end.contains(piece), "{piece} not marked:\n{end}");
    }
    t.wait_for("Game saved in");
    t.press(&["Enter"]);
    t.wait_for("exited 0");
    let rec = record(&out);
    assert_eq!(rec["first"]["name"], "human-1");
    assert_eq!(rec["second"]["name"], "human-2");
    assert_eq!(
        rec["moves"],
        serde_json::json!(["BDRF", "A1 BLRH", "B1 BLQF", "C1 BDQH", "D1 SLQH", "quarto"])
    );
    assert_eq!(rec["result"], "0-1");
    assert_eq!(rec["reason"], "normal");
    assert_eq!(rec["rules"], "quads,claim=announce");
    replay(&rec);
}

#[test]
fn the_puzzle_of_a_day_is_played_out_against_the_solver() {
    if !common::needs(&["tmux"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let date: quads_puzzle::Date = "2026-12-01".parse().unwrap();
    let puzzle = quads_puzzle::of_day(date, &Rules::QUADS, quads_puzzle::Level::Easy).unwrap();
    let args = [
        "play",
        "--puzzle",
        "easy",
        "--date",
        "2026-12-01",
        "--lang",
        "en",
    ];
    // The solution's moves: the person's are typed, the solver answers with its own.
    let t = Tmux::start(dir.path(), Path::new(QUADS), &args, &[]);
    t.wait_for("You: place");
    assert_eq!(position(&t.screen(), "Position"), puzzle.position());
    t.type_text(&puzzle.solution[0]);
    t.press(&["Enter"]);
    let screen = t.wait("the solver's reply and the person's turn", |s| {
        s.contains("You: place") && s.contains("The solver played")
    });
    let pos = position(&screen, "Position");
    let win = pos
        .legal_moves(&Rules::QUADS)
        .into_iter()
        .find(|m| {
            pos.play(*m, &Rules::QUADS)
                .unwrap()
                .outcome(&Rules::QUADS)
                .is_some()
        })
        .expect("the solver's best defence still loses at once");
    t.type_text(&win.to_string());
    t.press(&["Enter"]);
    t.wait_for("Solved: you won in 3 placements.");
    t.press(&["Enter"]);
    t.wait_for("exited 0");
    drop(t);
    // A wrong first move: the win is gone, and the screen says what the solution was.
    let wrong = puzzle
        .position()
        .legal_moves(&Rules::QUADS)
        .into_iter()
        .find(|m| *m != puzzle.answer())
        .unwrap();
    let t = Tmux::start(dir.path(), Path::new(QUADS), &args, &[]);
    t.wait_for("You: place");
    t.type_text(&wrong.to_string());
    t.press(&["Enter"]);
    t.wait_for(&format!(
        "Not this one: the win is gone. The solution was {}.",
        puzzle.solution.join(", ")
    ));
}

#[test]
fn the_screen_speaks_the_language_asked_for_or_the_locale_s() {
    if !common::needs(&["tmux"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (lang, args, env) in [
        (Lang::It, vec!["play", "--human", "--lang", "it"], vec![]),
        (
            Lang::Sl,
            vec!["play", "--human"],
            vec![("LANG", "sl_SI.UTF-8")],
        ),
        (
            Lang::Fr,
            vec!["play", "--human"],
            vec![("LC_ALL", "fr_FR.UTF-8"), ("LANG", "it_IT")],
        ),
    ] {
        let c = Catalog::new(lang);
        let expected = c.with("status-opening", &[("player", c.text("player-one").into())]);
        let t = Tmux::start(dir.path(), Path::new(QUADS), &args, &env);
        let screen = t.wait_for(&expected);
        assert!(screen.contains(&c.text("panel-give")), "{lang}:\n{screen}");
        t.press(&["C-q"]);
        t.wait_for("exited 0");
    }
}

#[test]
fn a_person_whose_clock_runs_out_loses_on_time() {
    if !common::needs(&["tmux"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("saved");
    let args = [
        "play",
        "--human",
        "--clock",
        "1s+0s",
        "--lang",
        "en",
        "--out",
        out.to_str().unwrap(),
    ];
    let t = Tmux::start(dir.path(), Path::new(QUADS), &args, &[]);
    let screen = t.wait_for("Player 1: choose the first piece to give");
    assert!(screen.contains("Clocks"), "{screen}");
    // Player 1 never moves.
    t.wait_for("Player 1 ran out of time.");
    t.wait_for("Game saved in");
    t.press(&["Enter"]);
    t.wait_for("exited 0");
    let rec = record(&out);
    assert_eq!(rec["result"], "0-1");
    assert_eq!(rec["reason"], "timeout");
    assert_eq!(rec["failures"][0]["seat"], "first");
    assert_eq!(rec["time_control"], "base 1000 inc 0");
    assert_eq!(rec["moves"], serde_json::json!([]));
}
