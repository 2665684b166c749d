//! Crowd statistics computed once per state of the data, off the async executor.
//!
//! Crowd rows carry bootstrap intervals: recomputing them on every `/stats`, `/results` or
//! board request costs CPU that grows with the crowd (and, on the executor, stalled every
//! other request). Here a value is kept per key with the *fingerprint* of the data it was
//! computed from (counters on the task's row, raised by the writes themselves: completed
//! sessions, crowd changes — scores and checks of completed sessions — and a version that
//! deletions and exclusion rules bump; see `storage/sessions/crowd.rs`); a request
//! whose fingerprint matches gets the stored value, otherwise one computation runs on the
//! blocking pool while concurrent requests for the same key wait for it instead of starting
//! their own. A completed batch changes the fingerprint.
//!
//! With a crowd refresh interval (`[quiz] crowd_refresh_secs` > 0), [`CrowdCache::get_or_refresh`]
//! keeps crowd-facing requests from waiting for a recomputation: when only *new* data arrived
//! (the crowd version — bumped by deletions and exclusion rules — is the one the stored value
//! was computed at), the request gets the stored value, which carries the participant count
//! it was computed from, and one background task computes the new one. Figures then lag the
//! data by at most the interval plus two computations (see `Refresh`); a deletion or a rule
//! change is never served stale.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// What a cached value was computed from; equal fingerprints mean equal inputs. The last
/// field is the crowd version: values of one version differ only by data that arrived since.
pub type Fingerprint = (i64, i64, i64, Option<i64>, i64);

/// Stored values by key, each with its fingerprint.
type Values<T> = Arc<Mutex<HashMap<String, (Fingerprint, Arc<T>)>>>;

/// Background refreshes by key: `None` while one runs, then the earliest time the next may
/// start.
type Refreshes = Arc<Mutex<HashMap<String, Option<Instant>>>>;

/// Values of one type by key, each with its fingerprint.
pub struct CrowdCache<T> {
    values: Values<T>,
    /// One lock per key, so that one computation runs per key at a time.
    computing: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    /// Background refreshes (see `get_or_refresh`).
    refreshing: Refreshes,
}

impl<T> Default for CrowdCache<T> {
    fn default() -> Self {
        Self {
            values: Arc::default(),
            computing: Mutex::new(HashMap::new()),
            refreshing: Arc::default(),
        }
    }
}

/// Locks a std mutex, recovering the data if a panicking holder poisoned it.
fn lock<V>(m: &Mutex<V>) -> std::sync::MutexGuard<'_, V> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl<T: Send + Sync + 'static> CrowdCache<T> {
    /// The stored value for `key`, if it was computed at `fingerprint`.
    pub fn stored(&self, key: &str, fingerprint: Fingerprint) -> Option<Arc<T>> {
        lock(&self.values)
            .get(key)
            .filter(|(f, _)| *f == fingerprint)
            .map(|(_, v)| v.clone())
    }

    /// The value for `key` at `fingerprint`: stored, or computed by `compute` on the blocking
    /// pool (once, however many requests ask at the same time).
    pub async fn get_or_compute(
        &self,
        key: &str,
        fingerprint: Fingerprint,
        compute: impl FnOnce() -> T + Send + 'static,
    ) -> anyhow::Result<Arc<T>> {
        self.get_or_load(key, fingerprint, || async {
            Ok::<_, anyhow::Error>(tokio::task::spawn_blocking(compute).await?)
        })
        .await
    }

    /// The value for `key` at `fingerprint`: stored, or made by `load` (which reads what it
    /// needs itself, so that a stored value costs no read at all), once however many ask.
    pub async fn get_or_load<E, Fut>(
        &self,
        key: &str,
        fingerprint: Fingerprint,
        load: impl FnOnce() -> Fut,
    ) -> Result<Arc<T>, E>
    where
        Fut: std::future::Future<Output = Result<T, E>>,
    {
        if let Some(v) = self.stored(key, fingerprint) {
            return Ok(v);
        }
        let turn = lock(&self.computing)
            .entry(key.to_owned())
            .or_default()
            .clone();
        let _turn = turn.lock().await;
        // Someone else may have computed it while we waited.
        if let Some(v) = self.stored(key, fingerprint) {
            return Ok(v);
        }
        let value = Arc::new(load().await?);
        lock(&self.values).insert(key.to_owned(), (fingerprint, value.clone()));
        Ok(value)
    }

    /// [`CrowdCache::get_or_load`], except that with `serve_stale` a request whose data only
    /// grew since the stored value (same crowd version) gets that value at once while `load`
    /// runs in a background task (one per key at a time; a failure is logged and the next
    /// request tries again). With nothing stored, or a new version, the request waits.
    pub async fn get_or_refresh<E, Fut>(
        &self,
        key: &str,
        fingerprint: Fingerprint,
        serve_stale: bool,
        load: impl FnOnce() -> Fut,
    ) -> Result<Arc<T>, E>
    where
        Fut: std::future::Future<Output = Result<T, E>> + Send + 'static,
        E: std::fmt::Display + Send + 'static,
    {
        let stale = lock(&self.values)
            .get(key)
            .filter(|(f, _)| serve_stale && f.4 == fingerprint.4)
            .map(|(f, v)| (*f, v.clone()));
        let Some((stored_at, stale)) = stale else {
            return self.get_or_load(key, fingerprint, load).await;
        };
        if stored_at == fingerprint || !self.start_refresh(key) {
            return Ok(stale);
        }
        let refresh = Refresh {
            refreshing: self.refreshing.clone(),
            key: key.to_owned(),
            started: Instant::now(),
        };
        let values = self.values.clone();
        let loading = load();
        tokio::spawn(async move {
            match loading.await {
                // Unless a waiting request stored a newer value meanwhile.
                Ok(value) => {
                    let mut values = lock(&values);
                    if values
                        .get(&refresh.key)
                        .is_none_or(|(f, _)| *f == stored_at)
                    {
                        values.insert(refresh.key.clone(), (fingerprint, Arc::new(value)));
                    }
                }
                Err(e) => {
                    tracing::warn!(key = %refresh.key, error = %e, "refreshing crowd figures")
                }
            }
        });
        Ok(stale)
    }

    /// Marks a background refresh of `key` as running, unless one runs or the last one
    /// ended too recently (see [`Refresh`]).
    fn start_refresh(&self, key: &str) -> bool {
        let mut refreshing = lock(&self.refreshing);
        match refreshing.get(key) {
            Some(None) => false,
            Some(Some(not_before)) if Instant::now() < *not_before => false,
            _ => {
                refreshing.insert(key.to_owned(), None);
                true
            }
        }
    }
}

/// A key's background refresh. When its task ends (even by a panic) the next may start
/// after as long again as it took: refreshes of a large crowd under constant activity keep
/// at most half a core busy, and figures lag by at most the refresh interval plus two
/// computations.
struct Refresh {
    refreshing: Refreshes,
    key: String,
    started: Instant,
}

impl Drop for Refresh {
    fn drop(&mut self) {
        let now = Instant::now();
        let next = now + now.duration_since(self.started);
        lock(&self.refreshing).insert(self.key.clone(), Some(next));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[tokio::test]
    async fn one_computation_per_fingerprint_however_many_ask() {
        let cache = Arc::new(CrowdCache::<usize>::default());
        let runs = Arc::new(AtomicUsize::new(0));
        let ask = |fp: Fingerprint| {
            let (cache, runs) = (cache.clone(), runs.clone());
            tokio::spawn(async move {
                cache
                    .get_or_compute("task", fp, move || {
                        std::thread::sleep(std::time::Duration::from_millis(20));
                        runs.fetch_add(1, Ordering::SeqCst)
                    })
                    .await
                    .unwrap()
            })
        };
        let first: Vec<_> = (0..8).map(|_| ask((1, 2, 3, Some(4), 0))).collect();
        for h in first {
            assert_eq!(*h.await.unwrap(), 0);
        }
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        // New data: computed again.
        assert_eq!(*ask((1, 3, 3, Some(5), 0)).await.unwrap(), 1);
        assert_eq!(runs.load(Ordering::SeqCst), 2);
    }

    /// Loads `value` after `gate` opens, counting loads.
    fn gated(
        runs: &Arc<AtomicUsize>,
        gate: &Arc<tokio::sync::Notify>,
        value: usize,
    ) -> impl std::future::Future<Output = Result<usize, String>> + Send + 'static {
        let (runs, gate) = (runs.clone(), gate.clone());
        async move {
            runs.fetch_add(1, Ordering::SeqCst);
            gate.notified().await;
            Ok(value)
        }
    }

    /// New data of the same version: the stored value at once, one background load however
    /// many ask, then the new value. A new version (a deletion) waits for its value.
    #[tokio::test]
    async fn grown_data_gets_the_stored_value_while_one_refresh_runs() {
        let cache = CrowdCache::<usize>::default();
        let (runs, gate) = (
            Arc::new(AtomicUsize::new(0)),
            Arc::new(tokio::sync::Notify::new()),
        );
        let v1 = (1, 1, 1, Some(1), 7);
        let first = cache.get_or_refresh("t", v1, true, || async { Ok::<_, String>(1) });
        assert_eq!(*first.await.unwrap(), 1);
        let v2 = (2, 2, 2, Some(2), 7);
        for _ in 0..5 {
            let got = cache.get_or_refresh("t", v2, true, || gated(&runs, &gate, 2));
            assert_eq!(*got.await.unwrap(), 1, "the stored value, not a wait");
        }
        tokio::task::yield_now().await;
        assert_eq!(runs.load(Ordering::SeqCst), 1, "one background load");
        gate.notify_one();
        let mut fresh = 0;
        for _ in 0..100 {
            fresh = *cache
                .get_or_refresh("t", v2, true, || async { Ok::<_, String>(99) })
                .await
                .unwrap();
            if fresh == 2 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        assert_eq!(fresh, 2);
        // A deletion bumps the version: never the stored value.
        let deleted = (1, 1, 1, Some(2), 8);
        let got = cache.get_or_refresh("t", deleted, true, || async { Ok::<_, String>(3) });
        assert_eq!(*got.await.unwrap(), 3);
        // Without `serve_stale` (no refresh interval), grown data waits for its value.
        let grown = (2, 2, 2, Some(3), 8);
        let got = cache.get_or_refresh("t", grown, false, || async { Ok::<_, String>(4) });
        assert_eq!(*got.await.unwrap(), 4);
    }
}
