//! The protocol's parsers take lines from strangers' bots (and bots take the referee's): no
//! input makes them panic. Random text, and valid lines mutated a few characters at a time;
//! 10,000 cases each (`QUADS_FUZZ_CASES` sets another count).

use proptest::prelude::*;
use quads_protocol::{FromBot, ToBot};

/// Valid lines of both directions, to mutate.
const VALID: [&str; 10] = [
    "quadsok",
    "id name example bot 1.0",
    "option name depth type spin default 2 min 1 max 6",
    "option name fast type check default false",
    "move D2 BLQF",
    "move quarto",
    "move D1 quarto",
    "newgame rules quads,traits=size+fill,claim=announce seat second seed 18446744073709551615 base 300000 inc 2000",
    "go position ..../..../..../BDRFBDRHBDQFBLRF SLQH claimable remaining SDRF SLRF last D1 SLQH time 300000 optime 299000 movetime 300000",
    "gameover result win reason timeout detail no move within 1000 ms (+50 ms margin)",
];

proptest! {
    #![proptest_config(quads_fuzzkit::config())]

    #[test]
    fn random_text_never_panics(line in ".{0,300}") {
        let _ = line.parse::<FromBot>();
        let _ = line.parse::<ToBot>();
    }

    #[test]
    fn mutated_lines_never_panic_and_what_parses_prints_back(line in quads_fuzzkit::mutated(&VALID, 4)) {
        if let Ok(msg) = line.parse::<FromBot>() {
            // Whatever is accepted means the same once printed and read again.
            prop_assert_eq!(msg.to_string().parse::<FromBot>().ok(), Some(msg));
        }
        if let Ok(msg) = line.parse::<ToBot>() {
            prop_assert_eq!(msg.to_string().parse::<ToBot>().ok(), Some(msg));
        }
    }
}
