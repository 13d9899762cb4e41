//! `quads-bot [--strategy NAME | --level 1..5] [--name NAME] [--think-ms MS] [--wait-ms MS]
//! [--start-ms MS]`: a bot for Quads Arena. `--think-ms` makes it compute (busily, on its CPU)
//! for that long before each move, `--wait-ms` sleep that long, and `--start-ms` compute that
//! long once before its handshake, to stand in for a real engine in benchmarks and tests; its
//! moves do not change. `--no-book` makes level 5 search its opening moves instead of taking
//! them from its book (to measure the book).

use std::process::ExitCode;

use quads_bots::Strategy;

fn main() -> ExitCode {
    let mut strategy = Strategy::Random;
    let mut name = None;
    let mut delay = quads_bots::Delay::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--no-book" {
            quads_bots::book::set_enabled(false);
            continue;
        }
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
            ("--think-ms" | "--wait-ms" | "--start-ms", Some(v)) => match v.parse() {
                Ok(ms) => {
                    let ms = std::time::Duration::from_millis(ms);
                    match arg.as_str() {
                        "--think-ms" => delay.think = ms,
                        "--wait-ms" => delay.wait = ms,
                        _ => delay.start = ms,
                    }
                }
                Err(_) => return usage(&format!("{arg} takes whole milliseconds, not `{v}`")),
            },
            _ => return usage(&format!("unexpected argument `{arg}`")),
        }
    }
    let name = name.unwrap_or_else(|| strategy.name());
    match quads_bots::run(&name, strategy, delay) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("quads-bot: {e}");
            ExitCode::FAILURE
        }
    }
}

fn usage(problem: &str) -> ExitCode {
    eprintln!(
        "quads-bot: {problem}; usage: quads-bot [--strategy NAME | --level 1..5] [--name NAME] [--think-ms MS] [--wait-ms MS] [--start-ms MS] [--no-book]"
    );
    ExitCode::from(2)
}
