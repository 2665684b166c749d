//! The split guard of re-imports: an import may not move items from the hidden test split to
//! the open dev split (publishing their gold, e.g. after a higher `--dev-percent`) unless the
//! owner says so (`--allow-test-to-dev`).

use crate::storage::{ItemRecord, Storage, TaskRecord};

/// Whether a re-import may move items from the hidden test split to the open dev split
/// (publishing their gold), e.g. after a higher `--dev-percent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestToDev {
    /// Refuse the whole import, saying how many items would move (the default).
    Refuse,
    /// The owner said so (`--allow-test-to-dev`): move them.
    Allow,
}

/// Checks an import against what is stored: with [`TestToDev::Refuse`], an error when any item
/// now in the hidden test split would be stored in the dev split, naming how many per task.
/// Nothing is written either way.
pub async fn check_test_to_dev(
    storage: &Storage,
    tasks: &[(TaskRecord, Vec<ItemRecord>)],
    moves: TestToDev,
) -> anyhow::Result<()> {
    let mut per_task = Vec::new();
    let mut total = 0;
    for (task, items) in tasks {
        let stored = storage.task_items(&task.id).await?;
        let test: std::collections::HashSet<&str> = stored
            .iter()
            .filter(|r| r.split == memeboard_core::predictions::Split::Test)
            .map(|r| r.id.as_str())
            .collect();
        let n = items
            .iter()
            .filter(|i| i.split == "dev" && test.contains(i.id.as_str()))
            .count();
        if n > 0 {
            per_task.push(format!("{n} in `{}`", task.slug));
            total += n;
        }
    }
    if total == 0 {
        return Ok(());
    }
    if moves == TestToDev::Allow {
        tracing::warn!(
            items = total,
            "import moves hidden test items to the dev split (allowed)"
        );
        return Ok(());
    }
    Err(anyhow::anyhow!(
        "import rejected, nothing was stored: this import would move {total} item(s) from the \
         hidden test split to the open dev split, publishing their gold ({}); a different \
         --dev-percent than the first import does this. Re-run with the earlier --dev-percent, \
         or pass --allow-test-to-dev to publish them",
        per_task.join(", ")
    ))
}
