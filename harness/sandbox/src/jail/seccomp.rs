//! The syscall filter, in the spirit of Docker's default profile: a box may do anything a
//! program needs, but not reach into the kernel's own business. Refused with `EPERM`: new
//! namespaces (`unshare`, `setns`, `clone` with a namespace flag), mounts and the new mount
//! API, tracing and reading other processes' memory, keys, BPF, perf events, userfaultfd,
//! io_uring, modules, kexec, reboot, swap, accounting, quotas, handles to files by inode,
//! the kernel log, the clock, and raw port I/O. `clone3` gets `ENOSYS`, so that the C library
//! falls back to `clone`, whose flags a filter can see. Another architecture's system calls
//! (32-bit ones on x86_64) kill the process.

use std::collections::BTreeMap;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// The system calls refused outright.
const REFUSED: &[libc::c_long] = &[
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_chroot,
    libc::SYS_fsopen,
    libc::SYS_fsconfig,
    libc::SYS_fsmount,
    libc::SYS_fspick,
    libc::SYS_move_mount,
    libc::SYS_open_tree,
    libc::SYS_mount_setattr,
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_kcmp,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_userfaultfd,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_kexec_load,
    libc::SYS_kexec_file_load,
    libc::SYS_reboot,
    libc::SYS_swapon,
    libc::SYS_swapoff,
    libc::SYS_acct,
    libc::SYS_quotactl,
    libc::SYS_open_by_handle_at,
    libc::SYS_name_to_handle_at,
    libc::SYS_syslog,
    libc::SYS_settimeofday,
    libc::SYS_clock_settime,
    libc::SYS_vhangup,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_iopl,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_ioperm,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_uselib,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_ustat,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_sysfs,
];

/// The namespace flags `clone` may not carry.
const NAMESPACES: [libc::c_int; 7] = [
    libc::CLONE_NEWUSER,
    libc::CLONE_NEWNS,
    libc::CLONE_NEWPID,
    libc::CLONE_NEWNET,
    libc::CLONE_NEWIPC,
    libc::CLONE_NEWUTS,
    libc::CLONE_NEWCGROUP,
];

fn arch() -> Result<TargetArch, String> {
    std::env::consts::ARCH
        .try_into()
        .map_err(|e| format!("seccomp: no filter for this architecture: {e:?}"))
}

/// The two filters: the refusals (`EPERM`), and `clone3` (`ENOSYS`).
pub fn filters() -> Result<[BpfProgram; 2], String> {
    let err = |e: seccompiler::BackendError| format!("seccomp: {e}");
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> =
        REFUSED.iter().map(|&n| (n, Vec::new())).collect();
    // `clone` (its flags are the first argument on x86_64 and aarch64): refused with any
    // namespace flag.
    let clone_rules = NAMESPACES
        .iter()
        .map(|&flag| {
            let c = SeccompCondition::new(
                0,
                SeccompCmpArgLen::Qword,
                SeccompCmpOp::MaskedEq(flag as u64),
                flag as u64,
            )?;
            SeccompRule::new(vec![c])
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(err)?;
    rules.insert(libc::SYS_clone, clone_rules);
    let refuse = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch()?,
    )
    .map_err(err)?;
    let clone3 = SeccompFilter::new(
        [(libc::SYS_clone3, Vec::new())].into_iter().collect(),
        SeccompAction::Allow,
        SeccompAction::Errno(libc::ENOSYS as u32),
        arch()?,
    )
    .map_err(err)?;
    Ok([
        refuse
            .try_into()
            .map_err(|e: seccompiler::BackendError| err(e))?,
        clone3
            .try_into()
            .map_err(|e: seccompiler::BackendError| err(e))?,
    ])
}

/// Installs the filters on this process (it has `no_new_privs`): they hold for everything it
/// runs and starts.
pub fn install() -> Result<(), String> {
    for f in filters()? {
        seccompiler::apply_filter(&f).map_err(|e| format!("seccomp: {e}"))?;
    }
    Ok(())
}
