//! Every catalogue against the English one: the same messages, the same variables in each,
//! every message formatting without an error, and the plural forms each language needs.

use super::*;

/// Each message's text in a catalogue's source: its first line and the indented ones after.
fn messages(source: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in source.lines() {
        let starts = !line.starts_with([' ', '#', '-', '\t']) && line.contains('=');
        if starts {
            let (key, value) = line.split_once('=').expect("has =");
            out.push((key.trim().to_owned(), value.to_owned()));
        } else if line.starts_with([' ', '\t']) {
            if let Some(last) = out.last_mut() {
                last.1.push('\n');
                last.1.push_str(line);
            }
        }
    }
    out
}

/// The variables (`$name`) a message uses, sorted, without repeats.
fn variables(text: &str) -> Vec<String> {
    let mut vars: Vec<String> = text
        .split('$')
        .skip(1)
        .map(|rest| {
            rest.chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
                .collect()
        })
        .collect();
    vars.sort();
    vars.dedup();
    vars
}

#[test]
fn every_catalogue_has_the_english_messages_with_the_same_variables() {
    let english = messages(Lang::En.source());
    assert!(english.len() > 50, "the English catalogue reads");
    for lang in Lang::ALL {
        let theirs = messages(lang.source());
        let keys = |m: &[(String, String)]| m.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>();
        let missing: Vec<String> = keys(&english)
            .into_iter()
            .filter(|k| !theirs.iter().any(|(t, _)| t == k))
            .collect();
        let extra: Vec<String> = keys(&theirs)
            .into_iter()
            .filter(|k| !english.iter().any(|(e, _)| e == k))
            .collect();
        assert_eq!(missing, Vec::<String>::new(), "{lang}: missing messages");
        assert_eq!(
            extra,
            Vec::<String>::new(),
            "{lang}: messages English lacks"
        );
        for (key, text) in &english {
            let (_, their_text) = theirs.iter().find(|(k, _)| k == key).expect("checked");
            assert_eq!(
                variables(their_text),
                variables(text),
                "{lang}: {key} uses other variables than in English"
            );
        }
        assert_eq!(Catalog::new(lang).keys(), keys(&theirs));
    }
}

#[test]
fn every_message_formats_without_an_error_in_every_language() {
    for lang in Lang::ALL {
        let catalog = Catalog::new(lang);
        for (key, text) in messages(lang.source()) {
            let message = catalog.bundle.get_message(&key).expect("parsed");
            let pattern = message.value().expect("a value");
            for n in [0, 1, 2, 3, 5, 11, 101] {
                let mut args = FluentArgs::new();
                for var in variables(&text) {
                    args.set(var, FluentValue::from(n));
                }
                let mut errors = Vec::new();
                let out = catalog
                    .bundle
                    .format_pattern(pattern, Some(&args), &mut errors);
                assert!(errors.is_empty(), "{lang}: {key}: {errors:?}");
                assert!(!out.trim().is_empty(), "{lang}: {key} is empty");
                assert!(!out.contains('\u{2068}'), "no isolation marks");
            }
        }
    }
}

#[test]
fn plurals_follow_each_language() {
    let en = Catalog::new(Lang::En);
    let won = |c: &Catalog, n: i64| c.with("puzzle-play-won", &[("placements", n.into())]);
    assert_eq!(won(&en, 1), "Solved: you won in one placement.");
    assert_eq!(won(&en, 5), "Solved: you won in 5 placements.");
    // Slovenian has four forms (one, two, few, other): 1, 2, 3 and 5 differ, 101 is as 1.
    let sl = Catalog::new(Lang::Sl);
    let forms: Vec<String> = [1, 2, 3, 5].iter().map(|&n| won(&sl, n)).collect();
    for (i, a) in forms.iter().enumerate() {
        for b in &forms[i + 1..] {
            assert_ne!(
                a.replace(char::is_numeric, ""),
                b.replace(char::is_numeric, ""),
                "Slovenian 1, 2, 3 and 5 take four forms"
            );
        }
    }
    assert_eq!(won(&sl, 101).replace("101", "1"), won(&sl, 1));
}

#[test]
fn a_missing_message_falls_back_to_english_then_to_its_key() {
    let it = Catalog::new(Lang::It);
    assert_eq!(it.text("no-such-message"), "no-such-message");
    assert_eq!(
        Catalog::new(Lang::En).with("player-level", &[("level", 3u32.into())]),
        "Level 3"
    );
}

#[test]
fn the_language_comes_from_the_option_or_the_locale() {
    assert_eq!("sl".parse::<Lang>(), Ok(Lang::Sl));
    assert_eq!("pt-BR".parse::<Lang>(), Ok(Lang::Pt));
    assert_eq!(
        "de".parse::<Lang>().unwrap_err().to_string(),
        "unknown language `de` (expected one of en, it, pt, es, fr, sl)"
    );
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        }
    };
    assert_eq!(Lang::from_vars(env(&[("LANG", "it_IT.UTF-8")])), Lang::It);
    assert_eq!(
        Lang::from_vars(env(&[("LANG", "it_IT.UTF-8"), ("LC_ALL", "fr_FR.UTF-8")])),
        Lang::Fr
    );
    assert_eq!(
        Lang::from_vars(env(&[
            ("LC_ALL", ""),
            ("LC_MESSAGES", "es_ES"),
            ("LANG", "C")
        ])),
        Lang::Es
    );
    assert_eq!(Lang::from_vars(env(&[("LANG", "C.UTF-8")])), Lang::En);
    assert_eq!(Lang::from_vars(env(&[])), Lang::En);
}

#[test]
fn a_browsers_first_language_among_the_six_is_chosen() {
    for (header, lang) in [
        ("sl-SI,sl;q=0.9,en;q=0.8", Lang::Sl),
        ("de-DE,de;q=0.9,pt-BR;q=0.8,en;q=0.5", Lang::Pt),
        ("fr-CA", Lang::Fr),
        ("IT", Lang::It),
        ("de, ja", Lang::En),
        ("", Lang::En),
        ("*", Lang::En),
        (";;,q=,", Lang::En),
        ("es-419,en", Lang::Es),
    ] {
        assert_eq!(Lang::from_accept_language(header), lang, "{header:?}");
    }
}

#[test]
fn every_catalogue_is_written_in_its_own_language() {
    let english = messages(Lang::En.source());
    for lang in Lang::ALL.into_iter().filter(|&l| l != Lang::En) {
        let theirs = messages(lang.source());
        let same: Vec<&String> = english
            .iter()
            .filter(|(k, v)| theirs.iter().any(|(t, w)| t == k && w == v))
            .map(|(k, _)| k)
            .collect();
        // A few messages are symbols or names in every language (`Quarto!`, `Quads`).
        assert!(
            same.len() * 20 <= english.len(),
            "{lang}: {} of {} messages are the English text: {same:?}",
            same.len(),
            english.len()
        );
    }
}

#[test]
fn the_rules_page_says_what_each_variant_changes() {
    let en = Catalog::new(Lang::En);
    let page = |spec: &str| rules_page(&en, &spec.parse().unwrap());
    let quads = page("quads");
    assert_eq!(quads[0], "The rules: Quads");
    assert!(quads[1].contains("big / small, dark / light, round / square and solid / hollow"));
    assert!(quads.iter().any(|p| p.contains("9 blocks of 2×2")));
    assert!(quads
        .iter()
        .any(|p| p.starts_with("Whoever places the fourth piece")));
    let classic = page("classic,traits=color+fill,claim=announce");
    assert_eq!(
        classic[0],
        "The rules: classic Quarto, only colour, fill count, \"Quarto!\" must be announced"
    );
    assert!(classic
        .iter()
        .any(|p| p.starts_with("Winning shapes: the 4 rows, the 4 columns and the 2 diagonals")));
    assert!(classic
        .iter()
        .any(|p| p.starts_with("Only these traits count: colour, fill.")));
    assert!(classic
        .iter()
        .any(|p| p.starts_with("The \"Quarto!\" rule")));
    assert_eq!(quads.len(), classic.len());
    // Every language says as much.
    for lang in Lang::ALL {
        let c = Catalog::new(lang);
        for spec in ["quads", "classic,traits=color,claim=announce"] {
            let p = rules_page(&c, &spec.parse().unwrap());
            assert_eq!(p.len(), 9, "{lang} {spec}");
            assert!(p
                .iter()
                .all(|para| !para.is_empty() && !para.contains("rules-")));
        }
    }
}
