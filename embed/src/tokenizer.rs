//! A BERT WordPiece tokenizer configured from a Hugging Face `tokenizer.json`, giving the same
//! token ids as the `tokenizers` crate the server uses, without depending on it.
//!
//! Supported configuration (what BERT-style `tokenizer.json` files use; anything else is
//! refused with [`EmbedError::Tokenizer`](crate::EmbedError::Tokenizer) rather than silently
//! tokenized differently):
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

mod chars;
mod json;

use chars::{is_chinese_char, is_control, is_punctuation, is_whitespace, push_stripped};
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

impl Tokenizer {
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
mod tests;
