//! The notation's parsers (positions, moves, rules specs) read text from configs, opening
//! files, records and bots: no input makes them panic. 10,000 random and mutated inputs each
//! (`QUADS_FUZZ_CASES` sets another count).

use proptest::prelude::*;
use quads_rules::{Move, Position, Rules};

const VALID: [&str; 6] = [
    "..../..../..../BDRFBDRHBDQFBLRF SLQH claimable",
    "BDRF.BDRHBLRF/BDQHSLQHSLRH./BLQF.SDQHBLRH/SLQFBDQFSLRFBLQH SDRF",
    "D2 BLQF",
    "quarto",
    "quads,traits=size+fill,claim=announce",
    "classic,squares=on,traits=color",
];

fn parse_all(text: &str) -> Result<(), TestCaseError> {
    if let Ok(p) = text.parse::<Position>() {
        prop_assert_eq!(p.to_string().parse::<Position>().ok(), Some(p));
    }
    if let Ok(m) = text.parse::<Move>() {
        prop_assert_eq!(m.to_string().parse::<Move>().ok(), Some(m));
    }
    if let Ok(r) = text.parse::<Rules>() {
        prop_assert_eq!(r.to_string().parse::<Rules>().ok(), Some(r));
    }
    Ok(())
}

proptest! {
    #![proptest_config(quads_fuzzkit::config())]

    #[test]
    fn random_text_never_panics(text in ".{0,120}") {
        parse_all(&text)?;
    }

    #[test]
    fn mutated_notation_never_panics_and_what_parses_prints_back(text in quads_fuzzkit::mutated(&VALID, 4)) {
        parse_all(&text)?;
    }
}
