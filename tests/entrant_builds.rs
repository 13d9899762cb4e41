//! An entrant's build under attack: a hostile build against the box every build runs in.

mod common;
mod entrants_common;

use std::path::Path;

use common::Quads;
use entrants_common::{config, give, manifest, verdicts};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A hostile entrant's build, tried as an attacker would: it reads and changes another
/// entrant's bot, writes into the results folder and the machine's /tmp, leaves a process
/// running, connects to a listener, and fills its folder. Its box shows it a copy of its own
/// folder and nothing else, with no network, a bounded folder, and an end for everything it
/// started. (The same build without the box is what the sandbox off gives: each of these works.)
#[test]
fn a_hostile_build_reaches_nothing_but_its_own_copy() {
    let q = Quads::new();
    give(&q, "alice", "bots/starter/python/bot.py");
    manifest(
        &q,
        "alice",
        "name = \"alice\"\nauthor = \"A\"\ncommand = \"python3 bot.py\"\n",
    );
    let victim = q.dir().join("entrants/alice").canonicalize().unwrap();
    let out = q.dir().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let marker = format!("quads-build-left-{}", std::process::id());
    let host_tmp = std::env::temp_dir().join(format!("quads-pwned-{}", std::process::id()));
    let mallory = q.dir().join("entrants/mallory");
    std::fs::create_dir_all(&mallory).unwrap();
    // The paths come in files: a command naming them would be refused before the build.
    for (file, text) in [
        ("victim", victim.display().to_string()),
        ("results", out.canonicalize().unwrap().display().to_string()),
        ("port", listener.local_addr().unwrap().port().to_string()),
        ("marker", marker.clone()),
        ("host_tmp", host_tmp.display().to_string()),
    ] {
        std::fs::write(mallory.join(file), text).unwrap();
    }
    std::fs::write(
        mallory.join("build.sh"),
        r#"try() { if sh -c "$2" >/dev/null 2>&1; then echo "$1: worked"; else echo "$1: failed"; fi; }
try "read the victim" "cat $(cat victim)/bot.py"
try "change the victim" "echo '# owned' >> $(cat victim)/bot.py"
try "write the results" "echo x > $(cat results)/pwned"
try "read a root-only file" "cat /etc/shadow"
try "connect" "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", $(cat port)), 1)'"
echo x > "$(cat host_tmp)"
setsid python3 -c 'import time; time.sleep(1000)' "$(cat marker)" >/dev/null 2>&1 < /dev/null &
dd if=/dev/zero of=big bs=1M count=1200 2>/dev/null
echo "wrote $(( $(stat -c %s big) >> 20 )) MiB"
exit 1
"#,
    )
    .unwrap();
    manifest(
        &q,
        "mallory",
        "name = \"mallory\"\nauthor = \"M\"\nbuild = \"sh build.sh\"\ncommand = \"./bot\"\n",
    );
    let cfg = config(&q);
    let run = q.run(&[
        "tournament",
        cfg.to_str().unwrap(),
        "--out",
        "out",
        "--quiet",
    ]);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let log = std::fs::read_to_string(out.join("entrants/mallory.build.log")).unwrap();
    let said: Vec<&str> = log.lines().collect();
    assert_eq!(
        said[..5],
        [
            "read the victim: failed",
            "change the victim: failed",
            "write the results: failed",
            "read a root-only file: failed",
            "connect: failed",
        ],
        "{log}"
    );
    let wrote: u64 = said[5]
        .strip_prefix("wrote ")
        .and_then(|w| w.strip_suffix(" MiB"))
        .unwrap()
        .parse()
        .unwrap();
    assert!(wrote <= 1024, "the build wrote {wrote} MiB into its folder");
    assert_eq!(
        std::fs::read(victim.join("bot.py")).unwrap(),
        std::fs::read(Path::new(ROOT).join("bots/starter/python/bot.py")).unwrap()
    );
    assert!(!out.join("pwned").exists() && !host_tmp.exists());
    assert_eq!(
        listener.accept().map(drop).map_err(|e| e.kind()),
        Err(std::io::ErrorKind::WouldBlock),
        "the build connected"
    );
    let left: Vec<i32> = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| c.split(|&b| b == 0).any(|w| w == marker.as_bytes()))
        })
        .collect();
    assert_eq!(left, Vec::<i32>::new(), "the build's process outlived it");
    // The failed build left nothing to run; the event went on without it.
    let v = verdicts(&out);
    assert_eq!((v[1].0.as_str(), v[1].1), ("mallory", false));
    assert!(
        v[1].2.starts_with("build failed: exit status 1 "),
        "{}",
        v[1].2
    );

    // The same event with the sandbox off: every attack works (so the test above can fail).
    let text = std::fs::read_to_string(&cfg).unwrap();
    std::fs::write(
        &cfg,
        text.replacen("entrants = ", "sandbox = \"off\"\nentrants = ", 1),
    )
    .unwrap();
    let run = q.run(&[
        "tournament",
        cfg.to_str().unwrap(),
        "--out",
        "off",
        "--quiet",
    ]);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let log = std::fs::read_to_string(q.dir().join("off/entrants/mallory.build.log")).unwrap();
    let root = nix::unistd::geteuid().is_root();
    for line in [
        "read the victim",
        "change the victim",
        "write the results",
        "connect",
    ] {
        assert!(log.contains(&format!("{line}: worked")), "{line}: {log}");
    }
    assert!(
        !root || log.contains("read a root-only file: worked"),
        "{log}"
    );
    assert!(host_tmp.exists() && out.join("pwned").exists());
    for pid in std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
    {
        if std::fs::read(format!("/proc/{pid}/cmdline"))
            .is_ok_and(|c| c.split(|&b| b == 0).any(|w| w == marker.as_bytes()))
        {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
    let _ = std::fs::remove_file(&host_tmp);
}
