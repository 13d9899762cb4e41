//! `quads-jail --probe`: each wall built for real in a throwaway box, and looked at from inside
//! by this same program (`quads-jail --inside CHECK`), one line per protection: `NAME on` or
//! `NAME off REASON`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::cgroup::{self, Controller};
use crate::plan::{environment, Plan};
use crate::walls::{Sandbox, CORE};

/// The id probe boxes run as when the probe runs as root (any unused id would do).
const PROBE_ID: u32 = crate::ids::FIRST_BOT_ID - 1;

/// Runs one box of `walls` around `quads-jail --inside CHECK ARGS`; `Ok` if it exits 0, else
/// what it (or the launcher) said. `me` is the probe's own copy of this program, which the
/// box's user can run.
fn boxed(
    me: &Path,
    walls: Sandbox,
    folder: &Path,
    cgroups: Vec<cgroup::BoxDir>,
    check: &[&str],
) -> Result<(), String> {
    let me = me.to_path_buf();
    let mut argv: Vec<OsString> = vec!["quads-jail".into(), "--inside".into()];
    argv.extend(check.iter().map(OsString::from));
    let plan = Plan {
        walls,
        folder: folder.to_path_buf(),
        shown: vec![me.clone()],
        work: None,
        cgroups,
        id: nix::unistd::geteuid().is_root().then_some(PROBE_ID),
        parent: Some(std::process::id()),
        nonce: None,
        env: environment(&[], &[]),
        exec: me.clone(),
        argv,
    };
    let out = std::process::Command::new(&plan.exec)
        .args(plan.args())
        .current_dir(folder)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", me.display()))?;
    if out.status.success() {
        return Ok(());
    }
    let said = String::from_utf8_lossy(&out.stderr);
    let line = said
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("it failed");
    Err(line.trim_start_matches("quads-jail: ").to_owned())
}

/// Builds each wall in a throwaway box and prints what holds.
pub fn run() -> ! {
    let mut lines: Vec<String> = Vec::new();
    let mut report = |name: &str, outcome: Result<(), String>| {
        lines.push(match outcome {
            Ok(()) => format!("{name} on"),
            Err(why) => format!("{name} off {why}"),
        });
    };
    let scratch = tempfile_dir();
    let folder = scratch.join("folder");
    let marker = scratch.join("outside");
    let made = std::fs::create_dir_all(&folder).and_then(|()| std::fs::write(&marker, "x"));
    if let Err(e) = made {
        println!("filesystem off cannot make a folder to probe with: {e}");
        std::process::exit(0);
    }
    // The boxes run this program as the box's user, who may not pass the folders it lives in
    // (a clone in a 0700 folder, a home of mode 0700): they run a copy in the probe's folder.
    let me = match own_copy(&scratch) {
        Ok(me) => me,
        Err(e) => {
            println!("filesystem off {e}");
            let _ = std::fs::remove_dir_all(&scratch);
            std::process::exit(0);
        }
    };
    let me = me.as_path();
    let none = Sandbox::OFF;
    let tmp = 3 << 20;
    let filesystem = boxed(
        me,
        Sandbox {
            filesystem: true,
            tmp,
            ..none.clone()
        },
        &folder,
        vec![],
        &["root", &marker.to_string_lossy(), &tmp.to_string()],
    );
    report("filesystem", filesystem.clone());
    report("tmp", filesystem);
    report(
        "isolation",
        boxed(
            me,
            Sandbox {
                isolation: true,
                ..none.clone()
            },
            &folder,
            vec![],
            &["alone"],
        ),
    );
    report(
        "network",
        boxed(
            me,
            Sandbox {
                network: false,
                ..none.clone()
            },
            &folder,
            vec![],
            &["offline"],
        ),
    );
    let machine = cgroup::machine();
    let name = format!("probe-{}", std::process::id());
    let cgroups = machine.box_dirs(&name);
    let limited = Sandbox {
        memory: Some(256 << 20),
        processes: Some(3),
        cores: Some(CORE),
        ..none.clone()
    };
    let with_cgroups = boxed(me, limited.clone(), &folder, cgroups, &["forks"]);
    let missing = |c: Controller| -> Result<(), String> {
        match machine.missing(c) {
            Some(why) => Err(why.to_owned()),
            None => with_cgroups.clone(),
        }
    };
    report("memory", missing(Controller::Memory));
    report(
        "processes",
        match machine.missing(Controller::Pids) {
            // Without the pids cgroup, RLIMIT_NPROC in a user of the box's own.
            Some(why) => {
                boxed(me, limited, &folder, vec![], &["forks"]).map_err(|_| why.to_owned())
            }
            None => with_cgroups.clone(),
        },
    );
    report("cores", missing(Controller::Cpu));
    report("pause", missing(Controller::Freezer));
    report("cpu", Ok(()));
    report("file_size", Ok(()));
    report(
        "syscalls",
        boxed(
            me,
            Sandbox {
                syscalls: true,
                ..none.clone()
            },
            &folder,
            vec![],
            &["filtered"],
        ),
    );
    report("landlock", landlock());
    report(
        "privileges",
        boxed(
            me,
            Sandbox {
                isolation: true,
                ..none
            },
            &folder,
            vec![],
            &["unprivileged"],
        ),
    );
    let _ = std::fs::remove_dir_all(&scratch);
    for l in lines {
        println!("{l}");
    }
    std::process::exit(0)
}

/// A copy of this program in the probe's folder, which every user may pass and run.
fn own_copy(scratch: &Path) -> Result<PathBuf, String> {
    use std::os::unix::fs::PermissionsExt;
    let me = std::env::current_exe().map_err(|e| format!("cannot find itself: {e}"))?;
    let copy = scratch.join(crate::machine::JAIL);
    std::fs::copy(&me, &copy)
        .map_err(|e| format!("cannot copy {} to {}: {e}", me.display(), copy.display()))?;
    std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| format!("cannot make {} runnable: {e}", copy.display()))?;
    Ok(copy)
}

/// A new private folder for the probe's boxes, readable by the boxes' user.
fn tempfile_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "quads-probe-{}-{}",
        std::process::id(),
        crate::report::nonce()
    ));
    let _ = std::fs::create_dir_all(&dir);
    use std::os::unix::fs::PermissionsExt;
    let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755));
    dir
}

/// Whether the kernel has all of Landlock the box uses (files, TCP, scopes).
fn landlock() -> Result<(), String> {
    use landlock::{
        Access, AccessFs, AccessNet, CompatLevel, Compatible, Ruleset, RulesetAttr, Scope, ABI,
    };
    Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(AccessFs::from_all(ABI::V6))
        .and_then(|r| r.handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp))
        .and_then(|r| r.scope(Scope::Signal | Scope::AbstractUnixSocket))
        .and_then(Ruleset::create)
        .map(drop)
        .map_err(|e| format!("Landlock: {e}"))
}

/// `quads-jail --inside CHECK ARGS`, run as a probe box's command: exits 0 if the wall holds,
/// else says what it saw.
pub fn inside(args: &[OsString]) -> ! {
    let arg = |i: usize| {
        args.get(i)
            .map(|a| a.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let outcome: Result<(), String> = match arg(0).as_str() {
        "root" => {
            let tmp = nix::sys::statvfs::statvfs("/tmp").map(|s| s.blocks() * s.fragment_size());
            if Path::new(&arg(1)).exists() {
                Err(format!("{} is seen from inside", arg(1)))
            } else if tmp.as_ref().ok() != arg(2).parse::<u64>().ok().as_ref() {
                Err(format!("/tmp is not a tmpfs of {} bytes: {tmp:?}", arg(2)))
            } else {
                Ok(())
            }
        }
        "alone" => {
            let pids = std::fs::read_dir("/proc")
                .map(|d| {
                    d.flatten()
                        .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
                        .count()
                })
                .unwrap_or(0);
            if std::process::id() == 2 && pids == 2 {
                Ok(())
            } else {
                Err(format!("pid {} sees {pids} processes", std::process::id()))
            }
        }
        "offline" => {
            let dev = std::fs::read_to_string("/proc/self/net/dev").unwrap_or_default();
            let others: Vec<&str> = dev
                .lines()
                .skip(2)
                .filter_map(|l| l.split(':').next())
                .map(str::trim)
                .filter(|n| *n != "lo")
                .collect();
            if others.is_empty() {
                Ok(())
            } else {
                Err(format!("interfaces seen: {}", others.join(", ")))
            }
        }
        "forks" => {
            let mut children = Vec::new();
            let mut refused = false;
            for _ in 0..8 {
                match std::process::Command::new("/bin/sleep").arg("5").spawn() {
                    Ok(c) => children.push(c),
                    Err(_) => {
                        refused = true;
                        break;
                    }
                }
            }
            for mut c in children {
                let _ = c.kill();
                let _ = c.wait();
            }
            if refused {
                Ok(())
            } else {
                Err("8 processes started under a limit of 3".to_owned())
            }
        }
        "filtered" => match nix::sched::unshare(nix::sched::CloneFlags::CLONE_NEWUSER) {
            Err(nix::errno::Errno::EPERM) => Ok(()),
            other => Err(format!("unshare gave {other:?}")),
        },
        "unprivileged" => {
            let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
            let field = |k: &str| {
                status
                    .lines()
                    .find_map(|l| l.strip_prefix(k))
                    .map(str::trim)
                    .unwrap_or("?")
                    .to_owned()
            };
            let mut env: Vec<String> = std::env::vars().map(|(k, _)| k).collect();
            env.sort();
            if field("CapEff:") != "0000000000000000" || field("CapPrm:") != "0000000000000000" {
                Err(format!("capabilities {}", field("CapEff:")))
            } else if field("NoNewPrivs:") != "1" {
                Err("no_new_privs is not set".to_owned())
            } else if nix::unistd::getuid().is_root() {
                Err("it runs as root".to_owned())
            } else if env != ["HOME", "LANG", "PATH", "TMPDIR"] {
                Err(format!("its environment holds {}", env.join(", ")))
            } else {
                Ok(())
            }
        }
        other => Err(format!("no check {other}")),
    };
    match outcome {
        Ok(()) => std::process::exit(0),
        Err(why) => {
            eprintln!("quads-jail: {why}");
            std::process::exit(1)
        }
    }
}
