//! The page's fixed sections, drawn here as HTML so that they read without the script: the
//! event, the standings, the pairwise and cross tables, the forfeits, the analysis table and
//! the three charts. Every string from a record goes through [`html`].

use std::fmt::Write as _;

use super::analysis::{Analysis, SummaryRow};
use super::escape::html;
use super::event::EventInfo;
use crate::charts::{self, Format, Kind};
use crate::numbers::{plain, signed};
use crate::report::{Block, Report, FORFEITS};

fn title(variant: &str) -> String {
    if variant == "all" {
        "all variants".to_owned()
    } else {
        variant.to_owned()
    }
}

fn f1(x: f64) -> String {
    plain(x, 1)
}

/// A time control in words: `movetime 1000` is 1 s a move, `base 300000 inc 2000` a clock.
fn time_words(tc: &str) -> String {
    let words: Vec<&str> = tc.split_whitespace().collect();
    let ms = |w: &str| w.parse::<u64>().ok().map(seconds);
    let mut parts = Vec::new();
    let mut i = 0;
    while i + 1 < words.len() {
        match (words[i], ms(words[i + 1])) {
            ("movetime", Some(s)) => parts.push(format!("{s} a move")),
            ("base", Some(s)) => parts.push(format!("{s} a game")),
            ("inc", Some(s)) => parts.push(format!("+{s} a move")),
            _ => return tc.to_owned(),
        }
        i += 2;
    }
    if parts.is_empty() || i != words.len() {
        tc.to_owned()
    } else {
        parts.join(" ")
    }
}

fn seconds(ms: u64) -> String {
    if ms % 60_000 == 0 && ms > 0 {
        format!("{} min", ms / 60_000)
    } else if ms % 1000 == 0 {
        format!("{} s", ms / 1000)
    } else {
        format!("{ms} ms")
    }
}

/// An RFC 3339 time as `YYYY-MM-DD HH:MM:SS UTC`.
fn when(t: &str) -> String {
    let t = t.trim_end_matches('Z');
    let t = t.split('.').next().unwrap_or(t);
    format!("{} UTC", t.replacen('T', " ", 1))
}

fn distinct<'a>(items: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for i in items {
        if !out.contains(&i) {
            out.push(i);
        }
    }
    out
}

/// The event: name, games, bots, variants, time controls, seed, dates and machine.
pub fn event(report: &Report, event: &EventInfo, analysis: Option<&Analysis>) -> String {
    let r = &report.records;
    let forfeits = r.iter().filter(|g| !g.failures.is_empty()).count();
    let variants = distinct(r.iter().map(|g| g.rules.as_str()));
    let times: Vec<String> = distinct(r.iter().map(|g| g.time_control.as_str()))
        .into_iter()
        .map(|t| format!("{} ({})", time_words(t), t))
        .collect();
    let started = r
        .iter()
        .map(|g| g.timing.started.as_str())
        .filter(|s| !s.is_empty());
    let dates = match (started.clone().min(), started.max()) {
        (Some(a), Some(b)) if a == b => when(a),
        (Some(a), Some(b)) => format!("{} to {}", when(a), when(b)),
        _ => "not recorded".to_owned(),
    };
    let played = report
        .blocks
        .first()
        .map_or(0, |b| b.rows.iter().filter(|x| x.games > 0).count());
    let mut facts = vec![
        (
            "games",
            format!("{} ({forfeits} ended by a forfeit)", r.len()),
        ),
        ("bots", played.to_string()),
        ("variants", variants.join(", ")),
        ("time control", times.join("; ")),
        (
            "seed",
            event
                .seed
                .map_or("not recorded".to_owned(), |s| s.to_string()),
        ),
        ("played", dates),
        (
            "machine",
            event
                .machine
                .clone()
                .unwrap_or_else(|| "not recorded".to_owned()),
        ),
    ];
    if let Some(a) = analysis {
        facts.push((
            "analysis",
            format!(
                "every move made with {} or fewer empty squares judged by the exact solver, in {} of the {} games",
                a.empty.map_or("few".to_owned(), |e| e.to_string()),
                a.matched(),
                r.len()
            ),
        ));
    }
    if let Some(anchor) = &event.anchor {
        facts.push(("anchor", format!("{} = {} Elo", anchor.bot, anchor.elo)));
    }
    let mut s = String::from("<dl class=\"facts\">");
    for (k, v) in facts {
        let _ = write!(s, "<dt>{k}</dt><dd data-fact=\"{k}\">{}</dd>", html(&v));
    }
    s.push_str("</dl>");
    s
}

fn forfeit_words(counts: &[u32]) -> String {
    let words: Vec<String> = FORFEITS
        .iter()
        .zip(counts)
        .filter(|(_, n)| **n > 0)
        .map(|(f, n)| format!("{f} {n}"))
        .collect();
    if words.is_empty() {
        "-".to_owned()
    } else {
        words.join(", ")
    }
}

fn block_heading(b: &Block) -> String {
    let (low, high) = b.first_move_interval;
    format!(
        "<h3>{}</h3><p class=\"note\">first-mover advantage {} Elo, 95% interval [{}, {}]</p>",
        html(&title(&b.variant)),
        signed(b.first_move, 1),
        signed(low, 0),
        signed(high, 0)
    )
}

/// The standings of every block (all games first), best rating first.
pub fn standings(report: &Report) -> String {
    let mut s = String::new();
    for b in &report.blocks {
        s.push_str(&block_heading(b));
        let _ = write!(
            s,
            "<table class=\"standings\" data-variant=\"{}\"><thead><tr><th>#</th><th>bot</th><th>games</th><th>W</th><th>D</th><th>L</th><th>score %</th><th>Elo</th><th>low</th><th>high</th><th>forfeits</th></tr></thead><tbody>",
            html(&b.variant)
        );
        let mut rows: Vec<_> = b.rows.iter().filter(|r| r.games > 0).collect();
        rows.sort_by(|x, y| y.elo.total_cmp(&x.elo));
        for (rank, r) in rows.iter().enumerate() {
            let _ = write!(
                s,
                "<tr data-bot=\"{bot}\"><td>{}</td><td class=\"bot\">{bot}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                rank + 1,
                r.games,
                r.wins,
                r.draws,
                r.losses,
                f1(r.score_pct),
                f1(r.elo),
                f1(r.elo_low),
                f1(r.elo_high),
                forfeit_words(&r.forfeits),
                bot = html(&r.bot),
            );
        }
        s.push_str("</tbody></table>");
    }
    s
}

/// Each pairing once per block: games, score, the pair's own (head-to-head) Elo with its
/// interval, the model's difference of ratings with its interval, and the model's LOS.
pub fn pairwise(report: &Report) -> String {
    let mut s = String::new();
    for b in &report.blocks {
        let _ = write!(s, "<h3>{}</h3>", html(&title(&b.variant)));
        s.push_str("<table class=\"pairwise\"><thead><tr><th>bot</th><th>opponent</th><th>games</th><th>points</th><th>score %</th><th title=\"the Elo difference that the pair's own score stands for\">head-to-head Elo</th><th>95% interval</th><th title=\"the first bot's rating minus the second's, fitted on every game of the block\">model diff</th><th>95% interval</th><th title=\"how likely the first bot is the stronger, by the model\">model LOS %</th></tr></thead><tbody>");
        let once = b.pairwise.iter().filter(|p| {
            p.bot < p.opponent
                || !b
                    .pairwise
                    .iter()
                    .any(|q| q.bot == p.opponent && q.opponent == p.bot)
        });
        for p in once {
            let _ = write!(
                s,
                "<tr><td class=\"bot\">{}</td><td class=\"bot\">{}</td><td>{}</td><td>{:.1}</td><td>{}</td><td>{}</td><td>[{}, {}]</td><td>{}</td><td>[{}, {}]</td><td>{:.1}</td></tr>",
                html(&p.bot),
                html(&p.opponent),
                p.games,
                p.points,
                f1(p.score_pct),
                signed(p.h2h.0, 1),
                signed(p.h2h.1, 0),
                signed(p.h2h.2, 0),
                signed(p.diff.0, 1),
                signed(p.diff.1, 0),
                signed(p.diff.2, 0),
                100.0 * p.los
            );
        }
        s.push_str("</tbody></table>");
    }
    s
}

/// The cross table of all games: each row bot's points against each column bot.
pub fn crosstable(report: &Report) -> String {
    let Some(all) = report.blocks.first() else {
        return String::new();
    };
    let bots: Vec<&str> = all
        .rows
        .iter()
        .filter(|r| r.games > 0)
        .map(|r| r.bot.as_str())
        .collect();
    let mut s = String::from("<table class=\"cross\"><thead><tr><th></th>");
    for (i, _) in bots.iter().enumerate() {
        let _ = write!(s, "<th title=\"{}\">{}</th>", html(bots[i]), i + 1);
    }
    s.push_str("</tr></thead><tbody>");
    for (i, a) in bots.iter().enumerate() {
        let _ = write!(s, "<tr><th class=\"bot\">{} {}</th>", i + 1, html(a));
        for b in &bots {
            match all
                .pairwise
                .iter()
                .find(|p| p.bot == *a && p.opponent == *b)
            {
                Some(p) => {
                    // Green for a winning score, red for a losing one, by how far from half.
                    let hue = (1.2 * p.score_pct).round();
                    let _ = write!(
                        s,
                        "<td style=\"background:hsl({hue},60%,85%)\" title=\"{:.1} of {} points\">{:.1}/{}</td>",
                        p.points, p.games, p.points, p.games
                    );
                }
                None => s.push_str("<td class=\"none\"></td>"),
            }
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table>");
    s
}

/// Games lost by forfeit, per bot and reason (all games), each reason a filter of the list.
pub fn forfeits(report: &Report) -> String {
    let Some(all) = report.blocks.first() else {
        return String::new();
    };
    let used: Vec<usize> = (0..FORFEITS.len())
        .filter(|&k| all.rows.iter().any(|r| r.forfeits[k] > 0))
        .collect();
    if used.is_empty() {
        return "<p>No game ended by a forfeit.</p>".to_owned();
    }
    let mut s = String::from("<table class=\"forfeits\"><thead><tr><th>bot</th>");
    for &k in &used {
        let _ = write!(
            s,
            "<th><a href=\"#games\" data-reason=\"{r}\">{r}</a></th>",
            r = FORFEITS[k]
        );
    }
    s.push_str("<th>total</th></tr></thead><tbody>");
    for r in all
        .rows
        .iter()
        .filter(|r| r.forfeits.iter().any(|n| *n > 0))
    {
        let _ = write!(s, "<tr><td class=\"bot\">{}</td>", html(&r.bot));
        for &k in &used {
            let _ = write!(s, "<td>{}</td>", r.forfeits[k]);
        }
        let _ = write!(s, "<td>{}</td></tr>", r.forfeits.iter().sum::<u32>());
    }
    s.push_str("</tbody></table>");
    s
}

fn pct(x: Option<f64>) -> String {
    x.map_or("-".to_owned(), |x| format!("{:.1}", 100.0 * x))
}

fn opt(x: Option<f64>, decimals: usize) -> String {
    x.map_or("-".to_owned(), |x| format!("{x:.decimals$}"))
}

/// `analysis.csv` as tables, one per variant (all first), most accurate first.
pub fn analysis(a: &Analysis) -> String {
    let mut s = String::new();
    let variants = distinct(a.summary.iter().map(|r| r.variant.as_str()));
    for v in variants {
        let _ = write!(s, "<h3>{}</h3>", html(&title(v)));
        s.push_str("<table class=\"analysis\"><thead><tr><th>bot</th><th>games</th><th>judged</th><th>moves</th><th>accuracy %</th><th>blunders/game</th><th>first blunder</th><th>wins thrown</th><th>missed wins</th><th>deciding blunders</th></tr></thead><tbody>");
        let mut rows: Vec<&SummaryRow> = a.summary.iter().filter(|r| r.variant == v).collect();
        rows.sort_by(|x, y| {
            y.accuracy
                .unwrap_or(-1.0)
                .total_cmp(&x.accuracy.unwrap_or(-1.0))
        });
        for r in rows {
            let _ = write!(
                s,
                "<tr><td class=\"bot\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                html(&r.bot),
                r.games,
                r.judged_games,
                r.judged_moves,
                pct(r.accuracy),
                opt(r.blunders_per_game, 2),
                r.first_blunder_move.map_or("-".to_owned(), |m| format!("move {m:.1}")),
                r.wins_thrown,
                r.missed_wins,
                r.deciding_blunders
            );
        }
        s.push_str("</tbody></table>");
    }
    s
}

/// The three charts, inline SVG (plotters escapes the text it draws).
pub fn charts(report: &Report) -> String {
    let mut s = String::new();
    for (kind, caption) in [
        (Kind::Elo, "Elo with 95% intervals, one series per variant"),
        (Kind::CrossTable, "pairwise scores"),
        (Kind::Convergence, "ratings against games played"),
    ] {
        let svg = String::from_utf8(charts::render(report, kind, Format::Svg))
            .expect("plotters writes UTF-8");
        let _ = write!(
            s,
            "<figure class=\"chart\">{svg}<figcaption>{caption}</figcaption></figure>"
        );
    }
    s
}
