//! `quads show`: a position as people read it.

use std::fmt::Write;

use quads_rules::{ClaimState, Outcome, Player, Position, Rules, Square};

/// Arguments of `quads show`.
#[derive(clap::Args)]
pub struct Args {
    /// The rules the position is played under (they decide wins).
    #[arg(long, default_value = "quads", value_parser = crate::args::parse_rules)]
    rules: Rules,
    /// The position, e.g. `BDQF...SLRH/..../..../.... BLQF`.
    position: String,
}

pub fn run(args: &Args) -> Result<(), String> {
    let pos = crate::args::checked_position(&args.position, &args.rules)?;
    crate::outp!("{}", render(&pos, &args.rules));
    Ok(())
}

fn player(p: Player) -> &'static str {
    match p {
        Player::First => "first player",
        Player::Second => "second player",
    }
}

/// The board as `quads show` and `quads puzzle` draw it: pieces by their letters, the files
/// and ranks around them.
pub fn diagram(pos: &Position) -> String {
    let mut s = String::new();
    let files = "     A    B    C    D\n";
    s.push_str(files);
    for row in (0..4).rev() {
        let _ = write!(s, "{} ", row + 1);
        for col in 0..4 {
            let sq = Square::at(col, row).expect("in range");
            match pos.board().piece_at(sq) {
                Some(p) => {
                    let _ = write!(s, " {p}");
                }
                None => s.push_str("  .  "),
            }
        }
        let _ = writeln!(s, "  {}", row + 1);
    }
    s.push_str(files);
    s
}

/// The diagram and summary that `quads show` prints.
pub fn render(pos: &Position, rules: &Rules) -> String {
    let mut s = diagram(pos);
    s.push('\n');
    let _ = writeln!(s, "position:  {pos}");
    let _ = writeln!(s, "rules:     {rules}");
    let _ = writeln!(s, "placed:    {} of 16", pos.placed());
    match pos.hand() {
        Some(p) => {
            let _ = writeln!(s, "in hand:   {p}");
        }
        None => s.push_str("in hand:   -\n"),
    }
    let _ = write!(s, "remaining: {}", pos.remaining().len());
    for p in pos.remaining().iter() {
        let _ = write!(s, " {p}");
    }
    s.push('\n');
    let status = match pos.outcome(rules) {
        Some(Outcome::Win(p)) => format!("game over: the {} wins", player(p)),
        Some(Outcome::Draw) => "game over: draw".to_owned(),
        None => {
            let who = player(pos.to_move());
            let mut line = match pos.hand() {
                None => format!("the {who} gives the first piece"),
                Some(h) => format!("the {who} places {h}, then gives"),
            };
            if let Some(h) = pos.hand() {
                let wins = pos.board().threats(rules).winning_squares(h);
                if !wins.is_empty() {
                    let squares: Vec<String> = wins.iter().map(|q| q.to_string()).collect();
                    let _ = write!(line, "; {h} wins on {}", squares.join(" "));
                }
            }
            if pos.claim_state() == ClaimState::Claimable {
                line.push_str("; an overlooked win can be claimed");
            }
            line
        }
    };
    let _ = writeln!(s, "status:    {status}");
    s
}
