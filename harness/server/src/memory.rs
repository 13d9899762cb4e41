//! The server's memory over a long run, kept flat by capping glibc malloc's arenas.
//!
//! The server's threads (the runtime's, the blocking pool's fits, the SQLite driver's one per
//! connection, the referees of its own workers) build and drop vectors as long as the ladder
//! has games (the leaderboard's copy of them, a fit's inputs: 32 bytes a game, 640 KiB at
//! 20,000). A thread that finds the heap busy is given an arena of its own, up to eight per
//! core, and each arena keeps the high-water mark of what its threads held; after the first
//! free of a block glibc had mapped alone, it also raises that bar to the block's size, so
//! these vectors come from the arenas. So the resident memory grew with the games (1.2 KiB a
//! game on SQLite); with two arenas it is flat. docs/server.md#load has the runs, and why not
//! also fixing the mapping bar (flatter still on SQLite, but the leaderboard slower).

/// The most malloc arenas the server's process uses.
pub const ARENAS: i32 = 2;

/// Caps glibc's malloc arenas at [`ARENAS`] for the whole process: call it before the
/// server's threads start (arenas made before stay). Elsewhere than on glibc, nothing.
pub fn cap_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[expect(unsafe_code, reason = "mallopt has no safe wrapper in libc")]
    // SAFETY: mallopt only sets one of malloc's tunables; it takes no pointer, and glibc
    // takes its own lock for it.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, ARENAS);
    }
}
