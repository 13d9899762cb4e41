//! `quads serve` and `quads submit` as a host and its entrants use them: a real server process
//! on a free port with its SQLite file, real HTTP; invites, sign-up, uploads by the CLI and by
//! hand, downloads, refusals, archives made by an attacker's tools (Python's tarfile and
//! zipfile), and a restart after SIGKILL that keeps everything; the pages with their cookies,
//! CSRF tokens and privacy.

mod api;
mod crowd;
mod export;
mod faults;
mod harness;
mod history;
mod hostile;
mod ladder;
mod live;
mod logs;
mod markup;
mod matches;
mod pages;
mod pipeline;
mod play;
mod play_bots;
mod play_clock;
mod play_only;
mod play_remote;
mod play_web;
mod slow;
mod stalls;
mod uploads;
mod visitor;
mod web;
mod webhooks;
mod workers;

#[path = "../common/browser.rs"]
mod browser;
