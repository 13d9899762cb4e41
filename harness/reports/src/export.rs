//! Exporters: one per output format, each a small type behind a private trait, each writing
//! one file of the output folder.

use std::fmt::Write as _;
use std::path::Path;

use crate::charts;
use crate::numbers::{plain, signed};
use crate::report::{Report, FORFEITS};

/// Renders one output file from a report.
trait Exporter {
    /// The file's name in the output folder.
    fn file(&self) -> &'static str;
    /// Its bytes.
    fn render(&self, report: &Report) -> Vec<u8>;
}

fn csv_bytes(header: &[&str], rows: impl Iterator<Item = Vec<String>>) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(header).expect("in memory");
    for row in rows {
        w.write_record(&row).expect("in memory");
    }
    w.into_inner().expect("in memory")
}

fn f1(x: f64) -> String {
    plain(x, 1)
}

/// `results.csv`: one row per game.
struct ResultsCsv;

impl Exporter for ResultsCsv {
    fn file(&self) -> &'static str {
        "results.csv"
    }
    fn render(&self, report: &Report) -> Vec<u8> {
        let header = [
            "game",
            "round",
            "pair",
            "variant",
            "first",
            "second",
            "result",
            "reason",
            "moves",
            "duration_ms",
        ];
        csv_bytes(
            &header,
            report.records.iter().map(|r| {
                vec![
                    r.game.to_string(),
                    r.round.map(|x| x.to_string()).unwrap_or_default(),
                    r.pair.map(|x| x.to_string()).unwrap_or_default(),
                    r.rules.clone(),
                    r.first.name.clone(),
                    r.second.name.clone(),
                    r.result.to_string(),
                    r.reason.to_string(),
                    r.moves.len().to_string(),
                    format!("{:.3}", r.timing.duration_ms),
                ]
            }),
        )
    }
}

/// `standings.csv`: per bot per variant (and `all`).
struct StandingsCsv;

impl Exporter for StandingsCsv {
    fn file(&self) -> &'static str {
        "standings.csv"
    }
    fn render(&self, report: &Report) -> Vec<u8> {
        let mut header = vec![
            "variant",
            "bot",
            "games",
            "wins",
            "draws",
            "losses",
            "score_pct",
            "elo",
            "elo_low",
            "elo_high",
        ];
        header.extend(FORFEITS.iter().map(|f| f.as_str()));
        csv_bytes(
            &header,
            report.blocks.iter().flat_map(|b| {
                b.rows.iter().map(move |r| {
                    let mut row = vec![
                        b.variant.clone(),
                        r.bot.clone(),
                        r.games.to_string(),
                        r.wins.to_string(),
                        r.draws.to_string(),
                        r.losses.to_string(),
                        f1(r.score_pct),
                        f1(r.elo),
                        f1(r.elo_low),
                        f1(r.elo_high),
                    ];
                    row.extend(r.forfeits.iter().map(u32::to_string));
                    row
                })
            }),
        )
    }
}

/// `pairwise.csv`: per pairing per variant.
struct PairwiseCsv;

impl Exporter for PairwiseCsv {
    fn file(&self) -> &'static str {
        "pairwise.csv"
    }
    fn render(&self, report: &Report) -> Vec<u8> {
        let header = [
            "variant",
            "bot",
            "opponent",
            "games",
            "points",
            "score_pct",
            "h2h_elo",
            "h2h_low",
            "h2h_high",
            "model_diff",
            "model_low",
            "model_high",
            "model_los",
        ];
        csv_bytes(
            &header,
            report.blocks.iter().flat_map(|b| {
                b.pairwise.iter().map(move |p| {
                    vec![
                        b.variant.clone(),
                        p.bot.clone(),
                        p.opponent.clone(),
                        p.games.to_string(),
                        format!("{:.1}", p.points),
                        f1(p.score_pct),
                        f1(p.h2h.0),
                        f1(p.h2h.1),
                        f1(p.h2h.2),
                        f1(p.diff.0),
                        f1(p.diff.1),
                        f1(p.diff.2),
                        format!("{:.3}", p.los),
                    ]
                })
            }),
        )
    }
}

/// `games.pgn`: the seven-tag roster per game, first player as White, moves in a comment.
struct Pgn;

/// PGN's export format keeps lines to 79 characters.
const PGN_WIDTH: usize = 79;

/// Breaks `text` at spaces into lines of at most `width` characters (a longer word stands on
/// a line of its own).
pub fn wrap(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / width);
    let mut line = 0;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let len = word.chars().count();
        if line > 0 && line + 1 + len > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += len;
    }
    out
}

fn pgn_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

impl Exporter for Pgn {
    fn file(&self) -> &'static str {
        "games.pgn"
    }
    fn render(&self, report: &Report) -> Vec<u8> {
        let mut out = String::new();
        for r in &report.records {
            let round = match (r.round, r.pair) {
                (Some(round), Some(pair)) => format!("{round}.{pair}"),
                _ => r.game.to_string(),
            };
            let _ = writeln!(out, "[Event \"{}\"]", pgn_escape(&report.event));
            let _ = writeln!(out, "[Site \"Quads Arena\"]");
            // The wall-clock date is in games.jsonl (timing.started); here it would make the
            // file differ between identical runs.
            let _ = writeln!(out, "[Date \"????.??.??\"]");
            let _ = writeln!(out, "[Round \"{round}\"]");
            let _ = writeln!(out, "[White \"{}\"]", pgn_escape(&r.first.name));
            let _ = writeln!(out, "[Black \"{}\"]", pgn_escape(&r.second.name));
            let _ = writeln!(out, "[Result \"{}\"]", r.result);
            let _ = writeln!(out);
            let comment = format!(
                "game {} rules {} start {} moves {} end {} reason {}",
                r.game,
                r.rules,
                r.start,
                r.moves.join(", "),
                r.end,
                r.reason
            );
            let movetext = format!("{{{}}} {}", comment.replace('}', ")"), r.result);
            let _ = writeln!(out, "{}", wrap(&movetext, PGN_WIDTH));
            let _ = writeln!(out);
        }
        out.into_bytes()
    }
}

/// `standings.txt`: the tables as printed.
struct Table;

/// The standings and pairwise tables as text.
pub fn table(report: &Report) -> String {
    let mut s = String::new();
    let width = report
        .bots
        .iter()
        .map(String::len)
        .max()
        .unwrap_or(3)
        .max(3);
    for b in &report.blocks {
        let title = if b.variant == "all" {
            "all variants".to_owned()
        } else {
            b.variant.clone()
        };
        let (low, high) = b.first_move_interval;
        let _ = writeln!(
            s,
            "{title} (first-mover advantage {} Elo, 95% interval [{}, {}])",
            signed(b.first_move, 1),
            signed(low, 0),
            signed(high, 0)
        );
        let _ = writeln!(
            s,
            "  {:<width$}  games     W     D     L  score      Elo   95% interval   forfeits",
            "bot"
        );
        let mut rows: Vec<_> = b.rows.iter().filter(|r| r.games > 0).collect();
        rows.sort_by(|x, y| y.elo.total_cmp(&x.elo));
        for r in rows {
            let forfeits: Vec<String> = FORFEITS
                .iter()
                .zip(&r.forfeits)
                .filter(|(_, n)| **n > 0)
                .map(|(name, n)| format!("{name} {n}"))
                .collect();
            let _ = writeln!(
                s,
                "  {:<width$}  {:>5} {:>5} {:>5} {:>5} {:>5.1}%  {:>7}  [{}, {}]   {}",
                r.bot,
                r.games,
                r.wins,
                r.draws,
                r.losses,
                r.score_pct,
                signed(r.elo, 1),
                signed(r.elo_low, 0),
                signed(r.elo_high, 0),
                if forfeits.is_empty() {
                    "-".to_owned()
                } else {
                    forfeits.join(", ")
                }
            );
        }
        if b.variant == "all" {
            let _ = writeln!(
                s,
                "  pairwise: {:<width$} vs {:<width$}  games  score  {:<21}  {:<21}  model LOS",
                "bot", "opponent", "head-to-head Elo, 95%", "model diff, 95%"
            );
            for p in b.pairwise.iter().filter(|p| {
                p.bot < p.opponent
                    || !b
                        .pairwise
                        .iter()
                        .any(|q| q.bot == p.opponent && q.opponent == p.bot)
            }) {
                let h2h = format!("[{}, {}]", signed(p.h2h.1, 0), signed(p.h2h.2, 0));
                let model = format!("[{}, {}]", signed(p.diff.1, 0), signed(p.diff.2, 0));
                let _ = writeln!(
                    s,
                    "            {:<width$} vs {:<width$}  {:>5} {:>5.1}%  {:>6} {:<14}  {:>6} {:<14}  {:>8.1}%",
                    p.bot,
                    p.opponent,
                    p.games,
                    p.score_pct,
                    signed(p.h2h.0, 1),
                    h2h,
                    signed(p.diff.0, 1),
                    model,
                    100.0 * p.los
                );
            }
            let _ = writeln!(
                s,
                "  (head-to-head: the Elo that the pair's own score stands for; model: the first bot's rating minus the second's, as above, fitted on every game; LOS: how likely the first is the stronger, by the model)"
            );
        }
        s.push('\n');
    }
    s
}

impl Exporter for Table {
    fn file(&self) -> &'static str {
        "standings.txt"
    }
    fn render(&self, report: &Report) -> Vec<u8> {
        table(report).into_bytes()
    }
}

struct Chart(charts::Kind, charts::Format);

impl Exporter for Chart {
    fn file(&self) -> &'static str {
        charts::file_name(self.0, self.1)
    }
    fn render(&self, report: &Report) -> Vec<u8> {
        charts::render(report, self.0, self.1)
    }
}

/// Every exporter, in the order files are written.
fn exporters() -> Vec<Box<dyn Exporter>> {
    let mut all: Vec<Box<dyn Exporter>> = vec![
        Box::new(ResultsCsv),
        Box::new(Pgn),
        Box::new(StandingsCsv),
        Box::new(PairwiseCsv),
        Box::new(Table),
    ];
    for kind in charts::Kind::ALL {
        for format in [charts::Format::Svg, charts::Format::Png] {
            all.push(Box::new(Chart(kind, format)));
        }
    }
    all
}

/// Renders one file by name (for tests).
pub fn render_file(report: &Report, file: &str) -> Option<Vec<u8>> {
    exporters()
        .into_iter()
        .find(|e| e.file() == file)
        .map(|e| e.render(report))
}

/// Writes every report file into `dir`, each through a temporary file and a rename, so that a
/// reader never sees half a file. Returns the names written.
pub fn write_all(report: &Report, dir: &Path) -> std::io::Result<Vec<&'static str>> {
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    for e in exporters() {
        quads_record::files::write_atomic(&dir.join(e.file()), &e.render(report))?;
        written.push(e.file());
    }
    Ok(written)
}
