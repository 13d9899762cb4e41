//! `quads puzzle` and `quads rules` from the command line: the day's puzzle, its check, its
//! exports, the errors; the rules page in a language.

#[allow(dead_code, reason = "no bot runs here")]
mod common;

use common::Quads;
use quads_i18n::{Catalog, Lang};
use quads_puzzle::{of_day, Level};
use quads_rules::Rules;

#[test]
fn the_puzzle_of_a_day_prints_checks_and_exports() {
    let q = Quads::new();
    let date: quads_puzzle::Date = "2027-03-14".parse().unwrap();
    let p = of_day(date, &Rules::QUADS, Level::Hard).unwrap();
    let out = q.ok(&[
        "puzzle",
        "--date",
        "2027-03-14",
        "--level",
        "hard",
        "--lang",
        "en",
        "--solution",
    ]);
    assert!(out.starts_with("Puzzle of 2027-03-14 (hard)\n"), "{out}");
    assert!(out.contains(&format!("\n{}\n", p.position)), "{out}");
    assert!(out.contains("to play and win in 7 placements."), "{out}");
    assert!(
        out.contains(&format!("Solution: {}\n", p.solution.join(", "))),
        "{out}"
    );
    // --check: exit 0 for the solution, 1 for another move, 1 for an illegal one.
    let check = |mv: &str| {
        q.run(&[
            "puzzle",
            "--date",
            "2027-03-14",
            "--level",
            "hard",
            "--lang",
            "en",
            "--check",
            mv,
        ])
    };
    let right = check(&p.solution[0]);
    assert_eq!(right.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(right.stdout).unwrap(),
        format!("{} is the solution.\n", p.solution[0])
    );
    let other = p
        .position()
        .legal_moves(&Rules::QUADS)
        .into_iter()
        .find(|m| *m != p.answer())
        .unwrap();
    let wrong = check(&other.to_string());
    assert_eq!(wrong.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(wrong.stdout).unwrap(),
        format!("{other} is not the solution.\n")
    );
    let taken = p.position().board().occupied().iter().next().unwrap();
    let illegal = check(&format!("{taken} SLQH"));
    assert_eq!(illegal.status.code(), Some(1));
    assert!(String::from_utf8(illegal.stdout)
        .unwrap()
        .contains(&format!(
            "is not a legal move here: square {taken} is taken"
        )));
    // JSON: one puzzle, then three days of all three levels, in order.
    let one: serde_json::Value = serde_json::from_str(&q.ok(&[
        "puzzle",
        "--date",
        "2027-03-14",
        "--level",
        "hard",
        "--json",
    ]))
    .unwrap();
    assert_eq!(one["position"], p.position.as_str());
    assert_eq!(one["solution"], serde_json::json!(p.solution));
    let many: serde_json::Value =
        serde_json::from_str(&q.ok(&["puzzle", "--from", "2027-02-27", "--days", "3", "--json"]))
            .unwrap();
    let many = many.as_array().unwrap();
    assert_eq!(many.len(), 9);
    let keys: Vec<(String, String)> = many
        .iter()
        .map(|m| {
            (
                m["date"].as_str().unwrap().to_owned(),
                m["level"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(keys[0], ("2027-02-27".to_owned(), "easy".to_owned()));
    assert_eq!(keys[3], ("2027-02-28".to_owned(), "easy".to_owned()));
    assert_eq!(keys[8], ("2027-03-01".to_owned(), "hard".to_owned()));
}

#[test]
fn bad_puzzle_arguments_are_one_line_errors() {
    let q = Quads::new();
    assert_eq!(q.fails(&["puzzle", "--date", "2027-02-30"]), "quads: invalid value '2027-02-30' for '--date <DATE>': invalid date `2027-02-30`: no such day");
    assert_eq!(q.fails(&["puzzle", "--date", "14/03/2027"]), "quads: invalid value '14/03/2027' for '--date <DATE>': invalid date `14/03/2027` (expected YYYY-MM-DD)");
    assert_eq!(q.fails(&["puzzle", "--rules", "quads,claim=announce"]), "quads: puzzles are made under automatic wins: `quads,claim=announce` asks for claim=announce");
    assert_eq!(
        q.fails(&["puzzle", "--check", "Z9"]),
        "quads: invalid move `Z9` (expected PIECE, SQUARE, SQUARE PIECE, SQUARE quarto or quarto)"
    );
    assert!(q
        .fails(&["puzzle", "--from", "2027-01-01", "--days", "2"])
        .starts_with("quads: the following required arguments were not provided"));
}

#[test]
fn the_rules_page_is_in_the_language_asked_for_or_the_locale_s() {
    let q = Quads::new();
    for (lang, spec) in [
        (Lang::En, "quads"),
        (Lang::It, "classic"),
        (Lang::Sl, "classic,claim=announce"),
        (Lang::Pt, "quads,traits=color"),
    ] {
        let out = q.ok(&["rules", "--rules", spec, "--lang", lang.code()]);
        let c = Catalog::new(lang);
        let page = quads_i18n::rules_page(&c, &spec.parse().unwrap());
        assert!(out.starts_with(&format!("{}\n", page[0])), "{lang}: {out}");
        let flat = out.replace('\n', " ");
        for paragraph in &page[1..] {
            assert!(flat.contains(paragraph.as_str()), "{lang}: {paragraph}");
        }
    }
    let by_locale = q
        .command(&["rules"])
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", "es_ES.UTF-8")
        .output()
        .unwrap();
    let page = quads_i18n::rules_page(&Catalog::new(Lang::Es), &Rules::QUADS);
    assert!(String::from_utf8(by_locale.stdout)
        .unwrap()
        .starts_with(&page[0]));
    assert_eq!(q.fails(&["rules", "--lang", "de"]), "quads: invalid value 'de' for '--lang <L>': unknown language `de` (expected one of en, it, pt, es, fr, sl)");
}

#[test]
fn play_refuses_to_run_without_a_terminal() {
    let q = Quads::new();
    assert_eq!(
        q.fails(&["play", "--human"]),
        "quads: quads play needs a terminal: run it in one (not through a pipe)"
    );
}
