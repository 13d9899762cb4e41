//! `quads-bot [--strategy first|random|greedy] [--name NAME]`: a bot for Quads Arena.

use std::process::ExitCode;

use quads_bots::Strategy;

fn main() -> ExitCode {
    let mut strategy = Strategy::Random;
    let mut name = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next();
        match (arg.as_str(), value) {
            ("--strategy", Some(v)) => match Strategy::from_name(&v) {
                Some(s) => strategy = s,
                None => {
                    return usage(&format!(
                        "unknown strategy `{v}` (expected first, random or greedy)"
                    ))
                }
            },
            ("--name", Some(v)) => name = Some(v),
            _ => return usage(&format!("unexpected argument `{arg}`")),
        }
    }
    let name = name.unwrap_or_else(|| strategy.name().to_owned());
    match quads_bots::run(&name, strategy) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("quads-bot: {e}");
            ExitCode::FAILURE
        }
    }
}

fn usage(problem: &str) -> ExitCode {
    eprintln!(
        "quads-bot: {problem}; usage: quads-bot [--strategy first|random|greedy] [--name NAME]"
    );
    ExitCode::from(2)
}
