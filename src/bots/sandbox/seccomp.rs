//! The seccomp filter of every bot (built with `seccompiler`): system calls that could
//! leave or attack the container are refused with an error (EPERM, or EAFNOSUPPORT for a
//! socket family the bot may not use), everything else is allowed, so that any language
//! runtime starts as usual.
//!
//! Refused: new namespaces (`unshare`, `setns`, namespace flags of `clone`; `clone3` gets
//! ENOSYS so the C library falls back to `clone`, whose flags can be checked), mounts,
//! `ptrace` and access to other processes' memory, BPF, keyrings, perf events, kernel
//! modules, kexec, reboot, swap, clock setting, `io_uring` (it would bypass the socket
//! checks), `userfaultfd`, terminal injection (`TIOCSTI`, `TIOCLINUX`), and sockets other
//! than UNIX ones — plus, for TCP clients (series protocols such as Windward), TCP over
//! IPv4/IPv6 (no UDP, raw, MPTCP or SCTP).

use nix::libc;
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen as Len, SeccompCmpOp as Op, SeccompCondition,
    SeccompFilter, SeccompRule,
};
use std::collections::BTreeMap;

/// Which sockets a bot may open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SocketPolicy {
    /// UNIX sockets only (JSON-lines bots).
    UnixOnly,
    /// UNIX sockets and TCP over IPv4/IPv6 (TCP clients reach their gateway).
    UnixAndTcp,
}

const DENIED: &[i64] = &[
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_chroot,
    libc::SYS_open_tree,
    libc::SYS_move_mount,
    libc::SYS_fsopen,
    libc::SYS_fsconfig,
    libc::SYS_fsmount,
    libc::SYS_fspick,
    libc::SYS_mount_setattr,
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_bpf,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_perf_event_open,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_kexec_load,
    libc::SYS_kexec_file_load,
    libc::SYS_reboot,
    libc::SYS_swapon,
    libc::SYS_swapoff,
    libc::SYS_acct,
    libc::SYS_settimeofday,
    libc::SYS_clock_settime,
    libc::SYS_clock_adjtime,
    libc::SYS_adjtimex,
    libc::SYS_userfaultfd,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_open_by_handle_at,
    libc::SYS_name_to_handle_at,
    libc::SYS_quotactl,
    libc::SYS_syslog,
    libc::SYS_vhangup,
];

const NAMESPACE_FLAGS: &[u64] = &[
    libc::CLONE_NEWUSER as u64,
    libc::CLONE_NEWNS as u64,
    libc::CLONE_NEWNET as u64,
    libc::CLONE_NEWPID as u64,
    libc::CLONE_NEWIPC as u64,
    libc::CLONE_NEWUTS as u64,
    libc::CLONE_NEWCGROUP as u64,
];

fn cond(arg: u8, op: Op, value: u64) -> SeccompCondition {
    SeccompCondition::new(arg, Len::Dword, op, value).expect("valid argument index")
}

fn rule(conditions: Vec<SeccompCondition>) -> SeccompRule {
    SeccompRule::new(conditions).expect("non-empty rule")
}

fn arch() -> Result<seccompiler::TargetArch, String> {
    std::env::consts::ARCH
        .try_into()
        .map_err(|_| format!("no seccomp filter for {}", std::env::consts::ARCH))
}

/// Calls answered with EPERM.
fn deny_filter() -> Result<BpfProgram, String> {
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> =
        DENIED.iter().map(|&n| (n, Vec::new())).collect();
    rules.insert(
        libc::SYS_clone,
        NAMESPACE_FLAGS
            .iter()
            .map(|&f| rule(vec![cond(0, Op::MaskedEq(f), f)]))
            .collect(),
    );
    rules.insert(
        libc::SYS_ioctl,
        [libc::TIOCSTI, libc::TIOCLINUX]
            .iter()
            .map(|&cmd| rule(vec![cond(1, Op::Eq, cmd)]))
            .collect(),
    );
    compile(rules, libc::EPERM)
}

/// `clone3` answered with ENOSYS (its flags are out of reach of a filter).
fn clone3_filter() -> Result<BpfProgram, String> {
    compile(
        BTreeMap::from([(libc::SYS_clone3, Vec::new())]),
        libc::ENOSYS,
    )
}

/// Socket families and types answered with EAFNOSUPPORT.
fn socket_filter(policy: SocketPolicy) -> Result<BpfProgram, String> {
    let (unix, inet, inet6) = (
        libc::AF_UNIX as u64,
        libc::AF_INET as u64,
        libc::AF_INET6 as u64,
    );
    let mut socket_rules = Vec::new();
    match policy {
        SocketPolicy::UnixOnly => {
            socket_rules.push(rule(vec![cond(0, Op::Ne, unix)]));
        }
        SocketPolicy::UnixAndTcp => {
            socket_rules.push(rule(vec![
                cond(0, Op::Ne, unix),
                cond(0, Op::Ne, inet),
                cond(0, Op::Ne, inet6),
            ]));
            for family in [inet, inet6] {
                // Any type but a stream (the low bits; the rest are flags).
                for kind in [2u64, 3, 4, 5, 6, 10] {
                    socket_rules.push(rule(vec![
                        cond(0, Op::Eq, family),
                        cond(1, Op::MaskedEq(0xf), kind),
                    ]));
                }
                // A stream of any protocol but TCP (MPTCP, SCTP).
                socket_rules.push(rule(vec![
                    cond(0, Op::Eq, family),
                    cond(2, Op::Ne, 0),
                    cond(2, Op::Ne, libc::IPPROTO_TCP as u64),
                ]));
            }
        }
    }
    let socketpair_rules = vec![rule(vec![cond(0, Op::Ne, unix)])];
    compile(
        BTreeMap::from([
            (libc::SYS_socket, socket_rules),
            (libc::SYS_socketpair, socketpair_rules),
        ]),
        libc::EAFNOSUPPORT,
    )
}

fn compile(rules: BTreeMap<i64, Vec<SeccompRule>>, errno: i32) -> Result<BpfProgram, String> {
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(errno as u32),
        arch()?,
    )
    .map_err(|e| e.to_string())?;
    filter
        .try_into()
        .map_err(|e: seccompiler::BackendError| e.to_string())
}

/// The filters of a bot, installed in this order (all of them apply; the kernel takes the
/// strictest answer). Compiled once per policy.
pub fn bot_filters(policy: SocketPolicy) -> Result<Vec<BpfProgram>, String> {
    type Compiled = std::sync::OnceLock<Result<Vec<BpfProgram>, String>>;
    static UNIX_ONLY: Compiled = std::sync::OnceLock::new();
    static UNIX_AND_TCP: Compiled = std::sync::OnceLock::new();
    let cell = match policy {
        SocketPolicy::UnixOnly => &UNIX_ONLY,
        SocketPolicy::UnixAndTcp => &UNIX_AND_TCP,
    };
    cell.get_or_init(|| {
        Ok(vec![
            deny_filter()?,
            clone3_filter()?,
            socket_filter(policy)?,
        ])
    })
    .clone()
}

/// Installs `filters` on the calling thread (sets no-new-privileges first).
pub fn apply(filters: &[BpfProgram]) -> std::io::Result<()> {
    for filter in filters {
        seccompiler::apply_filter(filter).map_err(|e| std::io::Error::other(e.to_string()))?;
    }
    Ok(())
}
