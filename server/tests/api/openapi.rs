//! The OpenAPI document served at `/api/openapi.json`: valid JSON, OpenAPI 3.1, describing
//! exactly the routes the router serves, with every `$ref` resolving, and with the schemas
//! of every wire type generated from the Rust types themselves (so they cannot drift).

use crate::helpers::{Db, TestApp};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;
use std::collections::BTreeSet;
use tower::ServiceExt;

/// Every (method, path) the router serves: `/healthz` plus the `/api` routes of
/// `server/src/routes/mod.rs` and `server/src/routes/leaderboard.rs`. A new route must be
/// added here and to `server/openapi.json`.
const ROUTES: &[(&str, &str)] = &[
    ("get", "/healthz"),
    // Quizzes (routes/mod.rs).
    ("get", "/api/quizzes"),
    ("get", "/api/quizzes/{slug}"),
    ("get", "/api/quizzes/{slug}/stats"),
    ("post", "/api/quizzes/{slug}/sessions"),
    ("post", "/api/quizzes/{slug}/headphone-checks"),
    ("get", "/api/headphone-checks/{id}/sounds/{trial}"),
    ("get", "/api/sessions/{id}"),
    ("post", "/api/sessions/{id}/answers"),
    ("post", "/api/sessions/{id}/prefaces"),
    ("get", "/api/sessions/{id}/results"),
    ("get", "/api/openapi.json"),
    ("get", "/api/embedding-model"),
    ("get", "/model-files/{file}"),
    // Leaderboard (routes/leaderboard.rs).
    ("post", "/api/authors"),
    ("get", "/api/me"),
    ("get", "/api/tasks"),
    ("get", "/api/tasks/{slug}/manifest"),
    ("get", "/api/tasks/{slug}/inputs.jsonl"),
    ("get", "/api/tasks/{slug}/media.tar"),
    ("get", "/api/tasks/{slug}/SHA256SUMS"),
    ("get", "/api/tasks/{slug}/template.jsonl"),
    ("get", "/api/tasks/{slug}/template.csv"),
    ("get", "/api/tasks/{slug}/dev-gold.jsonl"),
    ("post", "/api/tasks/{slug}/submissions"),
    ("get", "/api/boards/{slug}"),
    ("get", "/api/benchmarks/{slug}/tables"),
    ("get", "/api/benchmarks/{slug}/tables/{file}"),
    ("get", "/api/boards/{slug}/download.csv"),
    ("get", "/api/boards/{slug}/download.json"),
    ("get", "/api/submissions/{id}"),
    ("get", "/api/submissions/{id}/items"),
    ("post", "/api/admin/tasks/{slug}/board"),
    // Owner raw data (routes/owner.rs).
    ("get", "/api/owner/tasks/{slug}/export.csv"),
    ("get", "/api/owner/tasks/{slug}/export.jsonl"),
    ("get", "/api/owner/tasks/{slug}/export-dictionary"),
    ("delete", "/api/owner/tasks/{slug}/participants/{who}"),
    ("post", "/api/owner/tasks/{slug}/rescore"),
    // Owners (routes/owners.rs).
    ("post", "/api/admin/owners"),
    ("get", "/api/owner/tasks"),
    ("get", "/api/owner/tasks/{slug}/console"),
    ("put", "/api/owner/tasks/{slug}/settings"),
    ("get", "/api/owner/tasks/{slug}/progress"),
    ("post", "/api/sessions/{id}/checks"),
    // Human-evaluation studies (routes/studies.rs).
    ("post", "/api/owner/tasks/{slug}/studies"),
    ("get", "/api/owner/tasks/{slug}/studies"),
    ("get", "/api/owner/studies/{slug}"),
    ("get", "/api/owner/studies/{slug}/judgements.csv"),
    ("get", "/api/owner/studies/{slug}/judgements.jsonl"),
    ("get", "/api/owner/studies/{slug}/tables.json"),
    ("get", "/api/owner/studies/{slug}/raters.csv"),
    ("post", "/api/owner/studies/{slug}/invitation"),
    ("post", "/api/owner/tasks/{slug}/studies/preview"),
    ("put", "/api/owner/studies/{slug}/reliability"),
];

const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

fn document() -> Value {
    serde_json::from_str(memeboard_server::routes::OPENAPI_JSON).expect("openapi.json is JSON")
}

#[tokio::test]
async fn the_document_is_served_as_openapi_3_1_json() {
    let app = TestApp::spawn(Db::Sqlite).await;
    let response = app
        .app
        .router()
        .oneshot(
            Request::get("/api/openapi.json")
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let content_type = response.headers()["content-type"].to_str().unwrap();
    assert!(
        content_type.starts_with("application/json"),
        "{content_type}"
    );
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let doc: Value = serde_json::from_slice(&bytes).expect("served document is JSON");
    let version = doc["openapi"].as_str().expect("openapi version");
    assert!(version.starts_with("3.1."), "{version}");
    assert_eq!(doc["info"]["title"], "memeboard");
    assert_eq!(doc["info"]["version"], "0.1.0");
    assert_eq!(doc, document(), "served verbatim");
}

#[test]
fn the_document_describes_exactly_the_routes_served() {
    let doc = document();
    let paths = doc["paths"].as_object().expect("paths");
    let documented: BTreeSet<(String, String)> = paths
        .iter()
        .flat_map(|(path, item)| {
            item.as_object()
                .expect("path item")
                .keys()
                .filter(|k| METHODS.contains(&k.as_str()))
                .map(move |m| (m.clone(), path.clone()))
        })
        .collect();
    let served: BTreeSet<(String, String)> = ROUTES
        .iter()
        .map(|(m, p)| ((*m).to_owned(), (*p).to_owned()))
        .collect();
    assert_eq!(served.len(), ROUTES.len(), "duplicate route in ROUTES");
    let missing: Vec<_> = served.difference(&documented).collect();
    let extra: Vec<_> = documented.difference(&served).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "undocumented routes: {missing:?}; documented but not served: {extra:?}"
    );
}

#[test]
fn every_operation_has_a_description_responses_and_declared_path_parameters() {
    let doc = document();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            if !METHODS.contains(&method.as_str()) {
                continue;
            }
            let what = format!("{method} {path}");
            assert!(
                op["description"].as_str().is_some_and(|d| !d.is_empty()),
                "{what}: no description"
            );
            assert!(
                op["responses"].as_object().is_some_and(|r| !r.is_empty()),
                "{what}: no responses"
            );
            let declared: BTreeSet<&str> = op["parameters"]
                .as_array()
                .map(|ps| {
                    ps.iter()
                        .filter(|p| p["in"] == "path")
                        .map(|p| p["name"].as_str().unwrap())
                        .collect()
                })
                .unwrap_or_default();
            let in_path: BTreeSet<&str> = path
                .split('/')
                .filter_map(|s| s.strip_prefix('{')?.strip_suffix('}'))
                .collect();
            assert_eq!(declared, in_path, "{what}: path parameters");
        }
    }
}

fn collect_refs<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                if k == "$ref" {
                    out.push(v.as_str().expect("$ref is a string"));
                } else {
                    collect_refs(v, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, out)),
        _ => {}
    }
}

#[test]
fn every_ref_resolves_to_a_component_schema() {
    let doc = document();
    let schemas = doc["components"]["schemas"].as_object().expect("schemas");
    let mut refs = Vec::new();
    collect_refs(&doc, &mut refs);
    // Discriminator mappings name schemas too.
    let mut mappings = Vec::new();
    collect_mappings(&doc, &mut mappings);
    assert!(!refs.is_empty());
    for r in refs.iter().chain(&mappings) {
        let name = r
            .strip_prefix("#/components/schemas/")
            .unwrap_or_else(|| panic!("`{r}` is not a #/components/schemas/ reference"));
        assert!(schemas.contains_key(name), "`{r}` does not resolve");
    }
}

fn collect_mappings<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
    match value {
        Value::Object(map) => {
            if let Some(mapping) = map
                .get("discriminator")
                .and_then(|d| d.get("mapping"))
                .and_then(Value::as_object)
            {
                out.extend(mapping.values().filter_map(Value::as_str));
            }
            map.values().for_each(|v| collect_mappings(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_mappings(v, out)),
        _ => {}
    }
}

/// Every bearer-protected endpoint says so.
#[test]
fn authenticated_endpoints_declare_the_bearer_scheme() {
    let doc = document();
    assert_eq!(
        doc["components"]["securitySchemes"]["bearerAuth"]["scheme"],
        "bearer"
    );
    for (method, path) in [
        ("get", "/api/me"),
        ("post", "/api/tasks/{slug}/submissions"),
        ("get", "/api/submissions/{id}/items"),
        ("post", "/api/admin/tasks/{slug}/board"),
    ] {
        assert_eq!(
            doc["paths"][path][method]["security"][0]["bearerAuth"],
            serde_json::json!([]),
            "{method} {path}"
        );
    }
}

/// The schemas in `server/openapi.json` are the ones generated from the wire types
/// (`memeboard_core::schema::wire_schemas`). After changing a wire type, regenerate them with
/// `MEMEBOARD_UPDATE_OPENAPI=1 cargo test -p memeboard-server --test api openapi`. The few
/// hand-written schemas (file line formats such as `InputsLine`) are kept as they are.
#[test]
fn component_schemas_are_generated_from_the_wire_types() {
    let generated = memeboard_core::schema::wire_schemas();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.json");
    if std::env::var_os("MEMEBOARD_UPDATE_OPENAPI").is_some() {
        let mut doc = document();
        let schemas = doc["components"]["schemas"]
            .as_object_mut()
            .expect("schemas");
        for (name, schema) in &generated {
            schemas.insert(name.clone(), schema.clone());
        }
        let text = serde_json::to_string_pretty(&doc).expect("serialise") + "\n";
        std::fs::write(path, text).expect("write openapi.json");
        return;
    }
    let doc = document();
    let schemas = doc["components"]["schemas"].as_object().expect("schemas");
    for (name, schema) in &generated {
        assert_eq!(
            schemas.get(name),
            Some(schema),
            "schema `{name}` in server/openapi.json differs from its Rust type; regenerate with \
             MEMEBOARD_UPDATE_OPENAPI=1 cargo test -p memeboard-server --test api openapi"
        );
    }
}

/// Examples of every wire variant, serialised by the server's own types, fit the generated
/// schemas by name and shape: each tagged variant's `kind` is one the schema lists.
#[test]
fn every_wire_variant_has_a_schema_branch() {
    use memeboard_core::api::RowKind;
    use memeboard_core::kinds::{PromptView, ReviewDetail, TaskKind};
    let doc = document();
    let schemas = &doc["components"]["schemas"];
    let consts = |name: &str| -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let schema = &schemas[name];
        for branch in schema["oneOf"].as_array().into_iter().flatten() {
            if let Some(c) = branch["properties"]["kind"]["const"].as_str() {
                out.insert(c.to_owned());
            }
            if let Some(c) = branch["const"].as_str() {
                out.insert(c.to_owned());
            }
        }
        for e in schema["enum"].as_array().into_iter().flatten() {
            out.insert(e.as_str().unwrap_or_default().to_owned());
        }
        out
    };
    let kinds: BTreeSet<String> = TaskKind::ALL
        .iter()
        .map(|k| k.as_str().to_owned())
        .collect();
    assert_eq!(consts("TaskKind"), kinds);
    assert_eq!(consts("PromptView"), kinds);
    assert_eq!(consts("ReviewDetail"), kinds);
    assert_eq!(consts("ItemPrompt"), kinds);
    // Every serde tag of a kind-wrapping enum is named in its schema.
    let prompt = serde_json::to_value(PromptView::TextMcq(memeboard_core::kinds::text_mcq::View {
        sentence: "_____".into(),
        options: vec!["a".into()],
    }))
    .unwrap();
    assert!(consts("PromptView").contains(prompt["kind"].as_str().unwrap()));
    let review = serde_json::to_value(ReviewDetail::Explanation(
        memeboard_core::kinds::explanation::Review {
            meme: "m".into(),
            answer: "a".into(),
            score: None,
            reference: None,
        },
    ))
    .unwrap();
    assert!(consts("ReviewDetail").contains(review["kind"].as_str().unwrap()));
    for kind in [
        RowKind::Model,
        RowKind::HumanAverage,
        RowKind::HumanBest,
        RowKind::HumanPooled,
        RowKind::Chance,
        RowKind::RandomPair,
    ] {
        let tag = serde_json::to_value(kind).unwrap();
        assert!(
            consts("RowKind").contains(tag.as_str().unwrap()),
            "{tag} missing from RowKind"
        );
    }
}
