//! `quads analyze`: every move of recorded games judged by the exact solver, into a folder;
//! also run after a tournament or a merge that asks for it.

use std::path::{Path, PathBuf};

use quads_analysis::{analyze, export, input, Analysis, Settings};
use quads_reports::html::{EventInfo, EVENT_FILE};

use crate::folder::{common, relative, write_event};
use crate::{page, Event, ResultsError, Sink};

/// Judges the games of `inputs` (folders or games.jsonl files) together into `out`, then
/// rebuilds `out`'s report (a folder holding no games of its own gets an event.json naming
/// the games judged).
pub fn judge(
    inputs: &[PathBuf],
    settings: Settings,
    out: &Path,
    sink: &mut dyn Sink,
) -> Result<(), ResultsError> {
    let sources = judge_into(inputs, settings, out, sink)?;
    let own = out.join(EVENT_FILE).exists() || out.join(quads_record::files::GAMES).exists();
    if !own {
        let records: Vec<_> = sources
            .iter()
            .flat_map(|s| s.records.iter().map(|(_, r)| (0, r.clone())))
            .collect();
        let event = EventInfo {
            name: common(&records, |r| r.event.clone()).unwrap_or_else(|| "analysis".to_owned()),
            seed: common(&records, |r| r.event_seed),
            bots: Vec::new(),
            anchor: None,
            machine: None,
            games: sources.iter().map(|s| relative(out, &s.path)).collect(),
        };
        write_event(out, &event)?;
    }
    let page = page::rebuild(out, None)?;
    sink.event(Event::Report(&page));
    Ok(())
}

/// Judges a run's own games into its folder, with the default settings; the run writes its
/// report once, after this.
pub fn judge_run(out: &Path, sink: &mut dyn Sink) -> Result<(), ResultsError> {
    judge_into(&[out.to_owned()], Settings::default(), out, sink).map(drop)
}

fn judge_into(
    inputs: &[PathBuf],
    settings: Settings,
    out: &Path,
    sink: &mut dyn Sink,
) -> Result<Vec<input::Source>, ResultsError> {
    let sources = inputs
        .iter()
        .map(|p| input::read(p))
        .collect::<Result<Vec<_>, _>>()?;
    let analysis = analyze(&sources, settings, |_, _| {})?;
    export::write_all(&analysis, out)?;
    sink.event(Event::Judged {
        table: &export::table(&analysis),
        out,
        files: &export::files(),
        speed: &speed(&analysis),
    });
    Ok(sources)
}

/// The run's speed, for the front end: never in the files.
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
