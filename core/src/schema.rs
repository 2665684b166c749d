//! JSON Schemas of the wire types, generated from the Rust types themselves (feature
//! `schema`), so `server/openapi.json` cannot drift from what the server sends: the server's
//! tests compare the document's `components.schemas` with [`wire_schemas`] and can rewrite
//! them (`MEMEBOARD_UPDATE_OPENAPI=1`).

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::{Map, Value};

/// Where OpenAPI 3.1 keeps named schemas; every `$ref` points here.
pub const COMPONENTS_PATH: &str = "#/components/schemas/";

fn add<T: JsonSchema>(generator: &mut schemars::SchemaGenerator) {
    // Registers T (and everything it refers to) as a named definition.
    let _ = generator.subschema_for::<T>();
}

/// Every named schema of the API (request and response bodies and what they contain), keyed
/// by schema name, with references in OpenAPI's `#/components/schemas/` form.
pub fn wire_schemas() -> Map<String, Value> {
    use crate::api::*;
    let mut generator = SchemaSettings::draft2020_12()
        .with(|s| {
            s.definitions_path = COMPONENTS_PATH.trim_start_matches('#').to_owned().into();
        })
        .into_generator();
    add::<ApiErrorBody>(&mut generator);
    add::<HealthResponse>(&mut generator);
    add::<QuizSummary>(&mut generator);
    add::<CrowdStatsResponse>(&mut generator);
    add::<StartSessionRequest>(&mut generator);
    add::<HeadphoneCheckStart>(&mut generator);
    add::<SessionResponse>(&mut generator);
    add::<SubmitAnswerRequest>(&mut generator);
    add::<SubmitAnswerResponse>(&mut generator);
    add::<SubmitPrefaceRequest>(&mut generator);
    add::<SubmitPrefaceResponse>(&mut generator);
    add::<WithdrawResponse>(&mut generator);
    add::<ResultsResponse>(&mut generator);
    add::<CreateAuthorRequest>(&mut generator);
    add::<CreateAuthorResponse>(&mut generator);
    add::<SubmitPredictionsResponse>(&mut generator);
    add::<BoardResponse>(&mut generator);
    add::<crate::paper_tables::PaperTablesResponse>(&mut generator);
    add::<TaskSummary>(&mut generator);
    add::<SubmissionDetail>(&mut generator);
    add::<MeResponse>(&mut generator);
    add::<ItemGap>(&mut generator);
    add::<BoardSettingsRequest>(&mut generator);
    add::<EmbeddingModelInfo>(&mut generator);
    add::<DataDictionary>(&mut generator);
    add::<DeleteParticipantResponse>(&mut generator);
    add::<RescoreRequest>(&mut generator);
    add::<RescoreStarted>(&mut generator);
    add::<crate::fieldwork::SubmitCheckRequest>(&mut generator);
    add::<crate::fieldwork::SubmitCheckResponse>(&mut generator);
    add::<crate::fieldwork::ConsoleResponse>(&mut generator);
    add::<crate::fieldwork::ConsoleSettings>(&mut generator);
    add::<crate::fieldwork::ProgressResponse>(&mut generator);
    add::<crate::fieldwork::OwnedTask>(&mut generator);
    add::<crate::fieldwork::CreateOwnerRequest>(&mut generator);
    add::<crate::fieldwork::CreateOwnerResponse>(&mut generator);
    add::<crate::kinds::ItemPrompt>(&mut generator);
    add::<crate::kinds::AnswerValue>(&mut generator);
    add::<crate::leaderboard::McqDevGold>(&mut generator);
    add::<crate::predictions::TaskManifest>(&mut generator);
    add::<crate::human_eval::study::CreateStudyRequest>(&mut generator);
    add::<crate::human_eval::study::CreateStudyResponse>(&mut generator);
    add::<crate::human_eval::study::InvitationResponse>(&mut generator);
    add::<crate::human_eval::study::StudyPreview>(&mut generator);
    add::<crate::human_eval::study::StudyPage>(&mut generator);
    add::<crate::human_eval::thresholds::ReliabilityThresholds>(&mut generator);
    generator.take_definitions(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refs(value: &Value, out: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(r)) = map.get("$ref") {
                    out.push(r.clone());
                }
                map.values().for_each(|v| refs(v, out));
            }
            Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
            _ => {}
        }
    }

    #[test]
    fn every_reference_resolves_to_a_generated_schema() {
        let schemas = wire_schemas();
        let mut all = Vec::new();
        schemas.values().for_each(|s| refs(s, &mut all));
        assert!(!all.is_empty());
        for r in all {
            let name = r
                .strip_prefix(COMPONENTS_PATH)
                .unwrap_or_else(|| panic!("{r}"));
            assert!(schemas.contains_key(name), "{r} does not resolve");
        }
    }

    #[test]
    fn kinds_get_their_own_schema_names() {
        let schemas = wire_schemas();
        for name in [
            "TextMcqView",
            "ExplanationView",
            "PromptView",
            "ReviewDetail",
        ] {
            assert!(schemas.contains_key(name), "{name}: {:?}", schemas.keys());
        }
    }
}
