//! A competition from a folder of entrants (`entrants = "DIR"` in a tournament config), run
//! for real: manifests read, builds run, `quads check` on each entrant, the reports, a resumed
//! run that checks nothing again, and `configs/competition.toml` with the example entrants.

mod common;
mod entrants_common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use common::Quads;
use entrants_common::{config, give, json, manifest, verdicts};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The check's scenario `name` of entrant `entrant` in `entrants.json`.
fn scenario(out: &Path, entrant: &str, name: &str) -> serde_json::Value {
    let all = json(&out.join("entrants.json"));
    let e = all["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == entrant)
        .unwrap_or_else(|| panic!("no entrant {entrant}"))
        .clone();
    e["check"]["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["scenario"] == name)
        .unwrap_or_else(|| panic!("{entrant} has no scenario {name}"))
        .clone()
}

/// The reason of an entrant that failed the check, rebuilt from its reports: the first failing
/// scenario and its hint, and how many more failed.
fn first_failure(out: &Path, entrant: &str) -> String {
    let all = json(&out.join("entrants.json"));
    let e = all["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == entrant)
        .unwrap()
        .clone();
    let failing: Vec<&serde_json::Value> = e["check"]["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["ok"] == false)
        .collect();
    assert!(failing.len() > 2, "{entrant} fails several scenarios");
    format!(
        "FAIL {}: {} (and {} more failing scenarios)",
        failing[0]["scenario"].as_str().unwrap(),
        failing[0]["hint"].as_str().unwrap(),
        failing.len() - 1
    )
}

/// Whether `reason` is a passed check's summary: `N of N scenarios passed, W warnings`.
fn all_passed(reason: &str) -> bool {
    let words: Vec<&str> = reason.split(' ').collect();
    words.len() == 7
        && words[0] == words[2]
        && words[0].parse::<u32>().is_ok()
        && words[1..2] == ["of"]
        && words[3..5] == ["scenarios", "passed,"]
        && words[5].parse::<u32>().is_ok()
        && words[6].starts_with("warning")
}

/// The bots of standings.csv's `all` rows, and every bot named in results.csv.
fn bots_of(out: &Path) -> (BTreeSet<String>, BTreeSet<String>) {
    let mut standings = BTreeSet::new();
    for row in csv::Reader::from_path(out.join("standings.csv"))
        .unwrap()
        .records()
    {
        let row = row.unwrap();
        if &row[0] == "all" {
            standings.insert(row[1].to_owned());
        }
    }
    let mut played = BTreeSet::new();
    for row in csv::Reader::from_path(out.join("results.csv"))
        .unwrap()
        .records()
    {
        let row = row.unwrap();
        played.insert(row[4].to_owned());
        played.insert(row[5].to_owned());
    }
    (standings, played)
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|n| (*n).to_owned()).collect()
}

/// stderr of a run, its lines starting `entrants:`.
fn entrant_lines(stderr: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(stderr)
        .lines()
        .filter(|l| l.starts_with("entrants:"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn only_entrants_that_build_and_pass_the_check_play_and_a_second_run_resumes() {
    let q = Quads::new();
    let kit = "python3 bot.py";
    let giver = "python3 bad_bot.py give-own";
    give(&q, "good", "bots/starter/python/bot.py");
    give(&q, "twin", "bots/starter/python/bot.py");
    give(&q, "giver", "harness/referee/tests/fixtures/bad_bot.py");
    // Folders sort: brick, giver, good, twin, typo.
    manifest(
        &q,
        "good",
        &format!("name = \"good\"\nauthor = \"Gus\"\nlanguage = \"Python\"\ncommand = \"{kit}\"\nbuild = \"echo built >> builds.txt\"\n"),
    );
    manifest(
        &q,
        "brick",
        "name = \"brick\"\nauthor = \"Bea\"\ncommand = \"./brick\"\nbuild = \"echo compiling; echo 'brick.c:1: error' >&2; exit 3\"\n",
    );
    manifest(
        &q,
        "giver",
        &format!("name = \"giver\"\nauthor = \"Gil\"\ncommand = \"{giver}\"\n"),
    );
    manifest(
        &q,
        "typo",
        "name = \"typo\"\nauthor = \"Ty\"\ncomand = \"./typo\"\n",
    );
    manifest(
        &q,
        "twin",
        &format!("name = \"good\"\nauthor = \"Tw\"\ncommand = \"{kit}\"\n"),
    );
    let cfg = config(&q);
    let args = ["tournament", cfg.to_str().unwrap(), "--out", "out"];
    let run = q.run(&args);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let out = q.dir().join("out");

    let brick = "build failed: exit status 3 (last lines of out/entrants/brick.build.log: compiling / brick.c:1: error)";
    let typo = "entrants/typo/bot.toml:3: unknown field `comand`, expected one of `name`, `author`, `command`, `build`, `build_timeout`, `options`, `language`";
    let twin = "entrants/twin/bot.toml:1: name `good` is taken by entrants/good/bot.toml";
    let giver_reason = first_failure(&out, "giver");
    let v = verdicts(&out);
    let expected = [
        ("brick", false, brick.to_owned()),
        ("giver", false, giver_reason.clone()),
        ("good", true, v[2].2.clone()),
        ("good", false, twin.to_owned()),
        ("typo", false, typo.to_owned()),
    ];
    let expected: Vec<(String, bool, String)> = expected
        .into_iter()
        .map(|(n, a, r)| (n.to_owned(), a, r))
        .collect();
    assert_eq!(v, expected);
    assert!(all_passed(&v[2].2), "{}", v[2].2);
    // The failure the fixture is made for, with the lines exchanged.
    let placement = scenario(&out, "giver", "placement and give (classic)");
    assert_eq!(
        placement["hint"],
        "`A1 BDRF` is not legal here: piece BDRF is not available"
    );
    assert_eq!(
        placement["exchange"].as_array().unwrap().last().unwrap(),
        &serde_json::json!({"from": "referee", "line": "quit"})
    );
    let all = json(&out.join("entrants.json"));
    let first = &all["entrants"][0];
    assert_eq!(
        (&first["author"], &first["language"], &first["folder"]),
        (
            &serde_json::json!("Bea"),
            &serde_json::json!(""),
            &serde_json::json!("entrants/brick")
        )
    );
    assert_eq!(first["build_log"], "out/entrants/brick.build.log");
    assert_eq!(first["check"], serde_json::Value::Null);
    assert_eq!(
        std::fs::read_to_string(out.join("entrants/brick.build.log")).unwrap(),
        "compiling\nbrick.c:1: error\n"
    );

    let md = std::fs::read_to_string(out.join("entrants.md")).unwrap();
    for line in [
        "| name | author | language | status | reason |",
        &format!("| brick | Bea |  | left out | {brick} |"),
        &format!("| giver | Gil |  | left out | {giver_reason} |"),
        &format!("| good | Gus | Python | admitted | {} |", v[2].2),
        &format!("| good | Tw |  | left out | {twin} |"),
        &format!("| typo | Ty |  | left out | {typo} |"),
        "### giver (entrants/giver)",
        "FAIL  placement and give (classic): `A1 BDRF` is not legal here: piece BDRF is not available",
        "          bot< move A1 BDRF",
        "The end of `out/entrants/brick.build.log`:",
        "brick.c:1: error",
    ] {
        assert!(md.lines().any(|l| l == line), "no line {line:?} in\n{md}");
    }
    assert!(
        !md.contains("ok    handshake"),
        "only failing scenarios of giver: {md}"
    );

    // Only admitted bots play: greedy and good, one pair in one variant.
    let (standings, played) = bots_of(&out);
    assert_eq!(standings, set(&["good", "greedy"]));
    assert_eq!(played, set(&["good", "greedy"]));
    assert_eq!(common::games(&out.join("games.jsonl")).len(), 2);

    let lines = entrant_lines(&run.stderr);
    assert_eq!(
        lines,
        [
            "entrants: building brick".to_owned(),
            "entrants: checking giver".to_owned(),
            "entrants: building good".to_owned(),
            "entrants: checking good".to_owned(),
            format!("entrants: 1 admitted, 4 left out (brick: {brick}; giver: {giver_reason}; good: {twin}; typo: {typo})"),
        ]
    );
    // The build ran in a copy of the entrant's folder: the folder itself is as it was.
    let builds = q.dir().join("entrants/good/builds.txt");
    assert!(
        !builds.exists(),
        "the build wrote into the entrant's own folder"
    );

    // Run again: it resumes. Nothing is checked again, the admitted entrant is built again,
    // and every file is as it was.
    let files = || -> Vec<Vec<u8>> {
        [
            "entrants.json",
            "entrants.md",
            "games.jsonl",
            "results.csv",
            "standings.csv",
        ]
        .iter()
        .map(|f| std::fs::read(out.join(f)).unwrap())
        .collect()
    };
    let before = files();
    let again = q.run(&args);
    assert_eq!(
        again.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let lines = entrant_lines(&again.stderr);
    assert_eq!(
        lines,
        [
            "entrants: building good".to_owned(),
            format!("entrants: 1 admitted, 4 left out (brick: {brick}; giver: {giver_reason}; good: {twin}; typo: {typo}); as out/entrants.json says (a resumed run checks nothing again)"),
        ]
    );
    assert!(
        !builds.exists(),
        "the build wrote into the entrant's own folder"
    );
    let after = files();
    assert!(before == after, "a resumed run changed the files");
}

#[test]
fn bad_manifests_are_one_line_each_and_too_few_bots_stop_the_event() {
    let q = Quads::new();
    manifest(
        &q,
        "a",
        "name = \"ann\"\nauthor = \"Ann\"\ncommand = \"./ann\"\nbuild = \"exit 1\"\n",
    );
    manifest(
        &q,
        "b",
        "name = \"ann\"\nauthor = \"B\"\ncommand = \"./b\"\n",
    );
    manifest(&q, "c", "name = \"cy\"\nauthor = \"C\"\n");
    manifest(
        &q,
        "d",
        "name = \"d\"\nauthor = \"D\"\ncommand = \"./d\"\nbuild_timeout = 5\n",
    );
    manifest(
        &q,
        "e",
        "name = \"greedy\"\nauthor = \"E\"\ncommand = \"./e\"\n",
    );
    manifest(
        &q,
        "f",
        "name = \"f\"\nauthor = \"F\"\ncommand = \"./f\"\noptions = { depth = 6 \n",
    );
    manifest(
        &q,
        "g",
        "name = \"g\"\nauthor = \"G\"\ncommand = \"./g\"\nbuild_timeout = \"1h\"\nshell = true\n",
    );
    std::fs::create_dir_all(q.dir().join("entrants/h")).unwrap();
    // A folder named to inject HTML into the report entrants read.
    std::fs::create_dir_all(q.dir().join("entrants/h<img src=x onerror=alert(1)>")).unwrap();
    // What the box would not show is refused before anything runs: another entrant's code,
    // a path elsewhere, a link out of the folder.
    manifest(
        &q,
        "i",
        "name = \"i\"\nauthor = \"I\"\ncommand = \"python3 ../a/bot.py\"\n",
    );
    let elsewhere = q.dir().join("entrants/a/bot.py");
    manifest(
        &q,
        "j",
        "name = \"j\"\nauthor = \"J\"\nbuild = \"cp /srv/entrants/alice/bot.py .\"\ncommand = \"python3 bot.py\"\n",
    );
    manifest(
        &q,
        "k",
        "name = \"k\"\nauthor = \"K\"\ncommand = \"python3 bot.py\"\n",
    );
    std::os::unix::fs::symlink(&elsewhere, q.dir().join("entrants/k/bot.py")).unwrap();
    let cfg = config(&q);
    let err = q.fails(&[
        "tournament",
        cfg.to_str().unwrap(),
        "--out",
        "out",
        "--quiet",
    ]);
    assert_eq!(
        err,
        format!(
            "quads: {}: a tournament needs at least two bots, found 1 with the admitted entrants (see out/entrants.md)",
            cfg.display()
        )
    );
    let link = format!(
        "entrants/k/bot.toml: `bot.py` is a link out of the entrant's folder (to {})",
        elsewhere.display()
    );
    let reasons: Vec<String> = verdicts(&q.dir().join("out"))
        .into_iter()
        .map(|(_, _, reason)| reason)
        .collect();
    assert_eq!(
        reasons,
        [
            "build failed: exit status 1 (out/entrants/ann.build.log is empty)",
            "entrants/b/bot.toml:1: name `ann` is taken by entrants/a/bot.toml",
            "entrants/c/bot.toml:1: missing field `command`",
            "entrants/d/bot.toml:4: invalid type: integer `5`, expected a string",
            "entrants/e/bot.toml:1: name `greedy` is taken by a [[bot]] of the config",
            "entrants/f/bot.toml:4: invalid inline table expected `}`",
            "entrants/g/bot.toml:5: unknown field `shell`, expected one of `name`, `author`, `command`, `build`, `build_timeout`, `options`, `language`",
            "entrants/h/bot.toml: missing (each entrant's folder needs a bot.toml)",
            "entrants/h<img src=x onerror=alert(1)>/bot.toml: missing (each entrant's folder needs a bot.toml)",
            "entrants/i/bot.toml:3: command: `../a/bot.py` steps out of the folder with `..`",
            "entrants/j/bot.toml:3: build: `/srv/entrants/alice/bot.py` names /srv/entrants/alice/bot.py, outside the entrant's folder",
            link.as_str(),
        ]
    );

    let md = std::fs::read_to_string(q.dir().join("out/entrants.md")).unwrap();
    assert!(!md.contains("<img"), "{md}");
    assert!(md.contains("| h&lt;img src=x onerror=alert\\(1\\)&gt; |  |  | left out | entrants/h&lt;img src=x onerror=alert(1)&gt;/bot.toml: missing"), "{md}");

    // A missing entrants folder is a config error, before anything runs.
    std::fs::remove_dir_all(q.dir().join("entrants")).unwrap();
    let err = q.fails(&["tournament", cfg.to_str().unwrap(), "--out", "never"]);
    assert_eq!(
        err,
        format!(
            "quads: {}: the entrants folder entrants does not exist (paths are relative to the folder quads runs in)",
            cfg.display()
        )
    );
    assert!(!q.dir().join("never").exists());
}

/// The example competition as shipped, with short moves: the four kits' entrants and the
/// house bot are rated, eve is left out for her illegal gives.
#[test]
fn the_competition_config_runs_the_example_entrants() {
    if !common::needs(&["node", "cc"]) {
        return;
    }
    let q = Quads::new();
    let text = std::fs::read_to_string(Path::new(ROOT).join("configs/competition.toml")).unwrap();
    let text = text
        .replace(
            "target/release/quads-bot",
            &common::quads_bot().display().to_string(),
        )
        .replace(
            "\"examples/entrants\"",
            &format!("\"{ROOT}/examples/entrants\""),
        )
        .replace(
            "\"configs/openings.txt\"",
            &format!("\"{ROOT}/configs/openings.txt\""),
        );
    let cfg = q.dir().join("competition.toml");
    std::fs::write(&cfg, text).unwrap();
    let run = q.run(&[
        "tournament",
        cfg.to_str().unwrap(),
        "--movetime",
        "1s",
        "--pairs",
        "1",
        "--out",
        "out",
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    let out = q.dir().join("out");
    let v = verdicts(&out);
    let names: Vec<(&str, bool)> = v.iter().map(|(n, a, _)| (n.as_str(), *a)).collect();
    assert_eq!(
        names,
        [
            ("alice", true),
            ("bob", true),
            ("carol", true),
            ("dave", true),
            ("eve", false)
        ]
    );
    for (name, _, reason) in &v[..4] {
        assert!(all_passed(reason), "{name}: {reason}");
    }
    assert_eq!(v[4].2, first_failure(&out, "eve"));
    assert_eq!(
        scenario(&out, "eve", "placement and give (quads)")["hint"],
        "`A1 BDRF` is not legal here: piece BDRF is not available"
    );
    let summary = format!("entrants: 4 admitted, 1 left out (eve: {})", v[4].2);
    assert!(stderr.lines().any(|l| l == summary), "{stderr}");
    let (standings, played) = bots_of(&out);
    let rated = set(&["alice", "bob", "carol", "dave", "greedy"]);
    assert_eq!((standings, played), (rated.clone(), rated));
    // Ten pairings, two variants, one game pair each.
    let games = common::games(&out.join("games.jsonl"));
    assert_eq!(games.len(), 40);
    // The entrants were stopped on their opponents' time, the house bot was not; the records
    // say so.
    for g in &games {
        for side in ["first", "second"] {
            let ponder = &g[side]["ponder"];
            if g[side]["name"] == "greedy" {
                assert_eq!(ponder, &serde_json::Value::Null, "{g}");
            } else {
                assert_eq!(ponder, &serde_json::json!(false), "{g}");
            }
        }
    }
}

/// The example entrants carry copies of the starter kits (an entrant's folder must hold all of
/// its bot): they stay the kits as they are.
#[test]
fn the_example_entrants_hold_the_kits_as_they_are() {
    for (copy, kit) in [
        ("alice/bot.py", "python/bot.py"),
        ("bob/bot.js", "javascript/bot.js"),
        ("carol/bot.c", "c/bot.c"),
        ("dave/Cargo.toml", "rust/Cargo.toml"),
        ("dave/Cargo.lock", "rust/Cargo.lock"),
        ("dave/src/main.rs", "rust/src/main.rs"),
    ] {
        let read =
            |p: PathBuf| std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert!(
            read(Path::new(ROOT).join("examples/entrants").join(copy))
                == read(Path::new(ROOT).join("bots/starter").join(kit)),
            "examples/entrants/{copy} differs from bots/starter/{kit}"
        );
    }
}
