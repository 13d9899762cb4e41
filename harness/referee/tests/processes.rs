//! Bot processes from start to end, played for real with the fixture bot: children and
//! daemons that outlive their bot, a bot ignoring SIGTERM, kept-alive bots across games and
//! their logs.

mod common;

use common::{assert_forfeit, bot, duel, movetime, settings, SERIAL, START};
use quads_referee::{group_exists, play_game, run_match, Bot, GameRecord, GameSpec, MatchConfig};
use quads_rules::{ByPlayer, Position, Rules};

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
        o.record.timing.leaked.into_array(),
        [0, 1],
        "the sleeping grandchild had to be killed"
    );
}

/// Plays a legal game against a bot whose `mode` leaves a child outside its process group,
/// and returns the record and that child's pid, which the bot wrote to a file. The bot runs
/// without its sandbox, so that it can write the file where the test reads it: the referee's
/// clean-up must hold with or without the walls.
fn escaped_child(mode: &str) -> (GameRecord, i32) {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("child.pid");
    let mut escaper = bot(&[mode, pidfile.to_str().unwrap()]);
    escaper.command.sandbox = quads_referee::sandbox::SandboxSpec::off();
    let o = duel(bot(&["legal"]), escaper, &settings("quads"), START);
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
    assert_eq!(record.timing.leaked.into_array(), [0, 1]);
}

#[test]
fn a_daemon_detached_from_everything_ends_with_the_game() {
    let (record, pid) = escaped_child("setsid-detached");
    assert!(record.failures.is_empty(), "{:?}", record.failures);
    assert!(!running(pid), "the daemon {pid} outlived the game");
    assert_eq!(record.timing.leaked.into_array(), [0, 1]);
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
    let (mut healthy, mut crashing) = (Bot::new(bot(&["legal"])), Bot::new(bot(&["crash"])));
    runtime.block_on(async {
        let one = play_game(both(&mut healthy, &mut crashing), &s, keeping(1))
            .await
            .unwrap();
        assert_eq!(one.record.reason.as_str(), "crash");
        let (kept, crashed) = (healthy.last_pgid().unwrap(), crashing.last_pgid().unwrap());
        assert!(group_exists(kept), "the healthy bot is kept between games");
        assert!(!group_exists(crashed), "the crashed bot is gone and reaped");
        let two = play_game(both(&mut crashing, &mut healthy), &s, keeping(2))
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
        bots: ByPlayer::from([bot(&["gameover-note"]), bot(&["legal"])]),
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

/// The `info` lines an info-chatter bot writes in a game where it made `mine` moves.
fn chatter(mine: usize, game: usize) -> String {
    let mut text = String::new();
    for k in 1..=mine {
        text += &format!("stdout: info before {k}\nstdout: info after {k}\n");
    }
    text + &format!("stdout: info gameover {game}\n")
}

#[test]
fn info_lines_go_to_their_games_log_even_those_written_while_the_other_bot_moves() {
    // Each `info after` is written once the move is out, while the referee waits on the
    // other bot: it is read later, and still lands in its own game's log, in order.
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let out = tempfile::tempdir().unwrap();
    let config = MatchConfig {
        bots: ByPlayer::from([bot(&["info-chatter"]), bot(&["legal"])]),
        settings: settings("quads"),
        games: 3,
        seed: 1,
        keep_alive: true,
        out: out.path().to_owned(),
    };
    let mut records: Vec<GameRecord> = Vec::new();
    runtime
        .block_on(run_match(&config, |r| records.push(r.clone())))
        .expect("the match is played");
    assert_eq!(records.len(), 3);
    for (record, seat) in records.iter().zip(["first", "second", "first"]) {
        assert!(record.failures.is_empty(), "{:?}", record.failures);
        let game = record.game as usize;
        // Players alternate from the opening give: the first seat makes the odd plies.
        let n = record.moves.len();
        let mine = if seat == "first" {
            n.div_ceil(2)
        } else {
            n / 2
        };
        assert!(mine > 0, "game {game}: the bot made no move");
        let path = out
            .path()
            .join(format!("logs/game-{game:04}-{seat}-info-chatter.log"));
        let log = std::fs::read_to_string(&path).unwrap();
        assert_eq!(log, chatter(mine, game), "{}", path.display());
    }
}

/// The processes of the machine whose command line holds `marker`.
fn marked(marker: &str) -> Vec<i32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| c.split(|&b| b == 0).any(|w| w == marker.as_bytes()))
        })
        .filter(|&pid| running(pid))
        .collect()
}

#[test]
fn children_a_boxed_bot_leaves_in_sessions_of_their_own_are_counted_and_gone() {
    // They cleared their environment and left the bot's session: nothing the bot can change
    // hides them, since they cannot leave its box.
    let marker = format!("quads-left-{}", std::process::id());
    let o = duel(
        bot(&["legal"]),
        bot(&["leave-children", "3", &marker]),
        &settings("quads"),
        START,
    );
    assert_eq!(common::report(&o), "left 3 children");
    assert!(o.record.failures.is_empty(), "{:?}", o.record.failures);
    assert_eq!(o.record.timing.leaked, [0, 3]);
    assert_eq!(
        marked(&marker),
        Vec::<i32>::new(),
        "the children outlived the game"
    );
}

fn both<'a>(first: &'a mut Bot, second: &'a mut Bot) -> ByPlayer<&'a mut Bot> {
    ByPlayer { first, second }
}

/// Game `n` with seed `n`, both processes kept for the next game.
fn keeping(n: u32) -> GameSpec<'static> {
    GameSpec {
        keep_alive: true,
        ..GameSpec::new(n, u64::from(n))
    }
}
