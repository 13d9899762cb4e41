//! The starter kits (bots/starter/*): each is a real program in its language, built as its
//! README says, run through `quads check` (every scenario passes), and played through `quads match` against the bundled random bot under every kind
//! of rules: no game of a kit may end in its forfeit, and the same seed gives the same games.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{games, quads_bot, Quads};

/// Presets, a trait subset, Quads without its 2x2 squares, and both presets with claims.
const RULES: [&str; 6] = [
    "quads",
    "classic",
    "classic,traits=color",
    "quads,squares=off",
    "quads,claim=announce",
    "classic,claim=announce",
];

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The command line that starts each kit, and the folder it runs in (all its box shows it of
/// the machine beside the system's folders), building the compiled kits first into `dir`.
fn kit(name: &str, dir: &Path) -> (String, PathBuf) {
    let starter = repo().join("bots/starter").join(name);
    let (command, folder) = match name {
        "python" => ("python3 bot.py".to_owned(), starter),
        "javascript" => ("node bot.js".to_owned(), starter),
        "java" => {
            // `java -cp DIR Bot`, the command a new user tries first.
            let classes = dir.join("classes");
            let built = Command::new("javac")
                .args(["-Xlint:all", "-Werror", "-d"])
                .arg(&classes)
                .arg(starter.join("Bot.java"))
                .output()
                .expect("javac runs");
            assert!(
                built.status.success(),
                "the Java kit does not build cleanly: {}",
                String::from_utf8_lossy(&built.stderr)
            );
            (
                format!("java -cp {} Bot", classes.display()),
                dir.to_path_buf(),
            )
        }
        "c" => {
            let binary = dir.join("c-starter");
            let built = Command::new("cc")
                .args(["-O2", "-Wall", "-Wextra", "-Werror", "-o"])
                .arg(&binary)
                .arg(starter.join("bot.c"))
                .output()
                .expect("cc runs");
            assert!(
                built.status.success(),
                "the C kit does not build cleanly: {}",
                String::from_utf8_lossy(&built.stderr)
            );
            (binary.display().to_string(), dir.to_path_buf())
        }
        "rust" => {
            // A package of its own (the kit is meant to be copied out), built as its README
            // says, into a target folder beside the project's.
            let target = quads_bot()
                .parent()
                .and_then(Path::parent)
                .expect("the target folder")
                .join("starter-rust");
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
            let built = Command::new(cargo)
                .args(["build", "--release", "--quiet", "--manifest-path"])
                .arg(starter.join("Cargo.toml"))
                .arg("--target-dir")
                .arg(&target)
                .output()
                .expect("cargo runs");
            assert!(
                built.status.success(),
                "the Rust kit does not build: {}",
                String::from_utf8_lossy(&built.stderr)
            );
            let binary: PathBuf = target.join("release/starter");
            (binary.display().to_string(), target.join("release"))
        }
        _ => unreachable!("no kit {name}"),
    };
    (command, folder)
}

/// Plays `games` games of `bot` against the random bot under `rules`, the bots kept alive
/// across games; returns the records.
fn play(
    q: &Quads,
    (bot, folder): &(String, PathBuf),
    rules: &str,
    seed: &str,
    out: &str,
) -> Vec<serde_json::Value> {
    let random = format!("{} --strategy random", quads_bot().display());
    q.ok(&[
        "match",
        "--bot",
        bot,
        "--bot",
        &random,
        "--dir",
        folder.to_str().unwrap(),
        "--dir",
        ".",
        "--rules",
        rules,
        "--games",
        "6",
        "--seed",
        seed,
        "--movetime",
        "5s",
        "--keep-alive",
        "--out",
        out,
        "--quiet",
    ]);
    games(&q.dir().join(out).join("games.jsonl"))
}

fn passes_the_checker_and_plays_every_variant(name: &str) {
    let q = Quads::new();
    // The compiled kits' folders must be readable by the box's user, as a host's are.
    std::fs::set_permissions(
        q.dir(),
        <std::fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o755),
    )
    .unwrap();
    let bot = kit(name, q.dir());
    let mut args = vec![
        "check",
        "--movetime",
        "5s",
        "--dir",
        bot.1.to_str().unwrap(),
        "--",
    ];
    args.extend(bot.0.split(' '));
    let out = q.run(&args);
    let text = String::from_utf8(out.stdout).unwrap();
    let scenarios = quads_referee::check::scenarios(&[]).len();
    assert_eq!(out.status.code(), Some(0), "{name}: {text}");
    assert!(
        text.lines()
            .last()
            .unwrap()
            .starts_with(&format!("{scenarios} of {scenarios} scenarios passed, ")),
        "{name}: {text}"
    );
    for (i, rules) in RULES.iter().enumerate() {
        let records = play(&q, &bot, rules, "7", &format!("out{i}"));
        assert_eq!(records.len(), 6);
        for r in &records {
            assert_eq!(
                r["failures"],
                serde_json::json!([]),
                "{name} under {rules}: {r}"
            );
            assert!(
                ["normal", "draw"].contains(&r["reason"].as_str().unwrap()),
                "{name} under {rules}: {r}"
            );
        }
    }
    // The kit seeds its choices from the game's seed: the same seed, the same games.
    let moves = |out: &str| -> Vec<serde_json::Value> {
        play(&q, &bot, "quads", "11", out)
            .into_iter()
            .map(|r| r["moves"].clone())
            .collect()
    };
    assert_eq!(
        moves("again1"),
        moves("again2"),
        "{name} is not deterministic"
    );
}

#[test]
fn the_python_kit_passes_the_checker_and_plays_every_variant() {
    passes_the_checker_and_plays_every_variant("python");
}

#[test]
fn the_c_kit_passes_the_checker_and_plays_every_variant() {
    if !common::needs(&["cc"]) {
        return;
    }
    passes_the_checker_and_plays_every_variant("c");
}

#[test]
fn the_javascript_kit_passes_the_checker_and_plays_every_variant() {
    if !common::needs(&["node"]) {
        return;
    }
    passes_the_checker_and_plays_every_variant("javascript");
}

#[test]
fn the_rust_kit_passes_the_checker_and_plays_every_variant() {
    passes_the_checker_and_plays_every_variant("rust");
}

#[test]
fn the_java_kit_passes_the_checker_and_plays_every_variant() {
    if !common::needs(&["javac", "java"]) {
        return;
    }
    passes_the_checker_and_plays_every_variant("java");
}

/// The Python kit with Debian's Python first on the `PATH` instead of pyenv's (or whatever
/// the machine has first): the box shows each interpreter by its own installation.
#[test]
fn the_python_kit_plays_with_the_systems_python_too() {
    if !common::needs(&["/usr/bin/python3"]) {
        return;
    }
    let q = Quads::new();
    let system = Path::new("/usr/bin/python3");
    assert!(
        system.exists(),
        "Debian's python3 is missing (.ci/run installs it)"
    );
    let kit = repo().join("bots/starter/python");
    let random = format!("{} --strategy random", quads_bot().display());
    let out = q
        .command(&[
            "match",
            "--bot",
            "python3 bot.py",
            "--bot",
            &random,
            "--dir",
            kit.to_str().unwrap(),
            "--dir",
            ".",
            "--games",
            "2",
            "--movetime",
            "5s",
            "--out",
            "o",
            "--quiet",
        ])
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for r in games(&q.dir().join("o/games.jsonl")) {
        assert_eq!(r["failures"], serde_json::json!([]), "{r}");
    }
}

/// A Go program (tests/fixtures/gobot, first square and first piece) under the default walls:
/// the Go runtime's threads and memory fit a box, as the JVM's do.
#[test]
fn a_go_bot_plays_under_the_default_walls() {
    if !common::needs(&["go"]) {
        return;
    }
    let q = Quads::new();
    std::fs::set_permissions(
        q.dir(),
        <std::fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o755),
    )
    .unwrap();
    let built = Command::new("go")
        .args(["build", "-o"])
        .arg(q.dir().join("gobot"))
        .arg("main.go")
        .current_dir(repo().join("tests/fixtures/gobot"))
        .env("GOCACHE", q.dir().join("go-cache"))
        .env("GOFLAGS", "-mod=mod")
        .output()
        .expect("go runs (Debian's golang-go; .ci/run installs it)");
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let records = play(
        &q,
        &("./gobot".to_owned(), q.dir().to_path_buf()),
        "quads",
        "3",
        "go",
    );
    assert_eq!(records.len(), 6);
    for r in &records {
        assert_eq!(r["failures"], serde_json::json!([]), "{r}");
    }
}

/// The JVM sizes itself from its box: it sees the box's memory limit and its CPU quota (in the
/// box's own cgroups, shown read-only), not the machine's 24 GiB and every core.
#[test]
fn the_jvm_sees_its_boxs_limits() {
    if !common::needs(&["javac", "java"]) {
        return;
    }
    let q = Quads::new();
    let show =
        "java -XshowSettings:system -version 2>&1 | grep -E 'Memory Limit|Effective CPU Count' >&2";
    let random = format!("{} --strategy random", quads_bot().display());
    q.ok(&[
        "match",
        "--shell",
        "--bot",
        show,
        "--bot",
        &random,
        "--games",
        "1",
        "--movetime",
        "20s",
        "--handshake-timeout",
        "20s",
        "--out",
        "o",
        "--quiet",
    ]);
    let logs = std::fs::read_dir(q.dir().join("o/logs")).unwrap();
    let text: String = logs
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    assert!(lines.contains(&"Memory Limit: 1.00G"), "{text}");
    assert!(lines.contains(&"Effective CPU Count: 1"), "{text}");
}
