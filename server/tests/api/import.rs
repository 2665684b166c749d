//! CHIME import: the real upstream subset in `server/tests/fixtures/chime` (MIT, provenance in
//! its PROVENANCE.md), re-imports that keep ids,
//! and malformed files that are rejected whole with record- and field-level messages.

use crate::helpers::{fresh_storage, Db};
use crate::on_both_databases;
use insta::assert_snapshot;
use memeboard_core::ids::stable_id;
use memeboard_server::import::{import_chime, mcq_item_id, parse_chime, BenchmarkSpec};
use serde_json::{json, Value};
use std::path::PathBuf;

fn spec() -> BenchmarkSpec {
    BenchmarkSpec {
        slug: "chime".into(),
        title: "CHIME".into(),
        description: "test".into(),
        batch_size: 24,
        quiz_open: true,
        dev_percent: 10,
        explain_batch_size: 6,
    }
}

fn shared_chime(file: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/chime")
        .join(file);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {} (the CHIME subset fixture): {e}", path.display()))
}

fn meme(phrase: &str, type_en: &str) -> Value {
    json!({"meme": phrase, "meaning": format!("{phrase}的意思"), "origin": null,
           "examples": [format!("他说{phrase}。")], "profanity": false, "offense": false,
           "type_cn": "现象", "type_en": type_en})
}

fn mcq(sentence: &str, correct: u64, options: [&str; 5]) -> Value {
    json!({"sentence": sentence, "correct_answer": correct,
           "options": {"1": options[0], "2": options[1], "3": options[2], "4": options[3], "5": options[4]}})
}

fn problems(memes: &Value, mcqs: &Value) -> Vec<String> {
    parse_chime(&spec(), &memes.to_string(), &mcqs.to_string())
        .expect_err("should be rejected")
        .problems
}

async fn the_real_chime_subset_imports_with_stable_ids(db: Db) {
    let (storage, _dir) = fresh_storage(db).await;
    let memes = shared_chime("chime_full.subset.json");
    let mcq = shared_chime("chime_mcq.subset.json");
    let (n_memes, n_items) = import_chime(&storage, &spec(), &memes, &mcq)
        .await
        .expect("import");
    assert_eq!((n_memes, n_items), (37, 32));
    // 32 fill-in-the-blank questions + one explanation item per meme.
    assert_eq!(
        storage.benchmark_counts("chime").await.unwrap(),
        (37, 32 + 37)
    );
    assert_eq!(storage.task_items("chime-explain").await.unwrap().len(), 37);

    // Ids are derived from public content only: the first question is keyed by its sentence
    // and options, never by its answer.
    let candidates = storage
        .assignment_candidates("chime-mcq", false)
        .await
        .unwrap();
    let first_record = &serde_json::from_str::<Value>(&mcq).unwrap()[0];
    let options: Vec<String> = (1..=5)
        .map(|k| {
            first_record["options"][k.to_string()]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    let first = mcq_item_id("chime", "这款薯片好好吃，入口就是_____感觉。", &options);
    assert_eq!(candidates[0].id, first);
    assert_ne!(
        candidates[0].id,
        stable_id(
            "mcq",
            &["chime", "这款薯片好好吃，入口就是_____感觉。", "treetree的"],
        )
    );
    assert_eq!(candidates[0].category, "homophonic_pun");

    // Re-importing changes nothing: same ids, no duplicates.
    import_chime(&storage, &spec(), &memes, &mcq)
        .await
        .expect("re-import");
    assert_eq!(
        storage.benchmark_counts("chime").await.unwrap(),
        (37, 32 + 37)
    );
    let again = storage
        .assignment_candidates("chime-mcq", false)
        .await
        .unwrap();
    assert_eq!(
        candidates.iter().map(|c| &c.id).collect::<Vec<_>>(),
        again.iter().map(|c| &c.id).collect::<Vec<_>>()
    );
    let quiz = storage
        .find_open_quiz("chime-mcq")
        .await
        .unwrap()
        .expect("quiz listed");
    assert_eq!(quiz.item_count, 32);
    assert_eq!(quiz.task.batch_size, 24);
}

async fn a_malformed_file_imports_nothing(db: Db) {
    let (storage, _dir) = fresh_storage(db).await;
    let memes = json!([meme("躺平", "experience"), meme("内卷", "no such type")]);
    let mcqs = json!([mcq("大家都_____了。", 1, ["躺平", "a", "b", "c", "d"])]);
    let err = import_chime(&storage, &spec(), &memes.to_string(), &mcqs.to_string())
        .await
        .expect_err("rejected");
    assert!(
        format!("{err:#}").contains("memes file record 2 (meme \"内卷\"), field `type_en`"),
        "{err:#}"
    );
    assert!(storage
        .table_counts()
        .await
        .unwrap()
        .iter()
        .all(|(_, n)| *n == 0));
}

on_both_databases!(
    the_real_chime_subset_imports_with_stable_ids,
    a_malformed_file_imports_nothing
);

#[test]
fn invalid_json_names_the_line_and_column() {
    let p = parse_chime(&spec(), "[\n  {\"meme\": }\n]", "[]")
        .expect_err("bad json")
        .problems;
    assert_snapshot!(p[0], @"memes file: not valid JSON at line 2, column 12: expected value at line 2 column 12");
}

#[test]
fn every_problem_names_record_and_field() {
    let memes = json!([
        meme("躺平", "experience"),
        {"meme": "内卷", "meaning": "m", "origin": 3, "examples": [], "profanity": false, "offense": false, "type_en": "slang"},
        {"meme": "破防", "origin": null, "examples": [], "profanity": "no", "offense": false, "type_en": "slang"},
        meme("躺平", "slang"),
        "not an object",
    ]);
    let mcqs = json!([
        mcq("大家都_____了。", 7, ["躺平", "a", "b", "c", "d"]),
        mcq("没有空格。", 1, ["躺平", "a", "b", "c", "d"]),
        mcq("他_____了。", 2, ["躺平", "摸鱼", "b", "c", "d"]),
        {"sentence": "他_____了。", "correct_answer": 1, "options": {"1": "躺平", "3": "x"}},
    ]);
    let p = problems(&memes, &mcqs);
    assert_snapshot!(p.join("\n"), @r#"
    memes file record 5: expected an object, found "not an object"
    memes file record 2 (meme "内卷"), field `origin`: expected text or null, found the number 3
    memes file record 3 (meme "破防"), field `meaning`: missing
    memes file record 4: duplicate meme "躺平" (first at record 1)
    mcq file record 1 (sentence "大家都_____了。"), field `correct_answer`: expected an option number from 1 to 5, found 7
    mcq file record 2 (sentence "没有空格。"), field `sentence`: expected a sentence containing the blank "_____"
    mcq file record 3 (sentence "他_____了。"), field `correct_answer`: the correct option "摸鱼" (option 2) matches no meme in the memes file
    mcq file record 4 (sentence "他_____了。"), field `options`: expected keys "1".."2", key "2" is missing
    "#);
}

#[test]
fn a_file_that_is_not_an_array_is_rejected() {
    let p = problems(&json!({"meme": "x"}), &json!([]));
    assert_snapshot!(p[0], @r#"memes file: expected a JSON array of records, found an object"#);
}

#[test]
fn duplicate_questions_are_rejected() {
    let memes = json!([meme("躺平", "experience")]);
    let q = mcq("大家都_____了。", 1, ["躺平", "a", "b", "c", "d"]);
    let p = problems(&memes, &json!([q.clone(), q]));
    assert_eq!(
        p,
        vec![
            "mcq file record 2: duplicate question (same sentence and options as record 1)"
                .to_string()
        ]
    );
}
