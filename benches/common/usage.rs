//! What a benchmark reads of a process from /proc: the one reader of the server's memory and
//! CPU for benches/server_load.rs and benches/play_load.rs, and of a harness's own CPU for
//! benches/fastchess.rs.

/// The process's resident memory (MiB) and CPU so far, user and system (s).
#[allow(dead_code)] // benches/fastchess.rs reads the CPU alone.
pub fn usage(pid: u32) -> (f64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let rss_kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0);
    let (user, system) = cpu_split(pid);
    (rss_kib / 1024.0, user + system)
}

/// The process's CPU so far, user and system apart (s). Read from a process that has exited
/// but is not yet reaped, it is the process's own, without its children's.
pub fn cpu_split(pid: u32) -> (f64, f64) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command's closing parenthesis: utime and stime are the 12th and
    // 13th of them, in clock ticks (100 a second on Linux).
    let rest: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, r)| r)
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        rest.get(i)
            .and_then(|t| t.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) / 100.0, ticks(12) / 100.0)
}
