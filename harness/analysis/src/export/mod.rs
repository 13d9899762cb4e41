//! Exporters: one per output format, each a small type behind a private trait writing one
//! file of the output folder, and the table printed at the end of a run.
//!
//! Everything written depends only on the records and the settings: the same input gives
//! byte-identical files, whatever the thread count or the machine. The time a run took is
//! printed, never written.

mod csv;
mod jsonl;
mod table;

use std::path::Path;

use crate::error::AnalysisError;
use crate::Analysis;

pub use table::table;

/// Renders one output file from an analysis.
trait Exporter {
    /// The file's name in the output folder.
    fn file(&self) -> &'static str;
    /// Its bytes.
    fn render(&self, analysis: &Analysis) -> Vec<u8>;
}

fn exporters() -> [&'static dyn Exporter; 2] {
    [&csv::SummaryCsv, &jsonl::GamesJsonl]
}

/// The files [`write_all`] writes, in its order.
pub fn files() -> Vec<&'static str> {
    exporters().iter().map(|e| e.file()).collect()
}

/// Writes every file into `dir` (created if missing), each through a temporary file renamed
/// into place.
pub fn write_all(analysis: &Analysis, dir: &Path) -> Result<(), AnalysisError> {
    std::fs::create_dir_all(dir).map_err(|source| AnalysisError::Write {
        path: dir.to_owned(),
        source,
    })?;
    for e in exporters() {
        let path = dir.join(e.file());
        quads_record::files::write_atomic(&path, &e.render(analysis))
            .map_err(|source| AnalysisError::Write { path, source })?;
    }
    Ok(())
}

/// A number with `decimals` decimals, or nothing.
fn fixed(x: Option<f64>, decimals: usize) -> String {
    x.map(|x| format!("{x:.decimals$}")).unwrap_or_default()
}
