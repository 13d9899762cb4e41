//! `quads-jail`: the launcher the referee starts every sandboxed bot through (see
//! `quads_sandbox`).

fn main() {
    quads_sandbox::jail_main()
}
