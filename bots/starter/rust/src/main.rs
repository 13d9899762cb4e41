//! Quads Arena starter bot: random legal moves, seeded from the game's seed. See protocol.md.
use std::io::{self, BufRead, Write};

use quads_rules::{Move, Position, Rules, Then};

/// splitmix64: a tiny random number generator, so that the same seed plays the same game.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        ((self.next() as u128 * n as u128) >> 64) as usize
    }
}

/// Your strategy goes here: pick one of the legal moves. This one plays at random, but claims
/// a win the opponent overlooked and announces a win its own placement completes.
fn choose(pos: &Position, rules: &Rules, rng: &mut Rng) -> Move {
    let moves = pos.legal_moves(rules);
    if moves.contains(&Move::Claim) {
        return Move::Claim; // claim=announce: the opponent missed a win, claim it
    }
    let mv = moves[rng.below(moves.len())];
    if let Move::Place { to, .. } = mv {
        let quarto = Move::Place {
            to,
            then: Then::Quarto,
        };
        if moves.contains(&quarto) {
            return quarto; // claim=announce: this placement wins, say so
        }
    }
    mv
}

/// The first value of the field `name` in a `newgame` line: the word after the name.
fn value<'a>(words: &[&'a str], name: &str) -> &'a str {
    let at = words.iter().position(|w| *w == name);
    at.and_then(|i| words.get(i + 1)).copied().unwrap_or("")
}

fn main() -> io::Result<()> {
    let mut out = io::stdout().lock();
    let mut rules = Rules::default();
    let mut rng = Rng(0);
    for line in io::stdin().lock().lines() {
        let line = line?;
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        let reply = match words.first().copied() {
            Some("quads") if words.get(1) == Some(&"1") => {
                "id name rust-starter\nquadsok".to_string()
            }
            Some("quads") => "unsupported".to_string(),
            Some("isready") => "readyok".to_string(),
            Some("newgame") => {
                rules = value(&words, "rules").parse().expect("a rules spec");
                rng = Rng(value(&words, "seed").parse().expect("a 64-bit seed"));
                continue;
            }
            Some("go") => {
                // go position ROWS HAND [claimable] remaining ...: the position is words 2..
                let end = words.iter().position(|w| *w == "remaining");
                let text = words[2..end.unwrap_or(words.len())].join(" ");
                let pos: Position = text.parse().expect("a position");
                format!("move {}", choose(&pos, &rules, &mut rng))
            }
            Some("quit") => break,
            _ => continue, // gameover, setoption and anything else: nothing to answer
        };
        writeln!(out, "{reply}")?;
        out.flush()?; // flush every line, or the referee never sees it
    }
    Ok(())
}
