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
    // Row 4 holds three big pieces and BDQH is in hand: D4 wins. `first` plays the first
    // legal move, on A1; `greedy` takes the win. So the reply tells which one moved.
    let pos: Position = "BDRFBLQHBLRF./..../..../.... BDQH".parse().unwrap();
    let remaining: Vec<String> = pos.remaining().iter().map(|p| p.to_string()).collect();
    let go = format!(
        "newgame rules quads seat first seed 1 movetime 1000\nisready\ngo position {pos} remaining {} last C4 BDQH time - optime - movetime 1000\nquit\n",
        remaining.join(" ")
    );
    let first_move = format!("move {}", pos.legal_moves(&Rules::QUADS)[0]);
    assert_ne!(first_move, "move D4");
    let reply = |setoption: &str| {
        let lines = converse(
            &["--strategy", "first"],
            &format!("quads 1\n{setoption}{go}"),
        );
        assert!(lines.contains(&"option name strategy type string default first".to_owned()));
        lines.last().unwrap().clone()
    };
    assert_eq!(reply(""), first_move);
    assert_eq!(reply("setoption name strategy value greedy\n"), "move D4");
    // An unknown strategy keeps the one set.
    assert_eq!(
        reply("setoption name strategy value nonsense\n"),
        first_move
    );
}

#[test]
fn every_level_plays_whole_games_legally_under_every_variant() {
    use quads_bots::{Limit, Strategy, LEVELS};
    use quads_protocol::Go;
    use quads_rules::{Move, Outcome};
    use rand_chacha::rand_core::SeedableRng;
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
                let (mut turns, mut claims) = (0, 0);
                let mut last_mover = None;
                let mut table = None;
                while pos.outcome(&rules).is_none() {
                    let seat = pos.to_move();
                    let mover: Strategy = if seat == quads_rules::Player::First {
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
                    // A node budget, not a clock: the same games on any machine.
                    let mv = mover.choose_within(
                        &go,
                        &rules,
                        &mut rng,
                        Limit::Nodes(100_000),
                        &mut table,
                    );
                    pos = pos
                        .play(mv, &rules)
                        .unwrap_or_else(|e| panic!("{} under {spec}: {e}", mover.name()));
                    turns += 1;
                    claims += usize::from(mv == Move::Claim);
                    last_mover = Some(seat);
                }
                let game = format!("{} v {} under {spec}", first.name(), second.name());
                // Every turn did one thing: the opening give, a placement, or a claim.
                assert_eq!(turns, 1 + pos.placed() as usize + claims, "{game}");
                // Only random play leaves a win unannounced for the opponent to claim, and every
                // other level claims it at once.
                let random = [first, second].contains(&Strategy::Random);
                assert!(claims <= usize::from(random), "{game}: {claims} claims");
                match pos.outcome(&rules) {
                    // The player who moved last won: by completing a shape, or by claiming.
                    Some(Outcome::Win(winner)) => assert_eq!(Some(winner), last_mover, "{game}"),
                    // A full board; a shape on it only if random play left it unannounced.
                    Some(Outcome::Draw) => {
                        assert_eq!(pos.placed(), 16, "{game}");
                        assert!(random || !pos.board().has_win(&rules), "{game}");
                    }
                    None => unreachable!(),
                }
            }
        }
    }
}

/// Regression: with 12 empty squares and 200 ms a move, level 5 could not solve this Quads
/// position in time, and its MCTS once chose C1 BLQF, after which the opponent wins in 11
/// placements (a draw was available). The solver's check of MCTS's moves must refuse it, and
/// every other move that lets the opponent force a win. Driven by a node budget instead of
/// the clock, so that the solve runs out at the same node, and MCTS makes all its playouts,
/// on any machine.
#[test]
fn level_5_does_not_walk_into_a_forced_loss_that_mcts_misses() {
    use quads_bots::solver::{Limits, Solver};
    use quads_bots::{Limit, LEVELS, SOLVER_TABLE_MIB};
    use quads_protocol::Go;
    use quads_rules::{Move, Then};
    use rand_chacha::rand_core::{RngCore, SeedableRng};

    let pos: Position = "..SDRF./..../..SLRH./SDQFBDRH.. BLRH".parse().unwrap();
    let rules = Rules::QUADS;
    // Nodes per solve. (Solving this position takes about 611,000 nodes; the checks of
    // MCTS's moves, at 11 empty squares, far fewer.)
    let budget = 400_000;
    let level_5 = LEVELS[4];
    let opponent_wins = |mv: Move| {
        let after = pos.play(mv, &rules).unwrap();
        let reply = Solver::new(&rules, 16).solve(&after, None, 0).unwrap();
        reply.value > 0
    };
    // The premise: at 12 empty squares level 5 first tries the solver with half its budget,
    // which is not enough here, so the move comes from MCTS and the solver's checks.
    let half = Limits {
        deadline: None,
        nodes: Some(budget / 2),
    };
    assert_eq!(
        Solver::new(&rules, SOLVER_TABLE_MIB).solve_within(&pos, half, 0),
        None
    );
    let bad = Move::Place {
        to: "C1".parse().unwrap(),
        then: Then::Give("BLQF".parse().unwrap()),
    };
    assert!(opponent_wins(bad), "the move of the original game loses");
    // (seed, the number of MCTS's best moves the check refuses before a safe one)
    for (seed, refusals) in [(5, 4), (6, 1), (7, 1)] {
        let go = Go {
            position: pos,
            remaining: pos.remaining(),
            last: None,
            time: None,
            optime: None,
            movetime: 200,
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mv = level_5.choose_within(&go, &rules, &mut rng, Limit::Nodes(budget), &mut None);
        // MCTS's ranking as level 5 made it: from the same stream, after the solver's seed.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        rng.next_u64();
        let (ranked, _) = quads_bots::mcts::ranked(
            pos.board(),
            pos.hand().unwrap(),
            pos.remaining(),
            &rules,
            10_000,
            None,
            &mut rng,
        );
        let ranked: Vec<Move> = ranked
            .into_iter()
            .map(|(to, give)| Move::Place {
                to,
                then: Then::Give(give),
            })
            .collect();
        // Level 5 plays MCTS's best move that does not let the opponent force a win.
        // (MCTS alone would have walked into a loss with each of these seeds.)
        let safe = ranked.iter().position(|&m| !opponent_wins(m)).unwrap();
        assert_eq!(safe, refusals, "seed {seed}");
        assert_eq!(mv, ranked[safe], "seed {seed}");
    }
}

#[test]
fn the_delays_do_not_change_the_moves() {
    let input = "quads 1\nnewgame rules quads seat first seed 9 movetime 1000\nisready\ngo position ..../..../..../.... - remaining BDQF BDQH BDRF BDRH BLQF BLQH BLRF BLRH SDQF SDQH SDRF SDRH SLQF SLQH SLRF SLRH last - time - optime - movetime 1000\nquit\n";
    let plain = converse(&["--strategy", "random"], input);
    let delayed = converse(
        &[
            "--strategy",
            "random",
            "--think-ms",
            "5",
            "--wait-ms",
            "5",
            "--start-ms",
            "5",
        ],
        input,
    );
    assert_eq!(plain, delayed);
    assert!(plain.last().unwrap().parse::<FromBot>().is_ok());
}

#[test]
fn a_delay_that_is_not_a_number_is_a_usage_error() {
    for flag in ["--think-ms", "--wait-ms", "--start-ms"] {
        let out = Command::new(env!("CARGO_BIN_EXE_quads-bot"))
            .args([flag, "soon"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1);
        assert!(
            err.starts_with(&format!(
                "quads-bot: {flag} takes whole milliseconds, not `soon`; usage: quads-bot"
            )),
            "{err}"
        );
    }
}
