//! Nothing to build: the build-dependencies only unify the proc-macros' features.
fn main() {}
