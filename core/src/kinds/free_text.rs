//! What the free-text kinds share (meme explanations, comic explanations): the bound on a
//! written answer and how one is checked and trimmed before it is stored.

use super::FieldError;

/// Longest accepted free-text quiz answer, in characters (the server and the page use this
/// one value).
pub const MAX_ANSWER_CHARS: usize = 1000;

/// A written answer as stored: `text` trimmed, or the `answer.text` error when that leaves
/// nothing or more than [`MAX_ANSWER_CHARS`] characters.
///
/// ```
/// use memeboard_core::kinds::free_text::accept_text;
/// assert_eq!(accept_text("  the best  ").unwrap(), "the best");
/// let err = accept_text(" \n").unwrap_err();
/// assert_eq!(err.to_string(), "`answer.text`: expected 1 to 1000 characters, found 0");
/// ```
pub fn accept_text(text: &str) -> Result<String, FieldError> {
    let text = text.trim().to_owned();
    let chars = text.chars().count();
    if chars == 0 || chars > MAX_ANSWER_CHARS {
        return Err(FieldError {
            field: "answer.text",
            message: crate::msg!("answer.text_length", max = MAX_ANSWER_CHARS, found = chars),
        });
    }
    Ok(text)
}
