//! Quads Arena starter bot in Rust: random legal moves, standard library only. See protocol.md.
//! Build: cargo build --release (the binary is target/release/starter).
use std::io::{self, BufRead, Write};

/// The letters of each trait (size, color, shape, fill): bit 0 / bit 1.
const LETTERS: [&[u8; 2]; 4] = [b"BS", b"DL", b"RQ", b"FH"];
const TRAITS: [&str; 4] = ["size", "color", "shape", "fill"];

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
    fn pick(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The rules of the current game.
struct Rules {
    /// The winning shapes: rows, columns, diagonals, and in Quads the 2x2 squares. Squares
    /// are numbered row by row from A1 = 0.
    shapes: Vec<[usize; 4]>,
    /// The traits that count, one bit each.
    traits: u8,
    /// Whether a win must be announced (`claim=announce`).
    announce: bool,
}

impl Rules {
    /// A rules spec: `quads`, `classic,traits=color,claim=announce`.
    fn parse(spec: &str) -> Rules {
        let mut items = spec.split(',');
        let mut squares = items.next() == Some("quads");
        let (mut traits, mut announce) = (15, false);
        for item in items {
            match item {
                "squares=on" => squares = true,
                "squares=off" => squares = false,
                "claim=announce" => announce = true,
                "claim=auto" => announce = false,
                _ => {
                    if let Some(list) = item.strip_prefix("traits=") {
                        traits = 0;
                        for t in list.split('+') {
                            if let Some(i) = TRAITS.iter().position(|n| *n == t) {
                                traits |= 1 << i;
                            }
                        }
                    }
                }
            }
        }
        let mut shapes = Vec::new();
        for r in 0..4 {
            shapes.push([r * 4, r * 4 + 1, r * 4 + 2, r * 4 + 3]);
            shapes.push([r, r + 4, r + 8, r + 12]);
        }
        shapes.push([0, 5, 10, 15]);
        shapes.push([3, 6, 9, 12]);
        if squares {
            for r in 0..3 {
                for c in 0..3 {
                    let s = r * 4 + c;
                    shapes.push([s, s + 1, s + 4, s + 5]);
                }
            }
        }
        Rules { shapes, traits, announce }
    }

    /// Whether a full shape through `square` shares a trait that counts.
    fn wins(&self, board: &[Option<u8>; 16], square: usize) -> bool {
        self.shapes.iter().filter(|sh| sh.contains(&square)).any(|sh| {
            match (board[sh[0]], board[sh[1]], board[sh[2]], board[sh[3]]) {
                (Some(a), Some(b), Some(c), Some(d)) => !(a ^ b) & !(a ^ c) & !(a ^ d) & self.traits != 0,
                _ => false,
            }
        })
    }
}

/// `BDQF` as a 4-bit number, one bit per trait.
fn bits(piece: &[u8]) -> u8 {
    (0..4).filter(|&i| piece[i] == LETTERS[i][1]).map(|i| 1 << i).sum()
}

/// Your strategy goes here: the reply to a `go` line, given its words.
fn choose(words: &[&str], rules: &Rules, rng: &mut Rng) -> String {
    if words.get(4) == Some(&"claimable") {
        return "quarto".to_owned(); // the opponent missed a win: claim it
    }
    let after = words.iter().position(|w| *w == "remaining").map_or(words.len(), |i| i + 1);
    let remaining: Vec<&str> = words[after..]
        .iter()
        .take_while(|w| **w != "last")
        .filter(|w| **w != "-")
        .copied()
        .collect();
    let hand = words[3];
    if hand == "-" {
        return remaining[rng.pick(remaining.len())].to_owned(); // the opening give
    }
    let mut board = [None; 16];
    let mut n = 0;
    for row in words[2].split('/').rev() {
        // rows arrive from row 4 down; build from row 1 up
        let row = row.as_bytes();
        let mut k = 0;
        while k < row.len() {
            if row[k] == b'.' {
                k += 1;
            } else {
                board[n] = Some(bits(&row[k..k + 4]));
                k += 4;
            }
            n += 1;
        }
    }
    let empty: Vec<usize> = (0..16).filter(|&s| board[s].is_none()).collect();
    let square = empty[rng.pick(empty.len())];
    board[square] = Some(bits(hand.as_bytes()));
    let name = format!("{}{}", (b'A' + (square % 4) as u8) as char, square / 4 + 1);
    if rules.wins(&board, square) {
        return if rules.announce { format!("{name} quarto") } else { name };
    }
    match remaining.len() {
        0 => name, // the board is full: give nothing
        k => format!("{name} {}", remaining[rng.pick(k)]),
    }
}

/// The value after the word `name` in a `newgame` line.
fn value<'a>(words: &[&'a str], name: &str) -> &'a str {
    let at = words.iter().position(|w| *w == name);
    at.and_then(|i| words.get(i + 1)).copied().unwrap_or("")
}

fn main() -> io::Result<()> {
    let mut out = io::stdout().lock();
    let mut rules = Rules::parse("quads");
    let mut rng = Rng(1);
    for line in io::stdin().lock().lines() {
        let line = line?;
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        let reply = match words.first().copied() {
            Some("quads") if words.get(1) == Some(&"1") => "id name rust-starter\nquadsok".to_owned(),
            Some("quads") => "unsupported".to_owned(),
            Some("isready") => "readyok".to_owned(),
            Some("newgame") => {
                rules = Rules::parse(value(&words, "rules"));
                rng = Rng(value(&words, "seed").parse().unwrap_or(1));
                continue;
            }
            Some("go") if words.len() >= 4 => format!("move {}", choose(&words, &rules, &mut rng)),
            Some("quit") => break,
            _ => continue, // gameover, setoption and anything else: nothing to answer
        };
        writeln!(out, "{reply}")?;
        out.flush()?; // flush every line, or the referee never sees it
    }
    Ok(())
}
