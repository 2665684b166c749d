//! Which primary score a stored explanation file was scored by: files scored before meaning
//! identification (a database of an earlier version keeps their cosines) carry no marker and
//! are scored again at start-up (`upgrade_explanations`).

use serde_json::Value;

/// Key and value in a submission's extra figures that say it is scored by identification.
pub const PRIMARY_KEY: &str = "primary";
/// See [`PRIMARY_KEY`].
pub const PRIMARY_VALUE: &str = "identification";

/// Whether a stored explanation submission predates identification.
pub fn predates_identification(extra_json: Option<&str>) -> bool {
    let extra: Option<Value> = extra_json.and_then(|j| serde_json::from_str(j).ok());
    extra.is_none_or(|e| e[PRIMARY_KEY] != PRIMARY_VALUE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_files_without_the_marker_predate_identification() {
        assert!(predates_identification(None));
        assert!(predates_identification(Some(r#"{"public": []}"#)));
        assert!(!predates_identification(Some(
            r#"{"primary": "identification"}"#
        )));
    }
}
