//! Crowd statistics computed once per state of the data, off the async executor.
//!
//! Crowd rows carry bootstrap intervals: recomputing them on every `/stats`, `/results` or
//! board request costs CPU that grows with the crowd (and, on the executor, stalled every
//! other request). Here a value is kept per key with the *fingerprint* of the data it was
//! computed from (a cheap SQL count: completed sessions, answers, scored answers, and a version that
//! deletions bump); a request
//! whose fingerprint matches gets the stored value, otherwise one computation runs on the
//! blocking pool while concurrent requests for the same key wait for it instead of starting
//! their own. Values are never stale: a completed batch changes the fingerprint.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// What a cached value was computed from; equal fingerprints mean equal inputs.
pub type Fingerprint = (i64, i64, i64, Option<i64>, i64);

/// Values of one type by key, each with its fingerprint.
pub struct CrowdCache<T> {
    values: Mutex<HashMap<String, (Fingerprint, Arc<T>)>>,
    /// One lock per key, so that one computation runs per key at a time.
    computing: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

impl<T> Default for CrowdCache<T> {
    fn default() -> Self {
        Self {
            values: Mutex::new(HashMap::new()),
            computing: Mutex::new(HashMap::new()),
        }
    }
}

impl<T: Send + Sync + 'static> CrowdCache<T> {
    /// The stored value for `key`, if it was computed at `fingerprint`.
    pub fn stored(&self, key: &str, fingerprint: Fingerprint) -> Option<Arc<T>> {
        self.values
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
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
        let lock = self
            .computing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .entry(key.to_owned())
            .or_default()
            .clone();
        let _turn = lock.lock().await;
        // Someone else may have computed it while we waited.
        if let Some(v) = self.stored(key, fingerprint) {
            return Ok(v);
        }
        let value = Arc::new(load().await?);
        self.values
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(key.to_owned(), (fingerprint, value.clone()));
        Ok(value)
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
}
