//! Every API call refuses whom it is not for, and bad input, with a status and one line of
//! JSON: no token, a wrong token, an entrant's token on the host's calls, malformed
//! addresses, queries and bodies, and a method an address does not take.

use serde_json::{json, Value};

use crate::harness::*;

/// (status, body as text) of a call with `token` and a JSON `body`.
fn raw(
    server: &Server,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&str>,
) -> (u16, String) {
    let mut req = ureq::request(method, &format!("{}{path}", server.url));
    if let Some(t) = token {
        req = with_token(req, t);
    }
    let answer = match body {
        Some(b) => req.set("Content-Type", "application/json").send_string(b),
        None => req.call(),
    };
    match answer {
        Ok(r) | Err(ureq::Error::Status(_, r)) => (r.status(), r.into_string().unwrap()),
        Err(e) => panic!("{e}"),
    }
}

/// The error line of a refusal, checked to be `{"error": "one line"}` and nothing else.
fn error_line(method: &str, path: &str, text: &str) -> String {
    let v: Value =
        serde_json::from_str(text).unwrap_or_else(|_| panic!("{method} {path}: not JSON: {text}"));
    let obj = v.as_object().unwrap();
    assert_eq!(obj.len(), 1, "{method} {path}: {text}");
    let line = obj["error"].as_str().unwrap().to_owned();
    assert!(
        !line.is_empty() && !line.contains('\n'),
        "{method} {path}: {text}"
    );
    line
}

/// A call with bad input: (method, path, token, body, status, the error line's start).
type Bad<'a> = (
    &'a str,
    &'a str,
    Option<&'a str>,
    Option<&'a str>,
    u16,
    &'a str,
);

#[test]
fn every_call_refuses_whom_it_is_not_for_and_bad_input_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    let ann = server.entrant("ann");
    let no_token = "give your token (Authorization: Bearer TOKEN) or log in";
    let host_only = "only the host may do this";
    // Who may call: (method, path, body).
    let entrants: [(&str, &str, Option<&str>); 9] = [
        ("GET", "/api/me", None),
        ("POST", "/api/me/webhook", Some(r#"{"url": null}"#)),
        ("GET", "/api/me/games.jsonl", None),
        ("POST", "/api/versions", None),
        ("GET", "/api/versions/1", None),
        ("GET", "/api/versions/1/report", None),
        ("GET", "/api/versions/1/download", None),
        ("POST", "/api/matches", Some(r#"{"opponent": "bo"}"#)),
        ("GET", "/api/matches/1/logs/game-0001-first-ann.log", None),
    ];
    let hosts: [(&str, &str, Option<&str>); 7] = [
        ("POST", "/api/invites", None),
        ("GET", "/api/admin/hooks", None),
        ("GET", "/api/games.jsonl", None),
        ("POST", "/api/admin/switches", Some(r#"{"frozen": true}"#)),
        (
            "POST",
            "/api/admin/entrants/ann",
            Some(r#"{"disabled": "x"}"#),
        ),
        ("POST", "/api/admin/matches/1/rerun", None),
        ("POST", "/api/admin/final", None),
    ];
    for (method, path, body) in entrants.iter().chain(&hosts) {
        for token in [None, Some("not-a-token")] {
            let (code, text) = raw(&server, method, path, token, *body);
            assert_eq!(code, 401, "{method} {path} {token:?}: {text}");
            assert_eq!(error_line(method, path, &text), no_token);
        }
    }
    for (method, path, body) in &hosts {
        let (code, text) = raw(&server, method, path, Some(&ann), *body);
        assert_eq!(code, 403, "{method} {path}: {text}");
        assert_eq!(error_line(method, path, &text), host_only);
    }
    // Nothing the refusals asked for happened.
    assert_eq!(server.get("/api/matches", None).1, json!({ "matches": [] }));
    assert_eq!(
        server.me(&ann).1,
        json!({ "name": "ann", "versions": [], "webhook": null })
    );
    // Bad input.
    let bad: [Bad; 12] = [
        (
            "GET",
            "/api/versions/one",
            Some(&ann),
            None,
            400,
            "Invalid URL",
        ),
        (
            "GET",
            "/api/versions/7",
            Some(&ann),
            None,
            404,
            "you have no such version",
        ),
        (
            "GET",
            "/api/versions/1?wait=soon",
            Some(&ann),
            None,
            400,
            "Failed to deserialize query string",
        ),
        (
            "GET",
            "/api/leaderboard?each=-1",
            None,
            None,
            400,
            "Failed to deserialize query string",
        ),
        (
            "GET",
            "/api/leaderboard?colour=red",
            None,
            None,
            400,
            "Failed to deserialize query string",
        ),
        (
            "GET",
            "/api/matches?limit=many",
            None,
            None,
            400,
            "Failed to deserialize query string",
        ),
        ("GET", "/api/matches/x", None, None, 400, "Invalid URL"),
        (
            "GET",
            "/api/matches/99/games.jsonl",
            None,
            None,
            404,
            "no such match",
        ),
        (
            "POST",
            "/api/entrants",
            None,
            Some("{\"name\": 7}"),
            400,
            "Failed to deserialize the JSON body",
        ),
        (
            "POST",
            "/api/matches",
            Some(&ann),
            Some("[]"),
            400,
            "Failed to deserialize the JSON body",
        ),
        (
            "POST",
            "/api/admin/matches/1/explode",
            Some(ADMIN),
            None,
            404,
            "no action `explode`",
        ),
        (
            "GET",
            "/api/invites",
            Some(ADMIN),
            None,
            405,
            "this address does not take that method",
        ),
    ];
    for (method, path, token, body, status, start) in bad {
        let (code, text) = raw(&server, method, path, token, body);
        assert_eq!(code, status, "{method} {path}: {text}");
        let line = error_line(method, path, &text);
        assert!(line.starts_with(start), "{method} {path}: {line}");
    }
    let (code, text) = raw(&server, "POST", "/api/versions", Some(&ann), Some("{}"));
    assert_eq!(code, 400, "{text}");
    error_line("POST", "/api/versions", &text);
    // A JSON body over the bound is 413, as for an upload, not a malformed one's 400.
    for path in ["/api/entrants", "/api/matches"] {
        let answer = oversized(&server, path, &ann);
        assert!(answer.starts_with("HTTP/1.1 413 "), "{path}: {answer}");
        let text = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
        assert_eq!(error_line("POST", path, text), "the body is too large");
    }
}

/// A POST of a JSON body of 400 kB, over the bound: the server's whole answer. The body is
/// written from a thread of its own, whose writes may fail once the server has answered and
/// closed (an HTTP client would give up there, before reading the answer).
fn oversized(server: &Server, path: &str, token: &str) -> String {
    use std::io::{Read, Write};
    let body = format!("{{\"name\": \"{}\"}}", "a".repeat(400_000));
    let mut stream =
        std::net::TcpStream::connect(server.url.trim_start_matches("http://")).unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let mut writer = stream.try_clone().unwrap();
    let sending = std::thread::spawn(move || {
        let _ = writer.write_all(head.as_bytes());
        let _ = writer.write_all(body.as_bytes());
    });
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(60)))
        .unwrap();
    let mut got = Vec::new();
    match stream.read_to_end(&mut got) {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {}
        Err(e) => panic!("{path}: {e}"),
    }
    sending.join().unwrap();
    String::from_utf8_lossy(&got).into_owned()
}

#[test]
fn an_address_guessing_tokens_is_refused_for_the_rest_of_its_minute() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config_with(dir.path(), "guesses = 5\n"));
    let ann = server.entrant("ann");
    // Five wrong guesses are answered as wrong; the host's and ann's tokens still work.
    for n in 0..5 {
        let (code, text) = raw(&server, "GET", "/api/me", Some(&format!("guess-{n}")), None);
        assert_eq!(code, 401, "guess {n}: {text}");
    }
    // The sixth is refused unread, and so is every call with a token from this address, the
    // right ones and a log-in too; calls without a token go on.
    let (code, text) = raw(&server, "GET", "/api/me", Some("guess-5"), None);
    assert_eq!(code, 429, "{text}");
    let line = error_line("GET", "/api/me", &text);
    assert!(
        line.starts_with("too many wrong tokens from this address: try again in "),
        "{line}"
    );
    assert_eq!(raw(&server, "GET", "/api/me", Some(&ann), None).0, 429);
    assert_eq!(
        raw(&server, "POST", "/api/invites", Some(ADMIN), None).0,
        429
    );
    let login = ureq::post(&format!("{}/login", server.url)).send_form(&[("token", &ann)]);
    match login {
        Err(ureq::Error::Status(code, r)) => {
            assert_eq!(code, 429);
            let wait: u64 = r.header("Retry-After").unwrap().parse().unwrap();
            assert!((1..=60).contains(&wait), "Retry-After: {wait}");
        }
        other => panic!("a log-in went through: {other:?}"),
    }
    assert_eq!(raw(&server, "GET", "/api/leaderboard", None, None).0, 200);
}
