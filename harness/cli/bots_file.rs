//! Bots named in a bots file (`configs/bots.toml`) or given as command lines.

use std::path::{Path, PathBuf};

use quads_referee::BotSpec;

/// The bots a file names.
pub fn read(path: &Path) -> Result<Vec<BotSpec>, String> {
    quads_tournament::read_bots_file(path).map_err(|e| e.to_string())
}

/// A bot command from one string: split like a shell would, or kept whole for `sh -c`.
pub fn command(text: &str, shell: bool) -> Result<quads_referee::BotCommand, String> {
    quads_tournament::command(text, shell, None).map_err(|e| e.to_string())
}

/// `--dir`: the folders of the bots given as command lines.
#[derive(clap::Args)]
pub struct Dirs {
    /// The folder a bot given as a command line runs in, and all it may read of the machine
    /// beside the system's folders [default: the current folder]. Give one, for every such
    /// bot, or one per --bot, in their order.
    #[arg(long = "dir", value_name = "DIR")]
    dirs: Vec<PathBuf>,
}

impl Dirs {
    /// Gives each bot that `text` names as a command line (not by name from the bots file)
    /// its folder.
    pub fn apply(
        &self,
        texts: &[String],
        bots: &mut [BotSpec],
        file: Option<&Path>,
    ) -> Result<(), String> {
        if self.dirs.is_empty() {
            return Ok(());
        }
        if self.dirs.len() != 1 && self.dirs.len() != bots.len() {
            return Err(format!(
                "give one --dir, or one per --bot ({} --bot, {} --dir)",
                bots.len(),
                self.dirs.len()
            ));
        }
        let named = names(file)?;
        for (i, (text, bot)) in texts.iter().zip(bots.iter_mut()).enumerate() {
            if !named.iter().any(|b| &b.name == text) {
                bot.command.dir = Some(self.dirs[i.min(self.dirs.len() - 1)].clone());
            }
        }
        Ok(())
    }
}

/// The bots of the bots file (`file`, or `configs/bots.toml` when it exists).
fn names(file: Option<&Path>) -> Result<Vec<BotSpec>, String> {
    let default = Path::new("configs/bots.toml");
    match file {
        Some(path) => read(path),
        None if default.exists() => read(default),
        None => Ok(Vec::new()),
    }
}

/// One bot: a name from the bots file (`file`, or `configs/bots.toml` when it exists), or a
/// command line.
pub fn one_bot(text: &str, file: Option<&Path>, shell: bool) -> Result<BotSpec, String> {
    let named = names(file)?;
    if let Some(found) = named.iter().find(|b| b.name == text) {
        return Ok(found.clone());
    }
    Ok(BotSpec {
        name: text.to_owned(),
        command: command(text, shell)?,
        options: Vec::new(),
        time: None,
    })
}

/// The two bots of a match or an SPRT: names from the bots file (`file`, or
/// `configs/bots.toml` when it exists), or command lines. Equal names get `#1` and `#2`.
pub fn two_bots(bots: &[String], file: Option<&Path>, shell: bool) -> Result<[BotSpec; 2], String> {
    let [a, b] = bots else {
        return Err(format!("give exactly two --bot (got {})", bots.len()));
    };
    let spec = |text: &String| one_bot(text, file, shell);
    let (mut a, mut b) = (spec(a)?, spec(b)?);
    if a.name == b.name {
        a.name.push_str("#1");
        b.name.push_str("#2");
    }
    Ok([a, b])
}
