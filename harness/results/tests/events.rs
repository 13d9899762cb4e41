//! A front end follows a run through its events alone: each game's start, each move with the
//! time it took (the same moves and times as its record), its end, then the tables and the
//! report, in that order. Real bots (the bundled `quads-bot`), a real results folder.

use std::path::{Path, PathBuf};

use quads_results::tournament::{play, Ended, Options};
use quads_results::{Event, Sink};
use quads_tournament::{parse_config, Overrides};

/// `target/release` (or `debug`), where the workspace's binaries are.
fn binaries() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().to_owned()
}

/// A 4-game run between two bundled bots, into `out`, two games at once.
fn tournament(out: &Path) -> quads_tournament::Tournament {
    let bot = binaries().join("quads-bot");
    assert!(
        bot.exists(),
        "{} is missing: build the workspace",
        bot.display()
    );
    let config = format!(
        r#"name = "events"
seed = 5
pairs = 1
concurrency = 2
variants = ["quads", "classic"]
time = {{ movetime = "2s" }}

[[bot]]
name = "random"
command = "{bot} --strategy random"

[[bot]]
name = "greedy"
command = "{bot} --strategy greedy"
"#,
        bot = bot.display()
    );
    let overrides = Overrides {
        out: Some(out.to_owned()),
        ..Overrides::default()
    };
    parse_config(&config, Path::new("events.toml"), &overrides).unwrap()
}

#[test]
fn a_run_says_each_start_move_and_end_as_its_records_do() {
    let out = tempfile::tempdir().unwrap();
    let t = tournament(out.path());
    let mut seen: Vec<String> = Vec::new();
    let mut sink = |e: Event<'_>| {
        seen.push(match e {
            Event::Started { games, .. } => format!("started {games}"),
            Event::GameStarted {
                game,
                first,
                second,
                rules,
            } => {
                format!("game {game} {rules} {first} {second}")
            }
            Event::MovePlayed(m) => format!("move {} {} {} {}", m.game, m.ply, m.mv, m.ms),
            Event::GameFinished { record, done } => format!("end {} {done}", record.game),
            Event::Tables { resumed, .. } => format!("tables {resumed}"),
            Event::Report(p) => format!("report {}", p.file_name().unwrap().to_string_lossy()),
            other => format!("other {other:?}"),
        });
    };
    let ended = play(Path::new("events.toml"), t, Options::default(), &mut sink).unwrap();
    assert_eq!(ended, Ended::Finished);

    let text = std::fs::read_to_string(out.path().join("games.jsonl")).unwrap();
    let records = quads_record::parse_jsonl(&text).unwrap();
    assert_eq!(records.len(), 4);
    assert_eq!(seen[0], "started 4");
    assert_eq!(seen[seen.len() - 2..], ["tables 0", "report report.html"]);
    for r in &records {
        let start = seen
            .iter()
            .position(|l| {
                l == &format!(
                    "game {} {} {} {}",
                    r.game, r.rules, r.first.name, r.second.name
                )
            })
            .unwrap_or_else(|| panic!("no start of game {}: {seen:?}", r.game));
        let end = seen
            .iter()
            .position(|l| l.starts_with(&format!("end {} ", r.game)))
            .unwrap();
        let moves: Vec<&String> = seen
            .iter()
            .filter(|l| l.starts_with(&format!("move {} ", r.game)))
            .collect();
        let want: Vec<String> = r
            .moves
            .iter()
            .zip(&r.timing.moves_ms)
            .enumerate()
            .map(|(i, (mv, ms))| format!("move {} {} {mv} {ms}", r.game, i + 1))
            .collect();
        assert_eq!(moves, want.iter().collect::<Vec<_>>(), "game {}", r.game);
        let first_move = seen.iter().position(|l| l == &want[0]).unwrap();
        let last_move = seen
            .iter()
            .position(|l| l == &want[want.len() - 1])
            .unwrap();
        assert!(
            start < first_move && last_move < end,
            "game {}: {seen:?}",
            r.game
        );
    }
    let ends: Vec<&String> = seen.iter().filter(|l| l.starts_with("end ")).collect();
    assert_eq!(ends.len(), 4);
    assert!(
        ends.iter()
            .enumerate()
            .all(|(i, l)| l.ends_with(&format!(" {}", i + 1))),
        "{ends:?}"
    );
    assert!(!seen.iter().any(|l| l.starts_with("other ")), "{seen:?}");
}

/// A sink that shows no moves, as the terminal and Python's callback do.
struct GamesOnly(Vec<String>);

impl Sink for GamesOnly {
    fn event(&mut self, e: Event<'_>) {
        self.0.push(match e {
            Event::MovePlayed(m) => format!("move {} {}", m.game, m.ply),
            Event::GameFinished { record, .. } => format!("end {}", record.game),
            _ => return,
        });
    }

    fn wants_moves(&self) -> bool {
        false
    }
}

#[test]
fn a_sink_that_shows_no_moves_is_sent_none_and_still_gets_every_game() {
    let out = tempfile::tempdir().unwrap();
    let mut sink = GamesOnly(Vec::new());
    let ended = play(
        Path::new("events.toml"),
        tournament(out.path()),
        Options::default(),
        &mut sink,
    )
    .unwrap();
    assert_eq!(ended, Ended::Finished);
    let text = std::fs::read_to_string(out.path().join("games.jsonl")).unwrap();
    let records = quads_record::parse_jsonl(&text).unwrap();
    assert_eq!(records.len(), 4);
    assert!(records.iter().all(|r| !r.moves.is_empty()));
    let mut ends = sink.0.clone();
    ends.sort();
    assert_eq!(ends, ["end 1", "end 2", "end 3", "end 4"], "{:?}", sink.0);
}
