//! One computation at a time per key: callers that arrive while the computation for their
//! key runs wait for it, then find its result where it stored it (the explanation baseline
//! of a task was computed 64 times at once under a flood of answers).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use tokio::sync::OwnedMutexGuard;

/// An async lock per key, held only while someone holds or waits for it (entries of keys
/// nobody holds are dropped as new keys come, so the map stays as small as the keys in use).
#[derive(Debug, Default)]
pub struct KeyedLocks {
    locks: Mutex<HashMap<String, Weak<tokio::sync::Mutex<()>>>>,
}

impl KeyedLocks {
    /// Waits for the lock of `key`; the guard releases it.
    pub async fn lock(&self, key: &str) -> OwnedMutexGuard<()> {
        let lock = {
            let mut locks = self.locks.lock().unwrap_or_else(|p| p.into_inner());
            match locks.get(key).and_then(Weak::upgrade) {
                Some(lock) => lock,
                None => {
                    locks.retain(|_, l| l.strong_count() > 0);
                    let lock = Arc::new(tokio::sync::Mutex::new(()));
                    locks.insert(key.to_owned(), Arc::downgrade(&lock));
                    lock
                }
            }
        };
        lock.lock_owned().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[tokio::test]
    async fn eight_callers_compute_once_and_the_map_empties() {
        let locks = Arc::new(KeyedLocks::default());
        let cache: Arc<Mutex<Option<u32>>> = Arc::default();
        let runs = Arc::new(AtomicUsize::new(0));
        let callers = (0..8).map(|_| {
            let (locks, cache, runs) = (locks.clone(), cache.clone(), runs.clone());
            tokio::spawn(async move {
                let _guard = locks.lock("task").await;
                if let Some(v) = *cache.lock().unwrap() {
                    return v;
                }
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                runs.fetch_add(1, Ordering::SeqCst);
                *cache.lock().unwrap() = Some(42);
                42
            })
        });
        for caller in callers.collect::<Vec<_>>() {
            assert_eq!(caller.await.unwrap(), 42);
        }
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        // Another key gets a lock of its own; the unused entry goes.
        drop(locks.lock("other").await);
        let _held = locks.lock("third").await;
        assert_eq!(locks.locks.lock().unwrap().len(), 1);
    }
}
