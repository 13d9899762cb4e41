//! A UCI engine that answers `go` at once with a random legal move (xorshift, seeded the same
//! in every process: the games differ because each process plays many).
//!
//! It keeps the position between `position ... moves` lines that extend the last one, as a
//! match runner sends them, so a move costs it one move played and one list of legal moves,
//! not a replay of the game.

use std::io::{BufRead, Write};

use shakmaty::{fen::Fen, uci::UciMove, CastlingMode, Chess, Position};

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut pos = Chess::default();
    let mut start: Option<String> = None;
    let mut played: Vec<String> = Vec::new();
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => writeln!(out, "id name chess-random\nid author quads\nuciok"),
            Some("isready") => writeln!(out, "readyok"),
            Some("ucinewgame") => {
                (pos, start) = (Chess::default(), None);
                played.clear();
                Ok(())
            }
            Some("position") => {
                let (from, rest) = match words.get(1) {
                    Some(&"fen") if words.len() >= 8 => (Some(words[2..8].join(" ")), 8),
                    _ => (None, 2),
                };
                let moves: Vec<String> = match words.get(rest) {
                    Some(&"moves") => words[rest + 1..].iter().map(|m| m.to_string()).collect(),
                    _ => Vec::new(),
                };
                let extends = from == start && moves.starts_with(&played);
                if !extends {
                    pos = match &from {
                        None => Chess::default(),
                        Some(fen) => fen
                            .parse::<Fen>()
                            .ok()
                            .and_then(|f| f.into_position(CastlingMode::Standard).ok())
                            .unwrap_or_default(),
                    };
                    (start, played) = (from, Vec::new());
                }
                for m in &moves[played.len()..] {
                    let Some(mv) = m.parse::<UciMove>().ok().and_then(|u| u.to_move(&pos).ok())
                    else {
                        break;
                    };
                    pos.play_unchecked(&mv);
                }
                played = moves;
                Ok(())
            }
            Some("go") => {
                let legal = pos.legal_moves();
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                match legal.get((seed % legal.len().max(1) as u64) as usize) {
                    Some(m) => writeln!(out, "bestmove {}", m.to_uci(CastlingMode::Standard)),
                    None => writeln!(out, "bestmove 0000"),
                }
            }
            Some("quit") => break,
            _ => Ok(()),
        }
        .and_then(|()| out.flush())
        .unwrap_or_else(|_| std::process::exit(0));
    }
}
