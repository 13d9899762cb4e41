//! `quads sprt` and `quads ladder` between real bots: each exit code, and a broken ladder.

mod common;

use common::Quads;
use std::path::PathBuf;

fn bot() -> String {
    common::quads_bot().display().to_string()
}

fn sprt(q: &Quads, a: &str, b: &str, extra: &[&str]) -> (Option<i32>, String) {
    let (a, b) = (
        format!("{} --level {a}", bot()),
        format!("{} --level {b}", bot()),
    );
    let mut args = vec![
        "sprt",
        "--bot",
        &a,
        "--bot",
        &b,
        "--elo0",
        "0",
        "--elo1",
        "50",
        "--movetime",
        "500ms",
        "--out",
        "o",
        "--quiet",
    ];
    args.extend_from_slice(extra);
    let out = q.run(&args);
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

#[test]
fn sprt_exits_0_on_h1_1_on_h0_and_2_undecided() {
    let q = Quads::new();
    let (code, out) = sprt(&q, "2", "1", &[]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("H1 accepted: "), "{out}");
    let (code, out) = sprt(&q, "1", "2", &[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("H0 accepted: "), "{out}");
    let (code, out) = sprt(&q, "2", "1", &["--max-pairs", "3"]);
    assert_eq!(code, Some(2), "{out}");
    assert!(
        out.starts_with("undecided after 3 pairs (the limit); pairs 3 [0 0 0 0 3]"),
        "{out}"
    );
}

#[test]
fn sprt_refuses_bad_hypotheses() {
    let q = Quads::new();
    let b = bot();
    let out = q.run(&[
        "sprt", "--bot", &b, "--bot", &b, "--elo0", "50", "--elo1", "0",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "quads: sprt: elo0 (50) must be below elo1 (0)\n"
    );
}

fn ladder_config(q: &Quads, levels: &[u32]) -> PathBuf {
    let mut text = String::from(
        "seed = 3\nout = \"ladder\"\nconcurrency = 2\nvariants = [\"classic\"]\nopenings = { random_moves = 2 }\n\
         time = { movetime = \"500ms\" }\nsprt = { elo0 = 0, elo1 = 50, max_pairs = 200 }\n",
    );
    for l in levels {
        text.push_str(&format!(
            "\n[[bot]]\nname = \"level-{l}\"\ncommand = \"{} --level {l}\"\n",
            bot()
        ));
    }
    let path = q.dir().join("ladder.toml");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_ladder_holds_or_names_its_broken_rung() {
    let q = Quads::new();
    let good = ladder_config(&q, &[1, 2, 3]);
    let out = q.run(&["ladder", good.to_str().unwrap(), "--quiet"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.ends_with("ladder holds: every bot is stronger than the one below it\n"),
        "{stdout}"
    );
    assert_eq!(stdout.matches("H1 accepted").count(), 2);

    let broken = ladder_config(&q, &[1, 3, 2]);
    let out = q.run(&["ladder", broken.to_str().unwrap(), "--quiet"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "quads: ladder broken at rung 3: level-2 is not shown stronger than level-3 (H0 accepted)\n"
    );
}

/// Ctrl-C (SIGINT) or SIGTERM before the test decides: exit code 130, never 2 ("undecided"),
/// so that a script can tell a stopped test from one that ran out of pairs.
#[test]
fn a_signal_before_the_verdict_exits_130_not_undecided() {
    use std::io::BufRead;
    for signal in [
        nix::sys::signal::Signal::SIGINT,
        nix::sys::signal::Signal::SIGTERM,
    ] {
        let q = Quads::new();
        let random = format!("{} --level 1", bot());
        // Two equal bots and a narrow test: thousands of pairs before a verdict.
        let mut child = q
            .command(&[
                "sprt",
                "--bot",
                &random,
                "--bot",
                &random,
                "--elo0",
                "0",
                "--elo1",
                "5",
                "--max-pairs",
                "100000",
                "--movetime",
                "1s",
                "--out",
                "o",
            ])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
        // The first pair's line says the test runs.
        let mut line = String::new();
        while !line.starts_with("pairs ") {
            line.clear();
            assert!(
                stderr.read_line(&mut line).unwrap() > 0,
                "quads sprt ended early"
            );
        }
        let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap());
        nix::sys::signal::kill(pid, signal).unwrap();
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(130), "{signal}: {rest}");
        assert!(
            rest.lines()
                .any(|l| l == "quads: interrupted before the test decided"),
            "{signal}: {rest}"
        );
    }
}
