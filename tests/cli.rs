//! Integration tests of the `quads` binary's rules commands (perft, show, solve) and its
//! argument errors: each runs the real executable in a temporary
//! folder of its own and checks its exact output and exit code.

mod common;

use common::Quads;

#[test]
fn perft_prints_one_line_per_depth() {
    let q = Quads::new();
    assert_eq!(
        q.ok(&["perft", "--rules", "classic", "3"]),
        "1 16\n2 3840\n3 806400\n"
    );
    assert_eq!(
        q.ok(&[
            "perft",
            "--rules",
            "classic",
            "--position",
            "..../..../..../BDRFBLQHBLRF. BDQH",
            "2"
        ]),
        "1 145\n2 18528\n"
    );
}

#[test]
fn perft_defaults_to_quads_from_the_start() {
    let q = Quads::new();
    assert_eq!(q.ok(&["perft", "1"]), "1 16\n");
    assert_eq!(
        q.ok(&[
            "perft",
            "--position",
            "..../.SLRF../.BDRFBLQF./.... SDQF",
            "1"
        ]),
        "1 145\n"
    );
}

#[test]
fn perft_under_announce_is_refused() {
    let q = Quads::new();
    assert_eq!(
        q.fails(&["perft", "--rules", "classic,claim=announce", "2"]),
        "quads: perft is not defined under claim=announce (claims and overlooked wins are not a \
         fixed move tree); use claim=auto"
    );
}

#[test]
fn bad_arguments_are_one_line_errors() {
    let q = Quads::new();
    assert_eq!(
        q.fails(&["perft", "--rules", "quads,traits=colour", "2"]),
        "quads: invalid value 'quads,traits=colour' for '--rules <RULES>': bad value `colour` for \
         `traits` (expected size, color, shape or fill, joined by +)"
    );
    assert_eq!(
        q.fails(&["show", "BDQF...SLRH/..../..../.... BLQF"]),
        "quads: invalid position `BDQF...SLRH/..../..../.... BLQF`: row 4 has more than 4 squares: `BDQF...SLRH`"
    );
    assert_eq!(
        q.fails(&["show", "..../..../..../BDRF... -"]),
        "quads: position `..../..../..../BDRF... -` cannot arise under rules `quads`: no piece in \
         hand, but the game has started and is not over"
    );
    assert_eq!(
        q.fails(&["perft", "0"]),
        "quads: invalid value '0' for '<DEPTH>': 0 is not in 1..=17"
    );
    assert_eq!(
        q.fails(&["frobnicate"]),
        "quads: unrecognized subcommand 'frobnicate'"
    );
}

#[test]
fn show_draws_the_board_and_says_who_moves() {
    let q = Quads::new();
    let out = q.ok(&["show", "BDQF..SLRH/..../..../BDRFBLQHBLRF. BDQH"]);
    assert_eq!(
        out,
        "     A    B    C    D
4  BDQF  .    .   SLRH  4
3   .    .    .    .    3
2   .    .    .    .    2
1  BDRF BLQH BLRF  .    1
     A    B    C    D

position:  BDQF..SLRH/..../..../BDRFBLQHBLRF. BDQH
rules:     quads
placed:    5 of 16
in hand:   BDQH
remaining: 10 SDRF SLRF SDQF BLQF SLQF BDRH SDRH BLRH SDQH SLQH
status:    the first player places BDQH, then gives; BDQH wins on D1
"
    );
}

#[test]
fn show_reports_the_end_of_a_game() {
    let q = Quads::new();
    let won = q.ok(&[
        "show",
        "--rules",
        "classic",
        "..../..../..../BDRFBLQHBLRFBDQH -",
    ]);
    assert!(
        won.ends_with("status:    game over: the first player wins\n"),
        "{won}"
    );
    let drawn = q.ok(&[
        "show",
        "BDRHSLRFBLQHSDQF/BDQFSDQHSDRFSLRH/BLRFBDQHSLQFBLRH/SLQHBLQFBDRFSDRH -",
    ]);
    assert!(drawn.contains("\nremaining: 0\n"), "{drawn}");
    assert!(drawn.ends_with("status:    game over: draw\n"), "{drawn}");
    let claimable = q.ok(&[
        "show",
        "--rules",
        "classic,claim=announce",
        "..../..../..../BDRFBLQHBLRFBDQH SLQH claimable",
    ]);
    assert!(
        claimable.ends_with(
            "status:    the second player places SLQH, then gives; an overlooked win can be claimed\n"
        ),
        "{claimable}"
    );
}

#[test]
fn solve_prints_the_value_and_a_best_move() {
    let q = Quads::new();
    let win = q.ok(&[
        "solve",
        "--rules",
        "classic",
        "..../..../..../BDRFBLQHBLRF. BDQH",
    ]);
    assert!(
        win.starts_with("value: win in 1 placement\nbest move: D1\nnodes: "),
        "{win}"
    );
    let draw = q.ok(&[
        "solve",
        "BDRHSLRFBLQH./BDQFSDQHSDRFSLRH/BLRFBDQHSLQFBLRH/SLQHBLQFBDRFSDRH SDQF",
    ]);
    assert!(draw.starts_with("value: draw\nbest move: D4\n"), "{draw}");
    // More threads: the same answer.
    let eight = "..../.BDRF../SLQH.BLQF./..SDRHBDQH SDQF";
    let one = q.ok(&["solve", "--hash", "8", eight]);
    let two = q.ok(&["solve", "--hash", "8", "--threads", "2", eight]);
    let answer = |out: &str| out.lines().take(2).collect::<Vec<_>>().join("\n");
    assert!(answer(&one).starts_with("value: "), "{one}");
    assert_eq!(answer(&two), answer(&one));
    assert_eq!(
        q.fails(&["solve", "--threads", "0", eight]),
        "quads: invalid value '0' for '--threads <THREADS>': 0 is not in 1..=256"
    );
    // Every give after any placement lets the opponent win: a loss in 2 placements.
    let loss = q.ok(&["solve", ".SDQF../SLRF.BLRF./BLRHBDRH.SDQH/SLQF.SLQH. BDQF"]);
    assert!(loss.starts_with("value: loss in 2 placements\n"), "{loss}");
    assert_eq!(
        q.fails(&["solve", "..../..../..../BDRFBLQHBLRFBDQH -"]),
        "quads: the game is over in this position"
    );
    assert_eq!(
        q.fails(&["solve", "..../..../..../.... -"]),
        "quads: solve a position with a piece in hand (after the opening give)"
    );
}

#[test]
fn solve_bench_prints_one_line_per_position_and_a_table() {
    let q = Quads::new();
    let args = [
        "solve-bench",
        "--rules",
        "classic",
        "--placed",
        "9,8",
        "--positions",
        "3",
        "--seed",
        "4",
        "--hash",
        "4",
    ];
    let out = q.ok(&args);
    let lines: Vec<&str> = out.lines().collect();
    let positions: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.contains(" placed  "))
        .collect();
    assert_eq!(positions.len(), 6, "{out}");
    let rules: quads_rules::Rules = "classic".parse().unwrap();
    for (i, line) in positions.iter().enumerate() {
        let placed = if i < 3 { 9 } else { 8 };
        assert!(line.starts_with(&format!("{placed} placed  ")), "{line}");
        // Its time, in microseconds to the tenth.
        let time = line.rsplit("  ").next().unwrap();
        let micros = time.strip_suffix(" µs").expect("a time in µs");
        assert!(micros.split_once('.').unwrap().1.len() == 1, "{line}");
        assert!(micros.parse::<f64>().unwrap() > 0.0, "{line}");
        // The position: the given number of pieces, no completed shape, a hand that wins
        // nowhere; and the solver's value agrees with `quads solve`.
        let text = line.split("  ").nth(1).unwrap();
        let pos: quads_rules::Position = text.parse().unwrap();
        assert_eq!(pos.placed(), placed);
        assert!(!pos.board().has_win(&rules));
        assert!(pos
            .board()
            .threats(&rules)
            .winning_squares(pos.hand().unwrap())
            .is_empty());
        let solved = q.ok(&["solve", "--rules", "classic", "--hash", "4", text]);
        let value = solved.lines().next().unwrap().trim_start_matches("value: ");
        assert!(line.contains(&format!("  {value}  ")), "{line} vs {solved}");
    }
    assert!(out.contains(
        "| pieces placed | positions | median time | worst time | median nodes | worst nodes |"
    ));
    assert!(lines.iter().any(|l| l.starts_with("| 9 | 3 | ")), "{out}");
    assert!(lines.iter().any(|l| l.starts_with("| 8 | 3 | ")), "{out}");
    // The same seed gives the same positions.
    let again = q.ok(&args);
    let again: Vec<&str> = again.lines().filter(|l| l.contains(" placed  ")).collect();
    let key = |l: &&str| l.split("  ").take(3).collect::<Vec<_>>().join("  ");
    assert_eq!(
        positions.iter().map(key).collect::<Vec<_>>(),
        again.iter().map(key).collect::<Vec<_>>()
    );
    // Two threads (which help from 5 placed): the same positions, values and moves.
    let five = [
        "solve-bench",
        "--placed",
        "5",
        "--positions",
        "2",
        "--hash",
        "8",
    ];
    let one = q.ok(&five);
    let two = q.ok(&[&five[..], &["--threads", "2"]].concat());
    let answers = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| l.contains(" placed  "))
            .map(|l| l.split("  ").take(4).collect::<Vec<_>>().join("  "))
            .collect()
    };
    assert_eq!(answers(&one).len(), 2, "{one}");
    assert_eq!(answers(&two), answers(&one));
    assert!(two.contains(", 8 MiB table, 2 threads"), "{two}");
    assert_eq!(
        q.fails(&["solve-bench", "--placed", "16"]),
        "quads: --placed 16: at most 15 pieces can be on the board with one in hand"
    );
    assert_eq!(
        q.fails(&["solve-bench", "--positions", "0"]),
        "quads: --positions must be at least 1"
    );
}

#[test]
fn broken_pipe_is_a_quiet_exit_not_a_panic() {
    // `quads … | head` closes the pipe early; quads must not panic with a stack trace.
    let q = Quads::new();
    for args in [
        &["perft", "3"][..],
        &["show", "..../..../..../.... BDQF"][..],
    ] {
        let mut child = q
            .command(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take()); // the reader is gone before anything is written
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    }
}
