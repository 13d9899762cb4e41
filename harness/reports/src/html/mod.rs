//! `report.html`: one self-contained page that a host can send to entrants and open from
//! `file://`, with no network: the event, the tables, the charts (inline SVG), the analysis,
//! and every game as a replay on a drawn board.
//!
//! The fixed sections are HTML made here ([`tables`]); the games are compact JSON data
//! ([`data`]) that the page's script lists a page at a time and replays one at a time, so a
//! report of 10,000 games opens as fast as one of ten (docs/report.md has the figures). The
//! page's HTML, CSS and script are files beside this one, included at build time.
//!
//! The same inputs give the same bytes: nothing in the page depends on when or where it was
//! made, only on the records, `event.json` and the analysis files.

pub mod analysis;
mod data;
mod escape;
pub mod event;
mod tables;

pub use analysis::Analysis;
pub use event::{EventError, EventInfo, EVENT_FILE};

use crate::report::Report;

/// The file's name in an output folder.
pub const REPORT_FILE: &str = "report.html";

const TEMPLATE: &str = include_str!("template.html");
/// The page's style (also the server's pages', for their lists of games).
pub const CSS: &str = include_str!("report.css");
/// The list of games (a `<section id="games">`) and the replay dialog, as the report has them:
/// another page (the server's match page) that holds both, the data element ([`games_data`])
/// and the [`SCRIPTS`] lists and replays its games as the report does.
pub const GAMES_SECTION: &str = include_str!("games.html");
/// The replay dialog (see [`GAMES_SECTION`]).
pub const REPLAY_DIALOG: &str = include_str!("replay.html");
/// The id of the `<script type="application/json">` element that holds the games' data.
pub const DATA_ID: &str = "data";
/// The scripts, in the order they run: drawing pieces, replaying moves, the replay dialog,
/// then the list of games, which starts the page.
pub const SCRIPTS: [&str; 4] = [
    include_str!("pieces.js"),
    include_str!("replay.js"),
    include_str!("viewer.js"),
    include_str!("games.js"),
];

/// What a page is made from.
pub struct Page<'a> {
    /// The standings and the records.
    pub report: &'a Report,
    /// The event's description.
    pub event: &'a EventInfo,
    /// Per source of the report's records, the path from the page's folder to the folder
    /// holding that source's `logs/`: empty for the page's own folder, else ending in `/`.
    pub log_bases: &'a [String],
    /// The analysis, if there is one.
    pub analysis: Option<&'a Analysis>,
}

/// The page.
pub fn render(page: &Page<'_>) -> String {
    let report = page.report;
    let analysis = match page.analysis {
        Some(a) => format!(
            "<section id=\"analysis\"><h2>Analysis</h2><p class=\"note\">Each bot's moves judged by the exact solver: accuracy is the share that kept the game's value (a win stays a win, a draw a draw); a blunder threw a win away or turned a draw into a loss.</p>{}</section>",
            tables::analysis(a)
        ),
        None => String::new(),
    };
    let nav_analysis = if page.analysis.is_some() {
        "<a href=\"#analysis\">analysis</a>"
    } else {
        ""
    };
    let data = games_data(report, page.log_bases, page.analysis);
    let script = SCRIPTS.join("\n");
    escape::fill(
        TEMPLATE,
        &[
            ("title", &escape::html(&page.event.name)),
            ("css", CSS),
            ("event", &tables::event(report, page.event, page.analysis)),
            ("standings", &tables::standings(report)),
            ("pairwise", &tables::pairwise(report)),
            ("crosstable", &tables::crosstable(report)),
            ("charts", &tables::charts(report)),
            ("forfeits", &tables::forfeits(report)),
            ("nav_analysis", nav_analysis),
            ("analysis", &analysis),
            ("games", GAMES_SECTION),
            ("replay", REPLAY_DIALOG),
            ("data", &data),
            ("script", &script),
        ],
    )
}

/// The games' data as the scripts read it, escaped for the inside of a `<script>` element (the
/// one with id [`DATA_ID`]): `log_bases` as in [`Page`].
pub fn games_data(report: &Report, log_bases: &[String], analysis: Option<&Analysis>) -> String {
    escape::json_in_script(&data::games_json(report, log_bases, analysis))
}

#[cfg(test)]
mod tests;
