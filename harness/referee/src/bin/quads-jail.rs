//! `quads-jail`: the launcher the referee starts every sandboxed bot through (see
//! `quads_referee::sandbox`).

fn main() {
    quads_referee::sandbox::jail_main()
}
