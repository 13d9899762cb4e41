//! `quads analyze`, run for real on tournaments the real binaries play: exact figures for
//! seeded bots, the same files on every run, the tournament hook, level 5 without a blunder
//! once its solver has taken over, and one-line errors for bad input.

mod common;

use common::Quads;
use std::path::{Path, PathBuf};

/// A tournament config of the bundled bot's `bots` (strategy or level flags), written into
/// the test's folder.
fn config(q: &Quads, name: &str, body: &str, bots: &[(&str, &str)]) -> PathBuf {
    let bot = common::quads_bot();
    let mut text = format!("name = \"{name}\"\n{body}\n");
    for (name, flags) in bots {
        text += &format!(
            "[[bot]]\nname = \"{name}\"\ncommand = \"{} {flags}\"\n\n",
            bot.display()
        );
    }
    let path = q.dir().join(format!("{name}.toml"));
    std::fs::write(&path, text).unwrap();
    path
}

/// Seeded bots that think without a clock: the same games, and so the same analysis, on any
/// machine. Four variants: both presets, a trait subset and the announcement rule.
fn seeded_tournament(q: &Quads, extra: &[&str]) -> PathBuf {
    let cfg = config(
        q,
        "seeded",
        r#"seed = 14
pairs = 2
concurrency = 2
variants = ["quads", "classic", "classic,traits=color+fill", "quads,claim=announce"]
openings = { random_moves = 2 }
time = { movetime = "5s" }"#,
        &[
            ("first", "--strategy first"),
            ("random", "--strategy random"),
            ("greedy", "--strategy greedy"),
        ],
    );
    let mut args = vec!["tournament", cfg.to_str().unwrap(), "--out", "t", "--quiet"];
    args.extend_from_slice(extra);
    q.ok(&args);
    q.dir().join("t")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The rows of a CSV file, header first.
fn csv_rows(path: &Path) -> Vec<Vec<String>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_path(path)
        .unwrap();
    reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_owned).collect())
        .collect()
}

const SEEDED_TABLE: &str = "\
judged by the exact solver: every move made with 11 or fewer empty squares; 48 games, 224 moves; 4 of the games ended before such a move and are not judged
claim=announce is judged as perfect players play it: every win announced or claimed at once
all variants
  bot     games  judged  moves  accuracy  blunders/game  first blunder  wins thrown  missed wins
  greedy     32      30     77     75.3%           0.63       move 7.8           14            0
  first      32      27     72     40.3%           1.59       move 7.6           23            6
  random     32      26     75     40.0%           1.73       move 7.9           35           18
quads
  bot     games  judged  moves  accuracy  blunders/game  first blunder  wins thrown  missed wins
  greedy      8       8     20     65.0%           0.88       move 6.4            6            0
  random      8       8     24     20.8%           2.38       move 6.8           14            6
  first       8       8     21     19.0%           2.12       move 6.5           15            3
classic
  bot     games  judged  moves  accuracy  blunders/game  first blunder  wins thrown  missed wins
  greedy      8       8     20     70.0%           0.75       move 8.8            4            0
  random      8       7     21     38.1%           1.86       move 8.4           12            7
  first       8       7     19     31.6%           1.86       move 7.0            4            2
classic,traits=color+fill
  bot     games  judged  moves  accuracy  blunders/game  first blunder  wins thrown  missed wins
  greedy      8       8     27     88.9%           0.38      move 10.5            2            0
  random      8       8     24     66.7%           1.00       move 8.8            4            4
  first       8       8     26     65.4%           1.12       move 9.9            2            1
quads,claim=announce
  bot     games  judged  moves  accuracy  blunders/game  first blunder  wins thrown  missed wins
  greedy      8       6     10     70.0%           0.50       move 6.5            2            0
  first       8       4      6     33.3%           1.00       move 6.3            2            0
  random      8       3      6     16.7%           1.67       move 7.3            5            1
analysis in t (analysis.csv, analysis.jsonl)
report in t/report.html
";

#[test]
fn analyze_judges_a_seeded_tournament_exactly() {
    let q = Quads::new();
    let out = seeded_tournament(&q, &[]);
    let printed = q.ok(&["analyze", "t"]);
    assert_eq!(printed, SEEDED_TABLE);
    // The files went into the folder analysed: the CSV holds the printed figures, and every
    // game has a line of its judged moves that adds up to them.
    let rows = csv_rows(&out.join("analysis.csv"));
    assert_eq!(
        rows[0].join(","),
        "variant,bot,empty,games,judged_games,judged_moves,kept,accuracy,blunders,\
         blunders_per_game,wins_thrown,missed_wins,games_with_blunder,first_blunder_move,\
         deciding_blunders"
    );
    let games = common::games(&out.join("analysis.jsonl"));
    assert_eq!(games.len(), 48);
    let judged: usize = games
        .iter()
        .map(|g| g["moves"].as_array().unwrap().len())
        .sum();
    let in_csv: usize = rows
        .iter()
        .filter(|r| r[0] == "all")
        .map(|r| r[5].parse::<usize>().unwrap())
        .sum();
    assert_eq!(judged, in_csv);
    let record = common::games(&out.join("games.jsonl"));
    for (g, r) in games.iter().zip(&record) {
        assert_eq!((&g["game"], &g["rules"]), (&r["game"], &r["rules"]));
        for m in g["moves"].as_array().unwrap() {
            let i = m["index"].as_u64().unwrap() as usize;
            assert_eq!(m["played"], r["moves"][i]);
        }
    }
}

#[test]
fn the_files_are_the_same_on_every_run_and_any_thread_count() {
    let q = Quads::new();
    let out = seeded_tournament(&q, &[]);
    q.ok(&["analyze", "t", "--out", "one"]);
    q.ok(&["analyze", "t/games.jsonl", "--out", "two", "--threads", "2"]);
    q.ok(&["analyze", "t/games.jsonl"]);
    for file in ["analysis.csv", "analysis.jsonl"] {
        let one = read(&q.dir().join("one").join(file));
        let two = read(&q.dir().join("two").join(file));
        assert_eq!(one, two, "{file}");
    }
    // A games.jsonl given as a file is analysed into its folder.
    assert_eq!(
        read(&out.join("analysis.jsonl")),
        read(&q.dir().join("one").join("analysis.jsonl"))
    );
}

#[test]
fn a_tournament_with_analyze_judges_its_games_afterwards() {
    let q = Quads::new();
    let out = seeded_tournament(&q, &["--analyze"]);
    let after = read(&out.join("analysis.csv"));
    q.ok(&["analyze", "t", "--out", "again"]);
    assert_eq!(after, read(&q.dir().join("again").join("analysis.csv")));
    // `analyze = true` in the config does the same.
    let cfg = config(
        &q,
        "keyed",
        "seed = 3\npairs = 1\nanalyze = true\ntime = { movetime = \"5s\" }",
        &[
            ("first", "--strategy first"),
            ("greedy", "--strategy greedy"),
        ],
    );
    let printed = q.ok(&["tournament", cfg.to_str().unwrap(), "--out", "k", "--quiet"]);
    assert!(printed.contains("judged by the exact solver"), "{printed}");
    assert!(q.dir().join("k").join("analysis.jsonl").exists());
}

/// Level 5 plays exact moves once 11 or fewer squares are empty (docs/levels.md): judged
/// from there, it never blunders. Against every lower level, in both presets and under the
/// announcement rule. (Levels 4 and 5 think against the clock, so the games differ from run
/// to run; the verdict must not.)
#[test]
fn level_5_never_blunders_once_the_solver_has_taken_over() {
    let q = Quads::new();
    let cfg = config(
        &q,
        "level5",
        r#"seed = 5
pairs = 1
concurrency = 2
format = "gauntlet"
gauntlet = ["level-5"]
variants = ["quads", "classic", "quads,claim=announce"]
openings = { random_moves = 2 }
time = { movetime = "1s" }"#,
        &[
            ("level-5", "--level 5"),
            ("level-1", "--level 1"),
            ("level-2", "--level 2"),
            ("level-3", "--level 3"),
            ("level-4", "--level 4"),
        ],
    );
    q.ok(&["tournament", cfg.to_str().unwrap(), "--out", "l", "--quiet"]);
    q.ok(&["analyze", "l", "--empty", "11"]);
    let rows = csv_rows(&q.dir().join("l").join("analysis.csv"));
    let level5: Vec<_> = rows.iter().filter(|r| r[1] == "level-5").collect();
    // Over all variants, then each of the three.
    assert_eq!(level5.len(), 4);
    for r in level5 {
        let (judged, kept, blunders) = (&r[5], &r[6], &r[8]);
        assert!(judged.parse::<u32>().unwrap() > 0, "{r:?}");
        assert_eq!((kept, blunders.as_str()), (judged, "0"), "{r:?}");
    }
}

#[test]
fn bad_input_is_a_one_line_error() {
    let q = Quads::new();
    assert_eq!(
        q.fails(&["analyze", "nowhere"]),
        "quads: cannot read nowhere: No such file or directory (os error 2)"
    );
    std::fs::create_dir(q.dir().join("empty")).unwrap();
    assert_eq!(
        q.fails(&["analyze", "empty"]),
        "quads: empty: no games.jsonl in this folder"
    );
    std::fs::write(q.dir().join("garbled.jsonl"), "{\"game\": 1, \"rules\"\n").unwrap();
    assert_eq!(
        q.fails(&["analyze", "garbled.jsonl"]),
        "quads: garbled.jsonl line 1: not a game record: EOF while parsing an object at line 1 column 19"
    );
    std::fs::write(q.dir().join("blank.jsonl"), "\n").unwrap();
    assert_eq!(
        q.fails(&["analyze", "blank.jsonl"]),
        "quads: no games in the files given"
    );
    // A real record, its variant renamed, after a blank line.
    let out = seeded_tournament(&q, &[]);
    let line = read(&out.join("games.jsonl"))
        .lines()
        .next()
        .unwrap()
        .replace("\"rules\":\"quads\"", "\"rules\":\"quadz\"");
    std::fs::write(q.dir().join("quadz.jsonl"), format!("\n{line}\n")).unwrap();
    assert_eq!(
        q.fails(&["analyze", "quadz.jsonl"]),
        "quads: quadz.jsonl line 2 (game 1): unknown variant `quadz`: unknown rules preset `quadz` \
         (a rules spec starts with quads or classic)"
    );
    assert_eq!(
        q.fails(&["analyze", "t", "--empty", "16"]),
        "quads: invalid value '16' for '--empty <N>': 16 is not in 1..=15"
    );
    assert!(!q.dir().join("out").exists(), "nothing written on an error");
}

/// `quads book games`: level 5 plays the book's moves in every book position it meets; a
/// random bot, in the same games, does not, and each of its moves off the book is named.
#[test]
fn book_games_finds_level_5_on_the_book_and_a_random_bot_off_it() {
    let q = Quads::new();
    let cfg = config(
        &q,
        "book",
        r#"seed = 3
pairs = 2
concurrency = 1
variants = ["quads", "classic"]
openings = { random_moves = 0 }
time = { movetime = "2s" }"#,
        &[("level-5", "--level 5"), ("random", "--strategy random")],
    );
    q.ok(&["tournament", cfg.to_str().unwrap(), "--quiet", "--out", "b"]);
    let games = common::games(&q.dir().join("b/games.jsonl")).len();
    assert_eq!(games, 8);
    let five = q.ok(&["book", "games", "b"]);
    let line = five.lines().last().unwrap();
    let made: usize = line
        .split(" made ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{five}"));
    // Level 5 moves first in half the games: at least one book position each.
    assert!(made >= 4, "{five}");
    assert_eq!(
        line,
        format!("8 games: level-5 made {made} moves in book positions, {made} of them the book's; 0 moves with 4 or fewer pieces placed in positions the book does not hold")
    );
    let out = q.run(&["book", "games", "b", "--bot", "random"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let off: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("OFF BOOK game "))
        .collect();
    assert!(!off.is_empty(), "{text}");
    assert!(
        off.iter()
            .all(|l| l.contains(": random played ") && l.contains(", the book says ")),
        "{text}"
    );
}
