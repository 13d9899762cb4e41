//! `quads book`: make level 5's opening book, check it, look a position up in it.

use std::path::PathBuf;

use quads_bots::book::{build, value_text, Book};

use crate::book_build::{build_book, preset, read};
use quads_rules::{Claim, Rules};

/// Arguments of `quads book`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(clap::Subcommand)]
enum BookCommand {
    /// Solve every position level 5 can face with up to K pieces placed (its own moves from
    /// the book) and write the book.
    Build {
        /// The preset: quads or classic (every trait counting).
        #[arg(long, value_parser = crate::args::parse_rules)]
        rules: Rules,
        /// The most pieces placed in a position of the book.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=8))]
        placed: u32,
        /// The book file [default: bots/book/PRESET.book]; entries already in it are kept,
        /// so a stopped build resumes.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Solver threads.
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// The solver's table, in MiB.
        #[arg(long, default_value_t = 4096)]
        hash: usize,
    },
    /// Solve every position of a book again with a fresh solver; exit 1 if any entry is wrong.
    Verify {
        /// The preset.
        #[arg(long, value_parser = crate::args::parse_rules)]
        rules: Rules,
        /// The book file [default: the shipped book].
        #[arg(long)]
        file: Option<PathBuf>,
        /// Solver threads.
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// The solver's table, in MiB.
        #[arg(long, default_value_t = 1024)]
        hash: usize,
    },
    /// Check that a bot played the book: every move it made in a position the shipped book
    /// holds is the book's move (or one equal to it under the symmetries). Exit 1 if not.
    Games {
        /// The games (a games.jsonl, or a results folder).
        games: PathBuf,
        /// The bot whose moves to check (its name in the records).
        #[arg(long, default_value = "level-5")]
        bot: String,
    },
    /// Look a position up in the shipped book: its value and the book's move.
    Show {
        /// The rules.
        #[arg(long, default_value = "quads", value_parser = crate::args::parse_rules)]
        rules: Rules,
        /// The position, with a piece in hand.
        position: String,
    },
}

/// Exit code 0, or 1 when `verify` finds a wrong entry.
pub fn run(args: &Args) -> Result<u8, String> {
    match &args.command {
        BookCommand::Build {
            rules,
            placed,
            out,
            threads,
            hash,
        } => build_book(rules, *placed, out.clone(), *threads, *hash),
        BookCommand::Verify {
            rules,
            file,
            threads,
            hash,
        } => {
            let (rules, _) = preset(rules)?;
            let owned;
            let book: &Book = match file {
                Some(path) => {
                    owned = read(path, &rules)?;
                    &owned
                }
                None => Book::shipped(&rules).expect("covered"),
            };
            let (wrong, seconds) = build::verify(book, *threads, *hash, |l| eprintln!("{l}"));
            for w in &wrong {
                crate::outln!("WRONG {w}");
            }
            crate::outln!(
                "{} positions solved again in {seconds:.1} s: {} wrong",
                book.len(),
                wrong.len()
            );
            Ok(u8::from(!wrong.is_empty()))
        }
        BookCommand::Games { games, bot } => games_played(games, bot),
        BookCommand::Show { rules, position } => {
            let rules = Rules {
                claim: Claim::Auto,
                ..*rules
            };
            preset(&rules)?;
            let pos = crate::args::checked_position(position, &rules)?;
            let book = Book::shipped(&rules).expect("covered");
            match book.lookup(&pos) {
                Some(found) => {
                    let (form, _) = book.canonical(&pos).expect("a piece in hand");
                    crate::outln!("value: {} ({})", found.describe(), value_text(found.value));
                    crate::outln!("book move: {}", found.mv);
                    crate::outln!("canonical form: {form}");
                    Ok(0)
                }
                None => Err(format!("`{pos}` is not in the {rules} book")),
            }
        }
    }
}

/// `quads book games`: the bot's moves in book positions against the book.
fn games_played(games: &std::path::Path, bot: &str) -> Result<u8, String> {
    let path = if games.is_dir() {
        games.join(quads_record::files::GAMES)
    } else {
        games.to_path_buf()
    };
    let records = quads_record::files::read_games(&path).map_err(|e| e.to_string())?;
    let audit = quads_analysis::book_audit::audit(&records, bot).map_err(|e| e.to_string())?;
    for w in &audit.off {
        crate::outln!(
            "OFF BOOK game {}, move {}: {bot} played {} in {}, the book says {}",
            w.game,
            w.index,
            w.played,
            w.position,
            w.book
        );
    }
    crate::outln!(
        "{} games: {bot} made {} moves in book positions, {} of them the book's; {} moves with 4 or fewer pieces placed in positions the book does not hold",
        audit.games,
        audit.in_book,
        audit.in_book - audit.off.len(),
        audit.unknown
    );
    Ok(u8::from(!audit.off.is_empty()))
}
