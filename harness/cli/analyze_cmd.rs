//! `quads analyze`: every move of recorded games judged by the exact solver, per bot; also
//! run after a tournament with `analyze = true` or `--analyze`.

use std::path::{Path, PathBuf};

use quads_analysis::{analyze, export, input, Analysis, Settings};
use quads_reports::html::{EventInfo, EVENT_FILE};

/// Where the analysis of several inputs goes unless `--out` says otherwise.
const DEFAULT_OUT: &str = "out/analysis";

/// Arguments of `quads analyze`.
#[derive(clap::Args)]
pub struct Args {
    /// Tournament or match folders (each holding a games.jsonl), or games.jsonl files;
    /// judged together, with one solver table.
    #[arg(required = true, value_name = "DIR|games.jsonl")]
    inputs: Vec<PathBuf>,
    /// Judge every move made with at most this many empty squares.
    #[arg(long, value_name = "N", default_value_t = quads_analysis::DEFAULT_EMPTY,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(quads_analysis::MAX_EMPTY)))]
    empty: u32,
    /// Each solver table's size, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = quads_analysis::DEFAULT_HASH_MIB)]
    hash: usize,
    /// Threads per search; the answers are the same on any number [default: one per core].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    /// Where to write analysis.csv and analysis.jsonl [default: the folder analysed (of a
    /// single input), else out/analysis].
    #[arg(long)]
    out: Option<PathBuf>,
}

pub fn run(args: &Args) -> Result<(), String> {
    let settings = Settings {
        empty: args.empty,
        hash_mib: args.hash.max(1),
        threads: args
            .threads
            .map_or_else(quads_analysis::default_threads, usize::from),
    };
    let out = match (&args.out, &args.inputs[..]) {
        (Some(out), _) => out.clone(),
        (None, [one]) if one.is_dir() => one.clone(),
        (None, [one]) => one
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_owned),
        (None, _) => PathBuf::from(DEFAULT_OUT),
    };
    run_on(&args.inputs, settings, &out, false, false)
}

/// Judges the games of a tournament's output folder into that folder, with the default
/// settings; `quiet` leaves out the speed line.
pub fn after_tournament(out: &Path, quiet: bool) -> Result<(), String> {
    run_on(&[out.to_owned()], Settings::default(), out, quiet, true)
}

fn run_on(
    inputs: &[PathBuf],
    settings: Settings,
    out: &Path,
    quiet: bool,
    after_tournament: bool,
) -> Result<(), String> {
    let sources = inputs
        .iter()
        .map(|p| input::read(p))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let analysis = analyze(&sources, settings, |_, _| {}).map_err(|e| e.to_string())?;
    export::write_all(&analysis, out).map_err(|e| e.to_string())?;
    crate::outp!("{}", export::table(&analysis));
    crate::outln!(
        "analysis in {} ({})",
        out.display(),
        export::files().join(", ")
    );
    if !quiet {
        eprintln!("{}", speed(&analysis));
    }
    // A tournament's own analysis: it writes its report once, after this.
    if !after_tournament {
        report(&sources, out)?;
    }
    Ok(())
}

/// Rebuilds the report of the folder the analysis went into; a folder holding no games of
/// its own gets an event.json naming the games analysed.
fn report(sources: &[input::Source], out: &Path) -> Result<(), String> {
    let own = out.join(EVENT_FILE).exists() || out.join("games.jsonl").exists();
    if !own {
        let records: Vec<_> = sources
            .iter()
            .flat_map(|s| s.records.iter().map(|(_, r)| (0, r.clone())))
            .collect();
        let event = EventInfo {
            name: crate::report_cmd::common(&records, |r| r.event.clone())
                .unwrap_or_else(|| "analysis".to_owned()),
            seed: crate::report_cmd::common(&records, |r| r.event_seed),
            bots: Vec::new(),
            anchor: None,
            machine: None,
            games: sources
                .iter()
                .map(|s| crate::report_cmd::relative(out, &s.path))
                .collect(),
        };
        crate::report_cmd::write_event(out, &event)?;
    }
    let page = crate::report_cmd::rebuild(out, None)?;
    crate::outln!("report in {}", page.display());
    Ok(())
}

/// The run's speed, for stderr: never in the files.
fn speed(a: &Analysis) -> String {
    format!(
        "{} games judged in {:.2} s: {} positions solved ({} more known from earlier games), {:.1} M nodes",
        a.games.len(),
        a.seconds,
        a.work.solved,
        a.work.recurred,
        a.work.nodes as f64 / 1e6
    )
}
