//! The demo benchmarks shipped with the site (original content written, drawn and recorded for
//! memeboard), loaded on first start so the site is never empty: text memes in the CHIME
//! upstream format, multi-panel comics (SVG panels rasterised to PNG at load time) in the
//! manifest format of docs/panels.md, and audio-visual clips made at load time with
//! espeak-ng, sox and ffmpeg (docs/clips.md; skipped with a warning when they are missing).
//!
//! The folder `demo/` holds each demo's own code: [`clips`] (the clip recipes and their
//! making), [`raster`] (the comics' SVG panels to PNG) and [`submissions`] (the demo models'
//! uploads).

use crate::import::{import_chime, BenchmarkSpec};
use crate::import_clips::{import_clips, ClipsSpec};
use crate::import_panels::{import_panels, PanelsSpec};
use crate::storage::Storage;
use anyhow::Context;
use clips::{generate, tools_missing, DEMO_CLIPS_MANIFEST};
use raster::{demo_panel_pngs, DEMO_PANELS_MANIFEST};

pub mod clips;
pub mod raster;
pub mod submissions;

/// Demo memes (CHIME `chime_full.json` format).
pub const DEMO_MEMES: &str = include_str!("../demo/demo_memes.json");
/// Demo questions (CHIME `chime_mcq.json` format).
pub const DEMO_MCQ: &str = include_str!("../demo/demo_mcq.json");

/// Slug of the text demo.
pub const TEXT_DEMO: &str = "demo";
/// Slug of the multi-panel demo (quizzes `demo-panel-order`, `demo-panel-type`).
pub const PANEL_DEMO: &str = "demo-panel";

/// Slug of the audio-visual demo benchmark (its quiz is `demo-clips`).
pub const CLIP_DEMO: &str = clips::DEMO_SLUG;

/// The clip demo's identity.
pub fn clip_demo_spec() -> ClipsSpec {
    ClipsSpec {
        slug: CLIP_DEMO.into(),
        task_slug: "demo-clips".into(),
        title: "Audio-visual memes (demo) · 音视频梗（演示）".into(),
        description: "Short clips made for memeboard from synthetic speech, tones and \
                      generated video: say whether you know each one, then answer its question. \
                      · 为 memeboard 合成的短音视频：先说是否听过，再回答问题。"
            .into(),
        batch_size: 12,
        dev_percent: clips::DEV_PERCENT,
        quiz_open: true,
    }
}

/// The demo benchmark's identity.
pub fn demo_spec(batch_size: usize, explain_batch_size: usize) -> BenchmarkSpec {
    BenchmarkSpec {
        slug: TEXT_DEMO.into(),
        title: "Chinese text memes (demo) · 中文网络梗（演示）".into(),
        description: "Pick the meme that fits the blank in each sentence. 216 everyday Chinese \
                      internet memes written for memeboard, 36 per type, in the CHIME format. \
                      · 为每个句子选出最合适的网络梗：216 个为 memeboard 编写的常见中文网络梗，\
                      六种类型各 36 个，CHIME 格式。"
            .into(),
        batch_size,
        quiz_open: true,
        dev_percent: 34,
        explain_batch_size,
    }
}

/// The multi-panel demo's identity.
pub fn panel_demo_spec() -> PanelsSpec {
    PanelsSpec {
        slug: PANEL_DEMO.into(),
        title: "Multi-panel comics (demo) · 多格漫画（演示）".into(),
        description: "Short comics drawn for memeboard: put shuffled panels back in reading \
                      order, or name how a comic is built. · 为 memeboard 绘制的多格漫画：\
                      把打乱的格子排回阅读顺序，或判断漫画的结构类型。"
            .into(),
        batch_size: 8,
        dev_percent: 34,
        quiz_open: true,
    }
}

/// Loads the demos into a database that holds no benchmark yet, and the newer demos into one
/// that runs the text demo from before they existed; the clip demo only given a data folder
/// for its files. Returns whether anything loaded.
pub async fn load_if_empty(
    storage: &Storage,
    batch_size: usize,
    explain_batch_size: usize,
    data_dir: Option<&std::path::Path>,
) -> anyhow::Result<bool> {
    let empty = storage.count_benchmarks().await? == 0;
    if empty {
        let (memes, items) = import_chime(
            storage,
            &demo_spec(batch_size, explain_batch_size),
            DEMO_MEMES,
            DEMO_MCQ,
        )
        .await?;
        tracing::info!(memes, items, "loaded the text demo");
    }
    let demos = empty || storage.has_benchmark(TEXT_DEMO).await?;
    let mut loaded = empty;
    if demos && !storage.has_benchmark(PANEL_DEMO).await? {
        load_panel_demo(storage).await?;
        loaded = true;
    }
    if let Some(data_dir) = data_dir.filter(|_| demos) {
        if !storage.has_benchmark(CLIP_DEMO).await? {
            loaded |= load_clip_demo(storage, data_dir).await?;
        }
    }
    Ok(loaded)
}

/// Makes the demo clips in `<data dir>/demo-clips` (idempotent) and imports them; `false`
/// (with a warning naming what to install) when the tools are missing.
pub async fn load_clip_demo(storage: &Storage, data_dir: &std::path::Path) -> anyhow::Result<bool> {
    let missing = tools_missing();
    if !missing.is_empty() {
        tracing::warn!(
            missing = missing.join(", "),
            "the audio-visual demo needs espeak-ng, sox and ffmpeg (scripts/setup.sh installs \
             them); it is skipped and loads on a later start once they are there"
        );
        return Ok(false);
    }
    let dir = data_dir.join("demo-clips");
    let made = dir.clone();
    let files = tokio::task::spawn_blocking(move || generate(&made))
        .await?
        .context("making the demo clips")?;
    let n = import_clips(
        storage,
        &clip_demo_spec(),
        "demo clips manifest",
        DEMO_CLIPS_MANIFEST,
        &dir,
    )
    .await?;
    tracing::info!(
        clips = n,
        files = files.len(),
        "loaded the audio-visual demo"
    );
    Ok(true)
}

/// Rasterises the demo comics (off the async executor, once per process: see
/// [`demo_panel_pngs`]) and imports them like any manifest.
pub async fn load_panel_demo(storage: &Storage) -> anyhow::Result<()> {
    let pngs = tokio::task::spawn_blocking(demo_panel_pngs)
        .await?
        .map_err(anyhow::Error::msg)?;
    let read = |name: &str| {
        pngs.get(name).cloned().ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::NotFound, "not among the demo panels")
        })
    };
    let summary = import_panels(
        storage,
        &panel_demo_spec(),
        "demo panels manifest",
        DEMO_PANELS_MANIFEST,
        &read,
    )
    .await?;
    tracing::info!(
        comics = summary.comics,
        order = summary.order_items,
        types = summary.type_items,
        "loaded the multi-panel demo"
    );
    Ok(())
}

#[cfg(test)]
mod tests;
