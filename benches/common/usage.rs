//! What a benchmark reads of a process from /proc: the one reader of the server's memory and
//! CPU for benches/server_load.rs and benches/play_load.rs.

/// The process's resident memory (MiB) and CPU so far, user and system (s).
pub fn usage(pid: u32) -> (f64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let rss_kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0);
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command's closing parenthesis: utime and stime are the 12th and
    // 13th of them, in clock ticks (100 a second on Linux).
    let rest: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, r)| r)
        .split_whitespace()
        .collect();
    let ticks: f64 = rest.get(11).and_then(|t| t.parse().ok()).unwrap_or(0.0)
        + rest.get(12).and_then(|t| t.parse().ok()).unwrap_or(0.0);
    (rss_kib / 1024.0, ticks / 100.0)
}
