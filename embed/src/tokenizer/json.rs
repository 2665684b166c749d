//! Reading a Hugging Face `tokenizer.json` ([`Tokenizer::from_json`]): the serde shapes of
//! the file and the checks that refuse what is not implemented.

use super::{AddedToken, BertNormalizer, Tokenizer, DEFAULT_MAX_LEN};
use crate::EmbedError;
use serde::Deserialize;
use serde_json::Value;
use std::collections::HashMap;

#[derive(Deserialize)]
struct TokenizerJson {
    #[serde(default)]
    added_tokens: Vec<AddedTokenJson>,
    #[serde(default)]
    normalizer: Option<Value>,
    #[serde(default)]
    pre_tokenizer: Option<Value>,
    #[serde(default)]
    post_processor: Option<Value>,
    model: ModelJson,
}

#[derive(Deserialize)]
struct AddedTokenJson {
    id: u32,
    content: String,
    #[serde(default)]
    single_word: bool,
    #[serde(default)]
    lstrip: bool,
    #[serde(default)]
    rstrip: bool,
    #[serde(default)]
    normalized: bool,
}

#[derive(Deserialize)]
struct ModelJson {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    unk_token: String,
    #[serde(default = "default_prefix")]
    continuing_subword_prefix: String,
    #[serde(default = "default_max_chars")]
    max_input_chars_per_word: usize,
    vocab: HashMap<String, u32>,
}

fn default_prefix() -> String {
    "##".into()
}

fn default_max_chars() -> usize {
    100
}

fn err(msg: impl Into<String>) -> EmbedError {
    EmbedError::Tokenizer(msg.into())
}

fn kind_of(v: &Value) -> &str {
    v.get("type").and_then(Value::as_str).unwrap_or("")
}

fn flag(v: &Value, key: &str, default: bool) -> Result<bool, EmbedError> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(err(format!(
            "normalizer.{key}: expected a boolean, got {other}"
        ))),
    }
}

fn parse_normalizer(v: &Value) -> Result<Option<BertNormalizer>, EmbedError> {
    if v.is_null() {
        return Ok(None);
    }
    if kind_of(v) != "BertNormalizer" {
        return Err(err(format!(
            "unsupported normalizer {:?} (only BertNormalizer)",
            kind_of(v)
        )));
    }
    let lowercase = flag(v, "lowercase", true)?;
    Ok(Some(BertNormalizer {
        clean_text: flag(v, "clean_text", true)?,
        handle_chinese_chars: flag(v, "handle_chinese_chars", true)?,
        // `null` means: strip accents exactly when lowercasing (as BERT's uncased models).
        strip_accents: flag(v, "strip_accents", lowercase)?,
        lowercase,
    }))
}

/// The special-token ids before and after the sequence in a single-sequence encoding.
fn parse_post_processor(v: &Value) -> Result<(Vec<u32>, Vec<u32>), EmbedError> {
    match kind_of(v) {
        _ if v.is_null() => Ok((Vec::new(), Vec::new())),
        "BertProcessing" => {
            let id = |key: &str| {
                v.get(key)
                    .and_then(|p| p.get(1))
                    .and_then(Value::as_u64)
                    .and_then(|id| u32::try_from(id).ok())
                    .ok_or_else(|| err(format!("post_processor.{key}: expected [token, id]")))
            };
            Ok((vec![id("cls")?], vec![id("sep")?]))
        }
        "TemplateProcessing" => {
            let special = v.get("special_tokens");
            let mut before = Vec::new();
            let mut after = Vec::new();
            let mut seen_sequence = false;
            let pieces = v
                .get("single")
                .and_then(Value::as_array)
                .ok_or_else(|| err("post_processor.single: expected a list"))?;
            for piece in pieces {
                if let Some(token) = piece.get("SpecialToken") {
                    let name = token
                        .get("id")
                        .and_then(Value::as_str)
                        .ok_or_else(|| err("post_processor: SpecialToken without id"))?;
                    let ids = special
                        .and_then(|s| s.get(name))
                        .and_then(|s| s.get("ids"))
                        .and_then(Value::as_array)
                        .ok_or_else(|| {
                            err(format!("post_processor: special token {name} has no ids"))
                        })?;
                    for id in ids {
                        let id = id
                            .as_u64()
                            .and_then(|id| u32::try_from(id).ok())
                            .ok_or_else(|| err(format!("post_processor: bad id for {name}")))?;
                        if seen_sequence {
                            after.push(id);
                        } else {
                            before.push(id);
                        }
                    }
                } else if piece.get("Sequence").is_some() {
                    if seen_sequence {
                        return Err(err("post_processor.single: more than one sequence"));
                    }
                    seen_sequence = true;
                } else {
                    return Err(err(format!("post_processor.single: unknown piece {piece}")));
                }
            }
            Ok((before, after))
        }
        other => Err(err(format!(
            "unsupported post_processor {other:?} (TemplateProcessing or BertProcessing)"
        ))),
    }
}

impl Tokenizer {
    /// Reads a Hugging Face `tokenizer.json` (the file's text).
    ///
    /// ```
    /// use memeboard_embed::Tokenizer;
    /// let json = r###"{
    ///   "added_tokens": [],
    ///   "normalizer": {"type": "BertNormalizer", "clean_text": true,
    ///                  "handle_chinese_chars": true, "strip_accents": null, "lowercase": true},
    ///   "pre_tokenizer": {"type": "BertPreTokenizer"},
    ///   "post_processor": {"type": "BertProcessing", "sep": ["[SEP]", 3], "cls": ["[CLS]", 2]},
    ///   "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
    ///             "max_input_chars_per_word": 100,
    ///             "vocab": {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3,
    ///                       "梗": 4, "cafe": 5, "play": 6, "##ing": 7, "!": 8}}
    /// }"###;
    /// let t = Tokenizer::from_json(json)?;
    /// // "Café" → lowercased, accent stripped → "cafe"; "playing" → "play" "##ing";
    /// // "梗" is its own word; "xyz" is unknown.
    /// assert_eq!(t.encode("Café playing梗! xyz"), vec![2, 5, 6, 7, 4, 8, 1, 3]);
    /// # Ok::<(), memeboard_embed::EmbedError>(())
    /// ```
    pub fn from_json(json: &str) -> Result<Self, EmbedError> {
        let file: TokenizerJson =
            serde_json::from_str(json).map_err(|e| err(format!("tokenizer.json: {e}")))?;
        if let Some(kind) = file.model.kind.as_deref() {
            if kind != "WordPiece" {
                return Err(err(format!("unsupported model {kind:?} (only WordPiece)")));
            }
        }
        let unk_id = *file.model.vocab.get(&file.model.unk_token).ok_or_else(|| {
            err(format!(
                "unknown token {} not in the vocabulary",
                file.model.unk_token
            ))
        })?;
        let normalizer = match &file.normalizer {
            Some(v) => parse_normalizer(v)?,
            None => None,
        };
        let bert_pre_tokenizer = match &file.pre_tokenizer {
            None | Some(Value::Null) => false,
            Some(v) if kind_of(v) == "BertPreTokenizer" => true,
            Some(v) => {
                return Err(err(format!(
                    "unsupported pre_tokenizer {:?} (only BertPreTokenizer)",
                    kind_of(v)
                )))
            }
        };
        let (prefix_ids, suffix_ids) = match &file.post_processor {
            Some(v) => parse_post_processor(v)?,
            None => (Vec::new(), Vec::new()),
        };
        let mut added = Vec::new();
        for t in file.added_tokens {
            if t.single_word || t.lstrip || t.rstrip {
                return Err(err(format!(
                    "added token {:?}: single_word/lstrip/rstrip are not supported",
                    t.content
                )));
            }
            if !t.content.is_empty() {
                added.push(AddedToken {
                    content: t.content,
                    id: t.id,
                    normalized: t.normalized,
                });
            }
        }
        // Longest first, so that the first match at a position is the longest one.
        added.sort_by_key(|t| std::cmp::Reverse(t.content.len()));
        Ok(Self {
            vocab: file.model.vocab,
            unk_id,
            continuing_prefix: file.model.continuing_subword_prefix,
            max_input_chars_per_word: file.model.max_input_chars_per_word,
            normalizer,
            bert_pre_tokenizer,
            added,
            prefix_ids,
            suffix_ids,
            max_len: DEFAULT_MAX_LEN,
        })
    }
}
