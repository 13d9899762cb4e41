//! What a box lets a bot use, against real attacks (as in `sandbox_view.rs`): memory and
//! processes counted for the whole box, shared memory and the temporary folder included, CPU
//! time, the CPU quota, and no thinking on the opponent's time when pondering is off, whatever
//! session a helper moved to.

#[allow(
    dead_code,
    reason = "the attacks use the duel, its logs and the walls only"
)]
mod common;

use common::{attack, bot, duel, held, report, slow, walled, START};

#[test]
fn four_gib_of_memory_are_refused() {
    assert_eq!(
        report(&attack(&["hog"], "off", &slow("quads"))),
        "allocated 4 GiB"
    );
    held(
        &attack(&["hog"], "on", &slow("quads")),
        "failed: MemoryError",
    );
}

/// `held N of 16 blocks of 256 MiB`: N.
fn held_blocks(report: &str) -> u32 {
    report
        .strip_prefix("held ")
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{report}"))
}

#[test]
fn sixteen_processes_share_one_memory_limit() {
    // Each process stays far below the limit per process: only a limit for the whole box
    // stops the sum.
    let off = attack(&["memory-16", "256"], "memory=off", &slow("quads"));
    assert_eq!(report(&off), "held 16 of 16 blocks of 256 MiB");
    let on = attack(&["memory-16", "256"], "memory=1GiB", &slow("quads"));
    // 1 GiB holds four blocks at the very most (the kernel may not have finished killing a
    // fifth's predecessor when the count is taken).
    assert!(held_blocks(report(&on)) <= 4, "{}", report(&on));
    assert!(on.record.failures.is_empty(), "{:?}", on.record.failures);
}

/// `touched N MiB of shared memory`: N.
fn touched(report: &str) -> u32 {
    report
        .strip_prefix("touched ")
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{report}"))
}

#[test]
fn shared_memory_is_counted() {
    let off = attack(&["shm", "1024"], "memory=off", &slow("quads"));
    assert_eq!(report(&off), "touched 1024 MiB of shared memory");
    let on = attack(&["shm", "1024"], "memory=256MiB", &slow("quads"));
    assert!(touched(report(&on)) < 256, "{}", report(&on));
    assert!(on.record.failures.is_empty(), "{:?}", on.record.failures);
}

#[test]
fn the_temporary_folder_is_bounded() {
    assert_eq!(
        report(&attack(&["fill-tmp", "32"], "off", &slow("quads"))),
        "wrote 32 MiB"
    );
    let on = attack(&["fill-tmp", "32"], "tmp=8MiB", &slow("quads"));
    let wrote: u32 = report(&on)
        .strip_prefix("wrote ")
        .and_then(|r| r.strip_suffix(" MiB"))
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(wrote <= 8, "{}", report(&on));
    assert!(on.record.failures.is_empty(), "{:?}", on.record.failures);
}

#[test]
fn a_fork_bomb_stops_at_the_process_limit_and_nothing_of_it_survives() {
    let off = attack(&["fork-bomb"], "off", &slow("quads"));
    assert_eq!(report(&off), "started 200 processes");
    let on = attack(&["fork-bomb"], "on", &slow("quads"));
    let started: u32 = report(&on)
        .strip_prefix("started ")
        .and_then(|r| r.strip_suffix(" processes"))
        .unwrap()
        .parse()
        .unwrap();
    // The box's init and the interpreter are two of the 64.
    assert!(started <= 62, "{started} processes started");
    assert!(on.record.failures.is_empty(), "{:?}", on.record.failures);
    assert_eq!(
        on.record.timing.leaked.into_array(),
        [0, started],
        "every sleeper was left, and killed"
    );
}

#[test]
fn a_runaway_loses_at_its_cpu_limit_with_the_reason() {
    let o = duel(
        bot(&["legal"]),
        walled(&["spin"], "cpu=1s"),
        &slow("quads"),
        START,
    );
    let f = &o.record.failures;
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(
        (
            f[0].seat.as_str(),
            o.record.reason.as_str(),
            f[0].detail.as_str()
        ),
        (
            "second",
            "resource-limit",
            "reached its CPU-time limit (killed by SIGXCPU) while waiting for a move"
        )
    );
}

/// `used 1.23 CPU seconds in 4.56 s`: the share of a core.
fn used(report: &str) -> f64 {
    let words: Vec<&str> = report.split(' ').collect();
    match (words[1].parse::<f64>(), words[5].parse::<f64>()) {
        (Ok(cpu), Ok(wall)) => cpu / wall,
        _ => panic!("{report}"),
    }
}

#[test]
fn the_box_gets_at_most_its_share_of_the_cpu() {
    // Four processes spin for a second each: a quarter of a core gives them a quarter of the
    // time they take between them (the 100 ms periods of the quota rounding up a little).
    let on = attack(&["spinners"], "cores=0.25", &slow("quads"));
    assert!(used(report(&on)) <= 0.3, "{}", report(&on));
    let off = attack(&["spinners"], "cores=off", &slow("quads"));
    assert!(used(report(&off)) > 0.5, "{}", report(&off));
}

/// What the thief's spinning helper got while the thief waited, per turn, in ms.
fn waited(o: &common::Duel) -> Vec<u64> {
    o.logs
        .second
        .lines()
        .filter_map(|l| l.strip_prefix("waited: "))
        .map(|n| n.parse().unwrap())
        .collect()
}

#[test]
fn without_pondering_a_helper_in_another_session_is_stopped_too() {
    // The opponent thinks 300 ms a move; the thief's helper, in a session of its own, spins
    // all along unless the whole box is stopped on the opponent's turn.
    // One trait counted: the fixture's first-square play makes a game of a dozen moves.
    let mut s = slow("classic,traits=size");
    s.ponder = false;
    let thief = |spec| {
        duel(
            bot(&["sleep", "300"]),
            walled(&["ponder-thief"], spec),
            &s,
            START,
        )
    };
    let off = thief("off");
    let free = waited(&off);
    assert!(
        free.len() >= 3 && free.iter().all(|&ms| ms >= 100),
        "{free:?}"
    );
    let on = thief("on");
    let frozen = waited(&on);
    assert_eq!(frozen.len(), free.len());
    assert!(
        frozen.iter().all(|&ms| ms <= 30),
        "{frozen:?} against {free:?}"
    );
    assert!(on.record.failures.is_empty(), "{:?}", on.record.failures);
}

#[test]
fn a_fair_bot_keeps_its_times_against_a_thief() {
    // The fair bot needs a quarter of its 2 s a move in CPU time; the thief's 16 helpers, in
    // sessions of their own, spin from the handshake on. Without pondering, the thief's box is
    // stopped on the fair bot's turn: it has the machine. Without the box (the helpers beyond
    // its process group's reach) it loses on time.
    let mut s = slow("quads");
    s.time.movetime = Some(2_000);
    s.ponder = false;
    let game = |spec| {
        duel(
            walled(&["fair", "500"], spec),
            walled(&["thief", "16"], spec),
            &s,
            START,
        )
    };
    let off = game("off");
    assert_eq!(
        off.record
            .failures
            .iter()
            .map(|f| (f.seat.as_str(), f.reason.as_str()))
            .collect::<Vec<_>>(),
        [("first", "timeout")],
        "{:?}",
        off.record.failures
    );
    let on = game("on");
    assert!(on.record.failures.is_empty(), "{:?}", on.record.failures);
}
