//! What a box lets a bot see and reach, against real attacks: each attack is a fixture bot
//! (`bad_bot.py`) that tries it at its first move, says on stderr what happened, then plays
//! on. Each test plays the attack twice: without the wall the attack must work (so the test
//! can fail), with it it must fail, the attacker must otherwise play, and the opponent must
//! keep its game.

#[allow(
    dead_code,
    reason = "the attacks use the duel, its logs and the walls only"
)]
mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use common::{attack, bot, duel, held, report, root, settings, walled, START};

/// A folder anyone may read and write, so that only the sandbox stands in the way.
fn open_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    dir
}

#[test]
fn a_root_only_file_cannot_be_read() {
    let s = settings("quads");
    if root() {
        // The referee is root: without its box the bot is too.
        assert!(report(&attack(&["read", "/etc/shadow"], "off", &s)).starts_with("read root:"));
    }
    held(
        &attack(&["read", "/etc/shadow"], "on", &s),
        "failed: PermissionError",
    );
}

#[test]
fn a_file_named_among_the_commands_words_stays_out_of_sight() {
    // The old launcher let a bot read the folder of any file its command named.
    let other = open_folder();
    let secret = other.path().join("secret.txt");
    std::fs::write(&secret, "s3cret\n").unwrap();
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o644)).unwrap();
    let path = secret.to_str().unwrap();
    assert_eq!(
        report(&attack(&["read", path], "off", &settings("quads"))),
        "read s3cret"
    );
    let on = attack(&["read", path], "on", &settings("quads"));
    held(&on, "failed: FileNotFoundError");
    assert!(!on.logs.second.contains("s3cret"));
}

#[test]
fn a_link_out_of_its_folder_leads_nowhere() {
    let other = open_folder();
    std::fs::write(other.path().join("key"), "k3y\n").unwrap();
    std::fs::set_permissions(
        other.path().join("key"),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    let own = open_folder();
    std::fs::copy(common::FIXTURE, own.path().join("bad_bot.py")).unwrap();
    std::os::unix::fs::symlink(other.path().join("key"), own.path().join("key")).unwrap();
    let mut attacker = walled(&["read", "key"], "on");
    attacker.command.argv[1] = "bad_bot.py".to_owned();
    attacker.command.dir = Some(own.path().to_path_buf());
    let mut off = attacker.clone();
    off.command.sandbox = "off".parse().unwrap();
    let o = duel(bot(&["legal"]), off, &settings("quads"), START);
    assert_eq!(report(&o), "read k3y");
    held(
        &duel(bot(&["legal"]), attacker, &settings("quads"), START),
        "failed: FileNotFoundError",
    );
}

#[test]
fn nothing_is_written_outside_its_temporary_folder() {
    let results = open_folder();
    let target = results.path().join("games.jsonl");
    let path = target.to_str().unwrap();
    attack(&["write", path], "off", &settings("quads"));
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        "written by the bot"
    );
    std::fs::remove_file(&target).unwrap();
    held(
        &attack(&["write", path], "on", &settings("quads")),
        "failed: FileNotFoundError",
    );
    assert!(!Path::new(&target).exists(), "the bot wrote {path}");
    // Its own folder (here the referee's) is there, but read-only.
    let own = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/written-by-a-bot");
    held(
        &attack(&["write", own.to_str().unwrap()], "on", &settings("quads")),
        "failed: OSError",
    );
    assert!(!own.exists());
}

#[test]
fn the_referees_environment_stays_outside() {
    std::env::set_var("QUADS_HOST_SECRET", "hunter2");
    let off = attack(&["env"], "off", &settings("quads"));
    assert!(
        report(&off).contains("QUADS_HOST_SECRET"),
        "{}",
        report(&off)
    );
    held(
        &attack(&["env"], "on", &settings("quads")),
        "env HOME,LANG,PATH,TMPDIR",
    );
}

#[test]
fn the_machines_processes_are_out_of_sight() {
    let off = attack(&["processes"], "off", &settings("quads"));
    assert!(report(&off).ends_with("opponent seen"), "{}", report(&off));
    // Its box's init and itself.
    held(
        &attack(&["processes"], "on", &settings("quads")),
        "sees 2 processes, opponent unseen",
    );
}

#[test]
fn the_opponent_cannot_be_killed() {
    let off = attack(&["kill-opponent"], "off", &settings("quads"));
    assert!(report(&off).starts_with("killed ["), "{}", report(&off));
    assert_eq!(off.record.failures.len(), 1, "the opponent was killed");
    assert_eq!(off.record.failures[0].seat.as_str(), "first");
    held(
        &attack(&["kill-opponent"], "on", &settings("quads")),
        "found no opponent",
    );
}

#[test]
fn the_opponents_memory_cannot_be_read() {
    let off = attack(&["read-opponent-memory"], "off", &settings("quads"));
    assert_eq!(report(&off), "read 64 bytes of the opponent's memory");
    held(
        &attack(&["read-opponent-memory"], "on", &settings("quads")),
        "found no opponent",
    );
}

#[test]
fn no_connection_reaches_a_listener_on_the_loopback() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    assert_eq!(
        report(&attack(&["connect", &port], "off", &settings("quads"))),
        "connected"
    );
    assert!(listener.accept().is_ok(), "the unconfined bot connected");
    held(
        &attack(&["connect", &port], "on", &settings("quads")),
        "failed: PermissionError",
    );
    assert_eq!(
        listener.accept().map(drop).map_err(|e| e.kind()),
        Err(std::io::ErrorKind::WouldBlock),
        "the listener saw a connection"
    );
}

#[test]
fn no_namespace_of_its_own_can_be_made() {
    // Without the syscall filter a box may nest a user namespace (and with it, the kernel's
    // whole namespace surface); with it, it may not.
    let s = settings("quads");
    assert_eq!(
        report(&attack(&["unshare"], "syscalls=off", &s)),
        "unshared"
    );
    held(&attack(&["unshare"], "on", &s), "failed: PermissionError");
}
