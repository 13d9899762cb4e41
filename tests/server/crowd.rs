//! Every "at most N" rule holds under a crowd of requests sent at once (issue 46): checked
//! and acted on in one statement, on SQLite and on PostgreSQL alike.

use std::sync::{Arc, Barrier};

use serde_json::{json, Value};

use crate::harness::*;
use crate::visitor::{tar_gz, Visitor};

#[test]
fn ten_test_matches_asked_at_once_queue_one() {
    let dir = tempfile::tempdir().unwrap();
    // No worker: nothing is played, so no test match ends while the crowd asks.
    let server = start(&write_config_with(dir.path(), "workers = 0\n"));
    let ann = server.entrant("ann");
    let bob = server.entrant("bob");
    for (token, name) in [(&ann, "ann"), (&bob, "bob")] {
        assert_eq!(server.submit(token, &bot_folder(dir.path(), name)).0, 0);
        assert_eq!(server.wait(token, 1, None)["status"], "admitted");
    }
    let crowd = 10;
    let gate = Arc::new(Barrier::new(crowd));
    let url = format!("{}/api/matches", server.url);
    let answers: Vec<(u16, serde_json::Value)> = std::thread::scope(|s| {
        let asks: Vec<_> = (0..crowd)
            .map(|_| {
                let (gate, url, ann) = (gate.clone(), url.clone(), ann.clone());
                s.spawn(move || {
                    let req = with_token(ureq::post(&url), &ann);
                    gate.wait();
                    call(req, Some(json!({ "opponent": "bob" })))
                })
            })
            .collect();
        asks.into_iter().map(|a| a.join().unwrap()).collect()
    });
    let queued = answers.iter().filter(|(code, _)| *code == 201).count();
    assert_eq!(queued, 1, "{answers:?}");
    for (code, body) in answers.iter().filter(|(code, _)| *code != 201) {
        assert_eq!(*code, 409, "{body}");
        let error = body["error"].as_str().unwrap();
        assert!(error.contains("one at a time"), "{error}");
    }
    let (_, list) = server.get("/api/matches?entrant=ann", None);
    let tests = list["matches"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["kind"] == "test")
        .count();
    assert_eq!(tests, 1, "{list}");
}

/// `n` uploads of `archive` by `token` sent at once: each answer with its `Retry-After`.
fn burst(
    server: &Server,
    token: &str,
    archive: &[u8],
    n: usize,
) -> Vec<(u16, Value, Option<String>)> {
    let gate = Arc::new(Barrier::new(n));
    std::thread::scope(|s| {
        let sends: Vec<_> = (0..n)
            .map(|_| {
                let gate = gate.clone();
                s.spawn(move || {
                    gate.wait();
                    server.upload_with_retry(token, archive)
                })
            })
            .collect();
        sends.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

#[test]
fn a_burst_of_uploads_is_held_to_the_hosts_quotas() {
    let dir = tempfile::tempdir().unwrap();
    let quotas = "[quotas]\nuploads_per_hour = 3\nversions = 5\nstored_bytes = 40000\n";
    let server = start(&write_config_with(
        dir.path(),
        &format!("workers = 0\n{quotas}"),
    ));
    let ann = server.entrant("ann");
    let archive = tar_gz(&bot_folder(dir.path(), "ann"));
    // Ten at once: three in the hour, the rest refused with when to try again.
    let answers = burst(&server, &ann, &archive, 10);
    let taken: Vec<_> = answers.iter().filter(|a| a.0 == 201).collect();
    assert_eq!(taken.len(), 3, "{answers:?}");
    for (code, body, retry) in answers.iter().filter(|a| a.0 != 201) {
        assert_eq!(*code, 429, "{body}");
        let error = body["error"].as_str().unwrap();
        assert!(
            error == "you uploaded 3 versions in the last hour: the event allows 3 an hour"
                || error == "another upload of yours took the room: try again",
            "{error}"
        );
        let seconds: u64 = retry.as_deref().expect("Retry-After").parse().unwrap();
        assert!((1..=3600).contains(&seconds), "{seconds}");
    }
    let (_, me) = server.me(&ann);
    assert_eq!(me["versions"].as_array().unwrap().len(), 3, "{me}");
    // The owner sees its use; the host sees every entrant's.
    let mut owner = Visitor::logged_in(&server, &ann);
    let page = owner.get("/entrants/ann").body;
    assert!(
        page.contains("Your quotas: 3 of 3 uploads in the last hour"),
        "{page}"
    );
    let mut host = Visitor::logged_in(&server, ADMIN);
    let page = host.get("/admin").body;
    assert!(page.contains("<td class=\"uploads\">3</td>"), "{page}");

    assert!(page.contains("<td class=\"uploads\">3</td>"), "{page}");
}

#[test]
fn a_burst_of_uploads_is_held_to_the_stored_bytes_and_the_versions_kept() {
    let dir = tempfile::tempdir().unwrap();
    let archive = tar_gz(&bot_folder(dir.path(), "ann"));
    // The example bot unpacks to about 3.2 kB: two fit in 8,000 bytes, three do not.
    let cases = [
        ("stored_bytes = 8000\n", 413, "your versions hold "),
        (
            "versions = 2\n",
            413,
            "you have 2 versions: the event keeps 2 per entrant",
        ),
    ];
    for (i, (quota, status, want)) in cases.into_iter().enumerate() {
        let dir = dir.path().join(i.to_string());
        std::fs::create_dir_all(&dir).unwrap();
        let config = format!("workers = 0\n[quotas]\nuploads_per_hour = 100\n{quota}");
        let server = start(&write_config_with(&dir, &config));
        let ann = server.entrant("ann");
        let answers = burst(&server, &ann, &archive, 6);
        let taken: Vec<_> = answers.iter().filter(|a| a.0 == 201).collect();
        assert_eq!(taken.len(), 2, "{quota}: {answers:?}");
        let bytes = taken[0].1["bytes"].as_i64().unwrap();
        assert!(
            (2667..=4000).contains(&bytes),
            "the kit's size moved: {bytes}"
        );
        for (code, body, _) in answers.iter().filter(|a| a.0 != 201) {
            let error = body["error"].as_str().unwrap();
            let raced = *code == 429 && error == "another upload of yours took the room: try again";
            assert!(
                raced || (*code == status && error.starts_with(want)),
                "{quota}: {code} {error}"
            );
        }
        let (_, me) = server.me(&ann);
        assert_eq!(me["versions"].as_array().unwrap().len(), 2, "{quota}: {me}");
        // Refused alone, too, before anything is unpacked: the same line.
        let (code, body, _) = server.upload_with_retry(&ann, &archive);
        assert_eq!(code, status, "{body}");
        assert!(body["error"].as_str().unwrap().starts_with(want), "{body}");
    }
}
