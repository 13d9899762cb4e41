//! `quads rules`: the rules of a variant, in a page, in a language.

use quads_rules::Rules;

/// Arguments of `quads rules`.
#[derive(clap::Args)]
pub struct Args {
    /// The variant, as a rules spec (`quads`, `classic`, `classic,traits=color`, ...).
    #[arg(long, default_value = "quads", value_parser = crate::args::parse_rules)]
    rules: Rules,
    #[command(flatten)]
    lang: crate::lang::LangArg,
}

pub fn run(args: &Args) -> Result<(), String> {
    let catalog = args.lang.catalog();
    let page = quads_i18n::rules_page(&catalog, &args.rules);
    let (title, rest) = page.split_first().expect("a page has a title");
    crate::outln!("{title}");
    crate::outln!("{}", "=".repeat(title.chars().count()));
    for paragraph in rest {
        crate::outln!("");
        crate::outln!("{}", quads_reports::export::wrap(paragraph, 78));
    }
    Ok(())
}
