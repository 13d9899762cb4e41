//! Every way a bot can fail, played for real: a fixture program (tests/fixtures/bad_bot.py)
//! misbehaves one way per mode against a legal opponent. Each test checks the exact forfeit,
//! that the game ended within the limit plus one second, and that no process of either bot's
//! group is left, zombies included.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use quads_protocol::TimeControl;
use quads_referee::{
    group_exists, play_game, run_match, BotCommand, BotSpec, GameRecord, MatchConfig, Seat,
    Settings,
};
use quads_rules::{Position, Rules};

/// The tests measure deadlines, so they run one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/bad_bot.py");
const MOVETIME: u64 = 300;
const HANDSHAKE: Duration = Duration::from_secs(1);
/// Starting two Python interpreters, on top of the limit and the second the issue allows.
const STARTUP: Duration = Duration::from_millis(500);

fn bot(mode: &[&str]) -> BotSpec {
    let mut argv = vec!["python3".to_owned(), FIXTURE.to_owned()];
    argv.extend(mode.iter().map(|s| (*s).to_owned()));
    BotSpec {
        name: mode.join(" "),
        command: BotCommand {
            argv,
            shell: false,
            dir: None,
        },
        options: Vec::new(),
        time: None,
    }
}

fn settings(rules: &str) -> Settings {
    Settings {
        rules: rules.parse::<Rules>().unwrap(),
        time: TimeControl {
            movetime: Some(MOVETIME),
            base: None,
            inc: 0,
        },
        margin: Duration::from_millis(50),
        handshake_timeout: HANDSHAKE,
        setup_timeout: HANDSHAKE,
        grace: Duration::from_millis(200),
        log_cap: 1 << 20,
    }
}

struct Outcome {
    record: GameRecord,
    elapsed: Duration,
}

/// Plays one game; `first` makes the opening give (or moves first from `start`).
fn duel(first: BotSpec, second: BotSpec, settings: &Settings, start: &str) -> Outcome {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let start: Position = start.parse().unwrap();
    let (mut a, mut b) = (Seat::new(first), Seat::new(second));
    let began = Instant::now();
    let played = runtime
        .block_on(play_game(&mut a, &mut b, settings, 1, 7, start, false))
        .expect("the game is played");
    let elapsed = began.elapsed();
    for seat in [&a, &b] {
        let pgid = seat.last_pgid().expect("the bot was started");
        assert!(
            !group_exists(pgid),
            "process group {pgid} of `{}` is still there",
            seat.spec.name
        );
    }
    Outcome {
        record: played.record,
        elapsed,
    }
}

const START: &str = "..../..../..../.... -";
/// Three big pieces on row 1 and the big BDQH in hand: the first player wins on D1.
const ROW: &str = "..../..../..../BDRFBLQHBLRF. BDQH";

/// Checks the forfeit of `seat` and that it came within `limit` plus a second.
fn assert_forfeit(o: &Outcome, seat: &str, reason: &str, detail: &str, limit: Duration) {
    let r = &o.record;
    assert_eq!(r.failures.len(), 1, "{:?}", r.failures);
    assert_eq!(
        (r.failures[0].seat.as_str(), r.reason.as_str()),
        (seat, reason),
        "{:?}",
        r.failures
    );
    assert_eq!(r.failures[0].detail, detail);
    assert_eq!(
        r.result.as_str(),
        if seat == "first" { "0-1" } else { "1-0" }
    );
    let bound = limit + Duration::from_secs(1) + STARTUP;
    assert!(
        o.elapsed < bound,
        "took {:?}, more than {bound:?}",
        o.elapsed
    );
}

fn movetime() -> Duration {
    Duration::from_millis(MOVETIME)
}

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
    assert_eq!(r.timing.log_bytes, [1 << 20, 0]);
    assert_eq!(r.timing.log_dropped, [99 << 20, 0]);
}

#[test]
fn a_grandchild_holding_stdout_does_not_hide_a_crash() {
    let o = duel(
        bot(&["legal"]),
        bot(&["grandchild"]),
        &settings("quads"),
        START,
    );
    assert_forfeit(
        &o,
        "second",
        "crash",
        "exited with status 1 while waiting for a move",
        movetime(),
    );
    assert_eq!(
        o.record.timing.leaked,
        [0, 1],
        "the sleeping grandchild had to be killed"
    );
}

/// Plays a legal game against a bot whose `mode` leaves a child outside its process group,
/// and returns the record and that child's pid, which the bot wrote to a file.
fn escaped_child(mode: &str) -> (GameRecord, i32) {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("child.pid");
    let o = duel(
        bot(&["legal"]),
        bot(&[mode, pidfile.to_str().unwrap()]),
        &settings("quads"),
        START,
    );
    let pid = std::fs::read_to_string(&pidfile).unwrap().parse().unwrap();
    (o.record, pid)
}

/// Whether `pid` runs (exists and is not a zombie).
fn running(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        !stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z')
    })
}

#[test]
fn a_child_in_a_new_session_holding_stdout_ends_with_the_game() {
    let (record, pid) = escaped_child("setsid-stdout");
    assert!(record.failures.is_empty(), "{:?}", record.failures);
    assert!(!running(pid), "the setsid child {pid} outlived the game");
    assert_eq!(record.timing.leaked, [0, 1]);
}

#[test]
fn a_daemon_detached_from_everything_ends_with_the_game() {
    let (record, pid) = escaped_child("setsid-detached");
    assert!(record.failures.is_empty(), "{:?}", record.failures);
    assert!(!running(pid), "the daemon {pid} outlived the game");
    assert_eq!(record.timing.leaked, [0, 1]);
}

#[test]
fn a_bot_ignoring_sigterm_is_killed() {
    let o = duel(
        bot(&["legal"]),
        bot(&["ignore-term"]),
        &settings("quads"),
        START,
    );
    assert_forfeit(
        &o,
        "second",
        "timeout",
        "no move within 300 ms (+50 ms margin)",
        movetime(),
    );
}

#[test]
fn two_legal_bots_play_a_full_game() {
    let o = duel(
        bot(&["legal"]),
        bot(&["legal"]),
        &settings("classic,claim=announce"),
        START,
    );
    let r = &o.record;
    assert!(r.failures.is_empty(), "{:?}", r.failures);
    assert_eq!(r.moves.len(), r.timing.moves_ms.len());
    // Replaying the moves through the rules core reaches the recorded end.
    let rules: Rules = r.rules.parse().unwrap();
    let mut pos = Position::START;
    for mv in &r.moves {
        pos = pos.play(mv.parse().unwrap(), &rules).unwrap();
    }
    assert_eq!(pos.to_string(), r.end);
    assert!(pos.outcome(&rules).is_some());
}

#[test]
fn kept_alive_bots_are_reused_and_a_failed_one_is_restarted() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let s = settings("quads");
    let (mut healthy, mut crashing) = (Seat::new(bot(&["legal"])), Seat::new(bot(&["crash"])));
    let start = Position::START;
    runtime.block_on(async {
        let one = play_game(&mut healthy, &mut crashing, &s, 1, 1, start, true)
            .await
            .unwrap();
        assert_eq!(one.record.reason.as_str(), "crash");
        let (kept, crashed) = (healthy.last_pgid().unwrap(), crashing.last_pgid().unwrap());
        assert!(group_exists(kept), "the healthy bot is kept between games");
        assert!(!group_exists(crashed), "the crashed bot is gone and reaped");
        let two = play_game(&mut crashing, &mut healthy, &s, 2, 2, start, true)
            .await
            .unwrap();
        assert_eq!(
            (
                two.record.reason.as_str(),
                two.record.failures[0].seat.as_str()
            ),
            ("crash", "first")
        );
        assert_eq!(
            healthy.last_pgid(),
            Some(kept),
            "the same process played both games"
        );
        assert_ne!(
            crashing.last_pgid(),
            Some(crashed),
            "a new process replaced the crashed one"
        );
        healthy.stop(s.grace).await;
        crashing.stop(s.grace).await;
        assert!(!group_exists(kept));
    });
}

#[test]
fn what_a_kept_alive_bot_writes_on_gameover_is_in_that_games_log() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let out = tempfile::tempdir().unwrap();
    let config = MatchConfig {
        bots: [bot(&["gameover-note"]), bot(&["legal"])],
        settings: settings("quads"),
        games: 3,
        seed: 1,
        keep_alive: true,
        out: out.path().to_owned(),
    };
    runtime
        .block_on(run_match(&config, |_| {}))
        .expect("the match is played");
    for (game, seat) in [(1, "first"), (2, "second"), (3, "first")] {
        let path = out
            .path()
            .join(format!("logs/game-{game:04}-{seat}-gameover-note.log"));
        let log = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            log,
            format!("handled gameover {game}\n"),
            "{}",
            path.display()
        );
    }
}
