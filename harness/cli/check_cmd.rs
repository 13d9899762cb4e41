//! `quads check`: one bot through the checker's scenarios; `ok` or `FAIL` per scenario, and
//! for each failure a hint and the lines exchanged; warnings below the scenario they came
//! from. Exit 0 when all pass (warnings or not), 1 when one fails.

use quads_referee::check::{check, render, CheckConfig, DEFAULT_MOVETIME};
use quads_referee::{defaults, parse_duration};
use quads_rules::Rules;

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
    /// Play the game scenarios under these rules (repeatable) instead of quads, classic and
    /// quads,claim=announce; the rule-variant scenarios are then left out.
    #[arg(long = "rules", value_name = "SPEC", value_parser = crate::args::parse_rules)]
    rules: Vec<Rules>,
    /// The limit for each move.
    #[arg(long, default_value_t = defaults::text(DEFAULT_MOVETIME), value_name = "DURATION")]
    movetime: String,
    /// The limit for the handshake and for each `readyok`.
    #[arg(long, default_value_t = defaults::text(defaults::HANDSHAKE), value_name = "DURATION")]
    handshake_timeout: String,
    /// Print the reports as one JSON object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    sandbox: crate::sandbox_cmd::Flag,
    #[command(flatten)]
    dirs: bots_file::Dirs,
    /// The bot's command and its arguments, after `--`.
    #[arg(last = true, value_name = "CMD")]
    command: Vec<String>,
}

/// Runs the check; returns the exit code (0 all passed, 1 one failed).
pub fn run(args: &Args) -> Result<u8, String> {
    let mut command = match (&args.bot, args.command.is_empty()) {
        (Some(name), _) => {
            let [bot, _] = bots_file::two_bots(
                &[name.clone(), name.clone()],
                args.bots_file.as_deref(),
                false,
            )?;
            bot.command
        }
        (None, false) => {
            let text = args.command.join(" ");
            let mut bot = [quads_referee::BotSpec {
                name: text.clone(),
                command: quads_referee::BotCommand::new(args.command.clone()),
                options: Vec::new(),
                time: None,
            }];
            args.dirs
                .apply(&[text], &mut bot, args.bots_file.as_deref())?;
            let [bot] = bot;
            bot.command
        }
        (None, true) => return Err("name the bot: --bot NAME, or -- CMD [ARGS...]".into()),
    };
    args.sandbox.apply([&mut command])?;
    let config = CheckConfig {
        command,
        movetime: parse_duration(&args.movetime).map_err(|e| e.to_string())?,
        handshake: parse_duration(&args.handshake_timeout).map_err(|e| e.to_string())?,
        rules: args.rules.clone(),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let reports = runtime
        .block_on(check(&config))
        .map_err(|e| e.to_string())?;
    if args.json {
        crate::outln!("{}", render::json(&reports));
    } else {
        for line in reports.iter().flat_map(render::text) {
            crate::outln!("{line}");
        }
        crate::outln!("{}", render::summary(&reports));
    }
    Ok(u8::from(!quads_referee::check::passed(&reports)))
}
