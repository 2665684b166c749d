//! A BERT WordPiece tokenizer configured from a Hugging Face `tokenizer.json`, giving the same
//! token ids as the `tokenizers` crate the server uses, without depending on it.
//!
//! Supported configuration (what BERT-style `tokenizer.json` files use; anything else is
//! refused with [`EmbedError::Tokenizer`] rather than silently tokenized differently):
//! - added tokens (`[CLS]`, `[MASK]`, …) matched in the text first, leftmost-longest, without
//!   `single_word`/`lstrip`/`rstrip`;
//! - normalizer `BertNormalizer` (or none): `clean_text`, `handle_chinese_chars`,
//!   `strip_accents` (null = follow `lowercase`), `lowercase`;
//! - pre-tokenizer `BertPreTokenizer` (or none): split on whitespace, isolate punctuation;
//! - model `WordPiece`: greedy longest-match-first with the continuation prefix, words longer
//!   than `max_input_chars_per_word` characters (or that cannot be split) become the unknown
//!   token;
//! - post-processor `TemplateProcessing` (single sequence) or `BertProcessing`: `[CLS] $A
//!   [SEP]`; the sequence is truncated so that the whole encoding fits [`Tokenizer::max_len`]
//!   (512 by default, as the server's truncation).
//!
//! Unicode data: categories come from the same tables `tokenizers` uses (see `tables.rs`).
//! Accent stripping is NFD followed by removal of non-spacing marks, done per character with
//! a precomputed table (Hangul syllables decomposed algorithmically); the canonical
//! reordering of several combining marks that are *not* non-spacing is not performed, which
//! can only matter for exotic scripts, never for Chinese, Latin or emoji text.

use crate::tables::{MARK_NONSPACING, OTHER, PUNCTUATION, STRIP_ACCENTS};
use crate::EmbedError;
use serde::Deserialize;
use serde_json::Value;
use std::collections::HashMap;

/// Default bound on the encoding length, special tokens included (the server's truncation).
pub const DEFAULT_MAX_LEN: usize = 512;

/// The `BertNormalizer` settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BertNormalizer {
    /// Drop control characters, U+0000 and U+FFFD; map every whitespace character to `' '`.
    pub clean_text: bool,
    /// Put spaces around CJK ideographs so that each becomes a word.
    pub handle_chinese_chars: bool,
    /// Remove accents (NFD, then drop non-spacing marks).
    pub strip_accents: bool,
    /// Lowercase (Unicode `to_lowercase`).
    pub lowercase: bool,
}

/// A token string that is matched verbatim in the input and mapped to one id.
#[derive(Debug, Clone, PartialEq, Eq)]
struct AddedToken {
    content: String,
    id: u32,
    /// Matched in the normalized text (true) or the raw text (false).
    normalized: bool,
}

/// A BERT WordPiece tokenizer (see the module docs for what it implements).
#[derive(Debug, Clone)]
pub struct Tokenizer {
    vocab: HashMap<String, u32>,
    unk_id: u32,
    continuing_prefix: String,
    max_input_chars_per_word: usize,
    normalizer: Option<BertNormalizer>,
    bert_pre_tokenizer: bool,
    added: Vec<AddedToken>,
    prefix_ids: Vec<u32>,
    suffix_ids: Vec<u32>,
    max_len: usize,
}

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

fn in_ranges(c: char, ranges: &[(u32, u32)]) -> bool {
    let cp = u32::from(c);
    ranges
        .binary_search_by(|&(lo, hi)| {
            if hi < cp {
                std::cmp::Ordering::Less
            } else if lo > cp {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// Whitespace for `clean_text` (tab, newline and carriage return count as whitespace).
fn is_whitespace(c: char) -> bool {
    c.is_whitespace()
}

/// Control characters for `clean_text`: Unicode categories Cc, Cf and Co, except tab,
/// newline and carriage return (which are whitespace).
fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && !c.is_ascii_graphic() && c != ' ' && in_ranges(c, OTHER)
}

/// The CJK ideograph ranges of BERT's `_is_chinese_char`, as the `tokenizers` crate spells
/// them.
fn is_chinese_char(c: char) -> bool {
    matches!(
        u32::from(c),
        0x4E00..=0x9FFF
            | 0x3400..=0x4DBF
            | 0x20000..=0x2A6DF
            | 0x2A700..=0x2B73F
            | 0x2B740..=0x2B81F
            | 0x2B920..=0x2CEAF
            | 0xF900..=0xFAFF
            | 0x2F800..=0x2FA1F
    )
}

/// BERT punctuation: ASCII 33–47, 58–64, 91–96, 123–126, and Unicode categories P*.
fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || (!c.is_ascii() && in_ranges(c, PUNCTUATION))
}

fn is_mark_nonspacing(c: char) -> bool {
    !c.is_ascii() && in_ranges(c, MARK_NONSPACING)
}

/// Appends `c` with its accents stripped: its canonical decomposition (NFD) without
/// non-spacing marks.
fn push_stripped(c: char, out: &mut String) {
    const S_BASE: u32 = 0xAC00;
    const S_COUNT: u32 = 11172;
    if c.is_ascii() {
        out.push(c);
        return;
    }
    let cp = u32::from(c);
    if (S_BASE..S_BASE + S_COUNT).contains(&cp) {
        // Hangul syllable → leading consonant, vowel and optional trailing consonant jamo.
        let s = cp - S_BASE;
        let jamo = [0x1100 + s / 588, 0x1161 + (s % 588) / 28, 0x11A7 + s % 28];
        let n = if s % 28 == 0 { 2 } else { 3 };
        out.extend(jamo[..n].iter().filter_map(|&j| char::from_u32(j)));
    } else if let Ok(i) = STRIP_ACCENTS.binary_search_by_key(&c, |&(k, _)| k) {
        out.push_str(STRIP_ACCENTS[i].1);
    } else if !is_mark_nonspacing(c) {
        out.push(c);
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

    /// The same tokenizer with encodings truncated to at most `max_len` ids (special tokens
    /// included; at least the special tokens are always kept).
    pub fn with_max_len(mut self, max_len: usize) -> Self {
        self.max_len = max_len;
        self
    }

    /// The bound on [`Tokenizer::encode`]'s length, special tokens included.
    pub fn max_len(&self) -> usize {
        self.max_len
    }

    /// The number of ids in the vocabulary (the largest id plus one).
    pub fn vocab_size(&self) -> usize {
        let added = self.added.iter().map(|t| t.id);
        self.vocab
            .values()
            .copied()
            .chain(added)
            .max()
            .map_or(0, |m| m as usize + 1)
    }

    /// The id of a vocabulary entry or added token.
    pub fn token_id(&self, token: &str) -> Option<u32> {
        self.added
            .iter()
            .find(|t| t.content == token)
            .map(|t| t.id)
            .or_else(|| self.vocab.get(token).copied())
    }

    /// Number of special tokens put before the sequence (1 for `[CLS]`).
    pub fn special_prefix_len(&self) -> usize {
        self.prefix_ids.len()
    }

    /// Number of special tokens put after the sequence (1 for `[SEP]`).
    pub fn special_suffix_len(&self) -> usize {
        self.suffix_ids.len()
    }

    /// Token ids of `text` with the special tokens (`[CLS] … [SEP]`), truncated to
    /// [`Tokenizer::max_len`] — what the model is fed.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut ids = self.tokenize(text);
        let specials = self.prefix_ids.len() + self.suffix_ids.len();
        ids.truncate(self.max_len.saturating_sub(specials));
        let mut out = Vec::with_capacity(ids.len() + specials);
        out.extend_from_slice(&self.prefix_ids);
        out.extend(ids);
        out.extend_from_slice(&self.suffix_ids);
        out
    }

    /// Token ids of `text` without special tokens and without truncation.
    pub fn tokenize(&self, text: &str) -> Vec<u32> {
        let mut ids = Vec::new();
        self.split_added(text, false, &mut |piece| match piece {
            Piece::Added(id) => ids.push(id),
            Piece::Text(raw) => {
                let normalized = self.normalize(raw);
                self.split_added(&normalized, true, &mut |piece| match piece {
                    Piece::Added(id) => ids.push(id),
                    Piece::Text(text) => {
                        self.pre_tokenize(text, &mut |word| self.word_piece(word, &mut ids));
                    }
                });
            }
        });
        ids
    }

    /// Applies the normalizer (identity when the file has none).
    ///
    /// ```
    /// # let json = r#"{"normalizer": {"type": "BertNormalizer", "lowercase": false},
    /// #   "model": {"unk_token": "[UNK]", "vocab": {"[UNK]": 0}}}"#;
    /// let t = memeboard_embed::Tokenizer::from_json(json)?;
    /// // Ideographs are spaced, tab → space, the zero-width joiner (a format char) goes.
    /// assert_eq!(t.normalize("内卷\tOK\u{200D}!"), " 内  卷  OK!");
    /// # Ok::<(), memeboard_embed::EmbedError>(())
    /// ```
    pub fn normalize(&self, text: &str) -> String {
        let Some(n) = self.normalizer else {
            return text.to_owned();
        };
        let mut cleaned = String::with_capacity(text.len() + 8);
        for c in text.chars() {
            let c = if n.clean_text {
                if c == '\0' || c == '\u{FFFD}' || is_control(c) {
                    continue;
                }
                if is_whitespace(c) {
                    ' '
                } else {
                    c
                }
            } else {
                c
            };
            if n.handle_chinese_chars && is_chinese_char(c) {
                cleaned.push(' ');
                cleaned.push(c);
                cleaned.push(' ');
            } else {
                cleaned.push(c);
            }
        }
        let stripped = if n.strip_accents {
            let mut s = String::with_capacity(cleaned.len());
            cleaned.chars().for_each(|c| push_stripped(c, &mut s));
            s
        } else {
            cleaned
        };
        if n.lowercase {
            stripped.chars().flat_map(char::to_lowercase).collect()
        } else {
            stripped
        }
    }

    /// Splits `text` into words: on whitespace (dropped) and around every punctuation
    /// character (kept as its own word). Without a pre-tokenizer the text is one word.
    fn pre_tokenize<'a>(&self, text: &'a str, word: &mut dyn FnMut(&'a str)) {
        if !self.bert_pre_tokenizer {
            if !text.is_empty() {
                word(text);
            }
            return;
        }
        let mut start = 0;
        for (i, c) in text.char_indices() {
            let ws = c.is_whitespace();
            if ws || is_punctuation(c) {
                if start < i {
                    word(&text[start..i]);
                }
                let end = i + c.len_utf8();
                if !ws {
                    word(&text[i..end]);
                }
                start = end;
            }
        }
        if start < text.len() {
            word(&text[start..]);
        }
    }

    /// WordPiece: greedy longest-match-first; a word that cannot be covered (or is too long)
    /// becomes the unknown token.
    fn word_piece(&self, word: &str, ids: &mut Vec<u32>) {
        if word.chars().count() > self.max_input_chars_per_word {
            ids.push(self.unk_id);
            return;
        }
        let first = ids.len();
        let mut candidate = String::with_capacity(word.len() + self.continuing_prefix.len());
        let mut start = 0;
        while start < word.len() {
            let mut end = word.len();
            let mut found = None;
            while start < end {
                candidate.clear();
                if start > 0 {
                    candidate.push_str(&self.continuing_prefix);
                }
                candidate.push_str(&word[start..end]);
                if let Some(&id) = self.vocab.get(&candidate) {
                    found = Some(id);
                    break;
                }
                end -= word[start..end]
                    .chars()
                    .next_back()
                    .map_or(1, char::len_utf8);
            }
            match found {
                Some(id) => ids.push(id),
                None => {
                    ids.truncate(first);
                    ids.push(self.unk_id);
                    return;
                }
            }
            start = end;
        }
    }

    /// Splits `text` at occurrences of the added tokens matched on raw (`normalized ==
    /// false`) or normalized text, leftmost-longest.
    fn split_added<'a>(&self, text: &'a str, normalized: bool, f: &mut dyn FnMut(Piece<'a>)) {
        let mut rest_start = 0;
        let mut i = 0;
        let bytes = text.as_bytes();
        while i < text.len() {
            if !text.is_char_boundary(i) {
                i += 1;
                continue;
            }
            let hit = self.added.iter().find(|t| {
                t.normalized == normalized && bytes[i..].starts_with(t.content.as_bytes())
            });
            match hit {
                Some(t) => {
                    if rest_start < i {
                        f(Piece::Text(&text[rest_start..i]));
                    }
                    f(Piece::Added(t.id));
                    i += t.content.len();
                    rest_start = i;
                }
                None => i += 1,
            }
        }
        if rest_start < text.len() {
            f(Piece::Text(&text[rest_start..]));
        }
    }
}

/// A piece of input: verbatim added token, or text to tokenize.
enum Piece<'a> {
    Added(u32),
    Text(&'a str),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny(normalizer: &str, added: &str) -> Tokenizer {
        let json = format!(
            r###"{{"added_tokens": [{added}], "normalizer": {normalizer},
                "pre_tokenizer": {{"type": "BertPreTokenizer"}},
                "post_processor": {{"type": "TemplateProcessing",
                  "single": [{{"SpecialToken": {{"id": "[CLS]", "type_id": 0}}}},
                             {{"Sequence": {{"id": "A", "type_id": 0}}}},
                             {{"SpecialToken": {{"id": "[SEP]", "type_id": 0}}}}],
                  "special_tokens": {{"[CLS]": {{"id": "[CLS]", "ids": [2], "tokens": ["[CLS]"]}},
                                     "[SEP]": {{"id": "[SEP]", "ids": [3], "tokens": ["[SEP]"]}}}}}},
                "model": {{"type": "WordPiece", "unk_token": "[UNK]",
                  "continuing_subword_prefix": "##", "max_input_chars_per_word": 5,
                  "vocab": {{"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "[MASK]": 4,
                    "a": 5, "##b": 6, "ab": 7, "e": 8, "!": 9, "，": 10, "梗": 11,
                    "\u1112": 12, "##\u1161": 13, "##\u11AB": 14}}}}}}"###
        );
        Tokenizer::from_json(&json).unwrap()
    }

    const LOWER: &str = r#"{"type": "BertNormalizer", "clean_text": true,
        "handle_chinese_chars": true, "strip_accents": null, "lowercase": true}"#;
    const CASED: &str = r#"{"type": "BertNormalizer", "clean_text": true,
        "handle_chinese_chars": true, "strip_accents": null, "lowercase": false}"#;
    const MASK: &str = r#"{"id": 4, "content": "[MASK]", "single_word": false, "lstrip": false,
        "rstrip": false, "normalized": false, "special": true}"#;

    #[test]
    fn word_piece_and_specials() {
        let t = tiny(LOWER, "");
        assert_eq!(t.encode(""), vec![2, 3]);
        assert_eq!(t.encode("ab abb a!"), vec![2, 7, 7, 6, 5, 9, 3]);
        // "abc" cannot be covered → the whole word is unknown, not "ab" + [UNK].
        assert_eq!(t.tokenize("abc"), vec![1]);
        // Longer than max_input_chars_per_word (5).
        assert_eq!(t.tokenize("abbbbb"), vec![1]);
        assert_eq!(t.tokenize("abbbb"), vec![7, 6, 6, 6]);
        assert_eq!((t.special_prefix_len(), t.special_suffix_len()), (1, 1));
    }

    #[test]
    fn normalizer_steps() {
        let t = tiny(LOWER, "");
        // Accents stripped then lowercased; full-width comma is punctuation; CJK spaced.
        assert_eq!(t.normalize("ÉA\u{301}\u{7}\n梗"), "ea  梗 ");
        assert_eq!(t.tokenize("É，梗!"), vec![8, 10, 11, 9]);
        // Hangul syllables decompose into jamo when stripping accents.
        assert_eq!(t.tokenize("한"), vec![12, 13, 14]);
        let cased = tiny(CASED, "");
        assert_eq!(cased.normalize("É"), "É");
    }

    #[test]
    fn added_tokens_and_truncation() {
        let t = tiny(LOWER, MASK);
        // "b" alone is unknown ("##b" only continues); "[mask]" is not the raw added token.
        assert_eq!(t.tokenize("a[MASK]b [mask]"), vec![5, 4, 1, 1, 1, 1]);
        let short = t.clone().with_max_len(4);
        assert_eq!(short.encode("a a a a"), vec![2, 5, 5, 3]);
        assert_eq!(t.clone().with_max_len(1).encode("a"), vec![2, 3]);
        assert_eq!(t.token_id("[MASK]"), Some(4));
        assert_eq!(t.vocab_size(), 15);
    }

    #[test]
    fn unsupported_configuration_is_refused() {
        let bad = r#"{"normalizer": {"type": "NFKC"}, "model": {"unk_token": "[UNK]", "vocab": {"[UNK]": 0}}}"#;
        assert!(Tokenizer::from_json(bad).is_err());
        let no_unk = r#"{"model": {"unk_token": "[UNK]", "vocab": {"a": 0}}}"#;
        assert!(Tokenizer::from_json(no_unk).is_err());
    }

    #[test]
    fn tables_are_sorted() {
        for table in [PUNCTUATION, MARK_NONSPACING, OTHER] {
            assert!(table.windows(2).all(|w| w[0].1 < w[1].0));
        }
        assert!(STRIP_ACCENTS.windows(2).all(|w| w[0].0 < w[1].0));
    }
}
