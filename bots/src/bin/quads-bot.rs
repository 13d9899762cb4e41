//! `quads-bot [--strategy NAME | --level 1..5] [--name NAME] [--think-ms MS]`: a bot for Quads
//! Arena. `--think-ms` makes it compute (busily, on its CPU) for that long before each move, to
//! stand in for a real engine in benchmarks and tests; its moves do not change.

use std::process::ExitCode;

use quads_bots::Strategy;

fn main() -> ExitCode {
    let mut strategy = Strategy::Random;
    let mut name = None;
    let mut think = std::time::Duration::ZERO;
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
            ("--level", Some(v)) => match Strategy::from_name(&format!("level-{v}")) {
                Some(s) => strategy = s,
                None => return usage(&format!("--level takes 1 to 5, not `{v}`")),
            },
            ("--think-ms", Some(v)) => match v.parse() {
                Ok(ms) => think = std::time::Duration::from_millis(ms),
                Err(_) => return usage(&format!("--think-ms takes whole milliseconds, not `{v}`")),
            },
            _ => return usage(&format!("unexpected argument `{arg}`")),
        }
    }
    let name = name.unwrap_or_else(|| strategy.name());
    match quads_bots::run(&name, strategy, think) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("quads-bot: {e}");
            ExitCode::FAILURE
        }
    }
}

fn usage(problem: &str) -> ExitCode {
    eprintln!(
        "quads-bot: {problem}; usage: quads-bot [--strategy NAME | --level 1..5] [--name NAME] [--think-ms MS]"
    );
    ExitCode::from(2)
}
