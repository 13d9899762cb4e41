//! Slow clients are bounded (`client_timeout`, crate::http::accept): connections that send half
//! a request, a body that stops, a connection kept open and idle: each is closed once its time
//! is up, and none holds anyone else's request meanwhile. Without the bound, these reads would
//! wait for ever (here: until the test's own guard of a minute, and fail).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use crate::harness::*;

/// Everything the server sends on `stream` until it closes it; fails if the server keeps it
/// open a minute.
fn until_closed(stream: &mut TcpStream) -> String {
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let mut got = Vec::new();
    match stream.read_to_end(&mut got) {
        Ok(_) => String::from_utf8_lossy(&got).into_owned(),
        // A reset after the server's answer is a close too.
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {
            String::from_utf8_lossy(&got).into_owned()
        }
        Err(e) => panic!(
            "the server kept a slow client's connection open: {e} (after {:?})",
            String::from_utf8_lossy(&got)
        ),
    }
}

fn connect(server: &Server, first: &[u8]) -> TcpStream {
    let mut stream = TcpStream::connect(server.url.trim_start_matches("http://")).unwrap();
    stream.write_all(first).unwrap();
    stream
}

#[test]
fn slow_clients_are_cut_off_and_hold_no_one_elses_request() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config_with(dir.path(), "client_timeout = \"1s\"\n"));
    // Forty connections that send half their headers and stop (slowloris).
    let mut halves: Vec<TcpStream> = (0..40)
        .map(|_| {
            connect(
                &server,
                b"GET /api/leaderboard HTTP/1.1\r\nHost: x\r\nX-A: ",
            )
        })
        .collect();
    // One that sends its headers and a tenth of the body it announced.
    let mut body = connect(
        &server,
        b"POST /api/entrants HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
          Content-Length: 100\r\n\r\n{\"name\": \"",
    );
    // One that asks once, is answered, keeps the connection and sends nothing more.
    let mut idle = connect(&server, b"GET /api/leaderboard HTTP/1.1\r\nHost: x\r\n\r\n");
    // Meanwhile everyone else is answered.
    for _ in 0..5 {
        assert_eq!(server.get("/api/leaderboard", None).0, 200);
    }
    assert_eq!(server.sign_up("ann", Some(&server.invite())).0, 201);
    for half in &mut halves {
        assert_eq!(until_closed(half), "");
    }
    // The whole body's bound (from the headers) ends no later than the wait for its next part.
    let told = until_closed(&mut body);
    assert!(told.starts_with("HTTP/1.1 408 "), "{told}");
    assert!(told.contains("client_timeout"), "{told}");
    let told = until_closed(&mut idle);
    assert!(told.starts_with("HTTP/1.1 200 "), "answered once: {told}");
    assert_eq!(told.matches("HTTP/1.1").count(), 1, "{told}");
    // Nobody was signed up by the body cut short, and the server still answers.
    assert_eq!(server.get("/api/leaderboard", None).0, 200);
}

/// Sends `head`, then the body's `len` bytes one at a time, `pace` apart (well inside the
/// bound between two parts), until the server answers: (its answer, the bytes it had been
/// sent by then).
fn trickle(server: &Server, head: &str, len: usize, pace: Duration) -> (String, usize) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    let mut stream = connect(server, head.as_bytes());
    let mut writer = stream.try_clone().unwrap();
    let sent = Arc::new(AtomicUsize::new(0));
    let counter = sent.clone();
    std::thread::spawn(move || {
        for _ in 0..len {
            std::thread::sleep(pace);
            if writer.write_all(b"x").is_err() {
                return;
            }
            counter.fetch_add(1, Ordering::SeqCst);
        }
    });
    let answer = until_closed(&mut stream);
    (answer, sent.load(Ordering::SeqCst))
}

#[test]
fn a_body_sent_a_byte_at_a_time_is_bounded_as_a_whole() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config_with(dir.path(), "client_timeout = \"2s\"\n"));
    let ann = server.entrant("ann");
    // A byte every half second never waits 2 s for a part, but would take 30 s in all: the
    // server answers 408 once 2 s have passed since the headers, whatever the pace.
    let (len, pace) = (60, Duration::from_millis(500));
    let json = format!(
        "POST /api/entrants HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {len}\r\n\r\n"
    );
    let upload = format!(
        "POST /api/versions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {ann}\r\n\
         Content-Type: multipart/form-data; boundary=b\r\nContent-Length: {len}\r\n\r\n"
    );
    for head in [json, upload] {
        let (answer, sent) = trickle(&server, &head, len, pace);
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
        assert!(
            answer.contains("the body was not all sent within the server's client_timeout"),
            "{answer}"
        );
        assert!(
            sent < len,
            "the server waited for all {len} bytes: {answer}"
        );
    }
}
