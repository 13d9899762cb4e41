//! `quads tournament --shard I/N` and `quads merge`, run for real: four shards of a small
//! tournament merge into exactly the files one run writes, and every way a merge can be wrong
//! (a shard missing, unfinished, twice, from another config or another cut) is one line.

mod common;

use common::Quads;
use std::path::{Path, PathBuf};

/// 3 bots, 2 variants, 3 game pairs per pairing: 6 pairs a round, 18 pairs, 36 games.
fn config(dir: &Path) -> PathBuf {
    let bot = common::quads_bot().display().to_string();
    let text = format!(
        r#"name = "sharded"
seed = 7
concurrency = 2
pairs = 3
variants = ["quads", "classic"]
openings = {{ random_moves = 2 }}
time = {{ movetime = "5s" }}

[[bot]]
name = "first"
command = "{bot} --strategy first"

[[bot]]
name = "greedy"
command = "{bot} --strategy greedy"

[[bot]]
name = "random"
command = "{bot} --strategy random"
"#
    );
    let path = dir.join("sharded.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn play(q: &Quads, cfg: &Path, out: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "tournament",
        cfg.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ];
    args.extend_from_slice(extra);
    q.ok(&args)
}

fn game_numbers(out: &Path) -> Vec<u64> {
    common::games(&out.join("games.jsonl"))
        .iter()
        .map(|g| g["game"].as_u64().unwrap())
        .collect()
}

/// The shards' game numbers, each shard's a whole number of pairs, together every game once,
/// and the shards' sizes at most one pair apart.
fn check_cut(numbers: &[Vec<u64>], total: u64) {
    let mut all: Vec<u64> = numbers.concat();
    all.sort_unstable();
    assert_eq!(all, (1..=total).collect::<Vec<_>>());
    for games in numbers {
        for two in games.chunks(2) {
            assert_eq!((two[0] % 2, two[1]), (1, two[0] + 1), "{games:?}");
        }
    }
    let sizes: Vec<usize> = numbers.iter().map(Vec::len).collect();
    assert!(
        sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 2,
        "{sizes:?}"
    );
}

fn paths(dirs: &[PathBuf]) -> Vec<&str> {
    dirs.iter().map(|d| d.to_str().unwrap()).collect()
}

#[test]
fn four_shards_merge_into_the_files_of_one_run() {
    let q = Quads::new();
    let cfg = config(q.dir());
    let whole = q.dir().join("whole");
    play(&q, &cfg, &whole, &[]);
    assert_eq!(game_numbers(&whole), (1..=36).collect::<Vec<_>>());

    let shards: Vec<PathBuf> = (0..4).map(|i| q.dir().join(format!("shard-{i}"))).collect();
    for (i, dir) in shards.iter().enumerate() {
        play(&q, &cfg, dir, &["--shard", &format!("{i}/4")]);
    }
    let numbers: Vec<Vec<u64>> = shards.iter().map(|d| game_numbers(d)).collect();
    check_cut(&numbers, 36);
    let merged = q.dir().join("merged");
    // Given in another order than the shards': the order does not matter.
    let shuffled = [
        shards[2].clone(),
        shards[0].clone(),
        shards[3].clone(),
        shards[1].clone(),
    ];
    let mut args = vec!["merge", merged.to_str().unwrap(), "--quiet"];
    args.extend(paths(&shuffled));
    let printed = q.ok(&args);
    assert_eq!(common::differences(&whole, &merged), Vec::<String>::new());
    assert_eq!(
        std::fs::read(merged.join("event.json")).unwrap(),
        std::fs::read(whole.join("event.json")).unwrap()
    );
    assert_eq!(
        std::fs::read(merged.join("sandbox.txt")).unwrap(),
        std::fs::read(whole.join("sandbox.txt")).unwrap()
    );
    assert!(merged.join("report.html").exists());
    // It prints the tables a run prints, with its own folder's name.
    let tables = |text: &str, out: &Path| text.replace(&out.display().to_string(), "OUT");
    assert_eq!(
        tables(&printed, &merged),
        tables(&play(&q, &cfg, &whole, &[]), &whole)
    );
    // A tournament run on the merged folder finds every game in its journal.
    let again = q.run(&[
        "tournament",
        cfg.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert!(again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("36 games were already in the journal"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_eq!(common::differences(&whole, &merged), Vec::<String>::new());
}

#[test]
fn a_merge_that_cannot_be_right_is_one_line_naming_the_problem() {
    let q = Quads::new();
    let cfg = config(q.dir());
    let shards: Vec<PathBuf> = (0..4).map(|i| q.dir().join(format!("s{i}"))).collect();
    for (i, dir) in shards.iter().enumerate() {
        play(&q, &cfg, dir, &["--shard", &format!("{i}/4")]);
    }
    let out = q.dir().join("merged");
    let merge = |dirs: &[PathBuf]| {
        let mut args = vec!["merge", out.to_str().unwrap()];
        args.extend(paths(dirs));
        q.fails(&args)
    };
    let show = |d: &PathBuf| d.display().to_string();

    // A shard missing: which, and its games.
    let games = game_numbers(&shards[2]);
    let listed: Vec<String> = games.iter().take(8).map(u64::to_string).collect();
    assert_eq!(
        merge(&[shards[0].clone(), shards[1].clone(), shards[3].clone()]),
        format!(
            "quads: 1 of 4 shards missing: 2/4 (games {}{}); give every shard's folder",
            listed.join(", "),
            match games.len() {
                8 => String::new(),
                n => format!(" and {} more", n - 8),
            }
        )
    );
    // Twice the same shard.
    assert_eq!(
        merge(&[shards[0].clone(), shards[1].clone(), shards[1].clone()]),
        format!(
            "quads: shard 1/4 is given twice: {} and {}",
            show(&shards[1]),
            show(&shards[1])
        )
    );
    // A shard of another seed.
    let other = q.dir().join("other-seed");
    play(&q, &cfg, &other, &["--shard", "3/4", "--seed", "8"]);
    assert_eq!(
        merge(&[
            shards[0].clone(),
            shards[1].clone(),
            shards[2].clone(),
            other.clone()
        ]),
        format!(
            "quads: {} comes from another tournament than {}: its seed is 8, not 7",
            show(&other),
            show(&shards[0])
        )
    );
    // A shard of the same seed and bots but another time control.
    let slower = q.dir().join("slower");
    play(&q, &cfg, &slower, &["--shard", "3/4", "--movetime", "6s"]);
    assert_eq!(
        merge(&[shards[0].clone(), shards[1].clone(), shards[2].clone(), slower.clone()]),
        format!(
            "quads: {} comes from another tournament than {}: another config (the variants, openings, time control, bot commands, options or walls differ)",
            show(&slower),
            show(&shards[0])
        )
    );
    // A shard of another cut.
    let halves = q.dir().join("half");
    play(&q, &cfg, &halves, &["--shard", "1/2"]);
    assert_eq!(
        merge(&[shards[0].clone(), halves.clone()]),
        format!(
            "quads: {} is shard 1/2 but {} is shard 0/4: every shard must come from the same --shard I/N count",
            show(&halves),
            show(&shards[0])
        )
    );
    // A folder no shard run wrote.
    let whole = q.dir().join("whole");
    std::fs::create_dir(&whole).unwrap();
    assert_eq!(
        merge(std::slice::from_ref(&whole)),
        format!(
            "quads: {} is not a shard's folder (it has no shard.json): play it with `quads tournament CONFIG --shard I/N`",
            show(&whole)
        )
    );
    // An unfinished shard: its last game lost, as if the run had stopped before it.
    let journal = shards[1].join("journal.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let kept: Vec<&str> = text.lines().collect();
    let last: serde_json::Value = serde_json::from_str(kept[kept.len() - 1]).unwrap();
    std::fs::write(&journal, kept[..kept.len() - 1].join("\n") + "\n").unwrap();
    assert_eq!(
        merge(&shards),
        format!(
            "quads: {} (shard 1/4) is incomplete: 1 of its {} games are missing (game {}); run its command again to resume it",
            show(&shards[1]),
            game_numbers(&shards[1]).len(),
            last["game"]
        )
    );
    assert!(!out.join("games.jsonl").exists(), "nothing merged");
    // Resumed, it plays that game alone, and the shards merge.
    play(&q, &cfg, &shards[1], &["--shard", "1/4"]);
    let mut args = vec!["merge", out.to_str().unwrap(), "--quiet"];
    args.extend(paths(&shards));
    q.ok(&args);
    assert_eq!(game_numbers(&out), (1..=36).collect::<Vec<_>>());
}

#[test]
fn shard_options_that_cannot_work_are_refused_before_any_game() {
    let q = Quads::new();
    let cfg = config(q.dir());
    let out = q.dir().join("out");
    let cfg = cfg.to_str().unwrap();
    let outs = out.to_str().unwrap();
    for bad in ["4/4", "1/0", "2", "a/4"] {
        assert_eq!(
            q.fails(&["tournament", cfg, "--out", outs, "--shard", bad]),
            format!("quads: invalid value '{bad}' for '--shard <I/N>': `{bad}` is not a shard: write I/N, shard I of N counted from 0 (0/4 to 3/4)")
        );
    }
    assert_eq!(
        q.fails(&["tournament", cfg, "--out", outs, "--shard", "0/19"]),
        "quads: --shard 0/19: the schedule has 18 game pairs, so at most 18 shards"
    );
    assert!(!out.join("journal.jsonl").exists());
    // A shard's folder holds that shard only, and never a whole run.
    play(&q, Path::new(cfg), &out, &["--shard", "0/18"]);
    assert_eq!(game_numbers(&out).len(), 2, "one pair");
    assert_eq!(
        q.fails(&["tournament", cfg, "--out", outs, "--shard", "1/18"]),
        format!("quads: {outs} plays shard 0/18 of this or another tournament, not 1/18; give each shard a folder of its own")
    );
    assert_eq!(
        q.fails(&["tournament", cfg, "--out", outs]),
        format!("quads: {outs} holds shard 0/18 of a tournament; play the whole tournament into another --out, or give --shard 0/18")
    );
    assert_eq!(
        q.fails(&["tournament", cfg, "--out", outs, "--shard", "0/18", "--seed", "9"]),
        format!("quads: {outs} holds shard 0/18 of another tournament (another config or seed); use another --out or remove the folder")
    );
    let whole = q.dir().join("whole");
    play(&q, Path::new(cfg), &whole, &["--pairs", "1"]);
    assert_eq!(
        q.fails(&["tournament", cfg, "--out", whole.to_str().unwrap(), "--shard", "0/2"]),
        format!(
            "quads: {} holds games of a whole tournament, not of a shard; give each shard a folder of its own",
            whole.display()
        )
    );
    // Merging into a shard's own folder would overwrite it.
    assert_eq!(
        q.fails(&["merge", outs, outs]),
        format!("quads: {outs} is a shard's folder: merge into another folder")
    );
}

/// Regression: two runs that both failed to write a file compared equal (a missing file was
/// read as empty).
#[test]
fn a_file_missing_from_both_runs_is_a_difference() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let found = common::differences(a.path(), b.path());
    assert_eq!(found.len(), 18, "{found:?}");
    assert_eq!(
        found[0],
        format!("{} is missing", a.path().join("games.jsonl").display())
    );
}
