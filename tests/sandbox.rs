//! The sandbox from the command line, as a host runs it: a referee killed with SIGKILL takes
//! every process of its bots with it, and a referee run by an ordinary user builds the walls
//! that user can have (with and without a cgroup delegated to it) and says which.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{boxes_of, marked, Quads};

const FIXTURES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/harness/referee/tests/fixtures"
);

/// Waits until `done` holds, or `limit` has passed; whether it held.
fn within(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + limit;
    loop {
        if done() {
            return true;
        }
        if Instant::now() >= end {
            return false;
        }
        std::thread::yield_now();
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Starts a match of two bots that hang at their first move, each with two helpers in
/// sessions of their own whose environment is empty (nothing a referee could track them by
/// but a box), inside walls `sandbox`; kills the referee with SIGKILL once all four helpers
/// run. Returns the referee's pid and a count of the helpers.
fn kill_a_referee(q: &Quads, marker: &str, sandbox: &str) -> u32 {
    let bot = format!("python3 bad_bot.py sleepers {marker}");
    let mut referee = q
        .command(&[
            "match",
            "--bot",
            &bot,
            "--bot",
            &bot,
            "--dir",
            FIXTURES,
            "--games",
            "1",
            "--movetime",
            "60s",
            "--quiet",
            "--sandbox",
            sandbox,
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Every process of theirs carries the marker (the bots, the launchers, the helpers).
    let helpers = || {
        marked(marker)
            .into_iter()
            .filter(|pid| {
                std::fs::read(format!("/proc/{pid}/cmdline"))
                    .is_ok_and(|c| c.starts_with(b"/") && c.windows(10).any(|w| w == b"time.sleep"))
            })
            .count()
    };
    assert!(
        within(Duration::from_secs(20), || helpers() == 4),
        "the helpers did not start: {:?}",
        marked(marker)
    );
    if sandbox == "on" {
        assert!(
            !boxes_of(referee.id()).is_empty(),
            "the bots are not in boxes of their own"
        );
    }
    referee.kill().unwrap(); // SIGKILL
    referee.wait().unwrap();
    referee.id()
}

#[test]
fn a_referee_killed_with_sigkill_leaves_nothing_of_its_bots() {
    if !common::needs(&["root"]) {
        return;
    }
    let q = Quads::new();
    // Without the walls the helpers outlive it (and are cleaned up here).
    let marker = format!("quads-sigkill-off-{}", std::process::id());
    kill_a_referee(&q, &marker, "off");
    assert!(
        !within(Duration::from_secs(1), || marked(&marker).is_empty()),
        "nothing outlived an unwalled referee: the test cannot fail"
    );
    for pid in marked(&marker) {
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(pid),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
    let marker = format!("quads-sigkill-{}", std::process::id());
    let referee = kill_a_referee(&q, &marker, "on");
    assert!(
        within(Duration::from_secs(1), || marked(&marker).is_empty()),
        "a second after the referee's end, its bots' processes are there: {:?}",
        marked(&marker)
    );
    assert!(
        within(Duration::from_secs(1), || boxes_of(referee).is_empty()),
        "{:?}",
        boxes_of(referee)
    );
}

/// Runs `quads ARGS` as the user `quadstest` (made if missing) in `dir`, from a shell that root
/// first moves into cgroup `cgroup` when given.
fn as_user(dir: &Path, args: &[&str], cgroup: Option<&Path>) -> std::process::Output {
    if Command::new("id")
        .arg("quadstest")
        .output()
        .is_ok_and(|o| !o.status.success())
    {
        let made = Command::new("useradd")
            .args(["--no-create-home", "--shell", "/bin/sh", "quadstest"])
            .status()
            .unwrap();
        assert!(made.success(), "cannot make the user quadstest");
    }
    let quads = env!("CARGO_BIN_EXE_quads");
    let mut line = String::new();
    if let Some(cg) = cgroup {
        line.push_str(&format!("echo $$ > {}/cgroup.procs && ", cg.display()));
    }
    line.push_str(&format!(
        "cd {} && exec runuser -u quadstest -- {quads}",
        dir.display()
    ));
    for a in args {
        line.push_str(&format!(" '{a}'"));
    }
    Command::new("sh").args(["-c", &line]).output().unwrap()
}

/// `on`/`off` and the name of each line of `quads sandbox`.
fn states(report: &str) -> Vec<(String, String)> {
    report
        .lines()
        .map(|l| {
            let mut w = l.split_whitespace();
            (w.next().unwrap().to_owned(), w.next().unwrap().to_owned())
        })
        .collect()
}

/// Every line of `quads sandbox`, in its order.
const ALL: [&str; 13] = [
    "filesystem",
    "tmp",
    "isolation",
    "network",
    "memory",
    "processes",
    "cores",
    "pause",
    "cpu",
    "file_size",
    "syscalls",
    "landlock",
    "privileges",
];

fn expect(on: &[&str]) -> Vec<(String, String)> {
    ALL.iter()
        .map(|n| {
            (
                (if on.contains(n) { "on" } else { "off" }).to_owned(),
                (*n).to_owned(),
            )
        })
        .collect()
}

#[test]
fn an_ordinary_user_gets_the_walls_it_can_have_and_is_told_which() {
    if !common::needs(&["root"]) {
        return;
    }
    assert!(
        nix::unistd::geteuid().is_root(),
        "this test makes a user: run it as root (CI does)"
    );
    let q = Quads::new();
    std::fs::set_permissions(
        q.dir(),
        <std::fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o777),
    )
    .unwrap();
    // This machine's cgroups belong to root: a user without a delegated one has no cgroup
    // walls, and is told so; the namespaces, the filter and Landlock it has.
    let out = as_user(q.dir(), &["sandbox"], None);
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let namespaces = [
        "filesystem",
        "tmp",
        "isolation",
        "network",
        "processes",
        "cpu",
        "file_size",
        "syscalls",
        "landlock",
        "privileges",
    ];
    assert_eq!(states(&report), expect(&namespaces), "{report}");
    let bot = common::quads_bot();
    let random = format!("{} --strategy random", bot.display());
    let greedy = format!("{} --strategy greedy", bot.display());
    let play = |cgroup: Option<&Path>, out: &str| {
        let run = as_user(
            q.dir(),
            &[
                "match",
                "--bot",
                &greedy,
                "--bot",
                &random,
                "--games",
                "2",
                "--movetime",
                "5s",
                "--no-ponder",
                "--out",
                out,
            ],
            cgroup,
        );
        let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
        assert!(run.status.success(), "{stderr}");
        for g in common::games(&q.dir().join(out).join("games.jsonl")) {
            assert_eq!(g["failures"], serde_json::json!([]), "{g}");
        }
        stderr
    };
    let warned = play(None, "plain");
    assert!(warned.contains("quads: warning: the sandbox's `memory` limit holds per process only on this machine (RLIMIT_DATA)"), "{warned}");

    // With a cgroup v2 folder of its own (what systemd's Delegate=yes gives), it has the
    // freezer there too.
    let unified = ["/sys/fs/cgroup/unified", "/sys/fs/cgroup"]
        .into_iter()
        .map(Path::new)
        .find(|p| p.join("cgroup.procs").exists() && p.join("cgroup.subtree_control").exists())
        .expect("a cgroup v2 hierarchy");
    let delegated = unified.join(format!("quads-test-{}", std::process::id()));
    std::fs::create_dir(&delegated).unwrap();
    for f in [
        "",
        "cgroup.procs",
        "cgroup.subtree_control",
        "cgroup.threads",
    ] {
        let path = if f.is_empty() {
            delegated.clone()
        } else {
            delegated.join(f)
        };
        let _ = Command::new("chown")
            .args(["quadstest:", path.to_str().unwrap()])
            .status();
    }
    let out = as_user(q.dir(), &["sandbox"], Some(&delegated));
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut with_pause = namespaces.to_vec();
    with_pause.push("pause");
    assert_eq!(states(&report), expect(&with_pause), "{report}");
    play(Some(&delegated), "delegated");
    // Clean up: the referee moved itself into a leaf, its boxes went beside it.
    for sub in ["referee", "quads-arena"] {
        let _ = std::fs::remove_dir(delegated.join(sub));
    }
    let _ = std::fs::remove_dir(&delegated);
}

/// A build under a folder only root may pass (a clone made by `mktemp -d`, a home of mode
/// 0700) keeps every wall this machine has, though the boxes run as a user who cannot pass
/// that folder: the probe's boxes and the bots' boxes alike.
#[test]
fn a_build_under_a_private_folder_keeps_every_wall() {
    if !common::needs(&["root"]) {
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let private = tempfile::tempdir().unwrap();
    std::fs::set_permissions(private.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let bin = private.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let built = Path::new(env!("CARGO_BIN_EXE_quads")).parent().unwrap();
    for program in ["quads", "quads-jail", "quads-bot"] {
        std::fs::copy(built.join(program), bin.join(program)).unwrap();
    }
    let report = |quads: &Path| {
        let out = Command::new(quads)
            .arg("sandbox")
            .env_remove("QUADS_JAIL")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let there = report(&bin.join("quads"));
    assert_eq!(states(&there), expect(&ALL), "{there}");
    assert_eq!(
        there,
        report(Path::new(env!("CARGO_BIN_EXE_quads"))),
        "the private build's walls differ from the plain build's"
    );

    // And real bots from that folder play in every wall.
    let q = Quads::new();
    let bot = bin.join("quads-bot");
    let random = format!("{} --strategy random", bot.display());
    let greedy = format!("{} --strategy greedy", bot.display());
    // `quads match` of the private build's greedy and random bots, from `q`'s folder.
    let play = |extra: &[&str]| {
        let mut args = vec!["match", "--bot", &greedy, "--bot", &random];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--movetime", "5s", "--sandbox", "on"]);
        Command::new(bin.join("quads"))
            .args(&args)
            .env_remove("QUADS_JAIL")
            .current_dir(q.dir())
            .output()
            .unwrap()
    };
    let out = play(&["--games", "2", "--out", "private"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");
    let games = common::games(&q.dir().join("private").join("games.jsonl"));
    assert_eq!(games.len(), 2);
    for g in games {
        assert_eq!(g["failures"], serde_json::json!([]), "{g}");
    }

    // A bot whose own folder is that private folder cannot be entered by its box's user: the
    // match does not start, and says why and what to do in one line.
    let folder = private.path().to_str().unwrap();
    let out = play(&["--dir", folder, "--games", "1", "--out", "shut"]);
    // Exit 2: the run could not start (the CLI's code for bad input).
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "quads: cannot start bot `{greedy}`: the box's user may not enter {folder} (mode 0700): \
             let others in (`chmod o+x {folder}`) or run from a folder they may enter\n"
        )
    );
    let played = std::fs::read_to_string(q.dir().join("shut").join("games.jsonl"));
    assert_eq!(played.unwrap_or_default(), "", "no game is played");
}
