//! Which scoring a stored explanation file went through: files scored before meaning
//! identification (a database of an earlier version keeps their cosines) carry no marker, and
//! files scored before the per-type figures (CHIME Table 10) or the graded near-ties an older
//! version number; both are scored again at start-up from their stored outputs (`upgrade::explanations`).

use serde_json::Value;

/// Key and value in a submission's extra figures that say it is scored by identification.
pub const PRIMARY_KEY: &str = "primary";
/// See [`PRIMARY_KEY`].
pub const PRIMARY_VALUE: &str = "identification";

/// Key of the scoring version in a submission's extra figures.
pub const VERSION_KEY: &str = "scoring_version";
/// The scoring version of files scored now: 2 adds meaning cosine and BERTScore per type, 3
/// grades near-ties in identification (`identification::TIE_BAND`).
pub const VERSION: u64 = 3;

/// Key of the embedding model's name in a submission's extra figures.
pub const MODEL_KEY: &str = "scoring_model";

/// Whether a stored explanation submission is to be scored again: it predates
/// identification or the current [`VERSION`], or was scored by another embedding model than
/// `model` (the owner installed the paper's model, say).
pub fn needs_rescoring(extra_json: Option<&str>, model: &str) -> bool {
    let extra: Option<Value> = extra_json.and_then(|j| serde_json::from_str(j).ok());
    extra.is_none_or(|e| {
        predates_identification(&e)
            || e[VERSION_KEY].as_u64().is_none_or(|v| v < VERSION)
            || e[MODEL_KEY] != model
    })
}

/// Whether a stored explanation submission's extra figures predate identification.
fn predates_identification(extra: &Value) -> bool {
    extra[PRIMARY_KEY] != PRIMARY_VALUE
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_files_without_the_marker_predate_identification() {
        assert!(needs_rescoring(None, "m"));
        assert!(predates_identification(&json!({"public": []})));
        assert!(!predates_identification(
            &json!({"primary": "identification"})
        ));
        let now = r#"{"primary": "identification", "scoring_version": 3, "scoring_model": "m"}"#;
        assert!(!needs_rescoring(Some(now), "m"));
        assert!(
            needs_rescoring(Some(now), "bge-large-zh-v1.5"),
            "another model"
        );
        assert!(needs_rescoring(
            Some(r#"{"primary": "identification"}"#),
            "m"
        ));
        assert!(needs_rescoring(
            Some(r#"{"primary": "identification", "scoring_version": 2, "scoring_model": "m"}"#),
            "m"
        ));
    }
}
