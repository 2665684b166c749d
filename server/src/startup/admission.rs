//! Which accepted connections are served: at most `max_connections` at once, and at most
//! `max_connections_per_address` from one client address (IPv6: one /64) under that, so one
//! client holding hundreds of idle or slow sockets takes its own share and not everyone's.
//! Refusals are logged at most once per [`LOG_EVERY`], with how many there were: a flood of
//! connections never turns into a flood of log lines.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Shortest time between two log lines about refused connections.
pub const LOG_EVERY: Duration = Duration::from_secs(10);

/// The address a per-address cap counts: IPv4 as is, IPv6 by its /64 (one subscriber).
fn client_of(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
    }
}

/// Open connections per client address.
type OpenCounts = Arc<Mutex<HashMap<IpAddr, usize>>>;

/// The admission state of a listener.
#[derive(Debug)]
pub struct Admission {
    slots: Arc<Semaphore>,
    per_address: usize,
    open: OpenCounts,
    /// When refusals were last logged, and how many came since.
    refused: Mutex<(Option<Instant>, u64)>,
}

/// A served connection's place; dropping it frees the slot and the address's count.
#[derive(Debug)]
pub struct Admitted {
    _slot: OwnedSemaphorePermit,
    client: IpAddr,
    open: OpenCounts,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = open.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.client);
            }
        }
    }
}

impl Admission {
    /// `per_address` 0: no per-address cap (behind a reverse proxy every connection comes
    /// from the proxy).
    pub fn new(total: usize, per_address: usize) -> Self {
        Self {
            slots: Arc::new(Semaphore::new(total.max(1))),
            per_address,
            open: Arc::default(),
            refused: Mutex::new((None, 0)),
        }
    }

    /// A place for a connection from `peer`, or `None` (the connection is to be closed).
    pub fn admit(&self, peer: SocketAddr) -> Option<Admitted> {
        let client = client_of(peer.ip());
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let mine = open.get(&client).copied().unwrap_or(0);
        if self.per_address > 0 && mine >= self.per_address {
            drop(open);
            self.note_refusal(peer, "the per-address connection limit");
            return None;
        }
        let Ok(slot) = self.slots.clone().try_acquire_owned() else {
            drop(open);
            self.note_refusal(peer, "the connection limit");
            return None;
        };
        open.insert(client, mine + 1);
        Some(Admitted {
            _slot: slot,
            client,
            open: self.open.clone(),
        })
    }

    /// Logs a refusal, at most once per [`LOG_EVERY`] with the count since the last line.
    fn note_refusal(&self, peer: SocketAddr, limit: &str) {
        let mut refused = self.refused.lock().unwrap_or_else(|p| p.into_inner());
        refused.1 += 1;
        if refused.0.is_none_or(|at| at.elapsed() >= LOG_EVERY) {
            tracing::warn!(%peer, refused = refused.1, "{limit} reached: closing new connections");
            *refused = (Some(Instant::now()), 0);
        }
    }

    /// Connections open from `ip`'s client address (tests).
    pub fn open_from(&self, ip: IpAddr) -> usize {
        let open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        open.get(&client_of(ip)).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ip: &str) -> SocketAddr {
        SocketAddr::new(ip.parse().unwrap(), 40000)
    }

    #[test]
    fn one_address_gets_its_share_and_the_rest_stays_open() {
        let admission = Admission::new(5, 2);
        let a1 = admission.admit(at("10.0.0.1")).unwrap();
        let _a2 = admission.admit(at("10.0.0.1")).unwrap();
        assert!(
            admission.admit(at("10.0.0.1")).is_none(),
            "a third from one address"
        );
        // Another address, and another /64 of IPv6, still get in; one /64 counts once.
        let _b = admission.admit(at("10.0.0.2")).unwrap();
        let _c1 = admission.admit(at("2001:db8:1:2::1")).unwrap();
        let _c2 = admission.admit(at("2001:db8:1:2::ffff")).unwrap();
        assert!(admission.admit(at("2001:db8:1:2:3::9")).is_none());
        // The total cap (5) holds whatever the address.
        assert!(admission.admit(at("10.0.0.3")).is_none());
        // A closed connection frees its place.
        drop(a1);
        assert_eq!(admission.open_from("10.0.0.1".parse().unwrap()), 1);
        assert!(admission.admit(at("10.0.0.1")).is_some());
    }

    #[test]
    fn no_per_address_cap_behind_a_proxy() {
        let admission = Admission::new(3, 0);
        let held: Vec<Admitted> = (0..3)
            .filter_map(|_| admission.admit(at("10.0.0.9")))
            .collect();
        assert_eq!(held.len(), 3);
    }
}
