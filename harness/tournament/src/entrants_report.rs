//! The entrants' verdicts as `OUT/entrants.md` (for people: a table, then why each entrant
//! left out was, then the warnings of the admitted) and `OUT/entrants.json` (for programs, and
//! for a resumed run, which reads the admitted list back from it).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use quads_record::files::{ENTRANTS_JSON, ENTRANTS_MD};
use quads_referee::check::{render, ScenarioReport};
use quads_referee::defaults;

use crate::config::Tournament;
use crate::entrants::{About, EntrantsError};

/// What became of one entrant.
#[derive(Clone, Debug)]
pub struct Verdict {
    /// Name, author, language, folder.
    pub about: About,
    /// Whether it plays.
    pub admitted: bool,
    /// One line: the check's summary when admitted, otherwise why not.
    pub reason: String,
    /// The same in words that quote nothing of the entrant's output (its build's log, its
    /// lines, its stderr): what a competition shows anyone.
    pub public_reason: String,
    /// Its build's log, when it has a build.
    pub build_log: Option<PathBuf>,
    /// The last lines of a failed build's log.
    pub build_tail: Option<String>,
    /// The check's reports, when it was checked.
    pub reports: Option<Vec<ScenarioReport>>,
}

impl Verdict {
    /// An entrant left out for `reason`, before anything ran.
    pub fn left_out(about: About, reason: String) -> Verdict {
        Verdict {
            about,
            admitted: false,
            public_reason: reason.clone(),
            reason,
            build_log: None,
            build_tail: None,
            reports: None,
        }
    }
}

/// One entrant as `entrants.json` recorded it.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct Saved {
    /// Its name.
    pub name: String,
    /// Its folder.
    pub folder: PathBuf,
    /// Whether it was admitted.
    pub admitted: bool,
    /// Why (or the check's summary).
    pub reason: String,
    /// Why, quoting nothing of the entrant's output (empty in files written before it was
    /// recorded).
    #[serde(default)]
    pub public_reason: String,
}

#[derive(serde::Deserialize)]
struct SavedFile {
    entrants: Vec<Saved>,
}

/// Reads the verdicts of an earlier run.
pub fn read(path: &Path) -> Result<Vec<Saved>, EntrantsError> {
    let text = std::fs::read_to_string(path).map_err(|source| EntrantsError::Read {
        path: path.to_owned(),
        source,
    })?;
    serde_json::from_str::<SavedFile>(&text)
        .map(|f| f.entrants)
        .map_err(|source| EntrantsError::Saved {
            path: path.to_owned(),
            source,
        })
}

/// Writes `entrants.md` and `entrants.json` into the output folder.
pub fn write(t: &Tournament, folder: &Path, verdicts: &[Verdict]) -> Result<(), EntrantsError> {
    let save = |name: &str, text: String| {
        let path = t.out.join(name);
        quads_record::files::write_atomic(&path, text.as_bytes())
            .map_err(|source| EntrantsError::Write { path, source })
    };
    save(ENTRANTS_MD, markdown(t, folder, verdicts))?;
    save(ENTRANTS_JSON, json(folder, verdicts))
}

/// `entrants.json`: the folder, and per entrant its name, author, language, folder, whether
/// it is admitted and why (also in words that quote nothing of its output), its build log and the check's reports (`quads check --json`).
fn json(folder: &Path, verdicts: &[Verdict]) -> String {
    let entrants: Vec<serde_json::Value> = verdicts
        .iter()
        .map(|v| {
            serde_json::json!({
                "name": v.about.name,
                "author": v.about.author,
                "language": v.about.language,
                "folder": v.about.folder,
                "admitted": v.admitted,
                "reason": v.reason,
                "public_reason": v.public_reason,
                "build_log": v.build_log,
                "check": v.reports.as_deref().map(render::json),
            })
        })
        .collect();
    let all = serde_json::json!({ "folder": folder, "entrants": entrants });
    serde_json::to_string_pretty(&all).unwrap_or_default() + "\n"
}

/// A table cell: one line, with `|` escaped and no HTML (an entrant's words reach it).
fn cell(text: &str) -> String {
    no_html(text).replace('|', "\\|").replace('\n', " ")
}

/// `<`, `>` and `&` as entities: a viewer shows them, and runs nothing.
fn no_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Text an entrant chose (a name, an author, a folder's name), shown as it is: every
/// character Markdown or HTML would read as markup escaped.
fn plain(text: &str) -> String {
    let mut out = String::new();
    for c in no_html(text).chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '#' | '|' | '(' | ')' | '!'
        ) {
            out.push('\\');
        }
        out.push(if c == '\n' { ' ' } else { c });
    }
    out
}

/// `entrants.md`.
fn markdown(t: &Tournament, folder: &Path, verdicts: &[Verdict]) -> String {
    let admitted = verdicts.iter().filter(|v| v.admitted).count();
    let variants: Vec<String> = t.variants.iter().map(ToString::to_string).collect();
    let movetime = crate::config::check_movetime(t);
    let mut md = String::new();
    let _ = writeln!(md, "# Entrants of {}\n", t.name);
    let _ = writeln!(
        md,
        "{} entrants in `{}`: {admitted} admitted, {} left out. Each was built, then run through \
         `quads check` under {} ({} per answer, {} for the handshake).\n",
        verdicts.len(),
        folder.display(),
        verdicts.len() - admitted,
        variants.join(", "),
        defaults::text(movetime),
        defaults::text(t.handshake_timeout),
    );
    md.push_str("| name | author | language | status | reason |\n|---|---|---|---|---|\n");
    for v in verdicts {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} |",
            plain(&v.about.name),
            plain(&v.about.author),
            plain(&v.about.language),
            if v.admitted { "admitted" } else { "left out" },
            cell(&v.reason)
        );
    }
    let left_out: Vec<&Verdict> = verdicts.iter().filter(|v| !v.admitted).collect();
    if !left_out.is_empty() {
        md.push_str("\n## Left out\n");
        for v in left_out {
            let _ = writeln!(
                md,
                "\n### {} ({})\n",
                plain(&v.about.name),
                plain(&v.about.folder.display().to_string())
            );
            let _ = writeln!(md, "{}", no_html(&v.reason));
            if let Some(reports) = &v.reports {
                let lines: Vec<String> = reports
                    .iter()
                    .filter(|r| r.failure.is_some() && r.run)
                    .flat_map(render::text)
                    .collect();
                fenced(&mut md, &lines);
            } else if let (Some(log), Some(tail)) = (&v.build_log, &v.build_tail) {
                let _ = writeln!(md, "\nThe end of `{}`:", log.display());
                let lines: Vec<String> = tail.lines().map(str::to_owned).collect();
                fenced(&mut md, &lines);
            }
        }
    }
    let warned: Vec<(&Verdict, Vec<String>)> = verdicts
        .iter()
        .filter(|v| v.admitted)
        .filter_map(|v| {
            let lines: Vec<String> = v
                .reports
                .iter()
                .flatten()
                .filter(|r| !r.warnings.is_empty())
                .flat_map(render::text)
                .collect();
            (!lines.is_empty()).then_some((v, lines))
        })
        .collect();
    if !warned.is_empty() {
        md.push_str("\n## Warnings of admitted entrants\n");
        for (v, lines) in warned {
            let _ = writeln!(md, "\n### {}", plain(&v.about.name));
            fenced(&mut md, &lines);
        }
    }
    md
}

/// Lines in a fenced block, with a blank line before it: a fence longer than any run of
/// backticks in them, so that no line (a bot's words among them) can close it.
fn fenced(md: &mut String, lines: &[String]) {
    if lines.is_empty() {
        return;
    }
    let longest = lines
        .iter()
        .flat_map(|l| l.split(|c| c != '`').map(str::len))
        .max()
        .unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    md.push_str(&format!("\n{fence}text\n"));
    for line in lines {
        md.push_str(line);
        md.push('\n');
    }
    md.push_str(&fence);
    md.push('\n');
}
