//! What the entrants' tests share: an entrant's manifest and files, a small event around the
//! `entrants/` folder, and the verdicts of `entrants.json`.

use std::path::{Path, PathBuf};

use crate::common::{self, Quads};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Writes `entrants/SUB/bot.toml` under the test's folder.
pub fn manifest(q: &Quads, sub: &str, text: &str) {
    let dir = q.dir().join("entrants").join(sub);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("bot.toml"), text).unwrap();
}

/// A small event: the bundled greedy bot and the entrants of `entrants/`, classic only, one
/// game pair per pairing, 1 s a move.
pub fn config(q: &Quads) -> PathBuf {
    let text = format!(
        "name = \"t\"\nseed = 5\npairs = 1\nvariants = [\"classic\"]\ntime = {{ movetime = \"1s\" }}\n\
         entrants = \"entrants\"\n\n[[bot]]\nname = \"greedy\"\ncommand = \"{} --strategy greedy\"\n",
        common::quads_bot().display()
    );
    let path = q.dir().join("t.toml");
    std::fs::write(&path, text).unwrap();
    path
}

pub fn json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// (name, admitted, reason) of each entrant in `entrants.json`, in its order.
pub fn verdicts(out: &Path) -> Vec<(String, bool, String)> {
    json(&out.join("entrants.json"))["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["name"].as_str().unwrap().to_owned(),
                e["admitted"].as_bool().unwrap(),
                e["reason"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// Copies `file` (of the project) into the entrant's folder `entrants/SUB`.
pub fn give(q: &Quads, sub: &str, file: &str) {
    let dir = q.dir().join("entrants").join(sub);
    std::fs::create_dir_all(&dir).unwrap();
    let name = Path::new(file).file_name().unwrap();
    std::fs::copy(Path::new(ROOT).join(file), dir.join(name)).unwrap();
}
