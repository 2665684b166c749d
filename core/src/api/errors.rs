//! The error body every failed API call returns, and its details.

use serde::{Deserialize, Serialize};

/// The error body of every failed API call:
/// `{"errors":[{"detail":"…","code":"quiz.not_found","params":{"slug":"x"}}]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ErrorBody"))]
pub struct ApiErrorBody {
    /// One entry per problem, most important first.
    pub errors: Vec<ErrorDetail>,
}

/// One problem, in words a person can act on, and as a stable code with parameters that
/// clients translate (the codes and their wording: `docs/errors.md`, `crate::messages`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ErrorDetail {
    /// What went wrong (which field, what was expected), in English.
    pub detail: String,
    /// Stable message code, e.g. `quiz.not_found` (empty from servers that predate codes).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub code: String,
    /// The message's parameters by name (an embedded message `name` has its code under
    /// `name` and its own parameters under `name.*`).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub params: std::collections::BTreeMap<String, String>,
}

impl ErrorDetail {
    /// The wire form of `message` (English `detail`, code, parameters).
    pub fn of(message: &crate::messages::Message) -> Self {
        Self {
            detail: message.to_string(),
            code: message.code().to_owned(),
            params: message.params().clone(),
        }
    }

    /// The text in `locale`: the code's template when known, else `detail` as sent.
    pub fn render(&self, locale: crate::messages::Locale) -> String {
        crate::messages::render(&self.code, &self.params, locale)
            .unwrap_or_else(|| self.detail.clone())
    }
}

impl ApiErrorBody {
    /// A body with a single message.
    pub fn single(message: impl Into<crate::messages::Message>) -> Self {
        Self {
            errors: vec![ErrorDetail::of(&message.into())],
        }
    }

    /// A body with one entry per message, in order.
    pub fn of(messages: &[crate::messages::Message]) -> Self {
        Self {
            errors: messages.iter().map(ErrorDetail::of).collect(),
        }
    }
}
