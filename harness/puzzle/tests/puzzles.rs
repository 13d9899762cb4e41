//! Puzzles proven again by a fresh solver on a sample of dates, in both presets and a trait
//! subset; the same date always gives the same puzzle, and days differ.

use quads_puzzle::{of_day, parse_date, verify, Date, Level, PuzzleError, Unproven};
use quads_rules::Rules;

/// Every 29th day of 2027 and 2028: 26 dates over every month and weekday.
fn sample() -> Vec<Date> {
    let mut dates = Vec::new();
    let mut d: Date = "2027-01-01".parse().unwrap();
    while d.year() < 2029 {
        dates.push(d);
        for _ in 0..29 {
            d = d.tomorrow().unwrap();
        }
    }
    dates
}

#[test]
fn every_sampled_puzzle_is_proven_again() {
    let dates = sample();
    assert_eq!(dates.len(), 26);
    for spec in ["quads", "classic", "quads,traits=color+shape"] {
        let rules: Rules = spec.parse().unwrap();
        for &date in &dates {
            for level in Level::ALL {
                let p = of_day(date, &rules, level).unwrap();
                assert_eq!(p.rules, spec);
                assert_eq!(p.date, date.to_string());
                assert_eq!(p.placements, level.placements());
                verify(&p).unwrap_or_else(|e| panic!("{spec} {date} {level}: {e}"));
            }
        }
    }
}

#[test]
fn a_date_always_gives_the_same_puzzle_and_days_differ() {
    let d: Date = "2027-06-01".parse().unwrap();
    let a = of_day(d, &Rules::QUADS, Level::Medium).unwrap();
    assert_eq!(a, of_day(d, &Rules::QUADS, Level::Medium).unwrap());
    let next = of_day(d.tomorrow().unwrap(), &Rules::QUADS, Level::Medium).unwrap();
    assert_ne!(a.position, next.position);
    let classic = of_day(d, &Rules::CLASSIC, Level::Medium).unwrap();
    assert_ne!(a.position, classic.position);
}

#[test]
fn a_forged_puzzle_fails_its_proof() {
    let d: Date = "2027-06-01".parse().unwrap();
    let mut p = of_day(d, &Rules::QUADS, Level::Easy).unwrap();
    p.placements = 5;
    let e = verify(&p).unwrap_err();
    assert!(
        matches!(e, Unproven::NotThatWin { placements: 5, .. }),
        "{e}"
    );
    assert!(e.to_string().ends_with("not a win in 5"), "{e}");
    let mut p = of_day(d, &Rules::QUADS, Level::Easy).unwrap();
    let other = p
        .position()
        .legal_moves(&Rules::QUADS)
        .into_iter()
        .find(|m| *m != p.answer())
        .unwrap();
    p.solution[0] = other.to_string();
    let e = verify(&p).unwrap_err();
    assert!(matches!(e, Unproven::WinningMoves(_)), "{e}");
    assert!(e.to_string().starts_with("winning moves: "), "{e}");
}

#[test]
fn announce_rules_and_bad_dates_are_refused() {
    let d: Date = "2027-06-01".parse().unwrap();
    let rules: Rules = "classic,claim=announce".parse().unwrap();
    assert_eq!(
        of_day(d, &rules, Level::Easy),
        Err(PuzzleError::Announce("classic,claim=announce".into()))
    );
    assert_eq!(
        parse_date("2027-13-01").unwrap_err().to_string(),
        "invalid date `2027-13-01`: no such day"
    );
    assert_eq!(
        parse_date("2027-1-01").unwrap_err().to_string(),
        "invalid date `2027-1-01` (expected YYYY-MM-DD)"
    );
    assert_eq!(parse_date("2028-02-29").unwrap().to_string(), "2028-02-29");
}

#[test]
fn todays_puzzles_are_proven() {
    // Today's date, so this reruns on another date tomorrow: the failure names the date, and
    // `quads puzzle --date D --level L` reproduces it.
    let today = quads_puzzle::today();
    for level in Level::ALL {
        let p = of_day(today, &Rules::QUADS, level).unwrap();
        verify(&p).unwrap_or_else(|e| panic!("the {level} puzzle of {today}: {e}"));
    }
}

#[test]
fn a_search_that_finds_nothing_ends_with_an_error() {
    // A hard puzzle with one trait counting is too rare: the search gives up.
    let d: Date = "2027-01-05".parse().unwrap();
    let rules: Rules = "quads,traits=color".parse().unwrap();
    assert_eq!(
        of_day(d, &rules, Level::Hard).unwrap_err().to_string(),
        "no hard puzzle of `quads,traits=color` among 5000 positions drawn for 2027-01-05: such wins are rare when few traits count; try an easier level"
    );
    // Easy ones are found.
    verify(&of_day(d, &rules, Level::Easy).unwrap()).unwrap();
}
