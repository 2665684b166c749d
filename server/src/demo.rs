//! The demo benchmark shipped with the site (original content written for memeboard, in the
//! CHIME upstream format), loaded on first start so the site is never empty.

use crate::import::{import_chime, BenchmarkSpec};
use crate::storage::Storage;

/// Demo memes (CHIME `chime_full.json` format).
pub const DEMO_MEMES: &str = include_str!("../demo/demo_memes.json");
/// Demo questions (CHIME `chime_mcq.json` format).
pub const DEMO_MCQ: &str = include_str!("../demo/demo_mcq.json");

/// The demo benchmark's identity.
pub fn demo_spec(batch_size: usize, explain_batch_size: usize) -> BenchmarkSpec {
    BenchmarkSpec {
        slug: "demo".into(),
        title: "Chinese text memes: fill in the blank (demo) · 中文网络梗填空（演示）".into(),
        description: "Pick the meme that fits the blank in each sentence. 36 everyday Chinese \
                      internet memes written for memeboard, six per type, in the CHIME format. \
                      · 为每个句子选出最合适的网络梗。"
            .into(),
        batch_size,
        quiz_open: true,
        dev_percent: 34,
        explain_batch_size,
    }
}

/// Loads the demo when the database holds no benchmark yet; returns whether it loaded.
pub async fn load_if_empty(
    storage: &Storage,
    batch_size: usize,
    explain_batch_size: usize,
) -> anyhow::Result<bool> {
    if storage.count_benchmarks().await? > 0 {
        return Ok(false);
    }
    let (memes, items) = import_chime(
        storage,
        &demo_spec(batch_size, explain_batch_size),
        DEMO_MEMES,
        DEMO_MCQ,
    )
    .await?;
    tracing::info!(memes, items, "loaded the demo benchmark");
    Ok(true)
}
