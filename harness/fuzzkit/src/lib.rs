//! What the parser fuzz tests of every crate share: how many cases to run, and valid inputs
//! mutated a few characters at a time.
//!
//! The case count is 10,000 per property (the CI figure) unless `QUADS_FUZZ_CASES` says
//! otherwise: the soak benchmark runs a million (`QUADS_FUZZ_CASES=1000000`, see docs/soak.md).

use proptest::prelude::*;
use proptest::test_runner::Config;

/// The environment variable that sets the number of cases per property.
pub const CASES_VAR: &str = "QUADS_FUZZ_CASES";

/// The number of cases when `QUADS_FUZZ_CASES` is not set.
pub const DEFAULT_CASES: u32 = 10_000;

/// The cases per property: `QUADS_FUZZ_CASES`, or 10,000.
///
/// # Panics
/// When `QUADS_FUZZ_CASES` is set to something other than a positive number: a mistyped count
/// must not quietly run the default.
pub fn cases() -> u32 {
    match std::env::var(CASES_VAR) {
        Err(_) => DEFAULT_CASES,
        Ok(text) => match text.trim().parse::<u32>() {
            Ok(n) if n > 0 => n,
            _ => panic!("{CASES_VAR} must be a positive number of cases, not `{text}`"),
        },
    }
}

/// The proptest settings of a fuzz property: [`cases`] cases, and no regression files written
/// (a failing input is printed, and belongs in a unit test).
pub fn config() -> Config {
    Config {
        cases: cases(),
        failure_persistence: None,
        ..Config::default()
    }
}

/// One of `valid`, with up to `max_edits` random edits: a character deleted, replaced by any
/// character, or inserted.
pub fn mutated(valid: &'static [&'static str], max_edits: usize) -> impl Strategy<Value = String> {
    (
        0..valid.len(),
        prop::collection::vec(
            (0..3u8, any::<prop::sample::Index>(), any::<char>()),
            0..=max_edits,
        ),
    )
        .prop_map(move |(which, edits)| {
            let mut chars: Vec<char> = valid[which].chars().collect();
            for (kind, at, c) in edits {
                edit(&mut chars, kind, at, c);
            }
            chars.into_iter().collect()
        })
}

/// One character edit at a place chosen by `at` among the `len + 1` places.
fn edit(chars: &mut Vec<char>, kind: u8, at: prop::sample::Index, c: char) {
    let at = at.index(chars.len() + 1);
    match kind {
        0 if at < chars.len() => {
            chars.remove(at);
        }
        1 if at < chars.len() => chars[at] = c,
        _ => chars.insert(at.min(chars.len()), c),
    }
}

/// One of `valid` with up to `max_edits` whole-line edits (a line deleted, doubled, or moved
/// before another) and then up to `max_edits` character edits: for multi-line files such as
/// configs, where a dropped or repeated table matters as much as a typo.
pub fn mutated_lines(
    valid: &'static [&'static str],
    max_edits: usize,
) -> impl Strategy<Value = String> {
    (
        0..valid.len(),
        prop::collection::vec(
            (
                0..3u8,
                any::<prop::sample::Index>(),
                any::<prop::sample::Index>(),
            ),
            0..=max_edits,
        ),
        prop::collection::vec(
            (0..3u8, any::<prop::sample::Index>(), any::<char>()),
            0..=max_edits,
        ),
    )
        .prop_map(move |(which, line_edits, char_edits)| {
            let mut lines: Vec<&str> = valid[which].lines().collect();
            for (kind, a, b) in line_edits {
                if lines.is_empty() {
                    break;
                }
                let (i, j) = (a.index(lines.len()), b.index(lines.len()));
                match kind {
                    0 => {
                        lines.remove(i);
                    }
                    1 => lines.insert(j, lines[i]),
                    _ => {
                        let line = lines.remove(i);
                        lines.insert(j.min(lines.len()), line);
                    }
                }
            }
            let mut chars: Vec<char> = lines.join("\n").chars().collect();
            for (kind, at, c) in char_edits {
                edit(&mut chars, kind, at, c);
            }
            chars.into_iter().collect()
        })
}
