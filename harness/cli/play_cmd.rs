//! `quads play`: a game in this terminal against a level, a bot, or a second person; or the
//! puzzle of the day played out against the solver.

use std::path::PathBuf;

use quads_play::{Ending, Opponent, Options};
use quads_referee::{time_control, BotCommand, BotSpec};
use quads_rules::Rules;

/// Arguments of `quads play`.
#[derive(clap::Args)]
pub struct Args {
    /// The variant, as a rules spec.
    #[arg(long, default_value = "quads", value_parser = crate::args::parse_rules)]
    rules: Rules,
    /// Play against difficulty level 1 (random) to 5 (the solver) [the default: level 2].
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=5), conflicts_with_all = ["bot", "human", "puzzle"])]
    level: Option<u8>,
    /// Play against a bot: a name from the bots file, or a command line.
    #[arg(long, value_name = "CMD", conflicts_with_all = ["human", "puzzle"])]
    bot: Option<String>,
    /// Two people at this keyboard, taking turns.
    #[arg(long, conflicts_with = "puzzle")]
    human: bool,
    /// Make the opening give (the default).
    #[arg(long, conflicts_with = "second")]
    first: bool,
    /// Let the opponent make the opening give.
    #[arg(long)]
    second: bool,
    /// The bot's limit per move.
    #[arg(long, default_value = "1s", value_name = "DURATION")]
    movetime: String,
    /// A game clock for both sides, base plus increment per move (5m+2s): a person who runs out
    /// of time loses.
    #[arg(long, value_name = "BASE+INC")]
    clock: Option<String>,
    /// The game's seed, sent to the bot [default: drawn from the clock, and recorded].
    #[arg(long)]
    seed: Option<u64>,
    /// Where the finished game is saved (games.jsonl and logs/, as `quads match` writes).
    #[arg(long, default_value = "out/play")]
    out: PathBuf,
    /// Play the puzzle of the day (easy, medium or hard) against the solver's defence.
    #[arg(long, value_name = "LEVEL", num_args = 0..=1, default_missing_value = "medium")]
    puzzle: Option<quads_puzzle::Level>,
    /// The puzzle's day (YYYY-MM-DD) [default: today].
    #[arg(long, requires = "puzzle", value_parser = quads_puzzle::parse_date)]
    date: Option<quads_puzzle::Date>,
    /// Run a --bot command line through `sh -c`.
    #[arg(long)]
    shell: bool,
    /// The bots file that names bots [default: configs/bots.toml, if it exists].
    #[arg(long, value_name = "FILE")]
    bots_file: Option<PathBuf>,
    #[command(flatten)]
    sandbox: crate::sandbox_cmd::Flag,
    #[command(flatten)]
    lang: crate::lang::LangArg,
}

/// `quads-bot --level N`, beside this program.
fn level_bot(level: u8) -> Result<BotSpec, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find quads itself: {e}"))?;
    let bot = exe.with_file_name("quads-bot");
    if !bot.exists() {
        return Err(format!(
            "{} is missing: build it with `cargo build --release --workspace`",
            bot.display()
        ));
    }
    Ok(BotSpec {
        name: format!("level-{level}"),
        command: BotCommand::new(vec![
            bot.display().to_string(),
            "--level".to_owned(),
            level.to_string(),
        ]),
        options: Vec::new(),
        time: None,
    })
}

pub fn run(args: &Args) -> Result<(), String> {
    let c = args.lang.catalog();
    let mut rules = args.rules;
    let puzzle = match args.puzzle {
        Some(level) => {
            let date = args.date.unwrap_or_else(quads_puzzle::today);
            let p = quads_puzzle::of_day(date, &rules, level).map_err(|e| e.to_string())?;
            rules = p.rules();
            Some(p)
        }
        None => None,
    };
    let opponent = if puzzle.is_some() {
        Opponent::Solver
    } else if args.human {
        Opponent::Human
    } else {
        let mut spec = match &args.bot {
            Some(text) => crate::bots_file::one_bot(text, args.bots_file.as_deref(), args.shell)?,
            None => level_bot(args.level.unwrap_or(2))?,
        };
        args.sandbox.apply(std::iter::once(&mut spec.command))?;
        let shown = match (&args.bot, args.level.unwrap_or(2)) {
            (Some(_), _) => spec.name.clone(),
            (None, level) => c.with("player-level", &[("level", u32::from(level).into())]),
        };
        Opponent::Bot {
            spec: Box::new(spec),
            shown,
        }
    };
    let time =
        time_control(Some(&args.movetime), args.clock.as_deref()).map_err(|e| e.to_string())?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let colours = std::env::var_os("NO_COLOR").is_none()
        && std::env::var("TERM").map_or(true, |t| t != "dumb");
    let options = Options {
        rules,
        opponent,
        first: !args.second,
        time,
        clock: args.clock.is_some(),
        seed,
        out: puzzle.is_none().then(|| args.out.clone()),
        puzzle,
        colours,
    };
    match quads_play::run(options, c).map_err(|e| e.to_string())? {
        Ending::Saved { path, result } => {
            crate::outln!("{result}");
            crate::outln!("{}", path.display());
            Ok(())
        }
        Ending::Left | Ending::PuzzleSolved | Ending::PuzzleFailed => Ok(()),
        Ending::Failed(e) => Err(e),
    }
}
