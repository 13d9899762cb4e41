//! One result shared by every caller who asked before it was begun: the scans of /proc that
//! each bot's start, move and end need ([`crate::descendants::fresh`]).
//!
//! Runs are numbered. A caller needs the next run to begin: it waits while another runs, and
//! begins it itself when none does, so every caller who asked before a run began shares it,
//! however the lock is handed out. With a plain lock around "run unless the last run is new
//! enough", the thread that had just run took the lock again for its next caller, the others
//! starved, and 2,000 bots ending at once took 3,900 scans of /proc and 33 s (docs/scale.md).

use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// A result made anew for callers who ask, shared by those who ask at once.
pub struct Shared<T> {
    state: Mutex<State<T>>,
    ended: Condvar,
}

struct State<T> {
    /// Runs begun and runs ended.
    begun: u64,
    ended: u64,
    /// Callers waiting for a run to end.
    waiting: usize,
    latest: Option<Arc<T>>,
}

impl<T> Shared<T> {
    /// Nothing run yet.
    pub const fn new() -> Shared<T> {
        Shared {
            state: Mutex::new(State {
                begun: 0,
                ended: 0,
                waiting: 0,
                latest: None,
            }),
            ended: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State<T>> {
        // A poisoned lock only means a run panicked: the counts are still counts.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The result of a run of `make` that began after this call, made by this caller or
    /// another.
    pub fn fresh(&self, make: impl FnOnce() -> T) -> Arc<T> {
        let mut state = self.lock();
        let needed = state.begun + 1;
        loop {
            if state.ended >= needed {
                if let Some(latest) = &state.latest {
                    return Arc::clone(latest);
                }
            }
            if state.begun == state.ended {
                state.begun += 1;
                let number = state.begun;
                drop(state);
                // Should `make` panic, the run still ends, with no result, and the next caller
                // runs again.
                let ending = Ending {
                    shared: self,
                    number,
                };
                let made = Arc::new(make());
                std::mem::forget(ending);
                let mut state = self.lock();
                state.ended = number;
                state.latest = Some(Arc::clone(&made));
                self.ended.notify_all();
                return made;
            }
            state.waiting += 1;
            state = self.ended.wait(state).unwrap_or_else(|e| e.into_inner());
            state.waiting -= 1;
        }
    }
}

/// Ends run `number` without a result if its maker panics, so that waiting callers go on.
struct Ending<'a, T> {
    shared: &'a Shared<T>,
    number: u64,
}

impl<T> Drop for Ending<'_, T> {
    fn drop(&mut self) {
        let mut state = self.shared.lock();
        state.ended = self.number;
        state.latest = None;
        self.shared.ended.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::mpsc;

    fn wait_until(shared: &Shared<u64>, done: impl Fn(&State<u64>) -> bool) {
        while !done(&shared.lock()) {
            std::thread::yield_now();
        }
    }

    #[test]
    fn callers_who_ask_during_a_run_share_the_next_one() {
        static SHARED: Shared<u64> = Shared::new();
        static RUNS: AtomicU64 = AtomicU64::new(0);
        let (go, hold) = mpsc::channel::<()>();
        let first = std::thread::spawn(move || {
            *SHARED.fresh(|| {
                hold.recv().unwrap();
                RUNS.fetch_add(1, Ordering::SeqCst) + 1
            })
        });
        wait_until(&SHARED, |s| s.begun == 1);
        // Sixteen callers ask while the first run goes on: it began before they asked.
        let later: Vec<_> = (0..16)
            .map(|_| {
                std::thread::spawn(|| *SHARED.fresh(|| RUNS.fetch_add(1, Ordering::SeqCst) + 1))
            })
            .collect();
        wait_until(&SHARED, |s| s.waiting == 16);
        go.send(()).unwrap();
        assert_eq!(first.join().unwrap(), 1);
        let results: Vec<u64> = later.into_iter().map(|t| t.join().unwrap()).collect();
        assert_eq!(results, vec![2; 16], "all sixteen share the second run");
        assert_eq!(RUNS.load(Ordering::SeqCst), 2);
        // A caller who asks once all is quiet gets a run of its own.
        assert_eq!(*SHARED.fresh(|| 99), 99);
    }

    #[test]
    fn a_run_that_panics_does_not_hold_up_the_next_callers() {
        static SHARED: Shared<u64> = Shared::new();
        let panicked = std::thread::spawn(|| SHARED.fresh(|| panic!("the maker fails"))).join();
        assert!(panicked.is_err());
        assert_eq!(*SHARED.fresh(|| 7), 7);
        let state = SHARED.lock();
        assert_eq!((state.begun, state.ended), (2, 2));
    }
}
