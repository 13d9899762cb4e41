//! `quads check`: one bot through the checker's scenarios; `ok` or `FAIL` per scenario, and
//! for each failure a hint and the lines exchanged. Exit 0 when all pass, 1 when one fails.

use quads_referee::check::{check, CheckConfig, Direction, Report};
use quads_referee::parse_duration;

use crate::bots_file;

/// Arguments of `quads check`.
#[derive(clap::Args)]
pub struct Args {
    /// A bot by its name in the bots file.
    #[arg(long, conflicts_with = "command")]
    bot: Option<String>,
    /// The bots file for --bot.
    #[arg(long, value_name = "FILE")]
    bots_file: Option<std::path::PathBuf>,
    /// The limit for each answer.
    #[arg(long, default_value = "2s", value_name = "DURATION")]
    movetime: String,
    /// Print the reports as one JSON object.
    #[arg(long)]
    json: bool,
    /// The bot's command and its arguments, after `--`.
    #[arg(last = true, value_name = "CMD")]
    command: Vec<String>,
}

/// Runs the check; returns the exit code (0 all passed, 1 one failed).
pub fn run(args: &Args) -> Result<u8, String> {
    let command = match (&args.bot, args.command.is_empty()) {
        (Some(name), _) => {
            let [bot, _] = bots_file::two_bots(
                &[name.clone(), name.clone()],
                args.bots_file.as_deref(),
                false,
            )?;
            bot.command
        }
        (None, false) => quads_referee::BotCommand {
            argv: args.command.clone(),
            shell: false,
            dir: None,
        },
        (None, true) => return Err("name the bot: --bot NAME, or -- CMD [ARGS...]".into()),
    };
    let limit = parse_duration(&args.movetime).map_err(|e| e.to_string())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let reports = runtime
        .block_on(check(&CheckConfig { command, limit }))
        .map_err(|e| e.to_string())?;
    if args.json {
        crate::outln!("{}", json(&reports));
    } else {
        for r in &reports {
            print_report(r);
        }
    }
    Ok(u8::from(reports.iter().any(|r| r.failure.is_some())))
}

fn print_report(r: &Report) {
    match &r.failure {
        None => crate::outln!("ok    {}", r.name),
        Some(hint) => {
            crate::outln!("FAIL  {}: {hint}", r.name);
            for line in &r.exchange {
                let arrow = match line.direction {
                    Direction::Sent => "referee>",
                    Direction::Received => "    bot<",
                };
                crate::outln!("      {arrow} {}", line.text);
            }
        }
    }
}

fn json(reports: &[Report]) -> serde_json::Value {
    let scenarios: Vec<serde_json::Value> = reports
        .iter()
        .map(|r| {
            serde_json::json!({
                "scenario": r.name,
                "ok": r.failure.is_none(),
                "hint": r.failure,
                "exchange": r.exchange.iter().map(|l| serde_json::json!({
                    "from": match l.direction { Direction::Sent => "referee", Direction::Received => "bot" },
                    "line": l.text,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::json!({
        "ok": reports.iter().all(|r| r.failure.is_none()),
        "scenarios": scenarios,
    })
}
