//! Per-client admission to scoring while the answer waits: one client's flood of explanations
//! cannot fill the embedding model's queue for everyone else. A client may have a few
//! explanations scored at once on the request path; more are stored, acknowledged in the
//! "scoring…" state and scored by the background queue (see `kinds::explanation::backlog`),
//! which is woken at once.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Explanations scored on the request path, by client (an address, or its /64 for IPv6).
#[derive(Debug)]
pub struct ScoringAdmission {
    per_client: usize,
    in_flight: Arc<Mutex<HashMap<String, usize>>>,
    /// Wakes the background queue when an explanation was left to it.
    backlog: Arc<tokio::sync::Notify>,
}

impl ScoringAdmission {
    /// At most `per_client` inline scorings per client at once (0: none, every explanation
    /// goes to the background queue).
    pub fn new(per_client: usize) -> Self {
        Self {
            per_client,
            in_flight: Arc::default(),
            backlog: Arc::default(),
        }
    }

    /// What the background queue waits on between passes (see [`ScoringAdmission::queued`]).
    pub fn backlog_wake(&self) -> Arc<tokio::sync::Notify> {
        self.backlog.clone()
    }

    /// An explanation was stored without a score for the background queue: it starts a
    /// pass now rather than at its next pause's end.
    pub fn queued(&self) {
        self.backlog.notify_one();
    }

    /// A slot for scoring one of `client`'s explanations now, or `None` when the client
    /// already has its share in flight (the answer then goes to the background queue).
    pub fn try_admit(&self, client: &str) -> Option<ScoringPermit> {
        let mut in_flight = self.in_flight.lock().unwrap_or_else(|p| p.into_inner());
        let n = in_flight.entry(client.to_owned()).or_default();
        if *n >= self.per_client {
            if *n == 0 {
                in_flight.remove(client);
            }
            return None;
        }
        *n += 1;
        Some(ScoringPermit {
            in_flight: self.in_flight.clone(),
            client: client.to_owned(),
        })
    }
}

/// One inline scoring of a client; released when dropped.
#[derive(Debug)]
pub struct ScoringPermit {
    in_flight: Arc<Mutex<HashMap<String, usize>>>,
    client: String,
}

impl Drop for ScoringPermit {
    fn drop(&mut self) {
        let mut in_flight = self.in_flight.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = in_flight.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                in_flight.remove(&self.client);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_client_gets_its_share_and_releases_it() {
        let admission = ScoringAdmission::new(2);
        let a1 = admission.try_admit("a").expect("first");
        let _a2 = admission.try_admit("a").expect("second");
        assert!(
            admission.try_admit("a").is_none(),
            "a third waits in the queue"
        );
        let _b = admission
            .try_admit("b")
            .expect("another client is not held up");
        drop(a1);
        assert!(admission.try_admit("a").is_some(), "released on drop");
        let none = ScoringAdmission::new(0);
        assert!(none.try_admit("a").is_none());
        assert!(none.in_flight.lock().unwrap().is_empty(), "no entry kept");
    }
}
