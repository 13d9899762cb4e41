//! No code: see this crate's Cargo.toml. It exists so that `cargo build` and `cargo test`
//! resolve the same features and share one build.
