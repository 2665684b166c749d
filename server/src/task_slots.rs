//! One background job per task at a time (the uploads' rescoring): claimed slots, freed when
//! the job's guard is dropped. A leaf module, so that the shared state can hold it without
//! depending on the jobs.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

/// The tasks a background job runs on now: a second request for one of them is refused (409)
/// instead of queueing a second pass over the same data (the uploads' rescoring).
#[derive(Debug, Clone, Default)]
pub struct TaskSlots {
    running: Arc<Mutex<HashSet<String>>>,
}

/// Held while a task's job runs; frees the task when dropped (also on a panic).
#[derive(Debug)]
pub struct TaskSlot {
    running: Arc<Mutex<HashSet<String>>>,
    task: String,
}

impl TaskSlots {
    /// Claims `task`; `None` when a job runs on it already.
    pub fn claim(&self, task: &str) -> Option<TaskSlot> {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        running.insert(task.to_owned()).then(|| TaskSlot {
            running: Arc::clone(&self.running),
            task: task.to_owned(),
        })
    }
}

impl Drop for TaskSlot {
    fn drop(&mut self) {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        running.remove(&self.task);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_job_per_task_at_a_time() {
        let r = TaskSlots::default();
        let slot = r.claim("t").expect("free");
        assert!(r.claim("t").is_none(), "running");
        assert!(r.claim("u").is_some(), "another task");
        drop(slot);
        assert!(r.claim("t").is_some(), "freed");
    }
}
