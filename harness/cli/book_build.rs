//! `quads book build`: solve every position level 5 can face with up to K pieces placed, and
//! write the book (resuming from the entries already in it); the presets and the reading of a
//! book file that the other `quads book` commands share.

use std::path::PathBuf;
use std::time::Instant;

use quads_bots::book::{build, Book};
use quads_rules::Rules;

/// The preset a book covers `rules` with, and its name.
pub fn preset(rules: &Rules) -> Result<(Rules, &'static str), String> {
    if !Book::covers(rules) {
        return Err(format!(
            "the book covers variants in which every trait counts, not `{rules}`"
        ));
    }
    Ok(if rules.squares {
        (Rules::QUADS, "quads")
    } else {
        (Rules::CLASSIC, "classic")
    })
}

/// The book in `path`, for `rules`.
pub fn read(path: &std::path::Path, rules: &Rules) -> Result<Book, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Book::parse(&text, rules).map_err(|e| format!("{}: {e}", path.display()))
}

/// Builds the book of `rules` up to `placed` pieces into `out` (the shipped file by default).
pub fn build_book(
    rules: &Rules,
    placed: u32,
    out: Option<PathBuf>,
    threads: usize,
    hash: usize,
) -> Result<u8, String> {
    let (rules, name) = preset(rules)?;
    let path = out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("bots/book/{name}.book")));
    let mut book = if path.exists() {
        read(&path, &rules)?
    } else {
        Book::new(&rules)
    };
    let kept = book.len();
    let started = Instant::now();
    let header = |book: &Book, seconds: f64, per: &str| {
        format!(
            "The opening book of level 5 for {name}: every position it can face with up to {placed} pieces placed.\nMade by `quads book build --rules {name} --placed {placed} --threads {threads} --hash {hash}`{}.\n{} positions{per}; {seconds:.0} s of solving on this run.\nEach line: the canonical position, its value for the side to move, the move (`quads book verify --rules {name}` solves them all again).",
            if kept > 0 { format!(" (resumed with {kept} positions)") } else { String::new() },
            book.len()
        )
    };
    let write = |text: String| -> Result<(), String> {
        quads_record::files::write_atomic(&path, text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    let mut failed = None;
    let built = build::build(
        &mut book,
        placed,
        threads,
        hash,
        |line| eprintln!("{line}"),
        |b| {
            let text = b.to_text(&header(b, started.elapsed().as_secs_f64(), ""));
            if let Err(e) = write(text) {
                failed = Some(e);
            }
        },
    );
    if let Some(e) = failed {
        return Err(e);
    }
    let per: Vec<String> = built
        .per_placed
        .iter()
        .enumerate()
        .map(|(k, n)| format!("{n} with {k} placed"))
        .collect();
    let text = book.to_text(&header(
        &book,
        built.seconds,
        &format!(" ({})", per.join(", ")),
    ));
    write(text)?;
    crate::outln!(
        "{}: {} positions ({}), {:.1} s, {} nodes",
        path.display(),
        book.len(),
        per.join(", "),
        built.seconds,
        built.nodes
    );
    Ok(0)
}
