//! The pipeline: builds and checks, a failing scenario explained, a check cut off by a kill.

use std::path::Path;

use crate::harness::*;

#[test]
fn the_pipeline_builds_and_checks_each_version_and_says_why_one_fails() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    let eve = server.entrant("eve");
    // examples/entrants/eve answers the handshake wrong on purpose.
    let broken = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/entrants/eve");
    assert_eq!(server.submit(&eve, &broken).0, 0);
    let v = server.wait(&eve, 1, None);
    assert_eq!(v["status"], "failed");
    let reason = v["reason"].as_str().unwrap();
    assert!(reason.starts_with("FAIL "), "{reason}");
    let report = server.report(&eve, 1);
    let text = report["report"].as_str().unwrap();
    assert!(
        text.contains("| eve |") && text.contains("left out"),
        "{text}"
    );
    assert!(text.contains("> quads"), "the lines exchanged: {text}");
    assert!(
        !text.contains(&dir.path().display().to_string()),
        "the server's folders show: {text}"
    );
    // A build that fails: its status code and the end of its log.
    let bad = bot_folder(&dir.path().join("b"), "eve");
    let manifest = std::fs::read_to_string(bad.join("bot.toml")).unwrap();
    std::fs::write(
        bad.join("bot.toml"),
        format!("{manifest}build = \"echo compiling; echo oops >&2; exit 3\"\n"),
    )
    .unwrap();
    assert_eq!(server.submit(&eve, &bad).0, 0);
    let v = server.wait(&eve, 2, None);
    assert_eq!(v["status"], "failed");
    assert!(
        v["reason"]
            .as_str()
            .unwrap()
            .starts_with("build failed: exit status 3"),
        "{v}"
    );
    let log = server.report(&eve, 2)["build_log"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(log.contains("compiling") && log.contains("oops"), "{log}");
    // And a good version after them is admitted: the ladder will use it.
    assert_eq!(
        server
            .submit(&eve, &bot_folder(&dir.path().join("c"), "eve"))
            .0,
        0
    );
    assert_eq!(server.wait(&eve, 3, None)["status"], "admitted");
    // Another entrant cannot read eve's report.
    let ann = server.entrant("ann");
    let url = format!("{}/api/versions/1/report", server.url);
    assert_eq!(call(with_token(ureq::get(&url), &ann), None).0, 404);
}

#[test]
fn a_check_cut_off_by_a_kill_runs_again_once_then_fails() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(dir.path());
    let mut server = start(&config);
    let ann = server.entrant("ann");
    let slow = bot_folder(dir.path(), "ann");
    let manifest = std::fs::read_to_string(slow.join("bot.toml")).unwrap();
    // A build that never ends by itself: the server is killed while it runs.
    std::fs::write(
        slow.join("bot.toml"),
        format!("{manifest}build = \"sleep 600\"\n"),
    )
    .unwrap();
    assert_eq!(server.submit(&ann, &slow).0, 0);
    for round in 1..=2 {
        let v = server.wait(&ann, 1, Some("queued"));
        assert_eq!(v["status"], "checking", "round {round}: {v}");
        server.child.kill().unwrap();
        server.child.wait().unwrap();
        server = start(&config);
    }
    let v = server.wait(&ann, 1, None);
    assert_eq!(v["status"], "failed");
    assert_eq!(
        v["reason"],
        "the server stopped twice while checking this version: upload it again"
    );
}
