//! `quads`: the command-line front end of Quads Arena.
//!
//! Each subcommand lives in its own module; this file parses the command line and turns any
//! error into one line on stderr and exit code 2.

mod analyze_cmd;
mod args;
mod book_build;
mod book_cmd;
mod bots_file;
mod check_cmd;
mod lang;
mod logs;
mod match_cmd;
mod merge_cmd;
mod perft_cmd;
mod play_cmd;
mod puzzle_cmd;
mod ratings_cmd;
mod report_cmd;
mod rules_cmd;
mod sandbox_cmd;
mod serve_cmd;
mod show;
mod shown;
mod solve_cmd;
mod sprt_cmd;
mod tournament_cmd;

use std::io::Write;
use std::process::ExitCode;

/// Writes to stdout. When the reader has gone (`quads … | head`), quits quietly with exit
/// code 0 instead of panicking on the broken pipe; any other write error is one line and exit 2.
pub fn out(text: std::fmt::Arguments<'_>) {
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_fmt(text).and_then(|()| stdout.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("quads: cannot write output: {e}");
        std::process::exit(2);
    }
}

/// `println!` through [`out`].
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => { $crate::out(format_args!("{}\n", format_args!($($arg)*))) };
}

/// `print!` through [`out`].
#[macro_export]
macro_rules! outp {
    ($($arg:tt)*) => { $crate::out(format_args!($($arg)*)) };
}

/// The exit code of a long command stopped by SIGINT or SIGTERM (128 + SIGINT's number):
/// `quads tournament`, `quads sprt` and `quads ladder` alike, apart from every verdict.
pub const INTERRUPTED: u8 = 130;

use clap::{Parser, Subcommand};

/// Referee and tournament harness for Quads and classic Quarto bots.
#[derive(Parser)]
#[command(name = "quads", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count move sequences of each length from 1 to DEPTH (checks and times move generation).
    Perft(perft_cmd::Args),
    /// The exact value of a position under perfect play, a best move, and the search's size.
    Solve(solve_cmd::Args),
    /// Solve random positions with N pieces placed and print the times as a Markdown table.
    SolveBench(solve_cmd::BenchArgs),
    /// Play games between two bot processes and record them.
    Match(match_cmd::Args),
    /// Run one bot through scripted protocol scenarios; `ok` or `FAIL` each, with a hint and
    /// the lines exchanged. Exit 0 when all pass, 1 when one fails.
    Check(check_cmd::Args),
    /// Play a tournament from a config: every pairing in every variant, resumable; then write
    /// results, standings, ratings and charts.
    Tournament(tournament_cmd::Args),
    /// Put the shards of one tournament (`quads tournament --shard I/N`) together into the
    /// files a single run writes; says which shard or games are missing.
    Merge(merge_cmd::Args),
    /// Standings, ratings and charts from one or more games.jsonl files.
    Ratings(ratings_cmd::Args),
    /// Judge every move made with few empty squares left by the exact solver: blunders,
    /// missed wins and accuracy per bot, into analysis.csv and analysis.jsonl.
    Analyze(analyze_cmd::Args),
    /// Rebuild a results folder's report.html: one self-contained page with the standings,
    /// tables, charts, analysis and every game as a replay, opened from file://.
    Report(report_cmd::Args),
    /// Sequential probability ratio test: is the first bot stronger than the second by ELO1?
    /// Exit 0 when H1 is accepted, 1 when H0 is, 2 when the pair limit is reached undecided.
    Sprt(sprt_cmd::Args),
    /// An SPRT for each bot of a ladder config against the one below it; exits non-zero naming
    /// the first rung that fails.
    Ladder(sprt_cmd::LadderArgs),
    /// Which of the protections around each bot (limits, file system, network, other
    /// processes) this machine enforces, and why any is off.
    Sandbox(sandbox_cmd::Args),
    /// Serve a competition on the web: entrants sign up and upload their bots (docs/server.md).
    Serve(serve_cmd::Args),
    /// Upload a bot to a `quads serve` server: a folder, an archive of it, or one file.
    Submit(serve_cmd::SubmitArgs),
    /// Play a `quads serve` server's matches on this machine: a remote worker, with a worker
    /// token from the host (docs/server.md).
    Worker(serve_cmd::WorkerArgs),
    /// Print a position as a board diagram with the piece in hand, the remaining pieces and
    /// the game's status.
    Show(show::Args),
    /// Level 5's opening book: build it with the solver, verify it, look a position up.
    Book(book_cmd::Args),
    /// Play in this terminal: against a level or a bot, two people at one keyboard, or the
    /// puzzle of the day against the solver.
    Play(play_cmd::Args),
    /// The rules of a variant, in a page, in English, Italian, Portuguese, Spanish, French or
    /// Slovenian.
    Rules(rules_cmd::Args),
    /// The puzzle of the day: a position with exactly one winning move, proven by the solver;
    /// its solution, a check of an answer (exit 0 or 1), or an export of many days as JSON.
    Puzzle(puzzle_cmd::Args),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // clap explains a usage error over several lines; keep the first, which says
            // what is wrong, so that every error is one line.
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("invalid arguments");
            eprintln!("quads: {}", first.trim_start_matches("error: "));
            return ExitCode::from(2);
        }
    };
    let code = run(cli);
    // Boxes dropped on an interruption end in their keepers' hands: wait for them, so that
    // nothing of a bot outlives quads.
    quads_referee::wait_for_dropped_boxes(std::time::Duration::from_secs(2));
    code
}

fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Command::Perft(args) => perft_cmd::run(&args),
        Command::Show(args) => show::run(&args),
        Command::Rules(args) => rules_cmd::run(&args),
        Command::Play(args) => play_cmd::run(&args),
        Command::Book(args) => match book_cmd::run(&args) {
            Ok(code) => return ExitCode::from(code),
            Err(e) => Err(e),
        },
        Command::Puzzle(args) => match puzzle_cmd::run(&args) {
            Ok(code) => return ExitCode::from(code),
            Err(e) => Err(e),
        },
        Command::Sandbox(args) => sandbox_cmd::run(&args),
        Command::Serve(args) => serve_cmd::run(&args),
        Command::Submit(args) => serve_cmd::submit(&args),
        Command::Worker(args) => serve_cmd::worker(&args),
        Command::Match(args) => match_cmd::run(&args),
        Command::Check(args) => match check_cmd::run(&args) {
            Ok(code) => return ExitCode::from(code),
            Err(e) => Err(e),
        },
        Command::Solve(args) => solve_cmd::run(&args),
        Command::SolveBench(args) => solve_cmd::bench(&args),
        Command::Ratings(args) => ratings_cmd::run(&args),
        Command::Analyze(args) => analyze_cmd::run(&args),
        Command::Report(args) => report_cmd::run(&args),
        Command::Merge(args) => merge_cmd::run(&args),
        Command::Sprt(args) => match sprt_cmd::run_cmd(&args) {
            Ok(code) => return ExitCode::from(code),
            Err(e) => Err(e),
        },
        Command::Ladder(args) => match sprt_cmd::ladder(&args) {
            Ok(code) => return ExitCode::from(code),
            Err(e) => Err(e),
        },
        Command::Tournament(args) => match tournament_cmd::run_cmd(&args) {
            Ok(tournament_cmd::Ended::Finished) => Ok(()),
            Ok(tournament_cmd::Ended::Interrupted) => return ExitCode::from(INTERRUPTED),
            Err(e) => Err(e),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("quads: {message}");
            ExitCode::from(2)
        }
    }
}
