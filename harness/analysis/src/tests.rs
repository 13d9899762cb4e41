//! Judgements of hand-built games, each checked against a plain negamax over the rules
//! core's legal moves (claims and unannounced wins included), which shares no code with the
//! solver.

use quads_record::{BotEntry, EndReason, GameRecord, GameResult, Timing};
use quads_rules::{Outcome, Player, Position, Rules};

use crate::game::{judge, Decided};
use crate::summary::{summarize, ALL_VARIANTS};
use crate::value::{Blunder, Value, Verdict};
use crate::{Oracle, ReplayError};

/// A record of `moves` from `start`, ended as the moves end it, or by `forfeit` of the side
/// to move at the end.
fn record(rules: &str, start: &str, moves: &[&str], forfeit: Option<GameResult>) -> GameRecord {
    let r: Rules = rules.parse().unwrap();
    let mut pos: Position = start.parse().unwrap();
    for m in moves {
        pos = pos.play(m.parse().unwrap(), &r).unwrap();
    }
    let (result, reason) = match (forfeit, pos.outcome(&r)) {
        (Some(result), _) => (
            result,
            EndReason::Forfeit(quads_record::ForfeitReason::Timeout),
        ),
        (None, Some(Outcome::Draw)) => (GameResult::Draw, EndReason::Draw),
        (None, Some(Outcome::Win(Player::First))) => (GameResult::FirstWins, EndReason::Normal),
        (None, Some(Outcome::Win(Player::Second))) => (GameResult::SecondWins, EndReason::Normal),
        (None, None) => panic!("the game goes on"),
    };
    let bot = |name: &str| BotEntry {
        name: name.into(),
        command: name.into(),
        id: None,
        sandbox: None,
        ponder: None,
        version: None,
    };
    GameRecord {
        game: 1,
        round: None,
        pair: None,
        event: None,
        event_seed: None,
        rules: rules.into(),
        seed: 0,
        time_control: "movetime 1000".into(),
        start: start.into(),
        first: bot("a"),
        second: bot("b"),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        end: pos.to_string(),
        result,
        reason,
        failures: Vec::new(),
        timing: Timing::default(),
    }
}

/// The value of `pos` for `p` by plain negamax over every legal move.
fn negamax_for(pos: &Position, rules: &Rules, p: Player) -> Value {
    match pos.outcome(rules) {
        Some(Outcome::Draw) => Value::Draw,
        Some(Outcome::Win(w)) if w == p => Value::Win,
        Some(Outcome::Win(_)) => Value::Loss,
        None => {
            let me = pos.to_move();
            let v = pos
                .legal_moves(rules)
                .into_iter()
                .map(|m| negamax_for(&pos.play(m, rules).unwrap(), rules, me))
                .max()
                .unwrap();
            if me == p {
                v
            } else {
                v.flip()
            }
        }
    }
}

/// Checks every judged move's values against plain negamax.
fn check_by_negamax(rec: &GameRecord, empty: u32) {
    let rules: Rules = rec.rules.parse().unwrap();
    let mut oracle = Oracle::new(1, 1);
    let a = judge(rec, "t", empty, &mut oracle).unwrap();
    let mut pos: Position = rec.start.parse().unwrap();
    let mut positions = vec![pos];
    for m in &rec.moves {
        pos = pos.play(m.parse().unwrap(), &rules).unwrap();
        positions.push(pos);
    }
    for m in &a.moves {
        let mover = positions[m.index].to_move();
        assert_eq!(
            (m.before, m.after),
            (
                negamax_for(&positions[m.index], &rules, mover),
                negamax_for(&positions[m.index + 1], &rules, mover)
            ),
            "move {} `{}` of {}",
            m.index,
            m.played,
            rec.start
        );
    }
}

type Row = (&'static str, Value, Value, Verdict, bool);

/// The judged moves as (move, before, after, verdict, missed win).
fn rows(rec: &GameRecord, empty: u32) -> Vec<(String, Value, Value, Verdict, bool)> {
    let mut oracle = Oracle::new(1, 1);
    let a = judge(rec, "t", empty, &mut oracle).unwrap();
    a.moves
        .iter()
        .map(|m| (m.played.clone(), m.before, m.after, m.verdict, m.missed_win))
        .collect()
}

/// Checks the judged moves, and (for small endgames) their values against plain negamax.
fn expect(rec: &GameRecord, empty: u32, expected: &[Row]) {
    let expected: Vec<_> = expected
        .iter()
        .map(|&(m, b, a, v, w)| (m.to_owned(), b, a, v, w))
        .collect();
    assert_eq!(rows(rec, empty), expected);
    if empty <= 5 {
        check_by_negamax(rec, empty);
    }
}

use Value::{Draw, Loss, Win};
const KEPT: Verdict = Verdict::Kept;
const WIN_TO_LOSS: Verdict = Verdict::Blunder(Blunder::WinToLoss);
const WIN_TO_DRAW: Verdict = Verdict::Blunder(Blunder::WinToDraw);
const DRAW_TO_LOSS: Verdict = Verdict::Blunder(Blunder::DrawToLoss);

/// Classic: BDQH in hand wins on D4 (row 4 then all big and dark). The first player places
/// it on A1 instead and gives BLRF, which wins on D4 for the opponent (all big): a win thrown
/// to a loss, and a missed win. The opponent takes it: kept. (Every value here is a win at
/// once, so no negamax is needed to check them, nor could one search 13 empty squares.)
fn thrown_win() -> GameRecord {
    record(
        "classic",
        "BDRFBDRHBDQF./..../..../.... BDQH",
        &["A1 BLRF", "D4"],
        None,
    )
}

#[test]
fn a_win_in_one_not_taken_and_a_winning_give_is_a_blunder_and_a_missed_win() {
    let rec = thrown_win();
    expect(
        &rec,
        13,
        &[
            ("A1 BLRF", Win, Loss, WIN_TO_LOSS, true),
            ("D4", Win, Win, KEPT, false),
        ],
    );
    let a = judge(&rec, "t", 13, &mut Oracle::new(1, 1)).unwrap();
    assert_eq!(
        a.decided,
        Decided::Blunder {
            index: 0,
            number: 4,
            seat: Player::First
        }
    );
}

#[test]
fn every_kind_of_blunder_in_one_endgame() {
    // Four empty squares, the second player to move.
    let rec = record(
        "classic",
        "SLQHBDQHBLQF./BDRHSDQF.BLRH/SLQF.SLRHBDRF/BDQFBLRFSDQH. SLRF",
        &["C3 SDRH", "D4 BLQH", "B2 SDRF", "D1"],
        None,
    );
    expect(
        &rec,
        4,
        &[
            ("C3 SDRH", Win, Loss, WIN_TO_LOSS, true),
            ("D4 BLQH", Win, Draw, WIN_TO_DRAW, true),
            ("B2 SDRF", Draw, Loss, DRAW_TO_LOSS, false),
            ("D1", Win, Win, KEPT, false),
        ],
    );
    let a = judge(&rec, "t", 4, &mut Oracle::new(1, 1)).unwrap();
    // The last change of value: the second player's draw thrown away with move 15.
    assert_eq!(
        a.decided,
        Decided::Blunder {
            index: 2,
            number: 15,
            seat: Player::Second
        }
    );
    let summary = summarize(&[a]);
    let row = |bot: &str| {
        summary
            .iter()
            .find(|r| r.variant == ALL_VARIANTS && r.bot == bot)
            .unwrap()
            .tally
            .clone()
    };
    let (a, b) = (row("a"), row("b"));
    assert_eq!((a.judged_moves, a.kept, a.blunders), (2, 1, 1));
    assert_eq!(
        (a.wins_thrown, a.missed_wins, a.accuracy()),
        (1, 1, Some(0.5))
    );
    assert_eq!((a.first_blunder(), a.deciding_blunders), (Some(14.0), 0));
    assert_eq!((b.judged_moves, b.kept, b.blunders), (2, 0, 2));
    assert_eq!(
        (b.wins_thrown, b.missed_wins, b.accuracy()),
        (1, 1, Some(0.0))
    );
    assert_eq!((b.first_blunder(), b.deciding_blunders), (Some(13.0), 1));
    assert_eq!(b.blunders_per_game(), Some(2.0));
    // The variant's rows follow the overall ones, the most accurate bot first.
    let order: Vec<_> = summary
        .iter()
        .map(|r| (r.variant.as_str(), r.bot.as_str()))
        .collect();
    assert_eq!(
        order,
        [
            ("all", "a"),
            ("all", "b"),
            ("classic", "a"),
            ("classic", "b")
        ]
    );
}

#[test]
fn a_missed_win_that_keeps_the_win_is_kept() {
    let rec = record(
        "classic",
        "SDQFSDQHSLQHBLRH/BLRFBLQHBDRF./BLQF.BDRH./SDRH.SLRFSLRH SLQF",
        &["D3 BDQF", "B2 SDRF", "B1"],
        None,
    );
    expect(
        &rec,
        4,
        &[
            ("D3 BDQF", Win, Win, KEPT, true),
            ("B2 SDRF", Loss, Loss, KEPT, false),
            ("B1", Win, Win, KEPT, false),
        ],
    );
    let a = judge(&rec, "t", 4, &mut Oracle::new(1, 1)).unwrap();
    assert_eq!(a.decided, Decided::BeforeJudged);
}

#[test]
fn under_announce_an_unclaimed_win_is_thrown_and_a_claim_keeps_it() {
    // The start is claimable: the player to move may claim. It places instead (the shape is
    // dead) and still wins; later the other player completes a shape without announcing it,
    // and the claim that follows wins.
    let rec = record(
        "quads,claim=announce",
        "..BLRFBDRH/SDRHBLQHBDQHSLRF/SLQH..BLRH/BDRFSDQFBLQFBDQF SDRF claimable",
        &["B4 SLQF", "B2 SDQH", "C2 SLRH", "quarto"],
        None,
    );
    expect(
        &rec,
        4,
        &[
            ("B4 SLQF", Win, Win, KEPT, true),
            ("B2 SDQH", Loss, Loss, KEPT, false),
            ("C2 SLRH", Win, Loss, WIN_TO_LOSS, true),
            ("quarto", Win, Win, KEPT, false),
        ],
    );
    let rec = record(
        "quads,claim=announce",
        "BDRHSDQF.SDRF/.SLRHSDRHBDRF/.BLRFBDQHBLRH/SDQH.SLRFBLQF SLQH",
        &["C4 SLQF", "A2 BDQF", "B1 BLQH", "A3 quarto"],
        None,
    );
    expect(
        &rec,
        4,
        &[
            ("C4 SLQF", Win, Loss, WIN_TO_LOSS, true),
            ("A2 BDQF", Win, Draw, WIN_TO_DRAW, true),
            ("B1 BLQH", Draw, Loss, DRAW_TO_LOSS, false),
            ("A3 quarto", Win, Win, KEPT, false),
        ],
    );
}

#[test]
fn a_forfeit_is_judged_up_to_where_it_happened() {
    let start = "SLQHBDQHBLQF./BDRHSDQF.BLRH/SLQF.SLRHBDRF/BDQFBLRFSDQH. SLRF";
    let moves = ["C3 SDRH", "D4 BLQH"];
    // The second player, to move in a drawn position, runs out of time.
    let rec = record("classic", start, &moves, Some(GameResult::FirstWins));
    let a = judge(&rec, "t", 4, &mut Oracle::new(1, 1)).unwrap();
    assert_eq!(a.moves.len(), 2);
    assert_eq!(a.decided, Decided::Forfeit);
    // Had the first player thrown its win to a loss and then forfeited, the blunder decided.
    let rec = record(
        "classic",
        "BDRFBDRHBDQF./..../..../.... BDQH",
        &["A1 BLRF"],
        Some(GameResult::SecondWins),
    );
    let a = judge(&rec, "t", 13, &mut Oracle::new(1, 1)).unwrap();
    assert_eq!(
        a.decided,
        Decided::Blunder {
            index: 0,
            number: 4,
            seat: Player::First
        }
    );
}

#[test]
fn moves_before_the_window_are_not_judged() {
    let rec = thrown_win();
    // 13 empty squares before the first move, 12 before the second.
    assert_eq!(rows(&rec, 12).len(), 1);
    let a = judge(&rec, "t", 11, &mut Oracle::new(1, 1)).unwrap();
    assert!(a.moves.is_empty());
    assert_eq!(a.decided, Decided::Unjudged);
}

#[test]
fn positions_met_again_are_not_solved_again() {
    let mut oracle = Oracle::new(1, 1);
    let rec = thrown_win();
    judge(&rec, "t", 13, &mut oracle).unwrap();
    let first = oracle.work();
    assert_eq!((first.solved, first.recurred), (2, 0));
    judge(&rec, "t", 13, &mut oracle).unwrap();
    let second = oracle.work();
    assert_eq!((second.solved, second.recurred), (2, 2));
    // The announce form of a variant shares its solver and its values.
    let mut rec = thrown_win();
    rec.rules = "classic,claim=announce".into();
    rec.moves[1] = "D4 quarto".into();
    rec.end = format!("{} claimed", rec.end);
    let a = judge(&rec, "t", 13, &mut oracle).unwrap();
    assert_eq!((oracle.work().solved, oracle.work().recurred), (2, 4));
    assert_eq!(a.moves[1].verdict, Verdict::Kept);
}

#[test]
fn records_that_do_not_replay_are_errors() {
    let mut oracle = Oracle::new(1, 1);
    let mut rec = thrown_win();
    rec.rules = "quadz".into();
    let e = judge(&rec, "t", 11, &mut oracle).unwrap_err();
    assert!(matches!(e, ReplayError::Rules { .. }));
    assert_eq!(
        e.to_string(),
        "unknown variant `quadz`: unknown rules preset `quadz` (a rules spec starts with quads or classic)"
    );
    let mut rec = thrown_win();
    rec.moves[1] = "D4 BLQF".into();
    assert_eq!(
        judge(&rec, "t", 11, &mut oracle).unwrap_err().to_string(),
        "move 2: illegal move `D4 BLQF` in `BDRFBDRHBDQF./..../..../BDQH... BLRF`: this placement ends the game: give nothing"
    );
    let mut rec = thrown_win();
    rec.moves[0] = "Z9".into();
    assert!(matches!(
        judge(&rec, "t", 11, &mut oracle).unwrap_err(),
        ReplayError::Move { index: 1, .. }
    ));
    let mut rec = thrown_win();
    rec.end = "..../..../..../.... -".into();
    assert!(matches!(
        judge(&rec, "t", 11, &mut oracle).unwrap_err(),
        ReplayError::End { .. }
    ));
    let mut rec = thrown_win();
    rec.start = "..../..../..../BDRF... -".into();
    assert!(matches!(
        judge(&rec, "t", 11, &mut oracle).unwrap_err(),
        ReplayError::Impossible { .. }
    ));
}

#[test]
fn random_endgames_in_every_variant_agree_with_negamax() {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut pick = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    let variants = [
        "quads",
        "classic",
        "classic,traits=color+fill",
        "quads,traits=size",
        "quads,claim=announce",
        "classic,claim=announce",
    ];
    for spec in variants {
        let rules: Rules = spec.parse().unwrap();
        let mut judged = 0;
        for _ in 0..40 {
            // Random legal moves to the end (under announce: unannounced wins and claims too).
            let mut pos = Position::START;
            let mut positions = vec![pos];
            let mut moves = Vec::new();
            while pos.outcome(&rules).is_none() {
                let legal = pos.legal_moves(&rules);
                let m = legal[pick(legal.len())];
                moves.push(m.to_string());
                pos = pos.play(m, &rules).unwrap();
                positions.push(pos);
            }
            // From the position with 6 empty squares, if the game got there.
            let Some(k) = positions
                .iter()
                .position(|p| p.board().empty().len() == 6 && p.hand().is_some())
            else {
                continue;
            };
            let moves: Vec<&str> = moves[k..].iter().map(String::as_str).collect();
            let rec = record(spec, &positions[k].to_string(), &moves, None);
            check_by_negamax(&rec, 5);
            judged += 1;
        }
        assert!(
            judged >= 10,
            "{spec}: only {judged} games reached 6 empty squares"
        );
    }
}

#[test]
fn the_files_and_the_table_are_exact() {
    let mut other = thrown_win();
    other.game = 2;
    other.rules = "quads".into();
    // The same moves in Quads: the row wins there too. From 12 empty squares only the
    // second move is judged; the first player has none.
    let source = crate::Source {
        path: "g/games.jsonl".into(),
        records: vec![(1, thrown_win()), (3, other)],
    };
    let settings = crate::Settings {
        empty: 12,
        ..crate::Settings::default()
    };
    let a = crate::analyze(&[source], settings, |_, _| {}).unwrap();
    let dir = tempfile::tempdir().unwrap();
    crate::export::write_all(&a, dir.path()).unwrap();
    let read = |f: &str| std::fs::read_to_string(dir.path().join(f)).unwrap();
    assert_eq!(
        read("analysis.csv"),
        "\
variant,bot,empty,games,judged_games,judged_moves,kept,accuracy,blunders,blunders_per_game,wins_thrown,missed_wins,games_with_blunder,first_blunder_move,deciding_blunders
all,b,12,2,2,2,2,1.0000,0,0.000,0,0,0,,0
all,a,12,2,0,0,0,,0,,0,0,0,,0
classic,b,12,1,1,1,1,1.0000,0,0.000,0,0,0,,0
classic,a,12,1,0,0,0,,0,,0,0,0,,0
quads,b,12,1,1,1,1,1.0000,0,0.000,0,0,0,,0
quads,a,12,1,0,0,0,,0,,0,0,0,,0
"
    );
    let line = r#"{"source":"g/games.jsonl","game":1,"rules":"classic","first":"a","second":"b","result":"0-1","reason":"normal","empty":12,"moves":[{"index":1,"move":5,"seat":"second","played":"D4","before":"win","after":"win","verdict":"kept","missed_win":false}],"decided":{"by":"before-judged"}}"#;
    assert_eq!(read("analysis.jsonl").lines().next(), Some(line));
    assert_eq!(read("analysis.jsonl").lines().count(), 2);
    assert_eq!(
        crate::export::table(&a),
        "\
judged by the exact solver: every move made with 12 or fewer empty squares; 2 games, 2 moves
all variants
  bot  games  judged  moves  accuracy  blunders/game  first blunder  wins thrown  missed wins
  b        2       2      2    100.0%           0.00              -            0            0
  a        2       0      0         -              -              -            0            0
classic
  bot  games  judged  moves  accuracy  blunders/game  first blunder  wins thrown  missed wins
  b        1       1      1    100.0%           0.00              -            0            0
  a        1       0      0         -              -              -            0            0
quads
  bot  games  judged  moves  accuracy  blunders/game  first blunder  wins thrown  missed wins
  b        1       1      1    100.0%           0.00              -            0            0
  a        1       0      0         -              -              -            0            0
"
    );
}
