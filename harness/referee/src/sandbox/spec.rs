//! The sandbox as a user writes it, on the command line (`--sandbox SPEC`) and in configs
//! (`sandbox = "SPEC"`): `on` (the defaults), `off` (nothing), or items applied in order to the
//! defaults, such as `memory=2GiB,processes=128,network=on`.

use std::fmt;
use std::str::FromStr;

use super::Sandbox;

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

/// `1073741824`, `512MiB`, `1GiB`, `64KiB`.
fn bytes(text: &str) -> Option<u64> {
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

fn on_off(text: &str) -> Option<bool> {
    match text {
        "on" => Some(true),
        "off" => Some(false),
        _ => None,
    }
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
            let s = &mut out.sandbox;
            match item.split_once('=') {
                None if item == "on" => *s = Sandbox::default(),
                None if item == "off" => *s = Sandbox::OFF,
                None => return Err(bad(format!("`{item}` is not `on`, `off` or KEY=VALUE"))),
                Some((key, value)) => {
                    let off = value == "off";
                    let size = || {
                        bytes(value).ok_or_else(|| {
                            bad(format!(
                                "{key} takes a size (1GiB, 512MiB, a number of bytes) or off"
                            ))
                        })
                    };
                    let (name, ok): (&'static str, Result<(), SandboxSpecError>) = match key {
                        "memory" if off => ("memory", { s.memory = None; Ok(()) }),
                        "memory" => ("memory", size().map(|v| s.memory = Some(v))),
                        "file_size" if off => ("file_size", { s.file_size = None; Ok(()) }),
                        "file_size" => ("file_size", size().map(|v| s.file_size = Some(v))),
                        "processes" => ("processes", if off { s.processes = None; Ok(()) } else {
                            value.parse().map(|v| s.processes = Some(v)).map_err(|_| bad("processes takes a number or off".to_owned()))
                        }),
                        "cpu" => ("cpu", if off { s.cpu = None; Ok(()) } else {
                            crate::parse_duration(value).map(|d| s.cpu = Some(d.as_secs().max(1))).map_err(|_| bad("cpu takes a duration (600s, 10m) or off".to_owned()))
                        }),
                        "network" | "filesystem" | "isolation" => {
                            let v = on_off(value).ok_or_else(|| bad(format!("{key} is on or off")))?;
                            match key {
                                "network" => ("network", { s.network = v; Ok(()) }),
                                "filesystem" => ("filesystem", { s.filesystem = v; Ok(()) }),
                                _ => ("isolation", { s.isolation = v; Ok(()) }),
                            }
                        }
                        _ => return Err(bad(format!("unknown protection `{key}` (memory, processes, cpu, file_size, network, filesystem, isolation)"))),
                    };
                    ok?;
                    if !out.named.contains(&name) {
                        out.named.push(name);
                    }
                }
            }
        }
        Ok(out)
    }
}

impl fmt::Display for Sandbox {
    /// The canonical spec: `off`, or every protection with its value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.is_on() {
            return f.write_str("off");
        }
        let size = |v: Option<u64>| match v {
            None => "off".to_owned(),
            Some(b) if b % (1 << 30) == 0 => format!("{}GiB", b >> 30),
            Some(b) if b % (1 << 20) == 0 => format!("{}MiB", b >> 20),
            Some(b) => b.to_string(),
        };
        let on = |b: bool| if b { "on" } else { "off" };
        write!(
            f,
            "memory={},processes={},cpu={},file_size={},network={},filesystem={},isolation={}",
            size(self.memory),
            self.processes.map_or("off".to_owned(), |p| p.to_string()),
            self.cpu.map_or("off".to_owned(), |c| format!("{c}s")),
            size(self.file_size),
            on(self.network),
            on(self.filesystem),
            on(self.isolation),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_apply_in_order_to_the_defaults_and_read_back() {
        let s: SandboxSpec = "memory=2GiB,processes=128,network=on".parse().unwrap();
        assert_eq!(s.named, ["memory", "processes", "network"]);
        assert_eq!(
            s.sandbox.to_string(),
            "memory=2GiB,processes=128,cpu=600s,file_size=64MiB,network=on,filesystem=on,isolation=on"
        );
        let back: SandboxSpec = s.sandbox.to_string().parse().unwrap();
        assert_eq!(back.sandbox, s.sandbox);
        assert_eq!("off".parse::<SandboxSpec>().unwrap().sandbox, Sandbox::OFF);
        assert_eq!(
            "off,memory=1GiB".parse::<SandboxSpec>().unwrap().sandbox.to_string(),
            "memory=1GiB,processes=off,cpu=off,file_size=off,network=on,filesystem=off,isolation=off"
        );
        assert_eq!(
            Sandbox::default().to_string(),
            "memory=1GiB,processes=64,cpu=600s,file_size=64MiB,network=off,filesystem=on,isolation=on"
        );
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        let e = |s: &str| s.parse::<SandboxSpec>().unwrap_err().to_string();
        assert_eq!(e("memory=lots"), "bad sandbox spec `memory=lots`: memory takes a size (1GiB, 512MiB, a number of bytes) or off");
        assert_eq!(e("disk=off"), "bad sandbox spec `disk=off`: unknown protection `disk` (memory, processes, cpu, file_size, network, filesystem, isolation)");
        assert_eq!(
            e("network=yes"),
            "bad sandbox spec `network=yes`: network is on or off"
        );
        assert_eq!(
            e("tight"),
            "bad sandbox spec `tight`: `tight` is not `on`, `off` or KEY=VALUE"
        );
    }
}
