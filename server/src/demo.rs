//! The demo benchmarks shipped with the site (original content written and drawn for
//! memeboard), loaded on first start so the site is never empty: text memes in the CHIME
//! upstream format, and multi-panel comics (SVG panels rasterised to PNG at load time) in the
//! manifest format of docs/panels.md.

use crate::import::{import_chime, BenchmarkSpec};
use crate::import_panels::{import_panels, PanelsSpec};
use crate::raster::{demo_panel_files, svg_to_png, DEMO_PANELS_MANIFEST};
use crate::storage::Storage;
use anyhow::Context;
use std::collections::HashMap;

/// Demo memes (CHIME `chime_full.json` format).
pub const DEMO_MEMES: &str = include_str!("../demo/demo_memes.json");
/// Demo questions (CHIME `chime_mcq.json` format).
pub const DEMO_MCQ: &str = include_str!("../demo/demo_mcq.json");

/// Slug of the text demo.
pub const TEXT_DEMO: &str = "demo";
/// Slug of the multi-panel demo (quizzes `demo-panel-order`, `demo-panel-type`).
pub const PANEL_DEMO: &str = "demo-panel";

/// The demo benchmark's identity.
pub fn demo_spec(batch_size: usize, explain_batch_size: usize) -> BenchmarkSpec {
    BenchmarkSpec {
        slug: TEXT_DEMO.into(),
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

/// Loads the demos into a database that holds no benchmark yet, and the multi-panel demo
/// into one that runs the text demo from before it existed; returns whether anything loaded.
pub async fn load_if_empty(
    storage: &Storage,
    batch_size: usize,
    explain_batch_size: usize,
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
    if (empty || storage.has_benchmark(TEXT_DEMO).await?)
        && !storage.has_benchmark(PANEL_DEMO).await?
    {
        load_panel_demo(storage).await?;
        return Ok(true);
    }
    Ok(empty)
}

/// Rasterises the demo comics (off the async executor) and imports them like any manifest.
pub async fn load_panel_demo(storage: &Storage) -> anyhow::Result<()> {
    let pngs: HashMap<String, Vec<u8>> = tokio::task::spawn_blocking(|| {
        demo_panel_files()
            .into_iter()
            .map(|(name, svg)| {
                svg_to_png(svg)
                    .map(|png| (name.to_owned(), png))
                    .with_context(|| format!("drawing demo panel {name}"))
            })
            .collect::<anyhow::Result<_>>()
    })
    .await??;
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
