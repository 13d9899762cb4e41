//! A config given as text (as a server receives it over HTTP) is read as the same config from
//! a file, and its errors name the source and the line the same way.

use std::path::Path;

use quads_tournament::{parse_config, read_config, Overrides};

const CONFIG: &str = r#"name = "cup"
seed = 7
pairs = 2
variants = ["quads", "classic"]

[[bot]]
name = "a"
command = "./a"

[[bot]]
name = "b"
command = "./b"
"#;

#[test]
fn a_config_from_text_is_the_config_from_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cup.toml");
    std::fs::write(&file, CONFIG).unwrap();
    let from_file = read_config(&file, &Overrides::default()).unwrap();
    let from_text = parse_config(CONFIG, &file, &Overrides::default()).unwrap();
    assert_eq!(format!("{from_text:?}"), format!("{from_file:?}"));
    assert_eq!(
        (from_text.name.as_str(), from_text.seed, from_text.pairs),
        ("cup", 7, 2)
    );
    assert_eq!(from_text.bots.len(), 2);
}

#[test]
fn an_error_in_a_config_from_text_names_its_source_and_line() {
    let bad = CONFIG.replace("pairs = 2", "pairs = \"two\"");
    let e = parse_config(&bad, Path::new("upload #3"), &Overrides::default()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("upload #3 (line 3): invalid type"),
        "{e}"
    );
}
