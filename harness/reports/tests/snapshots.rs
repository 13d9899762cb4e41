//! The exact output of every exporter, on a small hand-made set of games (insta snapshots;
//! review changes with `cargo insta review`). PNGs are decoded and checked instead.

use quads_record::{BotEntry, Failure, GameRecord, Player, Timing};
use quads_reports::export::render_file;
use quads_reports::report::{build, Report};

fn game(
    game: u32,
    rules: &str,
    first: &str,
    second: &str,
    result: &str,
    reason: &str,
) -> GameRecord {
    let entry = |name: &str| BotEntry {
        name: name.into(),
        command: format!("bots/{name}"),
        id: Some(name.into()),
        sandbox: None,
        ponder: None,
        version: None,
    };
    let failures = match reason {
        "normal" | "draw" => Vec::new(),
        _ => vec![Failure {
            seat: if result == "1-0" {
                Player::Second
            } else {
                Player::First
            },
            reason: reason.parse().unwrap(),
            detail: "no move within 1000 ms (+50 ms margin)".into(),
        }],
    };
    GameRecord {
        game,
        round: Some(1 + (game - 1) / 6),
        pair: Some(game.div_ceil(2)),
        event: Some("snapshot".into()),
        event_seed: Some(1),
        rules: rules.into(),
        seed: u64::from(game) * 7919,
        time_control: "movetime 1000".into(),
        start: "..../..../..../.... -".into(),
        first: entry(first),
        second: entry(second),
        moves: vec!["BDRF".into(), "A1 SLQH".into()],
        end: "..../..../..../BDRF... SLQH".into(),
        result: result.parse().unwrap(),
        reason: reason.parse().unwrap(),
        failures,
        timing: Timing {
            duration_ms: 12.5 + f64::from(game),
            ..Timing::default()
        },
    }
}

fn report() -> Report {
    let games = vec![
        game(1, "quads", "alpha", "beta", "1-0", "normal"),
        game(2, "quads", "beta", "alpha", "0-1", "normal"),
        game(3, "quads", "alpha", "gamma", "1/2-1/2", "draw"),
        game(4, "quads", "gamma", "alpha", "0-1", "normal"),
        game(5, "quads", "beta", "gamma", "1-0", "timeout"),
        game(6, "quads", "gamma", "beta", "1-0", "normal"),
        game(7, "classic", "alpha", "beta", "1-0", "normal"),
        game(8, "classic", "beta", "alpha", "1-0", "normal"),
        game(9, "classic", "alpha", "gamma", "1-0", "normal"),
        game(10, "classic", "gamma", "alpha", "0-1", "crash"),
        game(11, "classic", "beta", "gamma", "1/2-1/2", "draw"),
        game(12, "classic", "gamma", "beta", "0-1", "normal"),
    ];
    build(
        "snapshot",
        games.into_iter().map(|g| (0, g)).collect(),
        &["alpha".into(), "beta".into(), "gamma".into()],
        5,
        None,
    )
    .unwrap()
}

fn text(file: &str) -> String {
    String::from_utf8(render_file(&report(), file).expect("an exporter for the file")).unwrap()
}

#[test]
fn results_csv() {
    insta::assert_snapshot!(text("results.csv"));
}

#[test]
fn games_pgn() {
    insta::assert_snapshot!(text("games.pgn"));
}

/// PGN's export format keeps lines to 79 characters: the longest comment of a full game (16
/// moves, the longest notation) is wrapped, and no word is split.
#[test]
fn pgn_lines_fit_in_79_characters() {
    let mut long = game(1, "quads,claim=announce", "alpha", "beta", "1-0", "normal");
    long.moves = (0..16)
        .map(|i| format!("{}{} BLQH quarto", ["A", "B", "C", "D"][i % 4], 1 + i / 4))
        .collect();
    let report = build("a long event name", vec![(0, long)], &[], 1, None).unwrap();
    let pgn = String::from_utf8(render_file(&report, "games.pgn").unwrap()).unwrap();
    let longest = pgn.lines().map(str::len).max().unwrap();
    assert!(longest <= 79, "a line of {longest} characters");
    // Every move is still there, whole.
    let words: Vec<&str> = pgn.split_whitespace().collect();
    assert_eq!(
        words
            .iter()
            .filter(|w| w.trim_end_matches(',') == "quarto")
            .count(),
        16
    );
}

#[test]
fn standings_csv() {
    insta::assert_snapshot!(text("standings.csv"));
}

#[test]
fn pairwise_csv() {
    insta::assert_snapshot!(text("pairwise.csv"));
}

#[test]
fn standings_txt() {
    insta::assert_snapshot!(text("standings.txt"));
}

#[test]
fn elo_svg() {
    insta::assert_snapshot!(text("elo.svg"));
}

#[test]
fn crosstable_svg() {
    insta::assert_snapshot!(text("crosstable.svg"));
}

#[test]
fn convergence_svg() {
    insta::assert_snapshot!(text("convergence.svg"));
}

#[test]
fn pngs_decode_at_their_size_and_are_not_blank() {
    let r = report();
    for file in ["elo.png", "crosstable.png", "convergence.png"] {
        let bytes = render_file(&r, file).unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut pixels).unwrap();
        assert_eq!((info.width, info.height), (900, 540), "{file}");
        let inked = pixels.chunks(3).filter(|p| p != &[255, 255, 255]).count();
        // Text, axes and data: a few percent of the picture, not nothing and not everything.
        assert!(
            inked > 5_000 && inked < 400_000,
            "{file}: {inked} non-white pixels"
        );
        // The same report renders the same bytes.
        assert_eq!(render_file(&r, file), render_file(&report(), file));
    }
}
