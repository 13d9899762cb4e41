//! What this machine can enforce, asked once per run, and a spec turned into the walls that
//! will really stand: a default protection the machine cannot give is dropped with a warning;
//! one the user named is an error before the first game.

use std::sync::OnceLock;

use super::{probe, Probe, Sandbox, SandboxSpec};

/// This machine's probe, run once (`Err` when `quads-jail` cannot run at all).
pub fn machine() -> &'static Result<Probe, String> {
    static MACHINE: OnceLock<Result<Probe, String>> = OnceLock::new();
    MACHINE.get_or_init(probe)
}

/// Why `protection` cannot be had here, if it cannot.
fn missing<'a>(machine: &'a Result<Probe, String>, protection: &str) -> Option<&'a str> {
    match machine {
        Err(why) => Some(why),
        Ok(p) => p.off(protection),
    }
}

/// The walls `spec` asks for that `machine` can build, and a warning for each default
/// protection left out. Fails, naming it, on a protection the spec names that cannot be had.
pub fn enforce_on(
    spec: &SandboxSpec,
    machine: &Result<Probe, String>,
) -> Result<(Sandbox, Vec<String>), String> {
    let mut s = spec.sandbox.clone();
    let mut warnings = Vec::new();
    let wanted: [(&str, bool); 5] = [
        ("processes", s.processes.is_some()),
        ("network", !s.network),
        ("filesystem", s.filesystem),
        ("isolation", s.isolation),
        ("tcp", !s.network),
    ];
    for (name, on) in wanted {
        let Some(why) = on.then(|| missing(machine, name)).flatten() else {
            continue;
        };
        if spec.named.contains(&name) || (name == "tcp" && spec.named.contains(&"network")) {
            return Err(format!(
                "the sandbox cannot enforce `{name}` on this machine: {why}"
            ));
        }
        match name {
            "processes" => s.processes = None,
            "network" | "tcp" => s.network = true,
            "filesystem" => s.filesystem = false,
            _ => s.isolation = false,
        }
        warnings.push(format!(
            "the sandbox's `{name}` protection is off on this machine: {why}"
        ));
    }
    if missing(machine, "memory").is_some() {
        // Without the launcher nothing at all can be enforced.
        if spec
            .named
            .iter()
            .any(|n| ["memory", "cpu", "file_size"].contains(n))
            && s.is_on()
        {
            return Err(format!(
                "the sandbox cannot run on this machine: {}",
                missing(machine, "memory").unwrap_or("")
            ));
        }
        if s.is_on() {
            warnings.push(format!(
                "the sandbox is off on this machine: {}",
                missing(machine, "memory").unwrap_or("")
            ));
        }
        s = Sandbox::OFF;
    }
    warnings.dedup();
    Ok((s, warnings))
}

/// [`enforce_on`] this machine.
pub fn enforce(spec: &SandboxSpec) -> Result<(Sandbox, Vec<String>), String> {
    if !spec.sandbox.is_on() {
        return Ok((Sandbox::OFF, Vec::new()));
    }
    enforce_on(spec, machine())
}

/// Before a run: the warnings for every bot's walls (each once), or the first protection asked
/// for that this machine cannot give.
pub fn preflight<'a>(
    specs: impl IntoIterator<Item = &'a SandboxSpec>,
) -> Result<Vec<String>, String> {
    let mut warnings: Vec<String> = Vec::new();
    for spec in specs {
        for w in enforce(spec)?.1 {
            if !warnings.contains(&w) {
                warnings.push(w);
            }
        }
    }
    Ok(warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe(text: &str) -> Result<Probe, String> {
        Ok(Probe::parse(text))
    }

    const ALL_ON: &str = "processes on\nnetwork on\nmemory on\ncpu on\nfile_size on\nfilesystem on\ntcp on\nisolation on\nno_new_privs on\n";

    #[test]
    fn what_the_machine_gives_is_kept() {
        let spec = SandboxSpec::default();
        assert_eq!(
            enforce_on(&spec, &probe(ALL_ON)),
            Ok((Sandbox::default(), vec![]))
        );
    }

    #[test]
    fn a_default_the_machine_lacks_is_dropped_with_a_warning() {
        let old_kernel = ALL_ON.replace(
            "isolation on",
            "isolation off Landlock: no scopes before ABI 6",
        );
        let (s, w) = enforce_on(&SandboxSpec::default(), &probe(&old_kernel)).unwrap();
        assert!(!s.isolation && s.filesystem);
        assert_eq!(
            w,
            ["the sandbox's `isolation` protection is off on this machine: Landlock: no scopes before ABI 6"]
        );
        let no_jail: Result<Probe, String> = Err("quads-jail is not beside the referee".into());
        let (s, w) = enforce_on(&SandboxSpec::default(), &no_jail).unwrap();
        assert_eq!(s, Sandbox::OFF);
        assert_eq!(
            w.last().unwrap(),
            "the sandbox is off on this machine: quads-jail is not beside the referee"
        );
    }

    #[test]
    fn a_named_protection_the_machine_lacks_is_an_error() {
        let spec: SandboxSpec = "isolation=on".parse().unwrap();
        let old_kernel = ALL_ON.replace("isolation on", "isolation off no scopes");
        assert_eq!(
            enforce_on(&spec, &probe(&old_kernel)),
            Err("the sandbox cannot enforce `isolation` on this machine: no scopes".to_owned())
        );
    }
}
