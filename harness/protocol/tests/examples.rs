//! Every example line in protocol.md parses, and prints back exactly as written.

use quads_protocol::{FromBot, ToBot};

fn protocol_md() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../protocol.md");
    std::fs::read_to_string(path).expect("protocol.md at the top of the repository")
}

#[test]
fn every_transcript_line_parses_and_round_trips() {
    let text = protocol_md();
    let (mut to_bot, mut from_bot) = (0, 0);
    for line in text.lines() {
        if let Some(msg) = line.strip_prefix("> ") {
            let parsed: ToBot = msg.parse().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(parsed.to_string(), msg);
            to_bot += 1;
        } else if let Some(msg) = line.strip_prefix("< ") {
            let parsed: FromBot = msg.parse().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(parsed.to_string(), msg);
            from_bot += 1;
        }
    }
    assert_eq!(
        (to_bot, from_bot),
        (14, 13),
        "example lines found in protocol.md"
    );
}

#[test]
fn inline_examples_parse() {
    let text = protocol_md();
    let mut found = Vec::new();
    for piece in text.split('`') {
        // Templates name their parts in capitals (`move SQUARE PIECE`); examples are concrete.
        if piece.contains("PIECE") || piece.contains("SQUARE") {
            continue;
        }
        if piece.starts_with("go position ") {
            let parsed: ToBot = piece.parse().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(parsed.to_string(), piece);
            found.push(piece);
        } else if piece.starts_with("move ") {
            let parsed: FromBot = piece.parse().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(parsed.to_string(), piece);
            found.push(piece);
        }
    }
    assert_eq!(found.len(), 4, "inline examples found: {found:?}");
}
