//! The terminal: its modes (raw, the alternate screen, restored on the way out and on a
//! panic), and the keys, read on a thread of their own and turned into [`Key`]s.

use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::DefaultTerminal;
use tokio::sync::mpsc;

use crate::input::Key;

/// The terminal, in the game's modes until dropped.
pub struct Terminal {
    /// What draws.
    pub inner: DefaultTerminal,
}

impl Terminal {
    /// Raw mode and the alternate screen; a panic restores the terminal before it reports.
    pub fn open() -> std::io::Result<Terminal> {
        Ok(Terminal {
            inner: ratatui::try_init()?,
        })
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        ratatui::restore();
    }
}

/// A key press as the game reads it, if it means anything.
pub fn key(k: KeyEvent) -> Option<Key> {
    if k.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    Some(match k.code {
        KeyCode::Char('q' | 'c') if ctrl => Key::Quit,
        KeyCode::Char('z') if ctrl => Key::Undo,
        KeyCode::Char(_) if ctrl => return None,
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::F(1) => Key::Help,
        KeyCode::F(2) => Key::Quarto,
        _ => return None,
    })
}

/// Starts the thread that reads the terminal's events; keys arrive on the channel, and a
/// resize as `None` (draw again).
pub fn keys() -> mpsc::UnboundedReceiver<Option<Key>> {
    let (tx, rx) = mpsc::unbounded_channel();
    std::thread::spawn(move || loop {
        let sent = match event::read() {
            Ok(Event::Key(k)) => match key(k) {
                Some(k) => tx.send(Some(k)),
                None => Ok(()),
            },
            Ok(Event::Resize(..)) => tx.send(None),
            Ok(_) => Ok(()),
            Err(_) => return,
        };
        if sent.is_err() {
            return;
        }
    });
    rx
}
