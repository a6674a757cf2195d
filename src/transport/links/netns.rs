//! Two network namespaces joined by a veth pair, shaped with `tbf`, for the
//! links workload: the relay's end and the client's end (`docs/TRANSPORT.md`,
//! "Links").
//!
//! Made with iproute2 (`ip`, `tc`), which needs root. Every name carries the
//! process id, so that a later run removes what a killed one left
//! ([`Pair::create`]). The pair is removed when it is dropped, and on
//! SIGINT, SIGTERM and SIGHUP ([`Pair::create`] installs the handler once).
//! Traffic goes only between the two addresses below, inside the two
//! namespaces.

use std::fs::File;
use std::net::Ipv4Addr;
use std::os::fd::AsFd;
use std::process::Command;
use std::sync::{Mutex, Once};

use rustix::thread::{LinkNameSpaceType, move_into_link_name_space};

/// The relay's address, on its namespace's end of the pair.
pub const RELAY_ADDR: Ipv4Addr = Ipv4Addr::new(10, 77, 0, 1);
/// The client's address, on the other end.
pub const CLIENT_ADDR: Ipv4Addr = Ipv4Addr::new(10, 77, 0, 2);
/// The veth end's name inside each namespace.
pub const DEV: &str = "veth0";
/// Prefix of every namespace this module makes.
pub const PREFIX: &str = "binostr-links-";

/// Why the link could not be made or shaped.
#[derive(Debug, thiserror::Error)]
pub enum NetnsError {
    /// A command failed or could not run.
    #[error("`{command}` failed: {why}")]
    Command {
        /// The command line.
        command: String,
        /// Its stderr, or why it did not start.
        why: String,
    },
    /// Entering a namespace failed.
    #[error("cannot enter network namespace `{name}`: {source}")]
    Enter {
        /// The namespace.
        name: String,
        /// Why.
        source: std::io::Error,
    },
}

/// Names of namespaces alive in this process, removed by the signal handler.
static LIVE: Mutex<Vec<String>> = Mutex::new(Vec::new());
static HANDLER: Once = Once::new();

fn run(program: &str, args: &[&str]) -> Result<String, NetnsError> {
    let command = format!("{program} {}", args.join(" "));
    let out = Command::new(program)
        .args(args)
        .output()
        .map_err(|e| NetnsError::Command {
            command: command.clone(),
            why: e.to_string(),
        })?;
    if !out.status.success() {
        return Err(NetnsError::Command {
            command,
            why: String::from_utf8_lossy(&out.stderr).trim().to_owned(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn delete(name: &str) {
    let _ = Command::new("ip").args(["netns", "delete", name]).output();
}

/// Removes namespaces of [`PREFIX`] whose process is gone (a run killed
/// with SIGKILL cannot remove its own).
fn remove_stale() {
    let Ok(list) = run("ip", &["netns", "list"]) else {
        return;
    };
    for name in list.lines().filter_map(|l| l.split_whitespace().next()) {
        let Some(pid) = name
            .strip_prefix(PREFIX)
            .and_then(|rest| rest.split('-').next())
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !std::path::Path::new(&format!("/proc/{pid}")).exists() {
            delete(name);
        }
    }
}

fn install_handler() {
    HANDLER.call_once(|| {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            eprintln!(
                "links: cannot install the signal handler; a signal may leave namespaces behind"
            );
            return;
        };
        std::thread::spawn(move || {
            if let Some(sig) = signals.forever().next() {
                let live = LIVE.lock().map(|l| l.clone()).unwrap_or_default();
                for name in &live {
                    delete(name);
                }
                eprintln!(
                    "links: signal {sig}: removed network namespaces {}",
                    live.join(", ")
                );
                std::process::exit(128 + sig);
            }
        });
    });
}

/// The shaping of both ends of the pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    /// No qdisc beyond the veth default: the pair's own speed.
    Unshaped,
    /// `tbf` at this many Mbit/s on both ends ([`tbf_args`]).
    Rate(f64),
}

impl Shape {
    /// `unshaped` or `<rate>mbit`.
    pub fn name(self) -> String {
        match self {
            Shape::Unshaped => "unshaped".into(),
            Shape::Rate(r) => format!("{r}mbit"),
        }
    }

    /// The rate in bit/s, `None` when unshaped.
    pub fn bits_per_s(self) -> Option<f64> {
        match self {
            Shape::Unshaped => None,
            Shape::Rate(r) => Some(r * 1e6),
        }
    }
}

/// Bucket size of `tbf` at `mbit`: 1 ms of the rate, at least 4 KiB
/// (a few full frames; tbf's hrtimer watchdog keeps the rate with small
/// buckets).
pub fn burst_bytes(mbit: f64) -> u64 {
    ((mbit * 1e6 / 8.0 / 1000.0) as u64).max(4096)
}

/// Queue of `tbf` in time at high rates: a packet that would wait longer
/// is dropped.
pub const QUEUE_MS: u64 = 100;
/// Smallest queue of `tbf`, bytes: at low rates 100 ms holds less than
/// Linux's initial window and TCP would lose segments at every start.
pub const MIN_QUEUE: u64 = 64 << 10;

/// Queue of `tbf` at `mbit`, bytes: [`QUEUE_MS`] of the rate, at least
/// [`MIN_QUEUE`].
pub fn queue_bytes(mbit: f64) -> u64 {
    ((mbit * 1e6 / 8.0 * QUEUE_MS as f64 / 1000.0) as u64).max(MIN_QUEUE)
}

/// The `tc qdisc replace` arguments of `tbf` at `mbit`.
pub fn tbf_args(mbit: f64) -> Vec<String> {
    [
        "qdisc",
        "replace",
        "dev",
        DEV,
        "root",
        "tbf",
        "rate",
        &format!("{}kbit", (mbit * 1000.0).round() as u64),
        "burst",
        &burst_bytes(mbit).to_string(),
        "limit",
        &queue_bytes(mbit).to_string(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// The two namespaces and their veth pair; removed on drop.
pub struct Pair {
    /// The relay's namespace.
    pub relay: String,
    /// The client's namespace.
    pub client: String,
    shape: Shape,
}

impl Pair {
    /// Makes both namespaces, the pair, the addresses, and brings every
    /// link up; unshaped. Fails with the command that failed (not root, no
    /// iproute2, no namespace support).
    pub fn create() -> Result<Pair, NetnsError> {
        install_handler();
        remove_stale();
        let pid = std::process::id();
        let pair = Pair {
            relay: format!("{PREFIX}{pid}-relay"),
            client: format!("{PREFIX}{pid}-client"),
            shape: Shape::Unshaped,
        };
        for name in [&pair.relay, &pair.client] {
            run("ip", &["netns", "add", name])?;
            LIVE.lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(name.clone());
        }
        let (r, c) = (pair.relay.as_str(), pair.client.as_str());
        run(
            "ip",
            &[
                "-n", r, "link", "add", DEV, "type", "veth", "peer", "name", DEV, "netns", c,
            ],
        )?;
        for (ns, addr) in [(r, RELAY_ADDR), (c, CLIENT_ADDR)] {
            run(
                "ip",
                &["-n", ns, "addr", "add", &format!("{addr}/30"), "dev", DEV],
            )?;
            run("ip", &["-n", ns, "link", "set", DEV, "up"])?;
            run("ip", &["-n", ns, "link", "set", "lo", "up"])?;
        }
        Ok(pair)
    }

    /// Shapes both ends (each direction) to `shape`.
    pub fn shape(&mut self, shape: Shape) -> Result<(), NetnsError> {
        for ns in [&self.relay, &self.client] {
            let mut args = vec!["netns".to_owned(), "exec".into(), ns.clone(), "tc".into()];
            match shape {
                Shape::Rate(mbit) => args.extend(tbf_args(mbit)),
                Shape::Unshaped if self.shape == Shape::Unshaped => continue,
                Shape::Unshaped => args.extend(
                    ["qdisc", "del", "dev", DEV, "root"]
                        .iter()
                        .map(|s| s.to_string()),
                ),
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            run("ip", &args)?;
        }
        self.shape = shape;
        Ok(())
    }

    /// TCP segments retransmitted so far in `ns` (`/proc/net/snmp`, Tcp
    /// `RetransSegs`).
    pub fn retransmitted(&self, ns: &str) -> Result<u64, NetnsError> {
        let snmp = run("ip", &["netns", "exec", ns, "cat", "/proc/net/snmp"])?;
        let mut tcp = snmp.lines().filter(|l| l.starts_with("Tcp:"));
        let (names, values) = (tcp.next(), tcp.next());
        let field = names.zip(values).and_then(|(n, v)| {
            let i = n.split_whitespace().position(|f| f == "RetransSegs")?;
            v.split_whitespace().nth(i)?.parse().ok()
        });
        field.ok_or_else(|| NetnsError::Command {
            command: format!("ip netns exec {ns} cat /proc/net/snmp"),
            why: "no Tcp RetransSegs field".into(),
        })
    }
}

impl Drop for Pair {
    fn drop(&mut self) {
        let mut live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
        for name in [&self.relay, &self.client] {
            delete(name);
            live.retain(|n| n != name);
        }
    }
}

/// Runs `f` with the calling thread in namespace `name`, then moves it back
/// to the namespace it was in. Sockets made inside stay in `name`.
pub fn within<T>(name: &str, f: impl FnOnce() -> T) -> Result<T, NetnsError> {
    let enter = |path: &str, what: &str| -> Result<(), NetnsError> {
        let err = |source| NetnsError::Enter {
            name: what.to_owned(),
            source,
        };
        let file = File::open(path).map_err(err)?;
        move_into_link_name_space(file.as_fd(), Some(LinkNameSpaceType::Network))
            .map_err(|e| err(e.into()))
    };
    let home = File::open("/proc/thread-self/ns/net").map_err(|source| NetnsError::Enter {
        name: "the thread's own".into(),
        source,
    })?;
    enter(&format!("/run/netns/{name}"), name)?;
    let out = f();
    move_into_link_name_space(home.as_fd(), Some(LinkNameSpaceType::Network)).map_err(|e| {
        NetnsError::Enter {
            name: "the thread's own".into(),
            source: e.into(),
        }
    })?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tbf_bucket_is_a_millisecond_of_the_rate_at_least_4_kib() {
        assert_eq!(burst_bytes(1.0), 4096);
        assert_eq!(burst_bytes(100.0), 12_500);
        assert_eq!(burst_bytes(1000.0), 125_000);
        assert_eq!(queue_bytes(1.0), 65_536);
        assert_eq!(queue_bytes(1000.0), 12_500_000);
        let args = tbf_args(10.0).join(" ");
        assert_eq!(
            args,
            "qdisc replace dev veth0 root tbf rate 10000kbit burst 4096 limit 125000"
        );
        assert_eq!(Shape::Rate(10.0).name(), "10mbit");
        assert_eq!(Shape::Unshaped.bits_per_s(), None);
    }
}
