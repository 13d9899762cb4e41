//! The rules of one variant as a page of paragraphs, and the variant's name, in a language:
//! what `quads rules` prints and `quads play` shows on F1.

use quads_rules::{Claim, Rules, Trait, TraitSet};

use crate::Catalog;

/// The names of `traits`, joined as a list (`size, colour`).
pub fn trait_names(c: &Catalog, traits: TraitSet) -> String {
    traits
        .iter()
        .map(|t| c.text(trait_key(t)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn trait_key(t: Trait) -> &'static str {
    match t {
        Trait::Size => "trait-size",
        Trait::Color => "trait-color",
        Trait::Shape => "trait-shape",
        Trait::Fill => "trait-fill",
    }
}

/// The variant's name: its preset, then what it changes (`Quads, only colour counts`).
pub fn variant_name(c: &Catalog, rules: &Rules) -> String {
    let mut parts = vec![c.text(if rules.squares {
        "variant-quads"
    } else {
        "variant-classic"
    })];
    if rules.traits != TraitSet::ALL {
        parts.push(c.with(
            "variant-traits",
            &[("traits", trait_names(c, rules.traits).into())],
        ));
    }
    if rules.claim == Claim::Announce {
        parts.push(c.text("variant-announce"));
    }
    parts.join(", ")
}

/// The rules of `rules`: a title, then one paragraph per rule.
pub fn rules_page(c: &Catalog, rules: &Rules) -> Vec<String> {
    let values = |a: &str, b: &str| format!("{} / {}", c.text(a), c.text(b));
    let mut page = vec![
        c.with("rules-title", &[("variant", variant_name(c, rules).into())]),
        c.with(
            "rules-material",
            &[
                ("size", values("value-big", "value-small").into()),
                ("color", values("value-dark", "value-light").into()),
                ("shape", values("value-round", "value-square").into()),
                ("fill", values("value-solid", "value-hollow").into()),
            ],
        ),
        c.text("rules-turn"),
        c.text(if rules.squares {
            "rules-shapes-quads"
        } else {
            "rules-shapes-classic"
        }),
    ];
    page.push(if rules.traits == TraitSet::ALL {
        c.text("rules-traits-all")
    } else {
        c.with(
            "rules-traits-some",
            &[("traits", trait_names(c, rules.traits).into())],
        )
    });
    page.push(c.text(match rules.claim {
        Claim::Auto => "rules-win-auto",
        Claim::Announce => "rules-win-announce",
    }));
    page.push(c.text("rules-draw"));
    page.push(c.text("rules-notation"));
    page.push(c.text("rules-tip"));
    page
}
