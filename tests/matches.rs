//! Integration tests of `quads match` through the binary: real bot processes over the real
//! protocol, their records checked move by move, the same seed giving the same records, bad
//! bots and arguments in one line, and the walls a match records.

mod common;

use common::{games, Quads};
use std::path::Path;

/// The bundled bots, named in a bots file with absolute paths so that any folder works (the
/// Python starter in its own folder, all its box shows it).
fn bots_file(q: &Quads) -> String {
    let bot = common::quads_bot();
    let starter = Path::new(env!("CARGO_MANIFEST_DIR")).join("bots/starter/python");
    let text = format!(
        "[[bot]]\nname = \"random\"\ncommand = \"{b} --strategy random\"\n\n\
         [[bot]]\nname = \"greedy\"\ncommand = \"{b} --strategy greedy\"\n\n\
         [[bot]]\nname = \"starter\"\ncommand = \"python3 bot.py\"\ndir = \"{s}\"\n",
        b = bot.display(),
        s = starter.display()
    );
    let path = q.dir().join("bots.toml");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// Replays every record's moves through the rules core and checks the recorded end and result.
fn check_games(records: &[serde_json::Value]) {
    for r in records {
        let rules: quads_rules::Rules = r["rules"].as_str().unwrap().parse().unwrap();
        let mut pos = quads_rules::Position::START;
        for mv in r["moves"].as_array().unwrap() {
            let mv: quads_rules::Move = mv.as_str().unwrap().parse().unwrap();
            pos = pos.play(mv, &rules).unwrap_or_else(|e| panic!("{e}"));
        }
        assert_eq!(pos.to_string(), r["end"].as_str().unwrap());
        let result = match pos.outcome(&rules) {
            Some(quads_rules::Outcome::Win(quads_rules::Player::First)) => "1-0",
            Some(quads_rules::Outcome::Win(quads_rules::Player::Second)) => "0-1",
            Some(quads_rules::Outcome::Draw) => "1/2-1/2",
            None => panic!("game {} did not end: {r}", r["game"]),
        };
        assert_eq!(r["result"], result);
        assert_eq!(r["failures"].as_array().unwrap().len(), 0, "{r}");
    }
}

fn play(
    q: &Quads,
    bots: [&str; 2],
    rules: &str,
    out: &str,
    extra: &[&str],
) -> Vec<serde_json::Value> {
    play_seeded(q, bots, rules, out, "11", extra)
}

fn play_seeded(
    q: &Quads,
    bots: [&str; 2],
    rules: &str,
    out: &str,
    seed: &str,
    extra: &[&str],
) -> Vec<serde_json::Value> {
    let file = bots_file(q);
    let mut args = vec![
        "match",
        "--bots-file",
        &file,
        "--bot",
        bots[0],
        "--bot",
        bots[1],
        "--rules",
        rules,
        "--games",
        "6",
        "--movetime",
        "5s",
        "--seed",
        seed,
        "--out",
        out,
        "--quiet",
    ];
    args.extend_from_slice(extra);
    let stdout = q.ok(&args);
    assert!(stdout.contains("6 games,"), "{stdout}");
    let records = common::games(&q.dir().join(out).join("games.jsonl"));
    assert_eq!(records.len(), 6);
    records
}

#[test]
fn random_and_greedy_play_legal_games_under_every_preset() {
    let q = Quads::new();
    for rules in [
        "quads",
        "classic",
        "quads,claim=announce",
        "classic,traits=color,claim=announce",
    ] {
        let games = play(&q, ["random", "greedy"], rules, "m", &[]);
        check_games(&games);
        // Seats alternate: random is first in odd games.
        assert_eq!(games[0]["first"]["name"], "random");
        assert_eq!(games[1]["first"]["name"], "greedy");
    }
}

#[test]
fn the_python_starter_plays_legal_games() {
    let q = Quads::new();
    for rules in ["quads", "classic,claim=announce"] {
        check_games(&play(&q, ["starter", "greedy"], rules, "m", &[]));
    }
}

/// A record without its `timing` key, as text.
fn without_timing(mut record: serde_json::Value) -> String {
    record.as_object_mut().unwrap().remove("timing");
    record.to_string()
}

#[test]
fn the_same_seed_gives_the_same_records_apart_from_timing() {
    let q = Quads::new();
    let a = play(&q, ["random", "greedy"], "quads", "a", &[]);
    let b = play(&q, ["random", "greedy"], "quads", "b", &[]);
    let c = play(&q, ["random", "greedy"], "quads", "c", &["--keep-alive"]);
    let text =
        |games: Vec<serde_json::Value>| games.into_iter().map(without_timing).collect::<Vec<_>>();
    let (a, b, c) = (text(a), text(b), text(c));
    assert_eq!(a, b);
    assert_eq!(a, c, "keeping bots alive changes no game");
    let other = play_seeded(&q, ["random", "greedy"], "quads", "d", "12", &[]);
    assert_ne!(a, text(other), "another seed plays other games");
}

#[test]
fn match_reports_bad_bots_and_arguments_in_one_line() {
    let q = Quads::new();
    assert_eq!(
        q.fails(&[
            "match",
            "--bot",
            "./no-such-bot",
            "--bot",
            "./no-such-bot",
            "--out",
            "o"
        ]),
        "quads: cannot start bot `./no-such-bot`: No such file or directory (os error 2)"
    );
    assert_eq!(
        q.fails(&["match", "--bot", "a"]),
        "quads: give exactly two --bot (got 1)"
    );
    assert_eq!(
        q.fails(&["match", "--bot", "a", "--bot", "b", "--movetime", "soon"]),
        "quads: bad duration `soon`: expected number at 0 (examples: 60s, 500ms, 5m)"
    );
    let file = bots_file(&q);
    assert_eq!(
        q.fails(&[
            "match",
            "--bots-file",
            &file,
            "--bot",
            "random",
            "--bot",
            "greedy",
            "--bots-file",
            &file
        ]),
        "quads: the argument '--bots-file <FILE>' cannot be used multiple times"
    );
    std::fs::write(
        q.dir().join("bad.toml"),
        "[[bot]]\nname = \"x\"\ncomand = \"y\"\n",
    )
    .unwrap();
    let err = q.fails(&[
        "match",
        "--bots-file",
        "bad.toml",
        "--bot",
        "x",
        "--bot",
        "x",
    ]);
    assert_eq!(
        err,
        "quads: bad.toml (line 3): unknown field `comand`, expected one of `name`, `command`, \
         `shell`, `dir`, `env`, `options`, `time`, `sandbox`, `ponder`"
    );
}

/// Regression: a match's summary named a bot given as a command line by that whole command
/// line; it now uses the `id name` the bot gave in its handshake.
#[test]
fn match_names_a_command_line_bot_by_its_id() {
    let q = Quads::new();
    let starter = Path::new(env!("CARGO_MANIFEST_DIR")).join("bots/starter/python");
    let starter = starter.to_str().unwrap();
    let command = "python3 bot.py".to_owned();
    let file = bots_file(&q);
    let play = |bots: &[&str]| {
        let mut args = vec!["match", "--bots-file", &file, "--dir", starter];
        for bot in bots {
            args.extend(["--bot", bot]);
        }
        args.extend([
            "--games",
            "2",
            "--seed",
            "3",
            "--movetime",
            "5s",
            "--out",
            "o",
        ]);
        q.ok(&args)
    };
    // The same id twice: the names stay the command lines, told apart.
    let out = play(&[&command, &command]);
    assert!(out.contains(&format!("{command}#1: ")), "{out}");
    let out = play(&[&command, "random"]);
    let summary: Vec<&str> = out.lines().filter(|l| l.contains(" wins, ")).collect();
    assert_eq!(summary.len(), 2, "{out}");
    assert!(summary[0].starts_with("python-starter: "), "{out}");
    assert!(summary[1].starts_with("random: "), "{out}");
    let games = out.lines().filter(|l| l.starts_with("game "));
    assert!(
        games.clone().count() == 2 && games.clone().all(|l| !l.contains("python3")),
        "{out}"
    );
}

/// Regression: `java -cp DIR Bot` (and any bot whose command names a file outside its folder)
/// lost every game with only "exited with status 1 while waiting for quadsok"; the forfeit now
/// says what the bot wrote last and what it could read, and `--dir` gives it its folder.
#[test]
fn a_bot_that_cannot_read_its_files_is_told_why_and_dir_mends_it() {
    let q = Quads::new();
    let starter = Path::new(env!("CARGO_MANIFEST_DIR")).join("bots/starter/python/bot.py");
    let command = format!("python3 {}", starter.display());
    let random = format!("{} --strategy random", common::quads_bot().display());
    let args = |dir: Option<&str>| {
        let mut a = vec![
            "match",
            "--bot",
            &command,
            "--bot",
            &random,
            "--games",
            "1",
            "--movetime",
            "5s",
            "--out",
            "o",
        ];
        if let Some(d) = dir {
            a.extend(["--dir", d]);
        }
        a.into_iter().map(str::to_owned).collect::<Vec<String>>()
    };
    let out = q.ok(&args(None).iter().map(String::as_str).collect::<Vec<_>>());
    let here = q.dir().canonicalize().unwrap();
    let expected = format!(
        "exited with status 2 while waiting for quadsok; its stderr ends: python3: can't open file '{}': [Errno 2] No such file or directory; in its sandbox it could read only {} and the system's folders",
        starter.display(),
        here.display()
    );
    assert!(out.contains(&expected), "{out}");
    let kit = starter.parent().unwrap().to_str().unwrap().to_owned();
    let out = q.ok(&args(Some(&kit))
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>());
    // Now the kit plays.
    assert!(!out.contains("crash"), "{out}");
    assert_eq!(
        games(&q.dir().join("o/games.jsonl"))[0]["failures"],
        serde_json::json!([])
    );
}

#[test]
fn sandbox_names_each_protection_and_a_match_records_the_walls() {
    let q = Quads::new();
    let report = q.ok(&["sandbox"]);
    let lines: Vec<(&str, &str)> = report
        .lines()
        .map(|l| {
            let mut w = l.split_whitespace();
            (w.next().unwrap(), w.next().unwrap())
        })
        .collect();
    // This machine (and CI's) gives every protection; a machine that does not fails here.
    assert_eq!(
        lines,
        [
            ("on", "filesystem"),
            ("on", "tmp"),
            ("on", "isolation"),
            ("on", "network"),
            ("on", "memory"),
            ("on", "processes"),
            ("on", "cores"),
            ("on", "pause"),
            ("on", "cpu"),
            ("on", "file_size"),
            ("on", "syscalls"),
            ("on", "landlock"),
            ("on", "privileges"),
        ],
        "{report}"
    );
    let bots = bots_file(&q);
    let walls = |spec: &str| {
        q.ok(&[
            "match",
            "--bots-file",
            &bots,
            "--bot",
            "greedy",
            "--bot",
            "random",
            "--games",
            "2",
            "--movetime",
            "1s",
            "--quiet",
            "--sandbox",
            spec,
            "--out",
            "m",
        ]);
        // Each game's record carries the same walls as sandbox.txt.
        let text = std::fs::read_to_string(q.dir().join("m/sandbox.txt")).unwrap();
        let lines: Vec<String> = games(&q.dir().join("m/games.jsonl"))
            .iter()
            .flat_map(|g| {
                ["first", "second"].map(|s| (g[s]["name"].clone(), g[s]["sandbox"].clone()))
            })
            .map(|(name, walls)| {
                format!("{}: {}\n", name.as_str().unwrap(), walls.as_str().unwrap())
            })
            .collect();
        for line in &lines {
            assert!(text.contains(line.as_str()), "{line} not in {text}");
        }
        assert_eq!(lines.len(), 4);
        text
    };
    let header =
        "# The walls each bot ran inside (docs/sandbox.md); `quads sandbox` says why any is off.\n";
    assert_eq!(
        walls("processes=128,network=on"),
        format!(
            "{header}greedy: memory=1GiB,processes=128,cpu=600s,cores=1,file_size=64MiB,tmp=64MiB,network=on,filesystem=on,isolation=on,syscalls=on\n\
             random: memory=1GiB,processes=128,cpu=600s,cores=1,file_size=64MiB,tmp=64MiB,network=on,filesystem=on,isolation=on,syscalls=on\n"
        )
    );
    assert_eq!(walls("off"), format!("{header}greedy: off\nrandom: off\n"));
    assert_eq!(
        q.fails(&["match", "--bot", "greedy", "--bot", "random", "--sandbox", "memory=lots"]),
        "quads: invalid value 'memory=lots' for '--sandbox <SPEC>': bad sandbox spec `memory=lots`: memory takes a size (1GiB, 512MiB, a number of bytes) or off"
    );
}
