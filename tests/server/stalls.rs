//! One upload cannot stall an event (issue 46): a build that sleeps, with a manifest that
//! asks for a hundred hours, is held to the event's `build_timeout`; a check still running is
//! stopped, its box ended, when its entrant uploads a newer version, when the host disables
//! the entrant, or when the host cancels it; and the next entrant's version is checked.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::harness::*;
use crate::visitor::Visitor;

/// A bot whose build sleeps `seconds` (a number no other process here sleeps: it marks the
/// build's process), its manifest asking for a build of a hundred hours.
fn sleeping_build(dir: &Path, name: &str, seconds: u32) -> PathBuf {
    let folder = bot_folder(dir, name);
    let manifest = std::fs::read_to_string(folder.join("bot.toml")).unwrap();
    std::fs::write(
        folder.join("bot.toml"),
        format!("{manifest}build = \"sleep {seconds}\"\nbuild_timeout = \"100h\"\n"),
    )
    .unwrap();
    folder
}

/// The processes of this machine whose command line is `sleep SECONDS`.
fn sleepers(seconds: u32) -> usize {
    let want = format!("sleep\0{seconds}\0");
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| std::fs::read(e.ok()?.path().join("cmdline")).ok())
        .filter(|c| c == want.as_bytes())
        .count()
}

/// Waits (at most a minute) until `sleepers(seconds)` is `n`: the build started, or ended.
fn until_sleepers(seconds: u32, n: usize) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while sleepers(seconds) != n {
        assert!(
            Instant::now() < deadline,
            "`sleep {seconds}` runs {} times, not {n}",
            sleepers(seconds)
        );
        std::thread::yield_now();
    }
}

#[test]
fn a_build_that_sleeps_is_held_to_the_events_build_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config_with(dir.path(), "build_timeout = \"2s\"\n"));
    let mallory = server.entrant("mallory");
    let ann = server.entrant("ann");
    let slow = sleeping_build(&dir.path().join("m"), "mallory", 4601);
    assert_eq!(server.submit(&mallory, &slow).0, 0);
    assert_eq!(server.submit(&ann, &bot_folder(dir.path(), "ann")).0, 0);
    // Without the cap, ann's version would wait behind the hundred-hour build.
    let v = server.wait(&ann, 1, None);
    assert_eq!(v["status"], "admitted", "{v}");
    let v = server.wait(&mallory, 1, None);
    assert_eq!(v["status"], "failed", "{v}");
    assert_eq!(v["reason"], "build took more than 2s", "{v}");
    until_sleepers(4601, 0);
    // The owner's upload form says the event's limits.
    let mut owner = Visitor::logged_in(&server, &mallory);
    let page = owner.get("/entrants/mallory").body;
    assert!(
        page.contains(
            "a build of at most 2s (a bot.toml's build_timeout may ask for less, never more)"
        ),
        "{page}"
    );
}

#[test]
fn a_check_is_stopped_by_a_newer_upload_by_disabling_its_entrant_and_by_the_host() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    let mallory = server.entrant("mallory");
    let ann = server.entrant("ann");
    let at = |n: u32| dir.path().join(format!("v{n}"));

    // A newer upload supersedes the version in its check, and its build's box ends.
    assert_eq!(
        server
            .submit(&mallory, &sleeping_build(&at(1), "mallory", 4611))
            .0,
        0
    );
    assert_eq!(
        server.wait(&mallory, 1, Some("queued"))["status"],
        "checking"
    );
    until_sleepers(4611, 1);
    assert_eq!(server.submit(&mallory, &bot_folder(&at(2), "mallory")).0, 0);
    let v = server.wait(&mallory, 1, Some("checking"));
    assert_eq!(v["status"], "superseded", "{v}");
    assert_eq!(
        v["reason"],
        "superseded by version 2 before its check was done"
    );
    until_sleepers(4611, 0);
    assert_eq!(server.wait(&mallory, 2, None)["status"], "admitted");

    // Disabling the entrant cancels its check, and the next entrant's version is checked.
    assert_eq!(
        server
            .submit(&mallory, &sleeping_build(&at(3), "mallory", 4612))
            .0,
        0
    );
    assert_eq!(
        server.wait(&mallory, 3, Some("queued"))["status"],
        "checking"
    );
    until_sleepers(4612, 1);
    assert_eq!(server.submit(&ann, &bot_folder(&at(3), "ann")).0, 0);
    let (code, body) = server.post(
        "/api/admin/entrants/mallory",
        ADMIN,
        serde_json::json!({ "disabled": "a build that never ends" }),
    );
    assert_eq!(code, 200, "{body}");
    let v = server.wait(&mallory, 3, Some("checking"));
    assert_eq!(v["status"], "cancelled", "{v}");
    assert_eq!(
        v["reason"],
        "cancelled: the host disabled this entrant (a build that never ends)"
    );
    until_sleepers(4612, 0);
    assert_eq!(server.wait(&ann, 1, None)["status"], "admitted");
    // Its admitted version stays (disabled, off the ladder), not cancelled.
    assert_eq!(server.wait(&mallory, 2, None)["status"], "admitted");

    // The host cancels one check; an entrant may not; a check not pending is no conflict to
    // cancel again.
    let (code, _) = server.post("/api/admin/entrants/mallory", ADMIN, serde_json::json!({}));
    assert_eq!(code, 200);
    assert_eq!(
        server
            .submit(&mallory, &sleeping_build(&at(4), "mallory", 4613))
            .0,
        0
    );
    assert_eq!(
        server.wait(&mallory, 4, Some("queued"))["status"],
        "checking"
    );
    until_sleepers(4613, 1);
    let cancel = "/api/admin/entrants/mallory/versions/4/cancel";
    let (code, _) = server.post(cancel, &mallory, serde_json::json!({}));
    assert_eq!(code, 403);
    assert_eq!(
        server.get("/api/versions/4", Some(&mallory)).1["status"],
        "checking"
    );
    // The host's page lists the check, and its button ends it.
    let mut host = Visitor::logged_in(&server, ADMIN);
    let page = host.get("/admin").body;
    assert!(
        page.contains("id=\"checks\"") && page.contains("value=\"4\""),
        "{page}"
    );
    let done = host.post(
        "/admin/cancel-check",
        &[("name", "mallory"), ("version", "4")],
    );
    assert_eq!(done.status, 303, "{}", done.body);
    let v = server.wait(&mallory, 4, Some("checking"));
    assert_eq!(
        (v["status"].as_str(), v["reason"].as_str()),
        (Some("cancelled"), Some("cancelled by the host"))
    );
    until_sleepers(4613, 0);
    let (code, body) = server.post(cancel, ADMIN, serde_json::json!({}));
    assert_eq!(code, 409, "{body}");
    assert_eq!(
        body["error"],
        "`mallory` has no version 4 waiting for its check or in it"
    );
}

#[test]
fn with_two_checks_at_once_a_build_that_sleeps_holds_up_no_one() {
    let dir = tempfile::tempdir().unwrap();
    // The event's build cap is the default (5 minutes): only the second check runs on.
    let server = start(&write_config_with(dir.path(), "checks = 2\n"));
    let mallory = server.entrant("mallory");
    let ann = server.entrant("ann");
    let slow = sleeping_build(&dir.path().join("m"), "mallory", 4621);
    assert_eq!(server.submit(&mallory, &slow).0, 0);
    assert_eq!(
        server.wait(&mallory, 1, Some("queued"))["status"],
        "checking"
    );
    until_sleepers(4621, 1);
    assert_eq!(server.submit(&ann, &bot_folder(dir.path(), "ann")).0, 0);
    let v = server.wait(&ann, 1, None);
    assert_eq!(v["status"], "admitted", "{v}");
    // mallory's build still runs: ann was checked beside it, not after it.
    assert_eq!(
        server.get("/api/versions/1", Some(&mallory)).1["status"],
        "checking"
    );
    assert_eq!(sleepers(4621), 1);
}
