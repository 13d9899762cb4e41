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

use quads_record::{file_safe, GameRecord, Seat};
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
    let mut out = Replayed {
        moves: String::with_capacity(2 * r.moves.len()),
        win: 0,
        note: None,
    };
    let rules: Rules = match r.rules.parse() {
        Ok(rules) => rules,
        Err(e) => {
            out.note = Some(format!("the rules `{}` are unknown here: {e}", r.rules));
            return out;
        }
    };
    let mut pos: Position = match r.start.parse() {
        Ok(pos) => pos,
        Err(e) => {
            out.note = Some(format!("the start position does not parse: {e}"));
            return out;
        }
    };
    let mut last = None;
    for (i, text) in r.moves.iter().enumerate() {
        let played = text
            .parse::<Move>()
            .map_err(|e| e.to_string())
            .and_then(|mv| {
                pos.play(mv, &rules)
                    .map(|p| (mv, p))
                    .map_err(|e| e.to_string())
            });
        match played {
            Ok((mv, next)) => {
                out.moves.extend(encode(mv));
                if let Move::Place { to, .. } = mv {
                    last = Some(to);
                }
                pos = next;
            }
            Err(e) => {
                out.note = Some(format!("move {} does not replay: {e}", i + 1));
                return out;
            }
        }
    }
    if pos.to_string() != r.end {
        out.note = Some(format!(
            "the moves reach `{pos}`, not the recorded end `{}`",
            r.end
        ));
    }
    if let (Some(Outcome::Win(_)), Some(last)) = (pos.outcome(&rules), last) {
        out.win = winning_squares(&pos, &rules, last.index());
    }
    out
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
            let logs = [Seat::First, Seat::Second]
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
