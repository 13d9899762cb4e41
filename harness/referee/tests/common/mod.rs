//! What the referee's fixture tests share: the misbehaving bot (fixtures/bad_bot.py) in a
//! mode, settings with short limits, and one game between two bots that checks that no process
//! of either bot's group is left.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use quads_protocol::TimeControl;
use quads_referee::{
    group_exists, play_game, Bot, BotCommand, BotSpec, GameRecord, GameSpec, Settings,
};
use quads_rules::{ByPlayer, Position, Rules};

/// The tests measure deadlines, so they run one at a time.
pub static SERIAL: Mutex<()> = Mutex::new(());

pub const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/bad_bot.py");
pub const MOVETIME: u64 = 300;
pub const HANDSHAKE: Duration = Duration::from_secs(1);
/// Starting two Python interpreters, on top of the limit and the second the issue allows.
pub const STARTUP: Duration = Duration::from_millis(500);

pub fn bot(mode: &[&str]) -> BotSpec {
    let mut argv = vec!["python3".to_owned(), FIXTURE.to_owned()];
    argv.extend(mode.iter().map(|s| (*s).to_owned()));
    BotSpec {
        name: mode.join(" "),
        command: BotCommand::new(argv),
        options: Vec::new(),
        time: None,
    }
}

pub fn settings(rules: &str) -> Settings {
    Settings {
        rules: rules.parse::<Rules>().unwrap(),
        time: TimeControl {
            movetime: Some(MOVETIME),
            base: None,
            inc: 0,
        },
        margin: Duration::from_millis(50),
        handshake_timeout: HANDSHAKE,
        setup_timeout: HANDSHAKE,
        grace: Duration::from_millis(200),
        log_cap: 1 << 20,
        ponder: true,
    }
}

pub struct Duel {
    pub record: GameRecord,
    pub elapsed: Duration,
    /// Each seat's stderr and `info` lines.
    #[allow(dead_code, reason = "not every test file reads the logs")]
    pub logs: ByPlayer<String>,
}

/// Plays one game; `first` makes the opening give (or moves first from `start`).
pub fn duel(first: BotSpec, second: BotSpec, settings: &Settings, start: &str) -> Duel {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let start: Position = start.parse().unwrap();
    let (mut a, mut b) = (Bot::new(first), Bot::new(second));
    let began = Instant::now();
    let bots = ByPlayer {
        first: &mut a,
        second: &mut b,
    };
    let spec = GameSpec {
        start,
        ..GameSpec::new(1, 7)
    };
    let played = runtime
        .block_on(play_game(bots, settings, spec))
        .expect("the game is played");
    let elapsed = began.elapsed();
    for seat in [&a, &b] {
        let pgid = seat.last_pgid().expect("the bot was started");
        assert!(
            !group_exists(pgid),
            "process group {pgid} of `{}` is still there",
            seat.spec.name
        );
    }
    let logs = played
        .logs
        .map(|l| String::from_utf8_lossy(&l.kept).into_owned());
    Duel {
        record: played.record,
        elapsed,
        logs,
    }
}

pub const START: &str = "..../..../..../.... -";
/// Three big pieces on row 1 and the big BDQH in hand: the first player wins on D1.
#[allow(dead_code, reason = "processes.rs plays from the start only")]
pub const ROW: &str = "..../..../..../BDRFBLQHBLRF. BDQH";

/// Checks the forfeit of `seat` and that it came within `limit` plus a second.
pub fn assert_forfeit(o: &Duel, seat: &str, reason: &str, detail: &str, limit: Duration) {
    let r = &o.record;
    assert_eq!(r.failures.len(), 1, "{:?}", r.failures);
    assert_eq!(
        (r.failures[0].seat.as_str(), r.reason.as_str()),
        (seat, reason),
        "{:?}",
        r.failures
    );
    assert_eq!(r.failures[0].detail, detail);
    assert_eq!(
        r.result.as_str(),
        if seat == "first" { "0-1" } else { "1-0" }
    );
    let bound = limit + Duration::from_secs(1) + STARTUP;
    assert!(
        o.elapsed < bound,
        "took {:?}, more than {bound:?}",
        o.elapsed
    );
}

pub fn movetime() -> Duration {
    Duration::from_millis(MOVETIME)
}

/// A bot in `mode` whose sandbox is `spec`.
#[allow(dead_code, reason = "only the sandbox's attacks choose the walls")]
pub fn walled(mode: &[&str], spec: &str) -> BotSpec {
    let mut b = bot(mode);
    b.command.sandbox = spec.parse().unwrap();
    b
}

/// Plays `legal` (first) against the attacker in `mode` (second) inside walls `spec`.
#[allow(dead_code, reason = "only the sandbox's attacks use it")]
pub fn attack(mode: &[&str], spec: &str, settings: &Settings) -> Duel {
    duel(bot(&["legal"]), walled(mode, spec), settings, START)
}

/// The attacker's report of its attack.
#[allow(dead_code, reason = "only the sandbox's attacks use it")]
pub fn report(o: &Duel) -> &str {
    o.logs
        .second
        .lines()
        .find_map(|l| l.strip_prefix("attack: "))
        .unwrap_or_else(|| {
            panic!(
                "no attack line in {:?} ({:?})",
                o.logs.second, o.record.failures
            )
        })
}

/// The attack failed and the game went on: no forfeit on either side.
#[allow(dead_code, reason = "only the sandbox's attacks use it")]
pub fn held(o: &Duel, how: &str) {
    assert_eq!(report(o), how);
    assert!(o.record.failures.is_empty(), "{:?}", o.record.failures);
}

/// Settings with a long limit per move, for attacks that take time.
#[allow(dead_code, reason = "only the sandbox's attacks use it")]
pub fn slow(rules: &str) -> Settings {
    let mut s = settings(rules);
    s.time.movetime = Some(20_000);
    s
}

/// Whether the referee runs as root (the box then runs as a user of its own).
#[allow(dead_code, reason = "only some tests depend on it")]
pub fn root() -> bool {
    nix::unistd::geteuid().is_root()
}
