//! Making a book: every position level 5 can face with up to K pieces placed, given its own
//! book moves, solved.
//!
//! Level 5 moves with 0 pieces placed when it is second (the opponent gave first), with 1 when
//! it is first (it gave, the opponent placed and gave), and every two placements after that.
//! From each position it faces, its book move leads to a position the opponent faces; every
//! legal reply of the opponent leads to the next positions level 5 faces. Equal positions
//! under the symmetries are one. Positions are solved by number of pieces placed, fewest first,
//! all with one solver, so that its table carries what one search learnt into the next.

use std::collections::BTreeSet;
use std::time::Instant;

use quads_rules::{Move, Piece, Position, Rules};

use super::{Book, Entry};
use crate::solver::Solver;

/// What a build did.
#[derive(Clone, Debug, Default)]
pub struct Built {
    /// Positions per number of pieces placed.
    pub per_placed: Vec<usize>,
    /// Nodes searched, all positions.
    pub nodes: u64,
    /// Seconds, all positions.
    pub seconds: f64,
}

/// Builds the book of `rules` for every position level 5 faces with up to `max_placed` pieces
/// placed, solving on `threads` threads with a table of `hash_mib` MiB. Entries already in
/// `book` are kept and not solved again (a stopped build resumes); `progress` hears a line per
/// position, and `checkpoint` gets the book after each number of pieces placed.
pub fn build(
    book: &mut Book,
    max_placed: u32,
    threads: usize,
    hash_mib: usize,
    mut progress: impl FnMut(&str),
    mut checkpoint: impl FnMut(&Book),
) -> Built {
    let rules: Rules = *book.rules();
    let mut solver = Solver::new(&rules, hash_mib).with_threads(threads);
    let mut built = Built::default();
    let start = Instant::now();
    // The positions level 5 faces first: second, after any opening give (all are one under
    // the symmetries); first, after its own opening give and each reply.
    let opening = Position::START
        .play(Move::Give(Piece::ALL[0]), &rules)
        .expect("a give opens");
    let mut faced: BTreeSet<(u32, String)> = BTreeSet::new();
    let canon = super::canonical::Canonizer::new(&rules);
    let add = |set: &mut BTreeSet<(u32, String)>, pos: &Position| {
        if let Some((form, _)) = canon.canonical(pos) {
            set.insert((form.placed(), form.to_string()));
        }
    };
    add(&mut faced, &opening);
    for reply in opening.legal_moves(&rules) {
        add(&mut faced, &opening.play(reply, &rules).expect("legal"));
    }
    let mut placed = 0;
    while placed <= max_placed {
        let level: Vec<String> = faced
            .iter()
            .filter(|(p, _)| *p == placed)
            .map(|(_, s)| s.clone())
            .collect();
        let mut next = BTreeSet::new();
        for (i, text) in level.iter().enumerate() {
            let form: Position = text.parse().expect("a form");
            let entry = match book.entries.get(&form) {
                Some(e) => *e,
                None => {
                    let t = Instant::now();
                    let s = solver.solve(&form, None, 0).expect("a piece in hand");
                    built.nodes += solver.nodes();
                    let e = Entry {
                        value: s.value,
                        mv: s.mv,
                    };
                    book.insert(form, e);
                    progress(&format!(
                        "{placed} placed, {} of {}: {form} {} {} ({} nodes, {:.2} s)",
                        i + 1,
                        level.len(),
                        super::value_text(e.value),
                        e.mv,
                        solver.nodes(),
                        t.elapsed().as_secs_f64()
                    ));
                    e
                }
            };
            if placed + 2 > max_placed {
                continue;
            }
            let theirs = form
                .play(entry.mv, &rules)
                .expect("the book's move is legal");
            if theirs.outcome(&rules).is_some() {
                continue;
            }
            for reply in theirs.legal_moves(&rules) {
                let ours = theirs.play(reply, &rules).expect("legal");
                if ours.outcome(&rules).is_none() {
                    add(&mut next, &ours);
                }
            }
        }
        built.per_placed.push(level.len());
        checkpoint(book);
        faced.extend(next);
        placed += 1;
    }
    built.seconds = start.elapsed().as_secs_f64();
    built
}

/// Solves every entry of `book` again with a fresh solver; returns the positions whose value
/// differs or whose move does not keep it, and the time it took.
pub fn verify(
    book: &Book,
    threads: usize,
    hash_mib: usize,
    mut progress: impl FnMut(&str),
) -> (Vec<String>, f64) {
    let rules = *book.rules();
    let mut solver = Solver::new(&rules, hash_mib).with_threads(threads);
    let start = Instant::now();
    let mut wrong = Vec::new();
    let mut entries: Vec<(&Position, &Entry)> = book.entries().collect();
    entries.sort_by_key(|(p, _)| (p.placed(), p.to_string()));
    let n = entries.len();
    for (i, (pos, e)) in entries.into_iter().enumerate() {
        if let Some(problem) = check(&mut solver, &rules, pos, e) {
            wrong.push(format!("{pos}: {problem}"));
        }
        if (i + 1) % 100 == 0 || i + 1 == n {
            progress(&format!("{} of {n} checked", i + 1));
        }
    }
    (wrong, start.elapsed().as_secs_f64())
}

/// Whether `e` is right for `pos`: its value is the position's, and its move keeps it.
pub fn check(solver: &mut Solver, rules: &Rules, pos: &Position, e: &Entry) -> Option<String> {
    let s = solver.solve(pos, None, 0).expect("a piece in hand");
    if s.value != e.value {
        return Some(format!(
            "the value is {}, the book says {}",
            super::value_text(s.value),
            super::value_text(e.value)
        ));
    }
    let after = match pos.play(e.mv, rules) {
        Ok(after) => after,
        Err(illegal) => return Some(illegal.to_string()),
    };
    let kept = match after.outcome(rules) {
        Some(quads_rules::Outcome::Win(_)) => e.value > 0,
        Some(quads_rules::Outcome::Draw) => e.value == 0,
        None => {
            // The opponent's value there has the opposite sign of ours.
            let theirs = solver
                .solve(&after, None, 0)
                .expect("a piece in hand")
                .value;
            theirs.signum() == -e.value.signum()
        }
    };
    (!kept).then(|| format!("{} does not keep the value", e.mv))
}
