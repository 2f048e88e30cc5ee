//! Listening TCP sockets from `/proc/net/tcp{,6}` and the processes that
//! hold them (`/proc/PID/fd/* -> socket:[INODE]`). Passive: no connection
//! is ever made.

use super::procfs;
use std::fs;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::path::Path;

/// One socket in state LISTEN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listener {
    pub addr: IpAddr,
    pub port: u16,
    /// The socket owner's uid.
    pub uid: u32,
    pub inode: u64,
}

impl Listener {
    /// 127.0.0.0/8, ::1 or ::ffff:127.x.
    pub fn loopback(&self) -> bool {
        match self.addr {
            IpAddr::V4(a) => a.is_loopback(),
            IpAddr::V6(a) => a.is_loopback() || a.to_ipv4_mapped().is_some_and(|m| m.is_loopback()),
        }
    }

    /// 0.0.0.0 or :: (every interface, loopback included).
    pub fn all_interfaces(&self) -> bool {
        match self.addr {
            IpAddr::V4(a) => a.is_unspecified(),
            IpAddr::V6(a) => {
                a.is_unspecified() || a.to_ipv4_mapped().is_some_and(|m| m.is_unspecified())
            }
        }
    }

    /// Whether a client on loopback reaches it.
    pub fn reachable_on_loopback(&self) -> bool {
        self.loopback() || self.all_interfaces()
    }
}

/// Parse a kernel address: 8 hex digits (IPv4) or 32 (IPv6), each 32-bit
/// word printed in host byte order.
fn parse_addr(hex: &str) -> Option<IpAddr> {
    let word = |s: &str| u32::from_str_radix(s, 16).ok().map(u32::to_ne_bytes);
    match hex.len() {
        8 => Some(IpAddr::V4(Ipv4Addr::from(word(hex)?))),
        32 => {
            let mut bytes = [0u8; 16];
            for (i, chunk) in bytes.chunks_mut(4).enumerate() {
                chunk.copy_from_slice(&word(hex.get(i * 8..i * 8 + 8)?)?);
            }
            Some(IpAddr::V6(Ipv6Addr::from(bytes)))
        }
        _ => None,
    }
}

/// The LISTEN (`0A`) rows of a `/proc/net/tcp` or `tcp6` table.
pub fn parse_table(text: &str) -> Vec<Listener> {
    text.lines()
        .filter_map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.len() < 10 || f[3] != "0A" {
                return None;
            }
            let (addr, port) = f[1].split_once(':')?;
            Some(Listener {
                addr: parse_addr(addr)?,
                port: u16::from_str_radix(port, 16).ok()?,
                uid: f[7].parse().ok()?,
                inode: f[9].parse().ok()?,
            })
        })
        .collect()
}

/// The kernel's TCP tables under `<proc_root>/net`, IPv4 first.
pub const TABLES: [&str; 2] = ["tcp", "tcp6"];

/// The listening sockets of one table (`tcp` or `tcp6`). Reading a table
/// costs the kernel a walk of its whole socket hash: read only what is
/// needed.
pub fn read_table(proc_root: &Path, name: &str) -> Vec<Listener> {
    fs::read_to_string(proc_root.join("net").join(name))
        .map(|text| parse_table(&text))
        .unwrap_or_default()
}

/// Every listening TCP socket, IPv4 and IPv6.
pub fn listeners(proc_root: &Path) -> Vec<Listener> {
    TABLES
        .iter()
        .flat_map(|t| read_table(proc_root, t))
        .collect()
}

/// The listener on `port` that a client connecting to 127.0.0.1 (else
/// [::1]) reaches: IPv4 loopback, IPv4 any, IPv6 loopback, IPv6 any. The
/// IPv6 table is read only when the IPv4 one has none.
pub fn endpoint_listener(proc_root: &Path, port: u16) -> Option<Listener> {
    TABLES.iter().find_map(|t| {
        read_table(proc_root, t)
            .into_iter()
            .filter(|l| l.port == port && l.reachable_on_loopback())
            .min_by_key(|l| !l.loopback())
    })
}

/// The socket inodes among a process's open file descriptors.
pub fn socket_inodes(proc_root: &Path, pid: u32) -> Vec<u64> {
    let Ok(rd) = fs::read_dir(proc_root.join(pid.to_string()).join("fd")) else {
        return Vec::new();
    };
    rd.flatten()
        .filter_map(|e| {
            let target = fs::read_link(e.path()).ok()?;
            let s = target.to_str()?;
            s.strip_prefix("socket:[")?.strip_suffix(']')?.parse().ok()
        })
        .collect()
}

/// Whether `pid` holds the socket `inode`.
pub fn holds(proc_root: &Path, pid: u32, inode: u64) -> bool {
    socket_inodes(proc_root, pid).contains(&inode)
}

/// The process holding socket `inode`: `preferred` pids are tried first,
/// then every process of `uid` (others' fd dirs are unreadable anyway).
pub fn find_holder(proc_root: &Path, inode: u64, preferred: &[u32], uid: u32) -> Option<u32> {
    if let Some(pid) = preferred
        .iter()
        .copied()
        .find(|p| holds(proc_root, *p, inode))
    {
        return Some(pid);
    }
    procfs::pids(proc_root).into_iter().find(|pid| {
        !preferred.contains(pid)
            && procfs::read_status(proc_root, *pid).is_some_and(|s| s.owned_by(uid))
            && holds(proc_root, *pid, inode)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TCP: &str = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:2382 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 12345 1 0000000000000000 100 0 0 10 0
   1: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 222 1 0000000000000000 100 0 0 10 0
   2: 0100007F:2382 0100007F:C350 01 00000000:00000000 00:00000000 00000000  1000        0 0 1 0000000000000000 20 4 30 10 -1
   3: 0501A8C0:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 333 1 0000000000000000 100 0 0 10 0
";

    const TCP6: &str = "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000001000000:2383 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 444 1 0000000000000000 100 0 0 10 0
   1: 0000000000000000FFFF00000100007F:2384 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 555 1 0000000000000000 100 0 0 10 0
   2: 00000000000000000000000000000000:2385 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 666 1 0000000000000000 100 0 0 10 0
";

    #[test]
    fn parses_ipv4() {
        let l = parse_table(TCP);
        assert_eq!(l.len(), 3, "{l:?}");
        assert_eq!(l[0].addr, IpAddr::V4(Ipv4Addr::LOCALHOST));
        assert_eq!((l[0].port, l[0].uid, l[0].inode), (9090, 1000, 12345));
        assert!(l[0].loopback() && !l[0].all_interfaces());
        assert!(l[1].all_interfaces() && l[1].reachable_on_loopback());
        assert_eq!(l[2].addr, IpAddr::V4(Ipv4Addr::new(192, 168, 1, 5)));
        assert!(!l[2].reachable_on_loopback());
    }

    #[test]
    fn parses_ipv6() {
        let l = parse_table(TCP6);
        assert_eq!(l.len(), 3);
        assert_eq!(l[0].addr, IpAddr::V6(Ipv6Addr::LOCALHOST));
        assert!(l[0].loopback());
        assert_eq!(l[1].addr.to_string(), "::ffff:127.0.0.1");
        assert!(l[1].loopback());
        assert!(l[2].all_interfaces() && !l[2].loopback());
    }
}
