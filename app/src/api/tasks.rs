//! Tasks and their files: the task list, a task's manifest, its downloads and the open dev
//! split's gold (for the submit page's previews).

use super::ApiError;
use super::{checked_text, encode_component, get_json, get_json_with_token, get_text, segment};
use gloo_net::http::Request;
use memeboard_core::api::TaskSummary;
use memeboard_core::leaderboard::{McqDevGold, McqGold};
use memeboard_core::predictions::TaskManifest;
use serde::de::DeserializeOwned;
use wasm_bindgen::JsCast;

/// `GET /api/tasks`: the tasks that have leaderboards.
pub async fn list_tasks() -> Result<Vec<TaskSummary>, ApiError> {
    get_json("/api/tasks").await
}

/// `GET /api/tasks/{slug}/manifest`: what a prediction file may contain (no gold). Sent with
/// the stored author token when there is one: a clip task's manifest (its choices) is given
/// only to authors while its quiz is open (the server ignores the token otherwise).
pub async fn task_manifest(slug: &str) -> Result<TaskManifest, ApiError> {
    let url = format!("/api/tasks/{}/manifest", segment(slug));
    match crate::storage::token() {
        Some(token) => get_json_with_token(&url, &token).await,
        None => get_json(&url).await,
    }
}

/// `GET /api/tasks/{slug}/dev-gold.jsonl`: gold of the open dev split (for previews).
pub async fn dev_gold(slug: &str) -> Result<Vec<McqGold>, ApiError> {
    let text = get_text(&task_file_url(slug, TaskFile::DevGold)).await?;
    parse_dev_gold(&text).map_err(ApiError::Decode)
}

/// `GET /api/tasks/{slug}/dev-gold.jsonl` read as one `T` per non-empty line: for kinds whose
/// dev gold lines have their own shape (the multi-panel kinds), so each kind declares it.
pub async fn dev_gold_lines<T: DeserializeOwned>(slug: &str) -> Result<Vec<T>, ApiError> {
    let text = get_text(&task_file_url(slug, TaskFile::DevGold)).await?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l)
                .map_err(|e| ApiError::Decode(format!("dev gold line {}: {e}", i + 1)))
        })
        .collect()
}

/// Downloads `url` with `Authorization: Bearer {token}` and saves it as `file_name` (a link
/// cannot send the header): for inputs given only to authors (a clip task's while its quiz
/// is open).
pub async fn download_with_token(url: &str, token: &str, file_name: &str) -> Result<(), ApiError> {
    let resp = Request::get(url)
        .header("Authorization", &format!("Bearer {}", token.trim()))
        .send()
        .await
        .map_err(|e| ApiError::Network(e.to_string()))?;
    let text = checked_text(resp).await?;
    let js = |e: wasm_bindgen::JsValue| ApiError::Decode(format!("{e:?}"));
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(&text));
    let blob = web_sys::Blob::new_with_str_sequence(&parts).map_err(js)?;
    let href = web_sys::Url::create_object_url_with_blob(&blob).map_err(js)?;
    let link: web_sys::HtmlElement = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| ApiError::Decode("no document".into()))?
        .create_element("a")
        .map_err(js)?
        .unchecked_into();
    let _ = link.set_attribute("href", &href);
    let _ = link.set_attribute("download", file_name);
    link.click();
    let _ = web_sys::Url::revoke_object_url(&href);
    Ok(())
}

/// Parses a text-MCQ task's dev gold JSON Lines (`{"item_id","category","answer"}` per line,
/// `answer` numbered from 1 as in prediction files).
pub fn parse_dev_gold(text: &str) -> Result<Vec<McqGold>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str::<McqDevGold>(l)
                .map(McqGold::from)
                .map_err(|e| format!("dev gold line {}: {e}", i + 1))
        })
        .collect()
}

/// `GET /api/tasks/{slug}/dev-gold.jsonl` of an explanation task: `(item id, reference
/// meaning)` of the open dev items.
pub async fn dev_meanings(slug: &str) -> Result<Vec<(String, String)>, ApiError> {
    let text = get_text(&task_file_url(slug, TaskFile::DevGold)).await?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value =
                serde_json::from_str(l).map_err(|e| ApiError::Decode(e.to_string()))?;
            Ok((
                v["item_id"].as_str().unwrap_or_default().to_owned(),
                v["meaning"].as_str().unwrap_or_default().to_owned(),
            ))
        })
        .collect()
}

/// A downloadable file of a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskFile {
    /// Model inputs: sentence and options under every option order.
    Inputs,
    /// JSON Lines template (every item id, empty answers).
    TemplateJsonl,
    /// CSV template.
    TemplateCsv,
    /// Gold of the open dev split.
    DevGold,
}

/// The URL of a task's downloadable file.
pub fn task_file_url(slug: &str, file: TaskFile) -> String {
    let name = match file {
        TaskFile::Inputs => "inputs.jsonl",
        TaskFile::TemplateJsonl => "template.jsonl",
        TaskFile::TemplateCsv => "template.csv",
        TaskFile::DevGold => "dev-gold.jsonl",
    };
    format!("/api/tasks/{}/{name}", encode_component(slug))
}
