//! The statements raters judge under the accuracy protocol (CHIME §4.3): one per explanation
//! field, each answered Disagree / Neutral / Agree. The paper's own three statements are the
//! default; an owner may word them differently (and translate them) when creating a study, and
//! every rating page of that study carries the study's wording.

use super::accuracy::ExplanationField;
use crate::messages::Message;
use crate::msg;
use serde::{Deserialize, Serialize};

/// Longest statement, in characters, in either language.
pub const MAX_STATEMENT_CHARS: usize = 300;

/// One statement in both languages of the site.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Statement {
    /// English wording.
    pub en: String,
    /// Chinese wording.
    pub zh: String,
}

/// The three statements of an accuracy study, one per explanation field: what "Agree" means
/// for the meaning, the origin and the example sentence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct AccuracyStatements {
    /// Statement on the meaning (CHIME statement 1).
    pub meaning: Statement,
    /// Statement on the origin (CHIME statement 2).
    pub origin: Statement,
    /// Statement on the example sentence (CHIME statement 3: the *usage*, not accuracy).
    pub example: Statement,
}

impl Default for AccuracyStatements {
    /// The paper's statements (CHIME §4.3), word for word, with our Chinese translation.
    fn default() -> Self {
        let s = |en: &str, zh: &str| Statement {
            en: en.to_owned(),
            zh: zh.to_owned(),
        };
        Self {
            meaning: s(
                "The explanation is completely accurate and aligns perfectly with the actual \
                 meaning of the meme.",
                "该解释完全准确，与这个梗的实际含义完全一致。",
            ),
            origin: s(
                "The provided origin perfectly matches the source of the meme without any \
                 discrepancies.",
                "所给出处与这个梗的来源完全吻合，没有任何出入。",
            ),
            example: s(
                "The example sentence accurately reflects the actual usage of the meme, clearly \
                 and effectively demonstrating its meaning.",
                "例句准确反映了这个梗的实际用法，清楚有效地展示了它的含义。",
            ),
        }
    }
}

impl AccuracyStatements {
    /// The statement on one field.
    pub fn of(&self, field: ExplanationField) -> &Statement {
        match field {
            ExplanationField::Meaning => &self.meaning,
            ExplanationField::Origin => &self.origin,
            ExplanationField::Example => &self.example,
        }
    }

    /// Checks every wording: one line of 1 to [`MAX_STATEMENT_CHARS`] characters (spaces
    /// around not counted), and says which one is wrong (`statements.origin.zh`).
    ///
    /// ```
    /// use memeboard_core::human_eval::statements::AccuracyStatements;
    /// assert!(AccuracyStatements::default().validate().is_ok());
    /// let mut s = AccuracyStatements::default();
    /// s.origin.zh = "  ".into();
    /// let err = s.validate().unwrap_err();
    /// assert_eq!(err.code(), "study.statement");
    /// assert!(err.to_string().contains("statements.origin.zh"));
    /// ```
    pub fn validate(&self) -> Result<(), Message> {
        for (name, field) in [
            ("meaning", ExplanationField::Meaning),
            ("origin", ExplanationField::Origin),
            ("example", ExplanationField::Example),
        ] {
            let statement = self.of(field);
            for (lang, text) in [("en", &statement.en), ("zh", &statement.zh)] {
                let field = format!("statements.{name}.{lang}");
                if text.chars().any(char::is_control) {
                    return Err(msg!("study.statement_line", field = field));
                }
                let chars = text.trim().chars().count();
                if chars == 0 || chars > MAX_STATEMENT_CHARS {
                    return Err(msg!(
                        "study.statement",
                        field = field,
                        max = MAX_STATEMENT_CHARS,
                        found = chars
                    ));
                }
            }
        }
        Ok(())
    }

    /// The same statements with surrounding spaces trimmed (as stored).
    pub fn trimmed(&self) -> Self {
        let t = |s: &Statement| Statement {
            en: s.en.trim().to_owned(),
            zh: s.zh.trim().to_owned(),
        };
        Self {
            meaning: t(&self.meaning),
            origin: t(&self.origin),
            example: t(&self.example),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_the_papers_wording() {
        let s = AccuracyStatements::default();
        assert!(s.example.en.contains("actual usage of the meme"));
        assert!(s
            .of(ExplanationField::Origin)
            .en
            .starts_with("The provided origin"));
        assert!(s.validate().is_ok());
    }

    #[test]
    fn each_wording_is_checked_by_name() {
        type Break = fn(&mut AccuracyStatements);
        let cases: [(Break, &str); 3] = [
            (
                |s| s.meaning.en = "x".repeat(MAX_STATEMENT_CHARS + 1),
                "statements.meaning.en",
            ),
            (
                |s| s.example.zh = "第一行\n第二行".into(),
                "statements.example.zh",
            ),
            (|s| s.origin.en = String::new(), "statements.origin.en"),
        ];
        for (break_it, field) in cases {
            let mut s = AccuracyStatements::default();
            break_it(&mut s);
            let err = s.validate().unwrap_err();
            assert!(err.to_string().contains(field), "{err}");
        }
        let mut s = AccuracyStatements::default();
        s.meaning.en = format!("  {}  ", "y".repeat(MAX_STATEMENT_CHARS));
        assert!(s.validate().is_ok(), "spaces around do not count");
        assert_eq!(s.trimmed().meaning.en.len(), MAX_STATEMENT_CHARS);
    }
}
