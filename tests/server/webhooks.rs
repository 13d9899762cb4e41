//! Word to entrants and the host by webhook, to listeners the test starts on the loopback: each
//! event once to the hooks it is for (a version admitted and one failed with its public reason,
//! a test match done, a bot paused, the ladder frozen, the final published); a message the
//! listener refuses sent again; nothing to an address the config does not allow (set, in the
//! host's config, or by a redirect); a listener that never answers holds no game of the ladder;
//! webhooks turned off queue nothing.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{json, Value};

use crate::harness::*;

/// How a listener answers.
#[derive(Clone, Debug)]
enum Answer {
    /// 204 to everything.
    Take,
    /// 500 to the first request, then 204.
    RefuseFirst,
    /// Reads the request and never answers (the connection held open).
    Never,
    /// 302 to this address.
    Redirect(String),
}

/// A listener on the loopback: each request's path and JSON body, as they come.
struct Listener {
    url: String,
    got: mpsc::Receiver<(String, Value)>,
}

impl Listener {
    fn start(answer: Answer) -> Listener {
        let socket = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", socket.local_addr().unwrap());
        let (tx, got) = mpsc::channel();
        std::thread::spawn(move || {
            let mut held = Vec::new();
            for (n, stream) in socket.incoming().enumerate() {
                let Ok(stream) = stream else { continue };
                let Some((path, body)) = read_request(&stream) else {
                    continue;
                };
                let _ = tx.send((path, body));
                let reply = match &answer {
                    Answer::Never => {
                        held.push(stream); // open, unanswered, for as long as the test runs
                        continue;
                    }
                    Answer::RefuseFirst if n == 0 => {
                        "HTTP/1.1 500 No\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                            .to_owned()
                    }
                    Answer::Redirect(to) => {
                        format!("HTTP/1.1 302 Found\r\nLocation: {to}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                    }
                    _ => "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n".to_owned(),
                };
                let mut stream = stream;
                let _ = stream.write_all(reply.as_bytes());
            }
        });
        Listener { url, got }
    }

    /// The next request, within `limit`.
    fn next(&self, limit: Duration) -> Option<(String, Value)> {
        self.got.recv_timeout(limit).ok()
    }
}

/// A request's path and JSON body (Connection: close is what ureq's agent gets as it goes).
fn read_request(stream: &TcpStream) -> Option<(String, Value)> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let path = line.split_whitespace().nth(1)?.to_owned();
    let mut length = 0;
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok()?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((k, v)) = header.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().ok()?;
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some((path, serde_json::from_slice(&body).ok()?))
}

fn hooks_config(allow: &str, host: &str, timeout: &str) -> String {
    format!("[webhooks]\nallow = [\"{allow}/\"]\nhost = \"{host}\"\ntimeout = \"{timeout}\"\n")
}

/// The messages got, by path: each message's `quads.kind`s.
type Got = BTreeMap<String, Vec<String>>;

/// Adds the messages that come to `got` until `want` is met.
fn collect(listener: &Listener, got: &mut Got, want: impl Fn(&Got) -> bool) {
    while !want(got) {
        let (path, body) = listener
            .next(Duration::from_secs(100))
            .unwrap_or_else(|| panic!("no more messages; got {got:?}"));
        // What Discord and Slack read, and the event's own fields.
        assert_eq!(body["content"], body["text"], "{body}");
        assert!(
            body["content"].as_str().unwrap().starts_with("test-cup: "),
            "{body}"
        );
        got.entry(path)
            .or_default()
            .push(body["quads"]["kind"].as_str().unwrap().to_owned());
    }
}

/// The host's log of messages once `settled` holds of it, asked again until then (a minute at
/// most).
fn hooks_once(server: &Server, settled: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    let end = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let (code, log) = server.get("/api/admin/hooks", Some(ADMIN));
        assert_eq!(code, 200, "{log}");
        let hooks = log["hooks"].as_array().unwrap().clone();
        if settled(&hooks) {
            return hooks;
        }
        assert!(
            std::time::Instant::now() < end,
            "the messages did not settle: {log}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn has(got: &Got, path: &str, kind: &str) -> bool {
    got.get(path).is_some_and(|k| k.iter().any(|x| x == kind))
}

#[test]
fn each_event_is_told_once_to_the_hooks_it_is_for() {
    let dir = tempfile::tempdir().unwrap();
    let listener = Listener::start(Answer::Take);
    let l = &listener.url;
    let extra = format!(
        "crash_streak = 2\n{}",
        hooks_config(l, &format!("{l}/host"), "5s")
    );
    let server = start(&write_config_with(dir.path(), &extra));
    let ann = server.entrant("ann");
    let cy = server.entrant("cy");
    let bob = server.entrant("bob");
    for (token, path) in [(&ann, "/ann"), (&cy, "/cy")] {
        let url = format!("{l}{path}");
        let (code, body) = server.post("/api/me/webhook", token, json!({ "url": url }));
        assert_eq!((code, &body["webhook"]), (200, &json!(url)), "{body}");
    }
    assert_eq!(
        server.get("/api/me", Some(&ann)).1["webhook"],
        format!("{l}/ann")
    );
    // bob's page form refuses an address the config does not allow, and takes none back.
    let mut page = crate::visitor::Visitor::new(&server);
    page.get("/login");
    assert_eq!(page.post("/login", &[("token", &bob)]).status, 303);
    page.get("/entrants/bob");
    let a = page.post("/webhook", &[("url", "http://10.0.0.1/")]);
    assert_eq!(a.status, 400, "{}", a.body);
    assert!(a.body.contains("only to addresses beginning"), "{}", a.body);
    let a = page.post("/webhook", &[("url", "")]);
    assert_eq!(a.status, 303, "{}", a.body);
    assert_eq!(server.get("/api/me", Some(&bob)).1["webhook"], Value::Null);
    // Addresses the config does not allow are refused, in one line.
    for bad in [
        "http://127.0.0.2:9/x".to_owned(),
        l.to_string(),
        format!("{l}/a b"),
        "file:///etc/passwd".to_owned(),
    ] {
        let (code, body) = server.post("/api/me/webhook", &bob, json!({ "url": bad }));
        assert_eq!(code, 400, "{bad}: {body}");
        assert!(!body["error"].as_str().unwrap().contains('\n'), "{body}");
    }
    // ann's bot admitted, then a version that fails its check; bob's admitted; cy's crashes.
    assert_eq!(server.submit(&ann, &bot_folder(dir.path(), "ann")).0, 0);
    assert_eq!(server.wait(&ann, 1, None)["status"], "admitted");
    let eve = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/entrants/eve");
    let folder = dir.path().join("ann2");
    std::fs::create_dir_all(&folder).unwrap();
    for f in ["bot.py", "bot.toml"] {
        let text = std::fs::read_to_string(eve.join(f)).unwrap();
        std::fs::write(folder.join(f), text.replace("\"eve\"", "\"ann\"")).unwrap();
    }
    assert_eq!(server.submit(&ann, &folder).0, 0);
    let failed = server.wait(&ann, 2, None);
    assert_eq!(failed["status"], "failed", "{failed}");
    assert_eq!(server.submit(&bob, &bot_folder(dir.path(), "bob")).0, 0);
    assert_eq!(server.wait(&bob, 1, None)["status"], "admitted");
    assert_eq!(server.submit(&cy, &crashing_bot(dir.path(), "cy")).0, 0);
    assert_eq!(server.wait(&cy, 1, None)["status"], "admitted");
    let (code, asked) = server.post("/api/matches", &ann, json!({ "opponent": "bob" }));
    assert_eq!(code, 201, "{asked}");
    let mut got = Got::new();
    collect(&listener, &mut got, |g| {
        has(g, "/ann", "test_match_done") && has(g, "/cy", "version_paused")
    });
    // The host freezes uploads, and the final is published (its report written where the
    // final's run writes it).
    let frozen = json!({ "frozen": true });
    assert_eq!(server.post("/api/admin/switches", ADMIN, frozen).0, 200);
    let (code, body) = server.post("/api/admin/final", ADMIN, json!({}));
    assert_eq!(code, 201, "{body}");
    let report = dir.path().join("data/final/out/report.html");
    std::fs::create_dir_all(report.parent().unwrap()).unwrap();
    std::fs::write(&report, "<!doctype html><title>final</title>").unwrap();
    // Every message expected below has come (a duplicate would take the place of one).
    collect(&listener, &mut got, |g| {
        g.values().map(Vec::len).sum::<usize>() == 17
    });
    // Each once, to whom it is for: an entrant hears of its own versions and matches only.
    let sorted = |path: &str| {
        let mut k = got.get(path).cloned().unwrap_or_default();
        k.sort();
        k
    };
    assert_eq!(
        sorted("/ann"),
        [
            "final_published",
            "switch",
            "test_match_done",
            "version_admitted",
            "version_failed"
        ]
    );
    assert_eq!(
        sorted("/cy"),
        [
            "final_published",
            "switch",
            "version_admitted",
            "version_paused"
        ]
    );
    assert_eq!(
        sorted("/host"),
        [
            "final_published",
            "switch",
            "test_match_done",
            "version_admitted",
            "version_admitted",
            "version_admitted",
            "version_failed",
            "version_paused"
        ]
    );
    // The host's log says every one was sent, once, and nothing else was queued.
    let hooks = hooks_once(&server, |h| h.iter().all(|h| !h["sent"].is_null()));
    assert_eq!(hooks.len(), 17, "{hooks:?}");
    assert!(hooks.iter().all(|h| h["tries"] == 1), "{hooks:?}");
    // The failed version's message carries its public reason.
    let failed_word = hooks
        .iter()
        .map(|h| serde_json::from_str::<Value>(h["body"].as_str().unwrap()).unwrap())
        .find(|b| b["quads"]["kind"] == "version_failed")
        .unwrap();
    assert_eq!(
        failed_word["quads"]["reason"], failed["reason"],
        "{failed_word}"
    );
}

#[test]
fn a_refused_message_is_sent_again_and_nothing_goes_where_the_config_does_not_allow() {
    let dir = tempfile::tempdir().unwrap();
    let refusing = Listener::start(Answer::RefuseFirst);
    let elsewhere = Listener::start(Answer::Take);
    let redirecting = Listener::start(Answer::Redirect(format!("{}/stolen", elsewhere.url)));
    let extra = format!(
        "[webhooks]\nallow = [\"{}/\", \"{}/\"]\nhost = \"{}/host\"\n",
        refusing.url, redirecting.url, refusing.url
    );
    let server = start(&write_config_with(dir.path(), &extra));
    let ann = server.entrant("ann");
    let url = format!("{}/ann", redirecting.url);
    assert_eq!(
        server
            .post("/api/me/webhook", &ann, json!({ "url": url }))
            .0,
        200
    );
    assert_eq!(server.submit(&ann, &bot_folder(dir.path(), "ann")).0, 0);
    assert_eq!(server.wait(&ann, 1, None)["status"], "admitted");
    // Refused once, then sent again, and taken.
    let first = refusing.next(Duration::from_secs(100)).unwrap();
    let again = refusing.next(Duration::from_secs(100)).unwrap();
    assert_eq!(first, again);
    assert_eq!(first.1["quads"]["kind"], "version_admitted");
    // The redirect is not followed: the address it names hears nothing, and the message fails.
    let redirected = redirecting.next(Duration::from_secs(100)).unwrap();
    assert_eq!(redirected.0, "/ann");
    // The host's taken (on its second try), the redirected one failed.
    let hooks = hooks_once(&server, |h| {
        h.len() == 2
            && h.iter().any(|h| h["url"] == url && h["error"] != "")
            && h.iter().any(|h| h["url"] != url && !h["sent"].is_null())
    });
    let host = hooks
        .iter()
        .find(|h| h["url"].as_str().unwrap().ends_with("/host"))
        .unwrap();
    assert_eq!(
        (&host["tries"], host["sent"].is_null()),
        (&json!(2), false),
        "{hooks:?}"
    );
    let redirected = hooks.iter().find(|h| h["url"] == url).unwrap();
    assert!(redirected["sent"].is_null(), "{hooks:?}");
    assert_eq!(redirected["error"], "answered 302", "{hooks:?}");
    assert!(
        !redirected["given_up"].is_null(),
        "not tried again: {hooks:?}"
    );
    assert!(elsewhere.next(Duration::from_millis(0)).is_none());
    // A host's hook the config does not allow stops the server at start, in one line.
    let bad = dir.path().join("bad");
    std::fs::create_dir_all(&bad).unwrap();
    let config = write_config_with(
        &bad,
        &format!(
            "[webhooks]\nallow = [\"{}/\"]\nhost = \"{}/host\"\n",
            refusing.url, elsewhere.url
        ),
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_quads"))
        .args(["serve", "--config"])
        .arg(&config)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("webhooks.host") && stderr.trim().lines().count() == 1,
        "{stderr}"
    );
    assert!(elsewhere.next(Duration::from_millis(0)).is_none());
}

#[test]
fn a_hook_that_never_answers_holds_no_game_of_the_ladder() {
    let dir = tempfile::tempdir().unwrap();
    let silent = Listener::start(Answer::Never);
    let l = &silent.url;
    let extra = hooks_config(l, &format!("{l}/host"), "1h");
    let server = start(&write_config_with(dir.path(), &extra));
    for name in ["ann", "bob"] {
        let token = server.entrant(name);
        assert_eq!(server.submit(&token, &bot_folder(dir.path(), name)).0, 0);
        assert_eq!(server.wait(&token, 1, None)["status"], "admitted");
    }
    // The first message is held by a listener that never answers (for an hour, the config's
    // timeout)…
    let (path, body) = silent.next(Duration::from_secs(100)).unwrap();
    assert_eq!(
        (path.as_str(), &body["quads"]["kind"]),
        ("/host", &json!("version_admitted"))
    );
    // …while the ladder plays its games all the same.
    let (_, board) = server.get("/api/leaderboard?games=40&wait=100", None);
    assert!(board["games"].as_u64().unwrap() >= 40, "{board}");
    let (_, log) = server.get("/api/admin/hooks", Some(ADMIN));
    let hooks = log["hooks"].as_array().unwrap();
    assert!(hooks.iter().all(|h| h["sent"].is_null()), "{log}");
}

#[test]
fn webhooks_turned_off_queue_and_send_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let listener = Listener::start(Answer::Take);
    let l = &listener.url;
    let extra = format!(
        "{}off = true\n",
        hooks_config(l, &format!("{l}/host"), "5s")
    );
    let server = start(&write_config_with(dir.path(), &extra));
    // An entrant cannot set one, and the host's switch (which queues its word before it
    // answers, when webhooks are on) queues nothing.
    let ann = server.entrant("ann");
    let (code, body) = server.post(
        "/api/me/webhook",
        &ann,
        json!({ "url": format!("{l}/ann") }),
    );
    assert_eq!(
        (code, body["error"].as_str()),
        (400, Some("this event sends no webhooks"))
    );
    let frozen = json!({ "frozen": true });
    assert_eq!(server.post("/api/admin/switches", ADMIN, frozen).0, 200);
    let (code, log) = server.get("/api/admin/hooks", Some(ADMIN));
    assert_eq!((code, log), (200, json!({ "hooks": [] })));
}
