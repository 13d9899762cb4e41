//! The parts of a results folder every command shares: its `event.json`, the machine it was
//! played on, and paths written relative to it.

use std::path::Path;

use quads_record::files::write_atomic;
use quads_record::GameRecord;
use quads_reports::html::{EventInfo, EVENT_FILE};

use crate::ResultsError;

/// Writes `DIR/event.json`, making the folder if need be.
pub fn write_event(dir: &Path, event: &EventInfo) -> Result<(), ResultsError> {
    create(dir)?;
    let path = dir.join(EVENT_FILE);
    write_atomic(&path, event.to_json().as_bytes())
        .map_err(|source| ResultsError::Write { path, source })
}

/// Makes a folder (and its parents).
pub fn create(dir: &Path) -> Result<(), ResultsError> {
    std::fs::create_dir_all(dir).map_err(|source| ResultsError::Create {
        path: dir.to_owned(),
        source,
    })
}

/// Writes a file of the folder whole, or not at all.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), ResultsError> {
    write_atomic(path, bytes).map_err(|source| ResultsError::Write {
        path: path.to_owned(),
        source,
    })
}

/// The value every record has, if they all have the same one.
pub fn common<T: PartialEq>(
    records: &[(usize, GameRecord)],
    get: impl Fn(&GameRecord) -> Option<T>,
) -> Option<T> {
    let mut values = records.iter().map(|(_, r)| get(r));
    let first = values.next()??;
    values.all(|v| v.as_ref() == Some(&first)).then_some(first)
}

/// `to` relative to the folder `from` (both made absolute first), for links and
/// `event.json`; `to` as given when that fails.
pub fn relative(from: &Path, to: &Path) -> String {
    let absolute = |p: &Path| std::path::absolute(p).ok();
    let (Some(from), Some(to_abs)) = (absolute(from), absolute(to)) else {
        return to.display().to_string();
    };
    let a: Vec<_> = from.components().collect();
    let b: Vec<_> = to_abs.components().collect();
    let same = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = vec!["..".to_owned(); a.len() - same];
    parts.extend(
        b[same..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

/// The machine in a few words: the system, the cores, the processor and the memory.
pub fn machine() -> String {
    let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
    let cpuinfo = read("/proc/cpuinfo");
    let cpu = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .and_then(|l| l.split(':').nth(1))
        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "));
    let memory = read("/proc/meminfo")
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|l| l.split_whitespace().next()?.parse::<f64>().ok())
        .map(|kib| format!("{:.1} GiB memory", kib / 1024.0 / 1024.0));
    let system = match read("/proc/sys/kernel/osrelease").trim() {
        "" => std::env::consts::OS.to_owned(),
        release => format!("{} {release}", read("/proc/sys/kernel/ostype").trim()),
    };
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let mut parts = vec![system, format!("{cores} cores")];
    parts.extend(cpu);
    parts.extend(memory);
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_written_from_the_folder() {
        assert_eq!(
            relative(
                Path::new("/a/out/rated"),
                Path::new("/a/out/demo/games.jsonl")
            ),
            "../demo/games.jsonl"
        );
        assert_eq!(relative(Path::new("/a/b"), Path::new("/a/b/c")), "c");
    }
}
