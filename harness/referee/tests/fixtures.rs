//! Every way a bot can fail a game, played for real: a fixture program (tests/fixtures/bad_bot.py)
//! misbehaves one way per mode against a legal opponent. Each test checks the exact forfeit,
//! that the game ended within the limit plus one second, and that no process of either bot's
//! group is left, zombies included.

mod common;

use std::time::Duration;

use common::{assert_forfeit, bot, duel, movetime, settings, HANDSHAKE, ROW, START};

#[test]
fn never_answering_the_handshake_is_a_handshake_forfeit() {
    let o = duel(
        bot(&["no-handshake"]),
        bot(&["legal"]),
        &settings("quads"),
        START,
    );
    assert_forfeit(
        &o,
        "first",
        "handshake",
        "no quadsok within 1000 ms",
        HANDSHAKE,
    );
}

#[test]
fn garbage_in_the_handshake_is_a_handshake_forfeit() {
    let o = duel(
        bot(&["legal"]),
        bot(&["garbage-handshake"]),
        &settings("quads"),
        START,
    );
    assert_forfeit(
        &o,
        "second",
        "handshake",
        "unknown or malformed message `hello,` in `hello, referee` while waiting for quadsok",
        HANDSHAKE,
    );
}

#[test]
fn an_unsupported_version_is_its_own_forfeit() {
    let o = duel(
        bot(&["unsupported"]),
        bot(&["legal"]),
        &settings("quads"),
        START,
    );
    assert_forfeit(
        &o,
        "first",
        "unsupported-version",
        "the bot does not speak protocol version 1",
        HANDSHAKE,
    );
}

#[test]
fn when_both_fail_the_first_to_fail_forfeits() {
    let o = duel(
        bot(&["no-handshake"]),
        bot(&["unsupported"]),
        &settings("quads"),
        START,
    );
    let reasons: Vec<(&str, &str)> = o
        .record
        .failures
        .iter()
        .map(|f| (f.seat.as_str(), f.reason.as_str()))
        .collect();
    assert_eq!(
        reasons,
        [("second", "unsupported-version"), ("first", "handshake")]
    );
    assert_eq!(
        (o.record.result.as_str(), o.record.reason.as_str()),
        ("1-0", "unsupported-version")
    );
}

#[test]
fn hanging_mid_game_is_a_timeout() {
    let o = duel(bot(&["legal"]), bot(&["hang"]), &settings("quads"), START);
    assert_forfeit(
        &o,
        "second",
        "timeout",
        "no move within 300 ms (+50 ms margin)",
        movetime(),
    );
    assert_eq!(
        o.record.moves,
        ["BDRF"],
        "the first player's opening give was played"
    );
}

#[test]
fn sleeping_past_the_limit_is_a_timeout() {
    let o = duel(
        bot(&["sleep", "600"]),
        bot(&["legal"]),
        &settings("quads"),
        START,
    );
    assert_forfeit(
        &o,
        "first",
        "timeout",
        "no move within 300 ms (+50 ms margin)",
        movetime(),
    );
}

#[test]
fn answering_within_the_margin_is_not_a_timeout() {
    // 400 ms is past the 300 ms limit but well inside a 300 ms margin.
    let mut s = settings("quads");
    s.margin = Duration::from_millis(300);
    let o = duel(bot(&["sleep", "400"]), bot(&["legal"]), &s, ROW);
    assert!(o.record.failures.is_empty(), "{:?}", o.record.failures);
    assert_eq!(o.record.moves, ["D1"]);
    assert_eq!(
        (o.record.result.as_str(), o.record.reason.as_str()),
        ("1-0", "normal")
    );
    assert!(
        o.record.timing.moves_ms[0] > 300.0,
        "the move really took {} ms",
        o.record.timing.moves_ms[0]
    );
}

#[test]
fn a_crash_is_recorded_with_its_signal() {
    let o = duel(bot(&["legal"]), bot(&["crash"]), &settings("quads"), START);
    assert_forfeit(
        &o,
        "second",
        "crash",
        "killed by signal 6 (SIGABRT) while waiting for a move",
        movetime(),
    );
}

#[test]
fn exiting_with_status_zero_mid_game_is_a_crash() {
    let o = duel(bot(&["exit0"]), bot(&["legal"]), &settings("quads"), START);
    assert_forfeit(
        &o,
        "first",
        "crash",
        "exited with status 0 while waiting for a move",
        movetime(),
    );
}

#[test]
fn closing_stdout_while_running_is_closed_output() {
    let o = duel(
        bot(&["legal"]),
        bot(&["close-stdout"]),
        &settings("quads"),
        START,
    );
    assert_forfeit(
        &o,
        "second",
        "closed-output",
        "stdout closed while waiting for a move; the process kept running",
        movetime(),
    );
}

#[test]
fn garbage_instead_of_a_move_is_malformed() {
    let o = duel(
        bot(&["garbage"]),
        bot(&["legal"]),
        &settings("quads"),
        START,
    );
    assert_forfeit(
        &o,
        "first",
        "malformed",
        "unknown or malformed message `hello` in `hello there`",
        movetime(),
    );
}

#[test]
fn a_line_without_its_newline_is_a_timeout() {
    let o = duel(
        bot(&["partial"]),
        bot(&["legal"]),
        &settings("quads"),
        START,
    );
    assert_forfeit(
        &o,
        "first",
        "timeout",
        "no move within 300 ms (+50 ms margin)",
        movetime(),
    );
}

#[test]
fn a_ten_mebibyte_line_is_malformed() {
    let o = duel(bot(&["legal"]), bot(&["huge"]), &settings("quads"), START);
    let start = "x".repeat(80);
    assert_forfeit(
        &o,
        "second",
        "malformed",
        &format!("a line longer than 65536 bytes, starting `{start}…`"),
        movetime(),
    );
}

#[test]
fn placing_on_an_occupied_square_is_illegal() {
    // The second player places first (on A1); the first player then places on A1 again.
    let o = duel(
        bot(&["occupied"]),
        bot(&["legal"]),
        &settings("quads"),
        START,
    );
    assert_forfeit(
        &o,
        "first",
        "illegal-move",
        "`A1 BLRF` in `..../..../..../BDRF... SDRF`: square A1 is occupied",
        movetime(),
    );
}

#[test]
fn giving_the_piece_just_placed_is_illegal() {
    let o = duel(
        bot(&["legal"]),
        bot(&["give-own"]),
        &settings("quads"),
        START,
    );
    assert_forfeit(
        &o,
        "second",
        "illegal-move",
        "`A1 BDRF` in `..../..../..../.... BDRF`: piece BDRF is not available",
        movetime(),
    );
}

#[test]
fn giving_a_piece_on_the_board_is_illegal() {
    let o = duel(
        bot(&["give-board"]),
        bot(&["legal"]),
        &settings("quads"),
        START,
    );
    assert_forfeit(
        &o,
        "first",
        "illegal-move",
        "`B1 BDRF` in `..../..../..../BDRF... SDRF`: piece BDRF is not available",
        movetime(),
    );
}

#[test]
fn giving_after_a_winning_placement_is_illegal() {
    let o = duel(
        bot(&["give-on-win"]),
        bot(&["legal"]),
        &settings("quads"),
        ROW,
    );
    assert_forfeit(
        &o,
        "first",
        "illegal-move",
        "`D1 SDRF` in `..../..../..../BDRFBLQHBLRF. BDQH`: this placement ends the game: give nothing",
        movetime(),
    );
}

#[test]
fn omitting_the_give_is_illegal() {
    let o = duel(
        bot(&["omit-give"]),
        bot(&["legal"]),
        &settings("quads"),
        ROW,
    );
    assert_forfeit(
        &o,
        "first",
        "illegal-move",
        "`A2` in `..../..../..../BDRFBLQHBLRF. BDQH`: the game goes on: give a piece after placing",
        movetime(),
    );
}

#[test]
fn a_false_claim_is_illegal() {
    let o = duel(
        bot(&["false-claim"]),
        bot(&["legal"]),
        &settings("quads,claim=announce"),
        ROW,
    );
    assert_forfeit(
        &o,
        "first",
        "illegal-move",
        "`A2 quarto` in `..../..../..../BDRFBLQHBLRF. BDQH`: false claim: no winning shape to claim",
        movetime(),
    );
}

#[test]
fn a_hundred_mebibytes_of_stderr_neither_blocks_nor_fills_memory() {
    let o = duel(bot(&["flood"]), bot(&["legal"]), &settings("quads"), START);
    let r = &o.record;
    assert!(r.failures.is_empty(), "{:?}", r.failures);
    assert_eq!(r.reason.as_str(), "normal");
    assert_eq!(r.timing.log_bytes.into_array(), [1 << 20, 0]);
    assert_eq!(r.timing.log_dropped.into_array(), [99 << 20, 0]);
}

#[test]
fn info_lines_are_logged_in_order_and_otherwise_ignored_up_to_the_bots_last_words() {
    // Before and after each move, on `gameover` and on `quit`: the last ones are read while
    // the bot is being stopped, and still logged.
    let o = duel(
        bot(&["info-chatter"]),
        bot(&["legal"]),
        &settings("quads"),
        START,
    );
    let r = &o.record;
    assert!(r.failures.is_empty(), "{:?}", r.failures);
    let mine = r.moves.len().div_ceil(2);
    let mut want = String::new();
    for k in 1..=mine {
        want += &format!("stdout: info before {k}\nstdout: info after {k}\n");
    }
    want += "stdout: info gameover 1\nstdout: info quit\n";
    assert_eq!(o.logs.first, want);
    assert_eq!(o.logs.second, "");
}
