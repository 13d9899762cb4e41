//! The quads-bot binary, driven over its real stdin and stdout.

use std::io::Write;
use std::process::{Command, Stdio};

use quads_protocol::{FromBot, ToBot};
use quads_rules::{Position, Rules};

/// Feeds `input` to `quads-bot ARGS` and returns its stdout lines.
fn converse(args: &[&str], input: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_quads-bot"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("quads-bot starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_strategy_shakes_hands_and_plays_legal_moves() {
    // Row 1 holds three big pieces and BDQH is in hand: D1 wins.
    let pos: Position = "..../..../..../BDRFBLQHBLRF. BDQH".parse().unwrap();
    let go = |rules: &str| {
        format!(
            "newgame rules {rules} seat first seed 3 movetime 1000\nisready\ngo position {pos} remaining {} last C1 BDQH time - optime - movetime 1000\n",
            pos.remaining().iter().map(|p| p.to_string()).collect::<Vec<_>>().join(" ")
        )
    };
    for strategy in ["first", "random", "greedy"] {
        for rules in ["quads", "classic,claim=announce"] {
            let input = format!("quads 1\nisready\n{}quit\n", go(rules));
            let lines = converse(&["--strategy", strategy], &input);
            assert_eq!(lines[0], format!("id name {strategy}"));
            assert!(lines.contains(&"quadsok".to_owned()));
            assert_eq!(lines.iter().filter(|l| *l == "readyok").count(), 2);
            let reply: FromBot = lines.last().unwrap().parse().unwrap();
            let FromBot::Move(mv) = reply else {
                panic!("{reply:?}")
            };
            let r: Rules = rules.parse().unwrap();
            pos.play(mv, &r)
                .unwrap_or_else(|e| panic!("{strategy} under {rules}: {e}"));
            if strategy == "greedy" {
                let expected = if rules == "quads" { "D1" } else { "D1 quarto" };
                assert_eq!(mv.to_string(), expected, "greedy takes the win");
            }
        }
    }
}

#[test]
fn an_unknown_version_is_refused() {
    let lines = converse(&[], &format!("{}\nquit\n", ToBot::Quads { version: 2 }));
    assert_eq!(lines, ["unsupported"]);
}

#[test]
fn the_strategy_can_be_set_as_an_option() {
    let input = "quads 1\nsetoption name strategy value first\nisready\nquit\n";
    let lines = converse(&["--strategy", "random"], input);
    assert!(lines.contains(&"option name strategy type string default random".to_owned()));
    assert_eq!(lines.last().unwrap(), "readyok");
}
