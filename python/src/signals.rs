//! SIGINT and SIGTERM around a run. `quads_results` stops a run at either signal, as the CLI
//! does, through handlers that stay installed once made; in a Python process they would take
//! Ctrl-C from Python for good. So a run gets the run's handlers while it plays and Python gets
//! its own back when it ends (the front end then raises `KeyboardInterrupt`).

use std::sync::Mutex;

const SIGNALS: [libc::c_int; 2] = [libc::SIGINT, libc::SIGTERM];

/// The run's handlers, once a run has installed them.
static RUNS: Mutex<Option<[libc::sigaction; 2]>> = Mutex::new(None);

#[expect(unsafe_code, reason = "sigaction has no safe wrapper in libc")]
fn current(signal: libc::c_int) -> libc::sigaction {
    // SAFETY: a zeroed sigaction is a valid out-parameter; a null new action only reads.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut old);
        old
    }
}

#[expect(unsafe_code, reason = "sigaction has no safe wrapper in libc")]
fn install(signal: libc::c_int, action: &libc::sigaction) {
    // SAFETY: `action` was read from sigaction for this same signal.
    unsafe {
        libc::sigaction(signal, action, std::ptr::null_mut());
    }
}

/// Runs `f` with the run's handlers of SIGINT and SIGTERM (those the first run installed, from
/// the second on), then puts the caller's back.
pub fn with_run_handlers<T>(f: impl FnOnce() -> T) -> T {
    let callers = SIGNALS.map(current);
    if let Some(run) = *RUNS.lock().unwrap_or_else(|e| e.into_inner()) {
        for (s, a) in SIGNALS.iter().zip(&run) {
            install(*s, a);
        }
    }
    let out = f();
    let now = SIGNALS.map(current);
    let mut runs = RUNS.lock().unwrap_or_else(|e| e.into_inner());
    if runs.is_none() && now[0].sa_sigaction != callers[0].sa_sigaction {
        *runs = Some(now);
    }
    for (s, a) in SIGNALS.iter().zip(&callers) {
        install(*s, a);
    }
    out
}
