//! `quads puzzle`: the puzzle of the day, its solution, a check of an answer, and exports of
//! many days for an app.

use quads_i18n::{Arg, Catalog};
use quads_puzzle::{of_day, parse_date, today, Date, Level, Puzzle};
use quads_rules::{Move, Player, Rules};

/// Arguments of `quads puzzle`.
#[derive(clap::Args)]
pub struct Args {
    /// The day (YYYY-MM-DD; default: today here).
    #[arg(long, value_parser = parse_date)]
    date: Option<Date>,
    /// The variant (automatic wins only).
    #[arg(long, default_value = "quads", value_parser = crate::args::parse_rules)]
    rules: Rules,
    /// easy (a win in 3 placements), medium (5) or hard (7); an export without it has all three.
    #[arg(long)]
    level: Option<Level>,
    /// Also print the winning line.
    #[arg(long)]
    solution: bool,
    /// Whether MOVE (`C3 BLQF`) is the solution: exit 0 if it is, 1 if not.
    #[arg(long, value_name = "MOVE", conflicts_with_all = ["solution", "from", "json"])]
    check: Option<String>,
    /// Export the puzzles of DAYS days from this one (with --json).
    #[arg(long, value_parser = parse_date, requires = "json")]
    from: Option<Date>,
    /// How many days --from exports.
    #[arg(long, default_value_t = 1, requires = "from", value_parser = clap::value_parser!(u32).range(1..=36_600))]
    days: u32,
    /// Print JSON: one object, or with --from an array (date, level, rules, position,
    /// to_move, placements, solution, moves, tempting, attempts).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    lang: crate::lang::LangArg,
}

/// Exit code 0 or 1 for `--check`, else 0.
pub fn run(args: &Args) -> Result<u8, String> {
    if let Some(from) = args.from {
        let levels: Vec<Level> = args.level.map_or(Level::ALL.to_vec(), |l| vec![l]);
        let puzzles = export(from, args.days, &args.rules, &levels)?;
        crate::outln!(
            "{}",
            serde_json::to_string_pretty(&puzzles).expect("puzzles serialize")
        );
        return Ok(0);
    }
    let date = args.date.unwrap_or_else(today);
    let puzzle = of_day(date, &args.rules, args.level.unwrap_or(Level::Medium))
        .map_err(|e| e.to_string())?;
    if args.json {
        crate::outln!(
            "{}",
            serde_json::to_string_pretty(&puzzle).expect("a puzzle serializes")
        );
        return Ok(0);
    }
    let c = args.lang.catalog();
    if let Some(text) = &args.check {
        let mv: Move = text.parse().map_err(|e| format!("{e}"))?;
        let right = match puzzle.position().validate(mv, &puzzle.rules()) {
            Err(reason) => {
                crate::outln!(
                    "{}",
                    c.with(
                        "puzzle-illegal",
                        &[
                            ("move", mv.to_string().into()),
                            ("reason", quads_i18n::reason(&c, reason).into())
                        ]
                    )
                );
                false
            }
            Ok(()) if quads_puzzle::is_win(&puzzle, mv) => {
                crate::outln!(
                    "{}",
                    c.with("puzzle-right", &[("move", mv.to_string().into())])
                );
                true
            }
            Ok(()) => {
                crate::outln!(
                    "{}",
                    c.with("puzzle-wrong", &[("move", mv.to_string().into())])
                );
                false
            }
        };
        return Ok(if right { 0 } else { 1 });
    }
    crate::outp!("{}", describe(&c, &puzzle));
    if args.solution {
        crate::outln!(
            "{}",
            c.with(
                "puzzle-solution",
                &[("moves", puzzle.solution.join(", ").into())]
            )
        );
    }
    Ok(0)
}

/// The puzzle as a person reads it: title, board, whose move with which piece, the task.
pub fn describe(c: &Catalog, p: &Puzzle) -> String {
    let level = c.text(match p.level {
        Level::Easy => "level-easy",
        Level::Medium => "level-medium",
        Level::Hard => "level-hard",
    });
    let player = c.text(match p.player() {
        Player::First => "puzzle-first",
        Player::Second => "puzzle-second",
    });
    let title = c.with(
        "puzzle-title",
        &[("date", p.date.clone().into()), ("level", level.into())],
    );
    let pos = p.position();
    let piece = pos
        .hand()
        .expect("a puzzle has a piece in hand")
        .to_string();
    let mut s = format!("{title}\n\n{}\n", crate::show::diagram(&pos));
    s.push_str(&format!("{pos}\n"));
    s.push('\n');
    let task: Vec<(&str, Arg<'_>)> = vec![
        ("player", player.clone().into()),
        ("placements", p.placements.into()),
    ];
    s.push_str(&c.with("puzzle-task", &task));
    s.push('\n');
    s.push_str(&c.with(
        "status-place",
        &[("player", player.into()), ("piece", piece.into())],
    ));
    s.push('\n');
    s.push_str(&c.text("puzzle-exactly-one"));
    s.push('\n');
    s.push_str(&c.with("puzzle-tempting", &[("count", p.tempting.into())]));
    s.push('\n');
    s
}

/// The puzzles of `days` days from `from`, at each of `levels`, in date order; made on every
/// core.
fn export(from: Date, days: u32, rules: &Rules, levels: &[Level]) -> Result<Vec<Puzzle>, String> {
    let mut work = Vec::new();
    let mut date = from;
    for i in 0..days {
        for &level in levels {
            work.push((date, level));
        }
        if i + 1 < days {
            date = date
                .tomorrow()
                .map_err(|_| format!("{days} days from {from} pass the last date there is"))?;
        }
    }
    let threads = quads_tournament::cores().min(work.len()).max(1);
    let chunk = work.len().div_ceil(threads);
    let made: Vec<Result<Vec<Puzzle>, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = work
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|&(d, l)| of_day(d, rules, l).map_err(|e| e.to_string()))
                        .collect::<Result<Vec<_>, _>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a puzzle thread"))
            .collect()
    });
    let mut puzzles = Vec::with_capacity(work.len());
    for part in made {
        puzzles.extend(part?);
    }
    Ok(puzzles)
}
