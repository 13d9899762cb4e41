//! The sandbox as a user writes it, on the command line (`--sandbox SPEC`) and in configs
//! (`sandbox = "SPEC"`): `on` (the defaults), `off` (nothing), or items applied in order to the
//! defaults, such as `memory=2GiB,processes=128,network=on`.

use std::fmt;
use std::str::FromStr;

use crate::walls::{Sandbox, CORE};

/// A sandbox spec that does not parse: what is wrong, in one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad sandbox spec `{spec}`: {problem}")]
pub struct SandboxSpecError {
    spec: String,
    problem: String,
}

/// A sandbox and the protections the user named (which must then hold, or the run stops).
/// The default is every protection on, none named.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SandboxSpec {
    /// The walls.
    pub sandbox: Sandbox,
    /// The protections named in the spec, by their `quads sandbox` names.
    pub named: Vec<&'static str>,
}

impl SandboxSpec {
    /// No walls at all.
    pub fn off() -> SandboxSpec {
        SandboxSpec {
            sandbox: Sandbox::OFF,
            named: Vec::new(),
        }
    }
}

/// The keys of a spec, in the order the canonical form prints them.
const KEYS: &str =
    "memory, processes, cpu, cores, file_size, tmp, network, filesystem, isolation, syscalls";

/// `1073741824`, `512MiB`, `1GiB`, `64KiB`.
pub(crate) fn bytes(text: &str) -> Option<u64> {
    let (number, unit) = text.split_at(
        text.find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len()),
    );
    let n: u64 = number.parse().ok()?;
    let scale = match unit {
        "" => 1,
        "KiB" => 1 << 10,
        "MiB" => 1 << 20,
        "GiB" => 1 << 30,
        _ => return None,
    };
    n.checked_mul(scale)
}

/// `1`, `0.5`, `2.25`: cores in thousandths, at least one thousandth.
fn cores(text: &str) -> Option<u32> {
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty() && frac.is_empty() || frac.len() > 3 {
        return None;
    }
    let whole: u32 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let frac: u32 = if frac.is_empty() {
        0
    } else {
        format!("{frac:0<3}").parse().ok()?
    };
    let total = whole.checked_mul(CORE)?.checked_add(frac)?;
    (total > 0).then_some(total)
}

fn on_off(text: &str) -> Option<bool> {
    match text {
        "on" => Some(true),
        "off" => Some(false),
        _ => None,
    }
}

/// Applies `key=value` to `s`; returns the protection's name, or what is wrong.
fn apply(s: &mut Sandbox, key: &str, value: &str) -> Result<&'static str, String> {
    let off = value == "off";
    let size = || {
        bytes(value)
            .ok_or_else(|| format!("{key} takes a size (1GiB, 512MiB, a number of bytes) or off"))
    };
    let switch = || on_off(value).ok_or_else(|| format!("{key} is on or off"));
    Ok(match key {
        "memory" => {
            s.memory = if off { None } else { Some(size()?) };
            "memory"
        }
        "file_size" => {
            s.file_size = if off { None } else { Some(size()?) };
            "file_size"
        }
        "tmp" => {
            let v = size()?;
            if v < 1 << 20 {
                return Err("tmp takes a size of at least 1MiB".to_owned());
            }
            s.tmp = v;
            "tmp"
        }
        "processes" => {
            s.processes = if off {
                None
            } else {
                Some(
                    value
                        .parse()
                        .map_err(|_| "processes takes a number or off")?,
                )
            };
            "processes"
        }
        "cpu" => {
            s.cpu = if off {
                None
            } else {
                let d = humantime::parse_duration(value)
                    .map_err(|_| "cpu takes a duration (600s, 10m) or off")?;
                Some(d.as_secs().max(1))
            };
            "cpu"
        }
        "cores" => {
            s.cores = if off {
                None
            } else {
                Some(cores(value).ok_or("cores takes a number of cores (1, 0.5, 2) or off")?)
            };
            "cores"
        }
        "network" => {
            s.network = switch()?;
            "network"
        }
        "filesystem" => {
            s.filesystem = switch()?;
            "filesystem"
        }
        "isolation" => {
            s.isolation = switch()?;
            "isolation"
        }
        "syscalls" => {
            s.syscalls = switch()?;
            "syscalls"
        }
        _ => return Err(format!("unknown protection `{key}` ({KEYS})")),
    })
}

impl FromStr for SandboxSpec {
    type Err = SandboxSpecError;

    fn from_str(spec: &str) -> Result<SandboxSpec, SandboxSpecError> {
        let bad = |problem: String| SandboxSpecError {
            spec: spec.to_owned(),
            problem,
        };
        let mut out = SandboxSpec::default();
        for item in spec.split(',').map(str::trim) {
            match item.split_once('=') {
                None if item == "on" => out.sandbox = Sandbox::default(),
                None if item == "off" => out.sandbox = Sandbox::OFF,
                None => return Err(bad(format!("`{item}` is not `on`, `off` or KEY=VALUE"))),
                Some((key, value)) => {
                    let name = apply(&mut out.sandbox, key, value).map_err(bad)?;
                    if !out.named.contains(&name) {
                        out.named.push(name);
                    }
                }
            }
        }
        Ok(out)
    }
}

/// A size as a spec writes it: `1GiB`, `64MiB`, or bytes.
pub(crate) fn size_text(b: u64) -> String {
    if b % (1 << 30) == 0 {
        format!("{}GiB", b >> 30)
    } else if b % (1 << 20) == 0 {
        format!("{}MiB", b >> 20)
    } else {
        b.to_string()
    }
}

/// Cores as a spec writes them: `1`, `0.5`, `2.25`.
pub(crate) fn cores_text(c: u32) -> String {
    let (whole, frac) = (c / CORE, c % CORE);
    if frac == 0 {
        whole.to_string()
    } else {
        format!("{whole}.{}", format!("{frac:03}").trim_end_matches('0'))
    }
}

impl fmt::Display for Sandbox {
    /// The canonical spec: `off`, or every protection with its value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.is_on() {
            return f.write_str("off");
        }
        let size = |v: Option<u64>| v.map_or("off".to_owned(), size_text);
        let on = |b: bool| if b { "on" } else { "off" };
        write!(
            f,
            "memory={},processes={},cpu={},cores={},file_size={},tmp={},network={},filesystem={},isolation={},syscalls={}",
            size(self.memory),
            self.processes.map_or("off".to_owned(), |p| p.to_string()),
            self.cpu.map_or("off".to_owned(), |c| format!("{c}s")),
            self.cores.map_or("off".to_owned(), cores_text),
            size(self.file_size),
            size_text(self.tmp),
            on(self.network),
            on(self.filesystem),
            on(self.isolation),
            on(self.syscalls),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_apply_in_order_to_the_defaults_and_read_back() {
        let s: SandboxSpec = "memory=2GiB,processes=128,network=on,cores=0.5"
            .parse()
            .unwrap();
        assert_eq!(s.named, ["memory", "processes", "network", "cores"]);
        assert_eq!(
            s.sandbox.to_string(),
            "memory=2GiB,processes=128,cpu=600s,cores=0.5,file_size=64MiB,tmp=64MiB,network=on,filesystem=on,isolation=on,syscalls=on"
        );
        let back: SandboxSpec = s.sandbox.to_string().parse().unwrap();
        assert_eq!(back.sandbox, s.sandbox);
        assert_eq!("off".parse::<SandboxSpec>().unwrap().sandbox, Sandbox::OFF);
        assert_eq!(
            "off,memory=1GiB".parse::<SandboxSpec>().unwrap().sandbox.to_string(),
            "memory=1GiB,processes=off,cpu=off,cores=off,file_size=off,tmp=64MiB,network=on,filesystem=off,isolation=off,syscalls=off"
        );
        assert_eq!(
            Sandbox::default().to_string(),
            "memory=1GiB,processes=64,cpu=600s,cores=1,file_size=64MiB,tmp=64MiB,network=off,filesystem=on,isolation=on,syscalls=on"
        );
        assert_eq!(
            "cores=2.25,tmp=512MiB".parse::<SandboxSpec>().unwrap().sandbox.to_string(),
            "memory=1GiB,processes=64,cpu=600s,cores=2.25,file_size=64MiB,tmp=512MiB,network=off,filesystem=on,isolation=on,syscalls=on"
        );
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        let e = |s: &str| s.parse::<SandboxSpec>().unwrap_err().to_string();
        assert_eq!(e("memory=lots"), "bad sandbox spec `memory=lots`: memory takes a size (1GiB, 512MiB, a number of bytes) or off");
        assert_eq!(e("disk=off"), "bad sandbox spec `disk=off`: unknown protection `disk` (memory, processes, cpu, cores, file_size, tmp, network, filesystem, isolation, syscalls)");
        assert_eq!(
            e("network=yes"),
            "bad sandbox spec `network=yes`: network is on or off"
        );
        assert_eq!(
            e("tight"),
            "bad sandbox spec `tight`: `tight` is not `on`, `off` or KEY=VALUE"
        );
        assert_eq!(
            e("cores=0"),
            "bad sandbox spec `cores=0`: cores takes a number of cores (1, 0.5, 2) or off"
        );
        assert_eq!(
            e("cores=0.1234"),
            "bad sandbox spec `cores=0.1234`: cores takes a number of cores (1, 0.5, 2) or off"
        );
        assert_eq!(
            e("tmp=off"),
            "bad sandbox spec `tmp=off`: tmp takes a size (1GiB, 512MiB, a number of bytes) or off"
        );
        assert_eq!(
            e("tmp=4KiB"),
            "bad sandbox spec `tmp=4KiB`: tmp takes a size of at least 1MiB"
        );
    }
}
