//! The pipeline: builds and checks, a failing scenario explained, a check cut off by a kill.

use std::path::Path;
use std::process::Command;

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

#[test]
fn a_demo_events_entrants_are_signed_up_and_uploaded_once() {
    let dir = tempfile::tempdir().unwrap();
    let entrants = dir.path().join("entrants");
    bot_folder(&entrants, "amy");
    bot_folder(&entrants, "ben");
    // A folder without a bot.toml is no entrant.
    std::fs::create_dir_all(entrants.join("notes")).unwrap();
    let extra = format!("demo_entrants = \"{}\"\n", entrants.display());
    let config = write_config_with(dir.path(), &extra);
    let server = start(&config);
    let (_, board) = server.get("/api/leaderboard?games=2&each=2&wait=100", None);
    let mut names: Vec<&str> = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["amy", "ben"], "{board}");
    assert_eq!(server.text("/entrants/notes", None).0, 404);
    // Started again, it uploads nobody twice.
    drop(server);
    let server = start(&config);
    let (code, page) = server.text("/entrants/amy", None);
    assert_eq!(code, 200);
    assert!(
        page.contains("id=\"v-1\"") && !page.contains("id=\"v-2\""),
        "{page}"
    );
    // A demo folder that is not there stops the server with one line.
    std::fs::create_dir_all(dir.path().join("b")).unwrap();
    let config = write_config_with(&dir.path().join("b"), "demo_entrants = \"/no/such\"\n");
    let out = Command::new(env!("CARGO_BIN_EXE_quads"))
        .args(["serve", "--config"])
        .arg(&config)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("quads: demo_entrants /no/such: No such file or directory")
            && err.lines().count() == 1,
        "{err}"
    );
}

#[test]
fn a_failed_checks_public_reason_quotes_nothing_the_bot_wrote() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    // Three ways a bot's words could reach its reason: a traceback at start (the bot's
    // stderr, with a line of its source), a line of its own where the handshake was due, and
    // a build's log. Each carries a marker.
    let dies = edited_bot(
        &dir.path().join("a"),
        "tracey",
        (
            "import sys\n",
            "import sys\nraise RuntimeError(\"LEAK-stderr-7f3a\")\n",
        ),
    );
    let says = edited_bot(
        &dir.path().join("b"),
        "tracey",
        (
            "import sys\n",
            "import sys\nprint(\"LEAK-stdout-5c1d\", flush=True)\n",
        ),
    );
    let builds = bot_folder(&dir.path().join("c"), "tracey");
    let manifest = std::fs::read_to_string(builds.join("bot.toml")).unwrap();
    std::fs::write(
        builds.join("bot.toml"),
        format!("{manifest}build = \"echo LEAK-build-9d2e >&2; exit 3\"\n"),
    )
    .unwrap();
    let tracey = server.entrant("tracey");
    let want = [
        "FAIL handshake: the bot exited with status 1 while the referee waited for `quadsok`",
        "FAIL handshake: a line that is not a handshake line",
        "build failed: exit status 3",
    ];
    for (n, (folder, want)) in [dies, says, builds].iter().zip(want).enumerate() {
        let n = n as u32 + 1;
        assert_eq!(server.submit(&tracey, folder).0, 0);
        let v = server.wait(&tracey, n, None);
        assert_eq!(v["status"], "failed", "{v}");
        let reason = v["reason"].as_str().unwrap();
        assert!(reason.starts_with(want), "version {n}: {reason}");
        assert!(!reason.contains("LEAK-"), "version {n}: {reason}");
        // The owner's report still tells all.
        let report = server.report(&tracey, n);
        assert!(
            report.to_string().contains("LEAK-"),
            "version {n}: {report}"
        );
    }
    // Nothing of it on the entrant's page, to a visitor or to the owner.
    let (code, page) = server.text("/entrants/tracey", None);
    assert_eq!(code, 200);
    assert!(page.contains("build failed: exit status 3"), "{page}");
    assert!(!page.contains("LEAK-"), "{page}");
}
