//! A network namespace that holds exactly one thing: the listening sockets of a TCP
//! client's (series protocol's) gateway (`127.0.0.1:PORT` inside it, for each port the
//! client may expect). The runner makes it on a short-lived thread (a thread may change
//! its own network namespace), brings the loopback interface up, binds the listeners
//! there, and keeps a descriptor of the namespace for the client to enter. The
//! client reaches its gateway and nothing else: no other host, no other local service, no
//! other team's endpoint; and whoever connects to that listener is that client, so the seat
//! needs no secret.

use nix::libc;
use nix::sched::{CloneFlags, unshare};
use std::io;
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::os::fd::{AsRawFd, OwnedFd};

/// A private network namespace with the gateway's listener inside.
#[derive(Debug)]
pub struct PrivateNet {
    /// The namespace (`/proc/thread-self/ns/net` of the thread that made it).
    pub namespace: OwnedFd,
    /// The listeners at `127.0.0.1:PORT` inside it, one per port asked for.
    pub listeners: Vec<TcpListener>,
}

/// Brings the loopback interface of the calling thread's namespace up.
fn loopback_up() -> io::Result<()> {
    let sock = unsafe { libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0) };
    if sock < 0 {
        return Err(io::Error::last_os_error());
    }
    let sock = unsafe { <OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(sock) };
    let mut req: libc::ifreq = unsafe { std::mem::zeroed() };
    for (dst, src) in req.ifr_name.iter_mut().zip(b"lo\0") {
        *dst = *src as libc::c_char;
    }
    if unsafe { libc::ioctl(sock.as_raw_fd(), libc::SIOCGIFFLAGS, &mut req) } < 0 {
        return Err(io::Error::last_os_error());
    }
    unsafe {
        req.ifr_ifru.ifru_flags |= (libc::IFF_UP | libc::IFF_RUNNING) as libc::c_short;
    }
    if unsafe { libc::ioctl(sock.as_raw_fd(), libc::SIOCSIFFLAGS, &req) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

impl PrivateNet {
    /// A new namespace with a listener on `127.0.0.1:PORT` for each of `ports`
    /// (non-blocking, for tokio).
    pub fn create(ports: &[u16]) -> io::Result<PrivateNet> {
        let ports = ports.to_vec();
        let (namespace, listeners) = in_new_namespace(move || {
            loopback_up()?;
            ports
                .iter()
                .map(|&port| {
                    let listener =
                        TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))?;
                    listener.set_nonblocking(true)?;
                    Ok(listener)
                })
                .collect::<io::Result<Vec<_>>>()
        })?;
        Ok(PrivateNet {
            namespace,
            listeners,
        })
    }
}

/// Makes a network namespace and runs `inside` in it, on a short-lived thread (a thread
/// may change its own namespace; only that thread moves, and it ends right after): the
/// namespace's descriptor, and what `inside` made there.
fn in_new_namespace<T: Send + 'static>(
    inside: impl FnOnce() -> io::Result<T> + Send + 'static,
) -> io::Result<(OwnedFd, T)> {
    std::thread::Builder::new()
        .name("lrs-netns".into())
        .spawn(move || -> io::Result<(OwnedFd, T)> {
            unshare(CloneFlags::CLONE_NEWNET)
                .map_err(|e| io::Error::from_raw_os_error(e as i32))?;
            let made = inside()?;
            Ok((
                std::fs::File::open("/proc/thread-self/ns/net")?.into(),
                made,
            ))
        })?
        .join()
        .map_err(|_| io::Error::other("the namespace thread panicked"))?
}

/// Empty network namespaces for JSON-lines bots, kept for reuse. A bot gets a namespace of
/// its own so that it shares no abstract UNIX socket with the host or another bot; making
/// one and having the kernel tear it down cost about 8% of a short game's CPU, so a
/// namespace whose bot is known to be gone (its control group empty) goes back here for
/// the next bot. Nothing outlives a bot in it: bots may only make UNIX sockets (seccomp),
/// the loopback interface stays down, and no bot may change the namespace (not root).
static POOL: std::sync::Mutex<Vec<OwnedFd>> = std::sync::Mutex::new(Vec::new());

/// A namespace from the pool, held by one bot at a time.
#[derive(Debug)]
pub struct PooledNet {
    namespace: OwnedFd,
}

impl PooledNet {
    /// One from the pool, or a new one when every namespace is in use.
    pub fn take() -> io::Result<PooledNet> {
        let spare = POOL.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let namespace = match spare {
            Some(namespace) => namespace,
            None => in_new_namespace(|| Ok(()))?.0,
        };
        Ok(PooledNet { namespace })
    }

    /// A descriptor of the namespace for the bot's child to enter.
    pub fn for_child(&self) -> io::Result<OwnedFd> {
        self.namespace.try_clone()
    }

    /// Puts the namespace back for another bot. Only for a bot none of whose processes
    /// exists any more; otherwise the namespace is dropped (closed, and freed by the
    /// kernel with its last process).
    pub fn give_back(self) {
        POOL.lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(self.namespace);
    }
}
