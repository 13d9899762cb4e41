//! An entrant's rating over its games as an SVG drawn on the server (readable without
//! script): its rating at each fit the leaderboard's history kept, the 95% interval as a band
//! (an unbounded end drawn to the chart's edge), and a line where each version began; then the
//! latest figure in words.

use maud::{html, Markup};

use crate::domain::history::Rating;

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 240.0;
/// Room for the axes' labels.
const LEFT: f64 = 48.0;
const BOTTOM: f64 = 20.0;
const TOP: f64 = 8.0;

/// The chart, or a note when no fit has rated the entrant yet.
pub(super) fn chart(name: &str, r: &Rating) -> Markup {
    let points: Vec<(f64, f64, Option<f64>, Option<f64>)> = r
        .points
        .iter()
        .filter_map(|p| Some((p.games as f64, p.elo?, p.elo_low, p.elo_high)))
        .collect();
    let Some(last) = points.last() else {
        return html! { p class="note" { "No rating yet." } };
    };
    let x_max = points.iter().map(|p| p.0).fold(1.0, f64::max);
    let ys = points.iter().flat_map(|p| [Some(p.1), p.2, p.3]).flatten();
    let (lo, hi) = ys.fold((f64::MAX, f64::MIN), |(a, b), y| (a.min(y), b.max(y)));
    let pad = ((hi - lo) * 0.05).max(10.0);
    let (lo, hi) = (lo - pad, hi + pad);
    let x = |g: f64| LEFT + (WIDTH - LEFT - 4.0) * g / x_max;
    let y = |e: f64| TOP + (HEIGHT - TOP - BOTTOM) * (hi - e) / (hi - lo);
    let (bottom, top) = (y(lo), y(hi));
    let mut band: Vec<String> = points
        .iter()
        .map(|p| format!("{:.1},{:.1}", x(p.0), p.3.map_or(top, y)))
        .collect();
    band.extend(
        points
            .iter()
            .rev()
            .map(|p| format!("{:.1},{:.1}", x(p.0), p.2.map_or(bottom, y))),
    );
    let line: Vec<String> = points
        .iter()
        .map(|p| format!("{:.1},{:.1}", x(p.0), y(p.1)))
        .collect();
    let end = |e: Option<f64>| e.map_or("unbounded".to_owned(), |e| format!("{e:.1}"));
    let words = format!(
        "{name}'s rating after {} games: {:.1}, 95% interval {} to {}.",
        last.0,
        last.1,
        end(last.2),
        end(last.3)
    );
    html! {
        figure id="rating-chart" {
            svg xmlns="http://www.w3.org/2000/svg" viewBox=(format!("0 0 {WIDTH} {HEIGHT}"))
                width="100%" role="img" aria-labelledby="rating-title rating-desc" {
                title id="rating-title" { "Rating over games played" }
                desc id="rating-desc" { (words) }
                polygon class="band" points=(band.join(" ")) fill="#9ab8d8" fill-opacity="0.5" {}
                polyline class="elo" points=(line.join(" ")) fill="none" stroke="#1f3f66" stroke-width="2" {}
                @for v in &r.versions {
                    line class="version" x1=(format!("{:.1}", x(v.games as f64))) x2=(format!("{:.1}", x(v.games as f64)))
                        y1=(format!("{top:.1}")) y2=(format!("{bottom:.1}")) stroke="#333" stroke-dasharray="4 3" {}
                    text x=(format!("{:.1}", x(v.games as f64) + 3.0)) y=(format!("{:.1}", top + 12.0)) font-size="11" { "v" (v.version) }
                }
                line x1=(LEFT) x2=(LEFT) y1=(format!("{top:.1}")) y2=(format!("{bottom:.1}")) stroke="#333" {}
                line x1=(LEFT) x2=(WIDTH) y1=(format!("{bottom:.1}")) y2=(format!("{bottom:.1}")) stroke="#333" {}
                text x="2" y=(format!("{:.1}", top + 10.0)) font-size="11" { (format!("{hi:.0}")) }
                text x="2" y=(format!("{bottom:.1}")) font-size="11" { (format!("{lo:.0}")) }
                text x=(LEFT) y=(HEIGHT - 4.0) font-size="11" { "0" }
                text x=(WIDTH - 4.0) y=(HEIGHT - 4.0) font-size="11" text-anchor="end" { (x_max) " games" }
            }
            figcaption { (words) " " a href={ "/api/entrants/" (name) "/rating" } { "The figures (JSON)" } }
        }
    }
}
