//! The games as compact JSON data for the page's script: one array per game, strings that
//! repeat (bots, variants, reasons, start positions, time controls) stored once and named by
//! index, and each move in two characters. A 10,000-game report stays near 1 MB of data,
//! which the browser parses in milliseconds; the page draws a board only for the game opened.
//!
//! Each record is replayed here with the rules core, so that the page needs no rules: it only
//! puts pieces where the moves say, and is told the winning squares of the end. A record that
//! does not replay (an unknown variant, an illegal move, an end that differs) keeps the moves
//! that did and says why.
//!
//! Moves: the first character is the square placed on (`0`–`f`, the square's index, A1 = 0),
//! `-` for the opening give or `!` for a claim; the second the piece given (`0`–`f`, the
//! piece's number, BDRF = 0), `-` for nothing or `!` for "Quarto!". So `D2 BLQF` is `74`,
//! `BLQF` is `-4`, `D2` is `7-`, `D2 quarto` is `7!` and `quarto` is `!!`.

use std::collections::HashMap;

use quads_record::replay::ReplayError;
use quads_record::{file_safe, GameRecord, Player};
use quads_rules::{Move, Outcome, Position, Rules, Then};
use serde_json::{json, Value as Json};

use super::analysis::{Analysis, JudgedGame};
use crate::report::Report;

/// The columns of a game's array, in order (also written into the data, for the script and
/// for a reader of the page's source).
pub const COLUMNS: [&str; 17] = [
    "game", "source", "first", "second", "variant", "result", "reason", "start", "moves", "win",
    "logs", "failures", "marks", "decided", "time", "round", "note",
];

/// Strings stored once, named by their index.
#[derive(Default)]
struct Interned {
    items: Vec<String>,
    index: HashMap<String, usize>,
}

impl Interned {
    fn id(&mut self, s: &str) -> usize {
        if let Some(&i) = self.index.get(s) {
            return i;
        }
        self.items.push(s.to_owned());
        self.index.insert(s.to_owned(), self.items.len() - 1);
        self.items.len() - 1
    }
}

fn hex(i: usize) -> char {
    char::from_digit(i as u32, 16).expect("an index below 16")
}

/// A move in two characters (see the module's header).
fn encode(mv: Move) -> [char; 2] {
    match mv {
        Move::Give(p) => ['-', hex(p.index())],
        Move::Claim => ['!', '!'],
        Move::Place { to, then } => [
            hex(to.index()),
            match then {
                Then::Give(p) => hex(p.index()),
                Then::Nothing => '-',
                Then::Quarto => '!',
            },
        ],
    }
}

/// A game replayed: its moves encoded, the winning squares at the end, and why the replay
/// stopped early, if it did.
struct Replayed {
    moves: String,
    win: u16,
    note: Option<String>,
}

fn replay(r: &GameRecord) -> Replayed {
    let replay = quads_record::replay::replay(r);
    let mut out = Replayed {
        moves: String::with_capacity(2 * replay.moves.len()),
        win: 0,
        note: replay.error.as_ref().map(note),
    };
    for &mv in &replay.moves {
        out.moves.extend(encode(mv));
    }
    let last = replay.moves.iter().rev().find_map(|mv| match mv {
        Move::Place { to, .. } => Some(*to),
        _ => None,
    });
    // The winning shape is drawn only where every move replayed.
    let replayed = matches!(replay.error, None | Some(ReplayError::End { .. }));
    if let (true, Some(rules), Some(pos), Some(last)) =
        (replayed, replay.rules, replay.positions.last(), last)
    {
        if let Some(Outcome::Win(_)) = pos.outcome(&rules) {
            out.win = winning_squares(pos, &rules, last.index());
        }
    }
    out
}

/// Why a record's replay stopped, as the page says it.
fn note(e: &ReplayError) -> String {
    match e {
        ReplayError::Rules { spec, source } => {
            format!("the rules `{spec}` are unknown here: {source}")
        }
        ReplayError::Start(e) => format!("the start position does not parse: {e}"),
        ReplayError::Move { index, source } => format!("move {index} does not replay: {source}"),
        ReplayError::Illegal { index, source } => {
            format!("move {index} does not replay: {source}")
        }
        ReplayError::End { reached, recorded } => {
            format!("the moves reach `{reached}`, not the recorded end `{recorded}`")
        }
        e => e.to_string(),
    }
}

/// The squares of every shape through `last` that is full and shares a trait that counts.
fn winning_squares(pos: &Position, rules: &Rules, last: usize) -> u16 {
    let board = pos.board();
    let traits = rules.traits.mask();
    let mut win = 0;
    for shape in rules.shapes() {
        if shape.0 & (1 << last) == 0 {
            continue;
        }
        let pieces: Vec<u8> = shape
            .iter()
            .filter_map(|sq| board.piece_at(sq))
            .map(|p| p.bits())
            .collect();
        if pieces.len() != 4 {
            continue;
        }
        let ones = pieces.iter().fold(0xf, |a, b| a & b);
        let zeros = pieces.iter().fold(0xf, |a, b| a & !b);
        if (ones | zeros) & traits != 0 {
            win |= shape.0;
        }
    }
    win
}

/// Each move's mark: `.` when not judged, else a letter from `a`: 6 × the value before (loss
/// 0, draw 1, win 2) + 2 × the value after + 1 for a missed win in one.
fn marks(r: &GameRecord, judged: &JudgedGame) -> String {
    let mut marks = vec!['.'; r.moves.len()];
    for m in &judged.moves {
        if let Some(slot) = marks.get_mut(m.index) {
            let code = 6 * m.before.rank() + 2 * m.after.rank() + u8::from(m.missed_win);
            *slot = char::from(b'a' + code);
        }
    }
    marks.into_iter().collect()
}

/// The page's data, as JSON text (not yet escaped for the page).
pub fn games_json(report: &Report, log_bases: &[String], analysis: Option<&Analysis>) -> String {
    let mut bots = Interned::default();
    for b in &report.bots {
        bots.id(b);
    }
    let mut variants = Interned::default();
    let mut reasons = Interned::default();
    let mut starts = Interned::default();
    let mut times = Interned::default();
    for b in report.blocks.iter().filter(|b| b.variant != "all") {
        variants.id(&b.variant);
    }
    let results = ["1-0", "0-1", "1/2-1/2"];
    let games: Vec<Json> = report
        .records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let replayed = replay(r);
            let judged = analysis
                .and_then(|a| a.games.get(i))
                .and_then(Option::as_ref);
            let failures: Json = if r.failures.is_empty() {
                json!(0)
            } else {
                r.failures
                    .iter()
                    .map(|f| json!([f.seat.index(), f.reason.as_str(), f.detail]))
                    .collect()
            };
            let logs = [Player::First, Player::Second]
                .iter()
                .filter(|s| r.log_file(**s).is_some())
                .map(|s| 1 << s.index())
                .sum::<u8>();
            let round = match (r.round, r.pair) {
                (Some(round), Some(pair)) => format!("{round}.{pair}"),
                _ => String::new(),
            };
            json!([
                r.game,
                report.sources.get(i).copied().unwrap_or(0),
                bots.id(&r.first.name),
                bots.id(&r.second.name),
                variants.id(&r.rules),
                results
                    .iter()
                    .position(|x| *x == r.result.as_str())
                    .unwrap_or(2),
                reasons.id(r.reason.as_str()),
                starts.id(&r.start),
                replayed.moves,
                replayed.win,
                logs,
                failures,
                judged.map(|j| marks(r, j)).unwrap_or_default(),
                judged
                    .and_then(|j| j.decided.index)
                    .map_or(-1, |i| i as i64),
                times.id(&r.time_control),
                round,
                replayed.note.map_or(json!(0), Json::from),
            ])
        })
        .collect();
    let data = json!({
        "columns": COLUMNS,
        "bots": bots.items,
        "files": bots.items.iter().map(|b| file_safe(b)).collect::<Vec<_>>(),
        "variants": variants.items,
        "results": results,
        "reasons": reasons.items,
        "starts": starts.items,
        "times": times.items,
        "logBases": log_bases,
        "judged": analysis.is_some(),
        "empty": analysis.and_then(|a| a.empty),
        "games": games,
    });
    serde_json::to_string(&data).expect("JSON values always serialize")
}
