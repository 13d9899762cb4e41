//! Drawing the game: the board, the pieces left to give, the piece in hand, whose turn it is,
//! the clocks, the legend, the moves, the position in the notation, what just happened and the
//! keys. A pure function of a [`Screen`]: the tests draw into a buffer and read it back.

use quads_i18n::Catalog;
use quads_rules::{Piece, Square};
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

use crate::game::Game;
use crate::glyph::{self, Marks};
use crate::input::{Focus, Input};

/// Everything a frame shows.
pub struct Screen<'a> {
    /// The title line.
    pub title: String,
    /// The game.
    pub game: &'a Game,
    /// The cursor and the typed text, on a person's turn.
    pub input: Option<&'a Input>,
    /// Whose turn it is and what to do (or the result, at the end).
    pub status: String,
    /// What just happened.
    pub message: String,
    /// The clocks, one line per player, when the game has them.
    pub clocks: Vec<String>,
    /// The keys that work now.
    pub keys: Vec<String>,
    /// The rules page over everything (F1).
    pub help: Option<Vec<String>>,
    /// After the end: what the solver says, the saved file.
    pub end: Vec<String>,
    /// Whether to use colours.
    pub colours: bool,
}

/// The smallest terminal the screen fits in.
pub const MIN: (u16, u16) = (80, 24);

/// Draws `s`.
pub fn draw(frame: &mut Frame<'_>, s: &Screen<'_>, c: &Catalog) {
    let area = frame.area();
    if area.width < MIN.0 || area.height < MIN.1 {
        frame.render_widget(
            Paragraph::new(format!(
                "{} × {} < {} × {}",
                area.width, area.height, MIN.0, MIN.1
            )),
            area,
        );
        return;
    }
    let rows = Layout::default()
        .direction(Direction::Vertical)
        .constraints([
            Constraint::Length(1),
            Constraint::Length(16),
            Constraint::Length(1),
            Constraint::Length(1),
            Constraint::Length(1),
            Constraint::Length(1),
            Constraint::Min(1),
        ])
        .split(area);
    frame.render_widget(
        Paragraph::new(Span::styled(
            s.title.clone(),
            Style::default().add_modifier(Modifier::BOLD),
        )),
        rows[0],
    );
    let columns = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([
            Constraint::Length(34),
            Constraint::Length(30),
            Constraint::Min(16),
        ])
        .split(rows[1]);
    board(frame, columns[0], s, c);
    pieces(frame, columns[1], s, c);
    side(frame, columns[2], s, c);
    frame.render_widget(
        Paragraph::new(Span::styled(
            s.status.clone(),
            Style::default().add_modifier(Modifier::BOLD),
        )),
        rows[2],
    );
    frame.render_widget(Paragraph::new(s.message.clone()), rows[3]);
    // After the end there is nothing to type: the end's first line takes the input's row, so
    // that the end fits an 80 x 24 terminal.
    let (input_row, end) = match s.end.split_first() {
        Some((first, rest)) if s.input.is_none() => (first.clone(), rest),
        _ => (
            format!("> {}", s.input.map_or("", |i| i.text.as_str())),
            &s.end[..],
        ),
    };
    frame.render_widget(Paragraph::new(input_row), rows[4]);
    frame.render_widget(
        Paragraph::new(format!(
            "{}  {}",
            c.text("panel-position"),
            s.game.position()
        )),
        rows[5],
    );
    let mut bottom: Vec<Line<'_>> = end.iter().map(|l| Line::from(l.clone())).collect();
    bottom.extend(s.keys.iter().map(|k| {
        Line::from(Span::styled(
            k.clone(),
            Style::default().add_modifier(Modifier::DIM),
        ))
    }));
    frame.render_widget(Paragraph::new(bottom).wrap(Wrap { trim: true }), rows[6]);
    if let Some(page) = &s.help {
        let popup = centered(area, 76, area.height.saturating_sub(2));
        frame.render_widget(Clear, popup);
        let text: Vec<Line<'_>> = page
            .iter()
            .flat_map(|p| [Line::from(p.clone()), Line::from("")])
            .collect();
        frame.render_widget(
            Paragraph::new(text)
                .wrap(Wrap { trim: true })
                .block(Block::default().borders(Borders::ALL)),
            popup,
        );
    }
}

fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    }
}

fn board(frame: &mut Frame<'_>, area: Rect, s: &Screen<'_>, c: &Catalog) {
    let pos = s.game.position();
    let won = s.game.winning_squares();
    let last = s.game.last_square();
    let cursor = s
        .input
        .filter(|i| i.focus == Focus::Board || matches!(i.focus, Focus::Pieces { square: Some(_) }))
        .map(|i| match i.focus {
            Focus::Pieces { square: Some(sq) } => sq,
            _ => i.cursor_square(),
        });
    let files = format!(
        "  {}",
        ["A", "B", "C", "D"]
            .iter()
            .map(|f| format!("{f:^w$}", w = glyph::WIDTH + 1))
            .collect::<String>()
    );
    let mut lines = vec![Line::from(files.clone())];
    for row in (0..4).rev() {
        let cells: Vec<[Line<'static>; 3]> = (0..4)
            .map(|col| {
                let sq = Square::at(col, row).expect("on the board");
                let marks = Marks {
                    cursor: cursor == Some(sq),
                    won: won.contains(sq),
                    last: last == Some(sq),
                    dim: false,
                };
                glyph::cell(pos.board().piece_at(sq), marks, s.colours)
            })
            .collect();
        for line in 0..3 {
            let label = if line == 1 {
                format!("{} ", row + 1)
            } else {
                "  ".to_owned()
            };
            lines.push(row_line(label, &cells, line));
        }
    }
    panel(frame, area, lines, c.text("panel-board"));
}

/// Line `line` (0 to 2) of a row of cells, after `label`.
fn row_line(label: String, cells: &[[Line<'static>; 3]], line: usize) -> Line<'static> {
    let mut spans = vec![Span::raw(label)];
    for cell in cells {
        spans.extend(cell[line].spans.iter().cloned());
        spans.push(Span::raw(" "));
    }
    Line::from(spans)
}

/// `lines` in a bordered panel titled `title`.
fn panel(frame: &mut Frame<'_>, area: Rect, lines: Vec<Line<'static>>, title: String) {
    frame.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(title)),
        area,
    );
}

fn pieces(frame: &mut Frame<'_>, area: Rect, s: &Screen<'_>, c: &Catalog) {
    let pos = s.game.position();
    let remaining = pos.remaining();
    let cursor = s
        .input
        .filter(|i| matches!(i.focus, Focus::Pieces { .. }))
        .map(|i| i.piece);
    let mut lines = Vec::new();
    for row in 0..4 {
        let cells: Vec<[Line<'static>; 3]> = (0..4)
            .map(|col| {
                let i = row * 4 + col;
                let p = Piece::ALL[i];
                if remaining.contains(p) {
                    let marks = Marks {
                        cursor: cursor == Some(i),
                        ..Marks::default()
                    };
                    glyph::cell(Some(p), marks, s.colours)
                } else if cursor == Some(i) {
                    glyph::cell(
                        None,
                        Marks {
                            cursor: true,
                            dim: true,
                            ..Marks::default()
                        },
                        s.colours,
                    )
                } else {
                    glyph::blank()
                }
            })
            .collect();
        for line in 0..3 {
            lines.push(row_line(" ".to_owned(), &cells, line));
        }
    }
    panel(frame, area, lines, c.text("panel-give"));
}

fn side(frame: &mut Frame<'_>, area: Rect, s: &Screen<'_>, c: &Catalog) {
    let pos = s.game.position();
    let mut lines: Vec<Line<'_>> = Vec::new();
    let hand = pos.hand();
    let drawn = glyph::cell(hand, Marks::default(), s.colours);
    lines.push(Line::from(Span::styled(
        c.text("panel-hand"),
        Style::default().add_modifier(Modifier::BOLD),
    )));
    match hand {
        Some(_) => lines.extend(drawn.iter().cloned()),
        None => lines.push(Line::from(c.text("hand-none"))),
    }
    if !s.clocks.is_empty() {
        lines.push(Line::from(Span::styled(
            c.text("panel-clocks"),
            Style::default().add_modifier(Modifier::BOLD),
        )));
        lines.extend(s.clocks.iter().map(|l| Line::from(l.clone())));
    }
    lines.push(Line::from(Span::styled(
        c.text("panel-legend"),
        Style::default().add_modifier(Modifier::BOLD),
    )));
    let sample = |p: &str| {
        let p: Piece = p.parse().expect("a piece");
        let mut style = Style::default();
        if s.colours {
            style = style.fg(glyph::colour(p));
        }
        Span::styled(glyph::symbol(p).to_string(), style)
    };
    lines.push(Line::from(c.text("legend-size")));
    lines.push(Line::from(vec![
        sample("BDRF"),
        Span::raw(" "),
        sample("BLRF"),
        Span::raw(format!(" {}", c.text("legend-color"))),
    ]));
    lines.push(Line::from(c.text("legend-shape")));
    lines.push(Line::from(c.text("legend-fill")));
    lines.push(Line::from(c.text("legend-letters")));
    let moves: Vec<String> = s
        .game
        .moves()
        .iter()
        .enumerate()
        .map(|(i, m)| format!("{}.{}", i + 1, m.mv))
        .collect();
    lines.push(Line::from(Span::styled(
        c.text("panel-moves"),
        Style::default().add_modifier(Modifier::BOLD),
    )));
    // The latest moves, as many as fit.
    let room = (area.height as usize)
        .saturating_sub(lines.len() + 2)
        .max(1);
    let per_line = ((area.width as usize).saturating_sub(2) / 11).max(1);
    let chunks: Vec<String> = moves.chunks(per_line).map(|c| c.join(" ")).collect();
    let skip = chunks.len().saturating_sub(room);
    lines.extend(chunks.into_iter().skip(skip).map(Line::from));
    frame.render_widget(
        Paragraph::new(Text::from(lines)).block(Block::default().borders(Borders::ALL)),
        area,
    );
}
