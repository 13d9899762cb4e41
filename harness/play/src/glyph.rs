//! A piece as the terminal draws it, in a cell six characters wide and three lines tall, so
//! that its four traits read at a glance:
//!
//! ```text
//!  ●●●●      ■■■■                 tall (two lines) = big, one short line = small
//!  ●●●●      ■■■■      ○○         ● ○ round, ■ □ square; ● ■ solid, ○ □ hollow
//!  BDRF      BLQF      SDRH       the letters, always; dark pieces red, light ones yellow
//! ```
//!
//! Without colour (`NO_COLOR`, or a terminal that has none) the letters say dark or light.

use quads_rules::{Piece, Trait};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

/// The cell's width in characters.
pub const WIDTH: usize = 6;

/// How a cell stands out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// Under the cursor.
    pub cursor: bool,
    /// Part of the winning shape: the letters are bracketed, `[BDRF]`.
    pub won: bool,
    /// The last piece placed: the letters are underlined.
    pub last: bool,
    /// Not available (a piece already used): drawn dim.
    pub dim: bool,
}

/// The symbol of a piece's shape and fill.
pub fn symbol(p: Piece) -> char {
    match (p.has(Trait::Shape), p.has(Trait::Fill)) {
        // The second value of each trait: square, hollow (see `Trait::letters`).
        (false, false) => '●',
        (false, true) => '○',
        (true, false) => '■',
        (true, true) => '□',
    }
}

/// Whether the piece is small (the second value of size).
fn small(p: Piece) -> bool {
    p.has(Trait::Size)
}

/// Whether the piece is light (the second value of colour).
fn light(p: Piece) -> bool {
    p.has(Trait::Color)
}

/// The colour of a piece, when the terminal has colours.
pub fn colour(p: Piece) -> Color {
    if light(p) {
        Color::Yellow
    } else {
        Color::Red
    }
}

/// The three lines of a cell holding `piece` (or an empty square, `None`).
pub fn cell(piece: Option<Piece>, marks: Marks, colours: bool) -> [Line<'static>; 3] {
    let mut base = Style::default();
    if marks.cursor {
        base = base.add_modifier(Modifier::REVERSED);
    }
    if marks.won && colours {
        base = base.bg(Color::Green);
    }
    let pad = |s: String| format!("{s:^WIDTH$}");
    let letters = match piece {
        Some(p) if marks.won => format!("[{p}]"),
        Some(p) => p.to_string(),
        None if marks.won => "[    ]".to_owned(),
        None => String::new(),
    };
    let mut letter_style = base;
    if marks.last {
        letter_style = letter_style.add_modifier(Modifier::UNDERLINED);
    }
    if marks.dim {
        letter_style = letter_style.add_modifier(Modifier::DIM);
    }
    let Some(p) = piece else {
        let dot = if marks.dim { "" } else { "··" };
        return [
            Line::from(Span::styled(pad(String::new()), base)),
            Line::from(Span::styled(
                pad(dot.to_owned()),
                base.add_modifier(Modifier::DIM),
            )),
            Line::from(Span::styled(pad(letters), letter_style)),
        ];
    };
    let mut shape_style = base;
    if colours {
        shape_style = shape_style.fg(colour(p));
    }
    if marks.dim {
        shape_style = shape_style.add_modifier(Modifier::DIM);
    }
    let s = symbol(p);
    let (top, middle) = if small(p) {
        (String::new(), s.to_string().repeat(2))
    } else {
        (s.to_string().repeat(4), s.to_string().repeat(4))
    };
    [
        Line::from(Span::styled(pad(top), shape_style)),
        Line::from(Span::styled(pad(middle), shape_style)),
        Line::from(Span::styled(pad(letters), letter_style)),
    ]
}

/// An empty cell for a piece that is not there (used, or in hand).
pub fn blank() -> [Line<'static>; 3] {
    let pad = " ".repeat(WIDTH);
    [
        Line::from(pad.clone()),
        Line::from(pad.clone()),
        Line::from(pad),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: &[Line<'_>; 3]) -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn each_trait_shows_in_the_drawing() {
        let p = |s: &str| s.parse::<Piece>().unwrap();
        assert_eq!(
            text(&cell(Some(p("BDRF")), Marks::default(), true)),
            [" ●●●● ", " ●●●● ", " BDRF "]
        );
        assert_eq!(
            text(&cell(Some(p("SLQH")), Marks::default(), false)),
            ["      ", "  □□  ", " SLQH "]
        );
        assert_eq!(symbol(p("BDRH")), '○');
        assert_eq!(symbol(p("BDQF")), '■');
        let won = Marks {
            won: true,
            ..Marks::default()
        };
        assert_eq!(text(&cell(Some(p("BLQF")), won, false))[2], "[BLQF]");
        assert_eq!(colour(p("BDRF")), Color::Red);
        assert_eq!(colour(p("BLRF")), Color::Yellow);
    }
}
