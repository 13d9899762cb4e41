//! The sandbox against real attacks: each attack is a fixture bot (`bad_bot.py`) that tries
//! it at its first move, says on stderr what happened, then plays on. Each test plays the
//! attack twice: with the sandbox off the attack must work (so the test can fail), with it on
//! it must fail, the attacker must otherwise play, and the opponent must keep its game.

#[allow(dead_code, reason = "the attacks use only the duel and its logs")]
mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use common::{bot, duel, settings, Outcome, START};
use quads_referee::sandbox::SandboxSpec;
use quads_referee::Settings;

/// Plays `legal` (first) against the attacker (second), the attacker's sandbox on or off.
fn attack(mode: &[&str], on: bool, settings: &Settings) -> Outcome {
    let mut attacker = bot(mode);
    if !on {
        attacker.command.sandbox = SandboxSpec::off();
    }
    duel(bot(&["legal"]), attacker, settings, START)
}

/// The attacker's report of its attack.
fn report(o: &Outcome) -> &str {
    o.logs[1]
        .lines()
        .find_map(|l| l.strip_prefix("attack: "))
        .unwrap_or_else(|| panic!("no attack line in {:?}", o.logs[1]))
}

/// The attack failed and the game went on: no forfeit on either side.
fn held(o: &Outcome, how: &str) {
    assert_eq!(report(o), how);
    assert!(o.record.failures.is_empty(), "{:?}", o.record.failures);
}

/// A folder anyone may read and write, so that only the sandbox stands in the way.
fn open_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    dir
}

#[test]
fn four_gib_of_memory_are_refused() {
    let mut slow = settings("quads");
    slow.time.movetime = Some(20_000);
    assert_eq!(report(&attack(&["hog"], false, &slow)), "allocated 4 GiB");
    held(&attack(&["hog"], true, &slow), "failed: MemoryError");
}

#[test]
fn a_fork_bomb_stops_at_the_process_limit_and_nothing_of_it_survives() {
    let mut slow = settings("quads");
    slow.time.movetime = Some(20_000);
    let off = attack(&["fork-bomb"], false, &slow);
    assert_eq!(report(&off), "started 200 processes");
    let on = attack(&["fork-bomb"], true, &slow);
    let started: u32 = report(&on)
        .strip_prefix("started ")
        .and_then(|r| r.strip_suffix(" processes"))
        .unwrap()
        .parse()
        .unwrap();
    // The interpreter is one of the 64; `duel` checks that no process of the group is left.
    assert!(started < 64, "{started} processes started");
    assert!(on.record.failures.is_empty(), "{:?}", on.record.failures);
}

#[test]
fn a_runaway_loses_at_its_cpu_limit_with_the_reason() {
    let mut slow = settings("quads");
    slow.time.movetime = Some(20_000);
    let mut spinner = bot(&["spin"]);
    spinner.command.sandbox = "cpu=1s".parse().unwrap();
    let o = duel(bot(&["legal"]), spinner, &slow, START);
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

#[test]
fn no_connection_reaches_a_listener_on_the_loopback() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    assert_eq!(
        report(&attack(&["connect", &port], false, &settings("quads"))),
        "connected"
    );
    assert!(listener.accept().is_ok(), "the unconfined bot connected");
    held(
        &attack(&["connect", &port], true, &settings("quads")),
        "failed: PermissionError",
    );
    assert_eq!(
        listener.accept().map(drop).map_err(|e| e.kind()),
        Err(std::io::ErrorKind::WouldBlock),
        "the listener saw a connection"
    );
}

#[test]
fn another_entrants_secret_cannot_be_read() {
    let other = open_folder();
    let secret = other.path().join("secret.txt");
    std::fs::write(&secret, "s3cret\n").unwrap();
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o644)).unwrap();
    let path = secret.to_str().unwrap();
    assert_eq!(
        report(&attack(&["read", path], false, &settings("quads"))),
        "read s3cret"
    );
    let on = attack(&["read", path], true, &settings("quads"));
    held(&on, "failed: PermissionError");
    assert!(!on.logs[1].contains("s3cret"));
}

#[test]
fn nothing_is_written_outside_the_bots_own_temporary_folder() {
    let results = open_folder();
    let target = results.path().join("games.jsonl");
    let path = target.to_str().unwrap();
    attack(&["write", path], false, &settings("quads"));
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        "written by the bot"
    );
    std::fs::remove_file(&target).unwrap();
    held(
        &attack(&["write", path], true, &settings("quads")),
        "failed: PermissionError",
    );
    assert!(!Path::new(&target).exists(), "the bot wrote {path}");
}

#[test]
fn the_opponent_cannot_be_killed() {
    let off = attack(&["kill-opponent"], false, &settings("quads"));
    assert!(report(&off).starts_with("killed ["), "{}", report(&off));
    assert_eq!(off.record.failures.len(), 1, "the opponent was killed");
    assert_eq!(off.record.failures[0].seat.as_str(), "first");
    held(
        &attack(&["kill-opponent"], true, &settings("quads")),
        "failed: PermissionError",
    );
}

#[test]
fn the_opponents_memory_cannot_be_read() {
    let off = attack(&["read-opponent-memory"], false, &settings("quads"));
    assert_eq!(report(&off), "read 64 bytes of the opponent's memory");
    held(
        &attack(&["read-opponent-memory"], true, &settings("quads")),
        "failed: PermissionError",
    );
}
