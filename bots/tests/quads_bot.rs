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
    for strategy in [
        "first",
        "random",
        "greedy",
        "minimax-2",
        "mcts-200",
        "solver-200",
        "level-3",
        "level-4",
        "level-5",
    ] {
        for rules in ["quads", "classic,claim=announce"] {
            let input = format!("quads 1\nisready\n{}quit\n", go(rules));
            let lines = converse(&["--strategy", strategy], &input);
            let canonical = quads_bots::Strategy::from_name(strategy).unwrap().name();
            assert_eq!(lines[0], format!("id name {canonical}"));
            assert!(lines.contains(&"quadsok".to_owned()));
            assert_eq!(lines.iter().filter(|l| *l == "readyok").count(), 2);
            let reply: FromBot = lines.last().unwrap().parse().unwrap();
            let FromBot::Move(mv) = reply else {
                panic!("{reply:?}")
            };
            let r: Rules = rules.parse().unwrap();
            pos.play(mv, &r)
                .unwrap_or_else(|e| panic!("{strategy} under {rules}: {e}"));
            if !["first", "random"].contains(&strategy) {
                let expected = if rules == "quads" { "D1" } else { "D1 quarto" };
                assert_eq!(mv.to_string(), expected, "{strategy} takes the win");
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

#[test]
fn every_level_plays_whole_games_legally_under_every_variant() {
    use quads_bots::{Strategy, LEVELS};
    use quads_protocol::Go;
    use rand_chacha::rand_core::SeedableRng;
    use std::time::{Duration, Instant};
    for spec in [
        "quads",
        "classic",
        "classic,traits=color",
        "quads,claim=announce",
    ] {
        let rules: Rules = spec.parse().unwrap();
        for (i, level) in LEVELS.iter().enumerate() {
            // Each level against the level below it (level 1 against itself), both seats.
            let other = LEVELS[i.saturating_sub(1)];
            for (first, second) in [(*level, other), (other, *level)] {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(i as u64);
                let mut pos = Position::START;
                let mut turns = 0;
                let mut table = None;
                while pos.outcome(&rules).is_none() {
                    let mover: Strategy = if pos.to_move() == quads_rules::Player::First {
                        first
                    } else {
                        second
                    };
                    let go = Go {
                        position: pos,
                        remaining: pos.remaining(),
                        last: None,
                        time: None,
                        optime: None,
                        movetime: 1000,
                    };
                    let mv = mover.choose(
                        &go,
                        &rules,
                        &mut rng,
                        Instant::now() + Duration::from_millis(50),
                        &mut table,
                    );
                    pos = pos
                        .play(mv, &rules)
                        .unwrap_or_else(|e| panic!("{} under {spec}: {e}", mover.name()));
                    turns += 1;
                }
                assert!(turns <= 18);
            }
        }
    }
}

/// Regression: with 12 empty squares and 200 ms a move, level 5 cannot solve this Quads
/// position in time, and its MCTS once chose C1 BLQF, after which the opponent wins in 11
/// placements (a draw was available). The solver's check of MCTS's moves must refuse it, and
/// every other move that lets the opponent force a win.
#[test]
fn level_5_does_not_walk_into_a_forced_loss_that_mcts_misses() {
    let pos: Position = "..SDRF./..../..SLRH./SDQFBDRH.. BLRH".parse().unwrap();
    let rules = Rules::QUADS;
    let remaining: Vec<String> = pos.remaining().iter().map(|p| p.to_string()).collect();
    for seed in [5, 6, 7] {
        let input = format!(
            "quads 1\nnewgame rules quads seat second seed {seed} movetime 200\nisready\ngo position {pos} remaining {} last B1 BLRH time - optime - movetime 200\nquit\n",
            remaining.join(" ")
        );
        let lines = converse(&["--level", "5"], &input);
        let FromBot::Move(mv) = lines.last().unwrap().parse().unwrap() else {
            panic!("{lines:?}")
        };
        let after = pos.play(mv, &rules).unwrap();
        let reply = quads_bots::solver::Solver::new(&rules, 16)
            .solve(&after, None, 0)
            .unwrap();
        assert!(
            reply.value <= 0,
            "seed {seed}: after {mv} the opponent has {}",
            reply.describe()
        );
    }
}
