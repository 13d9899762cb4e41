//! The referee's own limits at many games at once: open files (raised to the hard limit, or a
//! one-line refusal before the first game), and the end of a run with hundreds of kept-alive
//! bots (all of them ended together, none left behind). The figures at 1,000 games at once are
//! a benchmark: `cargo bench --bench scale` (docs/scale.md).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::Quads;

/// A config of four `quads-bot` bots, kept alive, one variant, `pairs` pairs a pairing.
fn config(dir: &Path, pairs: u32) -> PathBuf {
    let bot = common::quads_bot().display().to_string();
    let mut text = format!(
        "name = \"limits\"\nseed = 5\npairs = {pairs}\nvariants = [\"quads\"]\nkeep_alive = true\ntime = {{ movetime = \"10s\" }}\n"
    );
    for (i, strategy) in ["random", "greedy", "first", "random"].iter().enumerate() {
        text.push_str(&format!(
            "\n[[bot]]\nname = \"bot-{i}\"\ncommand = \"{bot} --strategy {strategy}\"\n"
        ));
    }
    let path = dir.join("limits.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// `quads tournament CFG --out OUT --concurrency N --quiet`'s arguments.
fn tournament(cfg: &Path, out: &Path, concurrency: u32) -> Vec<String> {
    [
        "tournament",
        cfg.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--concurrency",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .chain([concurrency.to_string(), "--quiet".to_owned()])
    .collect()
}

/// `quads ARGS` run by `sh` after `LIMITS` (`ulimit` commands), in the test's folder.
fn under_limits(q: &Quads, limits: &str, args: &[String]) -> std::process::Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("{limits} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_quads"))
        .args(args)
        .current_dir(q.dir())
        .output()
        .expect("sh runs")
}

#[test]
fn too_few_open_files_for_the_concurrency_is_one_line_before_the_first_game() {
    let q = Quads::new();
    let cfg = config(q.dir(), 1);
    let out = q.dir().join("out");
    let run = under_limits(&q, "ulimit -n 200", &tournament(&cfg, &out, 64));
    assert_eq!(run.status.code(), Some(2));
    let err = String::from_utf8(run.stderr).unwrap();
    let last = err.lines().last().unwrap_or_default();
    assert_eq!(
        last,
        "quads: 64 games at once need about 832 open files, and this process may open 200 (the hard limit, `ulimit -Hn`): raise it or lower the concurrency"
    );
    assert!(!out.join("journal.jsonl").exists(), "no game was played");
}

#[test]
fn a_soft_open_file_limit_below_the_need_is_raised_to_the_hard_one() {
    let q = Quads::new();
    // 12 pairs a pairing: 144 games, 24 at once need 64 + 12 * 24 = 352 open files.
    let cfg = config(q.dir(), 12);
    let out = q.dir().join("out");
    let run = under_limits(
        &q,
        "ulimit -S -n 100 && ulimit -H -n 4096",
        &tournament(&cfg, &out, 24),
    );
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let games = common::games(&out.join("games.jsonl"));
    assert_eq!(games.len(), 144);
    assert!(games
        .iter()
        .all(|g| g["failures"].as_array().unwrap().is_empty()));
}

#[test]
fn a_run_of_a_hundred_games_at_once_ends_every_kept_alive_bot() {
    let q = Quads::new();
    // 50 pairs a pairing: 600 games, 100 at once, 200 bots kept alive to the end.
    let cfg = config(q.dir(), 50);
    let out = q.dir().join("out");
    let args = tournament(&cfg, &out, 100);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let child = q
        .command(&args)
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("quads runs");
    let referee = child.id();
    let ended = child.wait_with_output().expect("quads ends");
    assert!(
        ended.status.success(),
        "{}",
        String::from_utf8_lossy(&ended.stderr)
    );
    assert_eq!(common::leftovers(referee), Vec::<String>::new());
    let games = common::games(&out.join("games.jsonl"));
    assert_eq!(games.len(), 600);
    let forfeits: Vec<&serde_json::Value> = games
        .iter()
        .filter(|g| !g["failures"].as_array().unwrap().is_empty())
        .collect();
    assert_eq!(forfeits, Vec::<&serde_json::Value>::new());
}
