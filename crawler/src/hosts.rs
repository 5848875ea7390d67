//! Per-host politeness: at most N requests in flight to one host, and a least
//! delay between the starts of two requests to it. Shared by every site a
//! crawler visits, since many podcast sites live on one hosting platform.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

#[derive(Debug)]
struct HostState {
    slots: Arc<Semaphore>,
    next_start: Instant,
}

/// The per-host gates of a crawler.
#[derive(Debug)]
pub struct HostGates {
    concurrency: usize,
    hosts: Mutex<HashMap<String, HostState>>,
}

impl HostGates {
    pub fn new(concurrency: usize) -> HostGates {
        HostGates {
            concurrency: concurrency.max(1),
            hosts: Mutex::new(HashMap::new()),
        }
    }

    /// Waits for a slot of `host` and for its delay; the slot is held until the
    /// permit is dropped.
    pub async fn enter(&self, host: &str, delay: Duration) -> OwnedSemaphorePermit {
        let slots = {
            let mut hosts = self
                .hosts
                .lock()
                .unwrap_or_else(|poison| poison.into_inner());
            let state = hosts.entry(host.to_owned()).or_insert_with(|| HostState {
                slots: Arc::new(Semaphore::new(self.concurrency)),
                next_start: Instant::now(),
            });
            Arc::clone(&state.slots)
        };
        let permit = match slots.acquire_owned().await {
            Ok(permit) => permit,
            Err(_) => unreachable!("host semaphores are never closed"),
        };
        let start = {
            let mut hosts = self
                .hosts
                .lock()
                .unwrap_or_else(|poison| poison.into_inner());
            let now = Instant::now();
            match hosts.get_mut(host) {
                Some(state) => {
                    let start = state.next_start.max(now);
                    state.next_start = start + delay;
                    start
                }
                None => now,
            }
        };
        tokio::time::sleep_until(start).await;
        permit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn requests_to_one_host_are_spaced_by_the_delay() {
        let gates = HostGates::new(4);
        let delay = Duration::from_millis(40);
        let started = Instant::now();
        for _ in 0..3 {
            drop(gates.enter("a.example", delay).await);
        }
        assert!(started.elapsed() >= Duration::from_millis(80));
        let other = Instant::now();
        drop(gates.enter("b.example", delay).await);
        assert!(other.elapsed() < Duration::from_millis(40));
    }
}
