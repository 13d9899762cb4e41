//! The soak run, CI's size: configs/soak.toml with `--pairs 2`, 540 games at 16 at once with
//! 100 ms moves, four fair bots among six that hang, crash, talk garbage, flood their stderr,
//! fork until the process limit and touch memory until the memory limit. Played twice.
//! The full run (9,990 games) is a benchmark: `cargo bench --bench soak` (docs/soak.md).

#[allow(dead_code, reason = "the soak runs quads through soak::run, not Quads")]
mod common;
#[path = "common/soak.rs"]
mod soak;

#[test]
fn the_harness_holds_under_load_and_misbehaviour() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let config = soak::config(dir.path());
    let first = soak::run(&config, &dir.path().join("a"), &["--pairs", "2"], false);
    // Checked before the second run starts, so that its bots cannot be mistaken for leftovers.
    assert_eq!(common::leftovers(first.pid), Vec::<String>::new());
    assert_eq!(common::games(&first.out.join("games.jsonl")).len(), 540);
    assert_eq!(soak::broken_games(&first.out), Vec::<String>::new());
    assert_eq!(soak::broken_attacks(&first.out), Vec::<String>::new());

    let second = soak::run(&config, &dir.path().join("b"), &["--pairs", "2"], false);
    assert_eq!(common::leftovers(second.pid), Vec::<String>::new());
    assert_eq!(
        common::differences(&first.out, &second.out),
        Vec::<String>::new()
    );
    // The same standings, from the same folder name.
    let a = first
        .printed
        .replace(&*first.out.display().to_string(), "OUT");
    assert_eq!(
        a,
        second
            .printed
            .replace(&*second.out.display().to_string(), "OUT")
    );
}
