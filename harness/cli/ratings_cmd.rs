//! `quads ratings`: standings and charts from one or more games.jsonl files.

use std::path::PathBuf;

use quads_reports::html::{Anchor, EventInfo};

/// Arguments of `quads ratings`.
#[derive(clap::Args)]
pub struct Args {
    /// games.jsonl files (from tournaments or matches) to rate together.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Where to write standings and charts.
    #[arg(long, default_value = "out/ratings")]
    out: PathBuf,
    /// The event name in the reports [default: the records' event, else `ratings`].
    #[arg(long)]
    event: Option<String>,
    /// The bootstrap's seed [default: the records' tournament seed, else 1].
    #[arg(long)]
    seed: Option<u64>,
    /// Pin a bot's rating, e.g. `greedy=1500` (otherwise the mean rating is 0).
    #[arg(long, value_name = "BOT=ELO", value_parser = parse_anchor)]
    anchor: Option<(String, f64)>,
}

fn parse_anchor(text: &str) -> Result<(String, f64), String> {
    let (bot, elo) = text
        .split_once('=')
        .ok_or("expected BOT=ELO, e.g. greedy=1500")?;
    let elo = elo
        .trim()
        .parse()
        .map_err(|_| format!("`{elo}` is not a rating"))?;
    Ok((bot.trim().to_owned(), elo))
}

pub fn run(args: &Args) -> Result<(), String> {
    let mut records = Vec::new();
    for (source, path) in args.files.iter().enumerate() {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let read =
            quads_record::parse_jsonl(&text).map_err(|e| format!("{} {e}", path.display()))?;
        records.extend(read.into_iter().map(|r| (source, r)));
    }
    if records.is_empty() {
        return Err("no games in the files given".into());
    }
    let anchor = args.anchor.as_ref().map(|(bot, elo)| (bot.as_str(), *elo));
    // Records of one tournament carry its event name and seed: the same intervals as it gave.
    let event = args
        .event
        .clone()
        .or_else(|| crate::report_cmd::common(&records, |r| r.event.clone()))
        .unwrap_or_else(|| "ratings".to_owned());
    let seed = args
        .seed
        .or_else(|| crate::report_cmd::common(&records, |r| r.event_seed))
        .unwrap_or(1);
    let report = quads_reports::report::build(&event, records, &[], seed, anchor)
        .map_err(|e| e.to_string())?;
    quads_reports::export::write_all(&report, &args.out)
        .map_err(|e| format!("cannot write into {}: {e}", args.out.display()))?;
    crate::report_cmd::write_event(
        &args.out,
        &EventInfo {
            name: event,
            seed: Some(seed),
            bots: report.bots.clone(),
            anchor: args.anchor.as_ref().map(|(bot, elo)| Anchor {
                bot: bot.clone(),
                elo: *elo,
            }),
            machine: machine_of(&args.files),
            games: args
                .files
                .iter()
                .map(|f| crate::report_cmd::relative(&args.out, f))
                .collect(),
        },
    )?;
    crate::outp!("{}", quads_reports::export::table(&report));
    crate::outln!("standings and charts in {}", args.out.display());
    let page = crate::report_cmd::rebuild(&args.out, Some(report))?;
    crate::outln!("report in {}", page.display());
    Ok(())
}

/// The machine the games were played on, if every file's folder names the same one in its
/// event.json.
fn machine_of(files: &[PathBuf]) -> Option<String> {
    let machines: Vec<Option<String>> = files
        .iter()
        .map(|f| {
            let dir = f.parent().unwrap_or(std::path::Path::new("."));
            EventInfo::read(dir).ok().flatten().and_then(|e| e.machine)
        })
        .collect();
    let first = machines.first()?.clone()?;
    machines
        .iter()
        .all(|m| m.as_ref() == Some(&first))
        .then_some(first)
}
