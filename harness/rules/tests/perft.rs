//! Perft counts from the data files in `tests/data/*.perft`, checked with the fast perft and,
//! where the tree is small enough, with the move-list perft too.

use std::path::Path;

use quads_rules::{perft, perft_by_moves, Position, Rules};

struct Case {
    name: String,
    rules: Rules,
    position: Position,
    counts: Vec<(u32, u64)>,
}

fn read_cases(file: &str) -> Vec<Case> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut cases = Vec::new();
    for block in text.split("\n\n") {
        let lines: Vec<&str> = block
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect();
        if lines.is_empty() {
            continue;
        }
        let (mut name, mut rules, mut position, mut counts) = (None, None, None, Vec::new());
        for line in lines {
            let (key, value) = line
                .split_once(' ')
                .unwrap_or_else(|| panic!("bad line {line:?}"));
            match key {
                "name" => name = Some(value.to_owned()),
                "rules" => rules = Some(value.parse::<Rules>().unwrap()),
                "position" => position = Some(value.parse::<Position>().unwrap()),
                "perft" => {
                    let (d, n) = value.split_once(' ').expect("perft DEPTH COUNT");
                    counts.push((d.parse().unwrap(), n.parse().unwrap()));
                }
                _ => panic!("unknown key {key:?} in {file}"),
            }
        }
        let case = Case {
            name: name.expect("name"),
            rules: rules.expect("rules"),
            position: position.expect("position"),
            counts,
        };
        case.position
            .check(&case.rules)
            .unwrap_or_else(|why| panic!("{}: {why}", case.name));
        cases.push(case);
    }
    assert!(!cases.is_empty(), "{file} holds no cases");
    cases
}

/// Counts above this take seconds in a release build and minutes in a debug one.
const SLOW: u64 = 1_000_000_000;
/// Counts up to this are also made the slow way, through move lists.
const BY_MOVES: u64 = 3_000_000;

fn check_file(file: &str) {
    let mut skipped = 0;
    for case in read_cases(file) {
        for &(depth, expected) in &case.counts {
            if expected > SLOW && cfg!(debug_assertions) {
                skipped += 1;
                continue;
            }
            let got = perft(&case.position, &case.rules, depth).unwrap();
            assert_eq!(got, expected, "{file} {}: perft {depth}", case.name);
            if expected <= BY_MOVES {
                let slow = perft_by_moves(&case.position, &case.rules, depth);
                assert_eq!(
                    slow, expected,
                    "{file} {}: move-list perft {depth}",
                    case.name
                );
            }
        }
    }
    if skipped > 0 {
        eprintln!(
            "{file}: skipped {skipped} deep counts in a debug build; run `cargo test --release`"
        );
    }
}

#[test]
fn start_position_counts() {
    check_file("start.perft");
}

#[test]
fn midgame_counts() {
    check_file("midgame.perft");
}

#[test]
fn perft_is_refused_under_announce() {
    let rules: Rules = "quads,claim=announce".parse().unwrap();
    let err = perft(&Position::START, &rules, 1).unwrap_err();
    assert!(err
        .to_string()
        .starts_with("perft is not defined under claim=announce"));
}
