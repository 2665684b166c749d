//! Values a caller derives per crowd session from that session's fieldwork rows — the quality
//! facts the crowd's exclusions are decided from — kept per task by this server and brought up
//! to date by reading only the sessions changed since its last read, by the change marks of
//! `crowd_ledger` (issue 28): with exclusion rules on, a recomputation of the crowd figures
//! read every session, answer and check of the task before.
//!
//! Storage knows nothing of what is derived: the caller passes the derivation (the same one
//! each time for a type), and reads the values under the copy's lock. A deletion (the crowd
//! version), a change to the task's rating golds (which say which outputs are planted checks)
//! or a server's first read makes the read whole.

use super::super::owners::{FieldworkData, SessionsRead};
use crate::storage::{Storage, StorageError};
use sqlx::Row;
use std::any::{Any, TypeId};
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// One kept copy of some type, type-erased.
type ErasedCopy = Arc<tokio::sync::Mutex<Box<dyn Any + Send>>>;

/// This server's copies, by task and derived type.
#[derive(Clone, Default)]
pub struct KeptSessionValues {
    copies: Arc<Mutex<HashMap<(String, TypeId), ErasedCopy>>>,
    /// How many sessions' rows the copies have read.
    sessions_read: Arc<AtomicU64>,
}

impl std::fmt::Debug for KeptSessionValues {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KeptSessionValues")
    }
}

/// One task's values of type `T`, by session id.
struct KeptCopy<T> {
    /// What the copy was read whole under: the crowd version and a digest of the rating golds.
    basis: (i64, u64),
    /// The highest change number the copy includes.
    seq: i64,
    values: HashMap<String, T>,
}

impl KeptSessionValues {
    fn copy_of<T: 'static>(&self, task_id: &str) -> ErasedCopy {
        let mut copies = self
            .copies
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let key = (task_id.to_owned(), TypeId::of::<T>());
        copies
            .entry(key)
            .or_insert_with(|| Arc::new(tokio::sync::Mutex::new(Box::new(()))))
            .clone()
    }
}

impl Storage {
    /// How many sessions' fieldwork rows this server has read into its kept per-session values:
    /// after one new completion, one (the `crowd_reads` tests count them).
    pub fn kept_sessions_read(&self) -> u64 {
        self.kept_values.sessions_read.load(Ordering::Relaxed)
    }

    /// Brings this server's copy of `derive`'s values for the task's crowd sessions (completed,
    /// not pilots) up to date and hands it to `read`. `derive` maps fieldwork rows to values
    /// by session id; it is given the changed sessions' rows only, except at a whole read.
    pub async fn with_crowd_session_values<T, R>(
        &self,
        task_id: &str,
        derive: impl Fn(&FieldworkData) -> BTreeMap<String, T>,
        read: impl FnOnce(&HashMap<String, T>) -> R,
    ) -> Result<R, StorageError>
    where
        T: Send + 'static,
    {
        let copy = self.kept_values.copy_of::<T>(task_id);
        let mut erased = copy.lock().await;
        let row = sqlx::query("SELECT crowd_version, crowd_seq FROM tasks WHERE id = $1")
            .bind(task_id)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else {
            return Ok(read(&HashMap::new()));
        };
        let (version, seq): (i64, i64) = (row.try_get("crowd_version")?, row.try_get("crowd_seq")?);
        let golds = self.rating_golds(task_id).await?;
        let listed: String = golds
            .iter()
            .flat_map(|(id, gold)| [id.as_str(), "\u{1f}", gold.as_str(), "\u{1e}"])
            .collect();
        let basis = (version, memeboard_core::ids::fnv1a64(listed.as_bytes()));
        match erased.downcast_mut::<KeptCopy<T>>() {
            Some(kept) if kept.basis == basis => {
                let highest: Option<i64> = sqlx::query(
                    "SELECT MAX(seq) AS highest FROM crowd_marks WHERE task_id = $1 AND seq > $2",
                )
                .bind(task_id)
                .bind(kept.seq)
                .fetch_one(&self.pool)
                .await?
                .try_get("highest")?;
                if let Some(highest) = highest {
                    let which = SessionsRead::CrowdChangedAfter(kept.seq);
                    let mut data = self.fieldwork_of(task_id, which).await?;
                    data.rating_golds = golds;
                    self.count_kept_sessions(&data);
                    kept.values.extend(derive(&data));
                    kept.seq = highest;
                }
            }
            _ => {
                let mut data = self.fieldwork_of(task_id, SessionsRead::Crowd).await?;
                data.rating_golds = golds;
                self.count_kept_sessions(&data);
                let values = derive(&data).into_iter().collect();
                *erased = Box::new(KeptCopy { basis, seq, values });
            }
        }
        let values = erased
            .downcast_ref::<KeptCopy<T>>()
            .map(|kept| &kept.values);
        Ok(read(values.unwrap_or(&HashMap::new())))
    }

    fn count_kept_sessions(&self, data: &FieldworkData) {
        let read = u64::try_from(data.sessions.len()).unwrap_or(u64::MAX);
        self.kept_values
            .sessions_read
            .fetch_add(read, Ordering::Relaxed);
    }
}
