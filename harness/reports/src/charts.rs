//! Charts with plotters, as SVG and PNG: Elo with 95% error bars per bot (one series per
//! variant), a cross table of pairwise scores, and ratings against games played.
//!
//! Text is drawn with the DejaVu Sans font embedded in the binary (ab_glyph), so PNGs render
//! the same on a machine with no fonts and no fontconfig.

use std::sync::Once;

use plotters::coord::ranged1d::SegmentValue;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;

use crate::report::Report;

/// Which chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Elo with error bars.
    Elo,
    /// Pairwise scores as a heatmap.
    CrossTable,
    /// Ratings against games played.
    Convergence,
}

impl Kind {
    /// Every chart.
    pub const ALL: [Kind; 3] = [Kind::Elo, Kind::CrossTable, Kind::Convergence];
}

/// Which file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Scalable vector graphics.
    Svg,
    /// A bitmap.
    Png,
}

/// The file name of a chart.
pub fn file_name(kind: Kind, format: Format) -> &'static str {
    match (kind, format) {
        (Kind::Elo, Format::Svg) => "elo.svg",
        (Kind::Elo, Format::Png) => "elo.png",
        (Kind::CrossTable, Format::Svg) => "crosstable.svg",
        (Kind::CrossTable, Format::Png) => "crosstable.png",
        (Kind::Convergence, Format::Svg) => "convergence.svg",
        (Kind::Convergence, Format::Png) => "convergence.png",
    }
}

const SIZE: (u32, u32) = (900, 540);
const FONT: &str = "sans-serif";

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular())
            .unwrap_or_else(|_| panic!("the embedded DejaVu font is valid"));
    });
}

/// Renders a chart to bytes. A chart that cannot be drawn (no games) is an empty picture with
/// a note, never an error.
pub fn render(report: &Report, kind: Kind, format: Format) -> Vec<u8> {
    register_font();
    match format {
        Format::Svg => {
            let mut text = String::new();
            {
                let root = SVGBackend::with_string(&mut text, SIZE).into_drawing_area();
                draw_or_note(&root, report, kind);
                let _ = root.present();
            }
            text.into_bytes()
        }
        Format::Png => {
            let mut rgb = vec![0u8; (SIZE.0 * SIZE.1 * 3) as usize];
            {
                let root = BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area();
                draw_or_note(&root, report, kind);
                let _ = root.present();
            }
            encode_png(&rgb)
        }
    }
}

fn encode_png(rgb: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, SIZE.0, SIZE.1);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().expect("writing to memory");
    writer
        .write_image_data(rgb)
        .expect("the buffer matches the size");
    writer.finish().expect("writing to memory");
    out
}

fn draw_or_note<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, report: &Report, kind: Kind) {
    let _ = root.fill(&WHITE);
    let drawn = match kind {
        Kind::Elo => elo(root, report),
        Kind::CrossTable => cross_table(root, report),
        Kind::Convergence => convergence(root, report),
    };
    if drawn.is_err() {
        let _ = root.fill(&WHITE);
        let _ = root.draw_text(
            "not enough games to draw this chart",
            &(FONT, 20).into_text_style(root),
            (40, 40),
        );
    }
}

type Drawn = Result<(), String>;

/// The series legend, in the upper left (the charts leave room for it there).
fn legend<'a, DB: DrawingBackend + 'a, CT: plotters::coord::CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
) -> Drawn {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font((FONT, 14))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(fail)
}

fn fail<E: std::fmt::Debug>(e: E) -> String {
    format!("{e:?}")
}

/// `x`, or `otherwise` where `x` is infinite.
fn finite_or(x: f64, otherwise: f64) -> f64 {
    if x.is_finite() {
        x
    } else {
        otherwise
    }
}

fn elo<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, report: &Report) -> Drawn {
    let series = report.blocks.len();
    let bots = report.bots.len();
    if bots == 0 || report.records.is_empty() {
        return Err("no games".into());
    }
    let (lo, hi) = report
        .blocks
        .iter()
        .flat_map(|b| b.rows.iter().filter(|r| r.games > 0))
        .fold((f64::MAX, f64::MIN), |(lo, hi), r| {
            // An end the games cannot bound is drawn to the chart's edge.
            let (low, high) = (finite_or(r.elo_low, r.elo), finite_or(r.elo_high, r.elo));
            (lo.min(low), hi.max(high))
        });
    let pad = ((hi - lo) * 0.1).max(10.0);
    let slots = (bots * series) as i32;
    let names = report.bots.clone();
    let mut chart = ChartBuilder::on(root)
        .caption(
            format!("{}: Elo with 95% intervals", report.event),
            (FONT, 22),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        // Room above the bars for the legend.
        .build_cartesian_2d(
            (0..slots - 1).into_segmented(),
            (lo - pad)..(hi + pad + (hi - lo) * 0.35),
        )
        .map_err(fail)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(slots as usize)
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(k) if (*k as usize) % series == series / 2 => {
                names.get(*k as usize / series).cloned().unwrap_or_default()
            }
            _ => String::new(),
        })
        .y_desc("Elo")
        .label_style((FONT, 14))
        .draw()
        .map_err(fail)?;
    for (s, block) in report.blocks.iter().enumerate() {
        let color = Palette99::pick(s).to_rgba();
        chart
            .draw_series(
                block
                    .rows
                    .iter()
                    .enumerate()
                    .filter(|(_, r)| r.games > 0)
                    .map(|(b, r)| {
                        ErrorBar::new_vertical(
                            SegmentValue::CenterOf((b * series + s) as i32),
                            r.elo_low.max(lo - pad),
                            r.elo,
                            r.elo_high.min(hi + pad),
                            color.filled().stroke_width(2),
                            10,
                        )
                    }),
            )
            .map_err(fail)?
            .label(block.variant.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], color.filled()));
    }
    legend(&mut chart)
}

/// Red for 0%, white for 50%, green for 100%.
fn heat(pct: f64) -> RGBColor {
    let t = (pct / 100.0).clamp(0.0, 1.0);
    let mix =
        |a: u8, b: u8, f: f64| (f64::from(a) + (f64::from(b) - f64::from(a)) * f).round() as u8;
    if t < 0.5 {
        let f = t / 0.5;
        RGBColor(mix(214, 255, f), mix(96, 255, f), mix(77, 255, f))
    } else {
        let f = (t - 0.5) / 0.5;
        RGBColor(mix(255, 90, f), mix(255, 174, f), mix(255, 97, f))
    }
}

fn cross_table<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, report: &Report) -> Drawn {
    let all = report.blocks.first().ok_or("no games")?;
    let n = report.bots.len() as i32;
    if n == 0 || all.pairwise.is_empty() {
        return Err("no games".into());
    }
    let names = report.bots.clone();
    let column = |v: &SegmentValue<i32>| match v {
        SegmentValue::CenterOf(k) => names.get(*k as usize).cloned().unwrap_or_default(),
        _ => String::new(),
    };
    // Rows run top to bottom in bot order: row k from the bottom is bot n - 1 - k.
    let row = |v: &SegmentValue<i32>| match v {
        SegmentValue::CenterOf(k) => names
            .get((n - 1 - *k) as usize)
            .cloned()
            .unwrap_or_default(),
        _ => String::new(),
    };
    let mut chart = ChartBuilder::on(root)
        .caption(
            format!(
                "{}: score of the row bot against the column bot",
                report.event
            ),
            (FONT, 22),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(120)
        .build_cartesian_2d((0..n - 1).into_segmented(), (0..n - 1).into_segmented())
        .map_err(fail)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(n as usize)
        .y_labels(n as usize)
        .x_label_formatter(&column)
        .y_label_formatter(&row)
        .label_style((FONT, 14))
        .draw()
        .map_err(fail)?;
    let at = |name: &str| report.bots.iter().position(|b| b == name).unwrap_or(0) as i32;
    let row_of = |b: i32| n - 1 - b; // the first bot on top
    chart
        .draw_series(all.pairwise.iter().map(|p| {
            let (x, y) = (at(&p.opponent), row_of(at(&p.bot)));
            Rectangle::new(
                [
                    (SegmentValue::Exact(x), SegmentValue::Exact(y)),
                    (SegmentValue::Exact(x + 1), SegmentValue::Exact(y + 1)),
                ],
                heat(p.score_pct).filled(),
            )
        }))
        .map_err(fail)?;
    chart
        .draw_series(all.pairwise.iter().map(|p| {
            let (x, y) = (at(&p.opponent), row_of(at(&p.bot)));
            Text::new(
                format!("{:.0}% ({})", p.score_pct, p.games),
                (SegmentValue::CenterOf(x), SegmentValue::CenterOf(y)),
                (FONT, 16)
                    .into_font()
                    .color(&BLACK)
                    .pos(plotters::style::text_anchor::Pos::new(
                        plotters::style::text_anchor::HPos::Center,
                        plotters::style::text_anchor::VPos::Center,
                    )),
            )
        }))
        .map_err(fail)?;
    Ok(())
}

fn convergence<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, report: &Report) -> Drawn {
    let last = report.convergence.last().ok_or("no games")?.0;
    let (lo, hi) = report
        .convergence
        .iter()
        .flat_map(|(_, r)| r.iter().copied())
        .fold((f64::MAX, f64::MIN), |(lo, hi), x| (lo.min(x), hi.max(x)));
    let pad = ((hi - lo) * 0.1).max(10.0);
    let mut chart = ChartBuilder::on(root)
        .caption(
            format!("{}: ratings as games are played", report.event),
            (FONT, 22),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        // Room above the lines for the legend.
        .build_cartesian_2d(0..last.max(1), (lo - pad)..(hi + pad + (hi - lo) * 0.45))
        .map_err(fail)?;
    chart
        .configure_mesh()
        .x_desc("games played")
        .y_desc("Elo")
        .label_style((FONT, 14))
        .draw()
        .map_err(fail)?;
    for (b, name) in report.bots.iter().enumerate() {
        let color = Palette99::pick(b).to_rgba();
        chart
            .draw_series(LineSeries::new(
                report.convergence.iter().map(|(g, r)| (*g, r[b])),
                color.stroke_width(2),
            ))
            .map_err(fail)?
            .label(name.clone())
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], color.stroke_width(2)));
    }
    legend(&mut chart)
}
