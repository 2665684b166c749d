//! The CHIME importer: the memes file (`chime_full.json`) and the fill-in-the-blank questions
//! (`chime_mcq.json`) become a benchmark with a text MCQ task and an explanation task. Every
//! record is validated, questions are joined to memes, and ids are minted from public data.

use super::{describe, split_of, title_problem, ImportError};
use crate::storage::{BenchmarkRecord, ItemRecord, MemeRecord, Storage, TaskRecord};
use memeboard_core::ids::stable_id;
use memeboard_core::kinds::{explanation, text_mcq};
use memeboard_core::tasks::{CategoryInfo, ItemGold, ItemPrompt, MemeType, TaskKind};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Which benchmark the imported records belong to.
#[derive(Debug, Clone)]
pub struct BenchmarkSpec {
    /// URL slug; also the namespace of the minted ids.
    pub slug: String,
    /// Title.
    pub title: String,
    /// Description.
    pub description: String,
    /// Items per participant batch (capped by the number of items).
    pub batch_size: usize,
    /// Whether the MCQ task is listed as a public quiz.
    pub quiz_open: bool,
    /// Share of items (0–100) put in the open dev split, chosen by a hash of the item id.
    pub dev_percent: u8,
    /// Memes per participant batch in the explanation quiz.
    pub explain_batch_size: usize,
}

/// The id of a text MCQ item: from public data only (slug, sentence, options in canonical
/// order), never from the gold, so hashing each option cannot recover the answer and changing
/// only the correct answer keeps the id. Re-importing the same question keeps it.
pub fn mcq_item_id(slug: &str, sentence: &str, options: &[String]) -> String {
    let mut parts: Vec<&str> = vec![slug, sentence];
    parts.extend(options.iter().map(String::as_str));
    stable_id("mcq", &parts)
}

/// The id of a meme (public: the phrase).
pub fn meme_id(slug: &str, phrase: &str) -> String {
    stable_id("meme", &[slug, phrase])
}

/// Everything one CHIME import writes.
#[derive(Debug, Clone)]
pub struct ChimeImport {
    /// The benchmark.
    pub benchmark: BenchmarkRecord,
    /// All memes.
    pub memes: Vec<MemeRecord>,
    /// The fill-in-the-blank task.
    pub task: TaskRecord,
    /// Its items.
    pub items: Vec<ItemRecord>,
    /// The explanation task: one item per meme ("what does this meme mean?").
    pub explain_task: TaskRecord,
    /// Its items.
    pub explain_items: Vec<ItemRecord>,
}

struct Record<'a> {
    file: &'static str,
    index: usize,
    label: Option<String>,
    obj: &'a Map<String, Value>,
}

impl Record<'_> {
    fn at(&self, field: &str) -> String {
        match &self.label {
            Some(l) => format!(
                "{} record {} ({l}), field `{field}`",
                self.file,
                self.index + 1
            ),
            None => format!("{} record {}, field `{field}`", self.file, self.index + 1),
        }
    }

    fn get(&self, field: &str) -> Result<&Value, String> {
        self.obj
            .get(field)
            .ok_or_else(|| format!("{}: missing", self.at(field)))
    }

    fn string(&self, field: &str) -> Result<String, String> {
        match self.get(field)? {
            Value::String(s) if !s.trim().is_empty() => Ok(s.clone()),
            Value::String(_) => Err(format!(
                "{}: expected non-empty text, found \"\"",
                self.at(field)
            )),
            other => Err(format!(
                "{}: expected text, found {}",
                self.at(field),
                describe(other)
            )),
        }
    }

    fn opt_string(&self, field: &str) -> Result<Option<String>, String> {
        match self.get(field)? {
            Value::Null => Ok(None),
            Value::String(s) if s.trim().is_empty() => Ok(None),
            Value::String(s) => Ok(Some(s.clone())),
            other => Err(format!(
                "{}: expected text or null, found {}",
                self.at(field),
                describe(other)
            )),
        }
    }

    fn boolean(&self, field: &str) -> Result<bool, String> {
        match self.get(field)? {
            Value::Bool(b) => Ok(*b),
            other => Err(format!(
                "{}: expected true or false, found {}",
                self.at(field),
                describe(other)
            )),
        }
    }
}

fn parse_array<'a>(
    file: &'static str,
    text: &'a str,
    doc: &'a mut Option<Value>,
) -> Result<&'a Vec<Value>, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        format!(
            "{file}: not valid JSON at line {}, column {}: {e}",
            e.line(),
            e.column()
        )
    })?;
    *doc = Some(value);
    match doc {
        Some(Value::Array(a)) => Ok(a),
        Some(other) => Err(format!(
            "{file}: expected a JSON array of records, found {}",
            describe(other)
        )),
        None => Err(format!("{file}: empty document")),
    }
}

fn records<'a>(
    file: &'static str,
    array: &'a [Value],
    label_field: &str,
    problems: &mut Vec<String>,
) -> Vec<Record<'a>> {
    let mut out = Vec::new();
    for (index, v) in array.iter().enumerate() {
        match v {
            Value::Object(obj) => {
                let record = Record {
                    file,
                    index,
                    label: obj.get(label_field).and_then(Value::as_str).map(|s| {
                        format!(
                            "{label_field} \"{}\"",
                            s.chars().take(60).collect::<String>()
                        )
                    }),
                    obj,
                };
                crate::import::files::long_texts(obj, &|f| record.at(f), problems);
                out.push(record);
            }
            other => problems.push(format!(
                "{file} record {}: expected an object, found {}",
                index + 1,
                describe(other)
            )),
        }
    }
    out
}

/// The memes file's name in problems.
const MEMES: &str = "memes file";
/// The questions file's name in problems.
const MCQ: &str = "mcq file";

/// Parses and validates both CHIME files. Returns every problem at once, or the records to
/// store. Ids are stable and minted from public data only: memes by phrase, questions by
/// sentence + options (never the answer), all under the benchmark slug.
pub fn parse_chime(
    spec: &BenchmarkSpec,
    memes_json: &str,
    mcq_json: &str,
) -> Result<ChimeImport, ImportError> {
    let mut problems = Vec::new();
    title_problem(&spec.title, &mut problems);
    let (mut memes_doc, mut mcq_doc) = (None, None);
    let memes_array = parse_array(MEMES, memes_json, &mut memes_doc)
        .map_err(|p| problems.push(p))
        .ok();
    let mcq_array = parse_array(MCQ, mcq_json, &mut mcq_doc)
        .map_err(|p| problems.push(p))
        .ok();
    let (Some(memes_array), Some(mcq_array)) = (memes_array, mcq_array) else {
        return Err(ImportError { problems });
    };

    let benchmark = BenchmarkRecord {
        id: spec.slug.clone(),
        slug: spec.slug.clone(),
        title: spec.title.clone(),
        description: spec.description.clone(),
        family: "text_memes".into(),
    };

    let (memes, by_phrase) = parse_memes(spec, memes_array, &mut problems);
    let task_id = format!("{}-mcq", spec.slug);
    let items = parse_questions(spec, mcq_array, &task_id, &memes, &by_phrase, &mut problems);
    if memes.is_empty() && problems.is_empty() {
        problems.push(format!("{MEMES}: contains no memes"));
    }
    if items.is_empty() && problems.is_empty() {
        problems.push(format!("{MCQ}: contains no questions"));
    }
    if !problems.is_empty() {
        return Err(ImportError { problems });
    }

    // Categories in benchmark order, only those present.
    let categories: Vec<CategoryInfo> = MemeType::ALL
        .into_iter()
        .filter(|t| items.iter().any(|i| i.category == t.key()))
        .map(CategoryInfo::from)
        .collect();
    let task = TaskRecord {
        id: task_id,
        benchmark_id: spec.slug.clone(),
        slug: format!("{}-mcq", spec.slug),
        kind: TaskKind::TextMcq.as_str().into(),
        title: spec.title.clone(),
        description: spec.description.clone(),
        categories_json: serde_json::to_string(&categories).map_err(|e| ImportError {
            problems: vec![e.to_string()],
        })?,
        batch_size: spec.batch_size.min(items.len()) as i64,
        quiz_open: spec.quiz_open,
    };
    let (explain_task, explain_items) = explain_task(spec, &memes)?;
    Ok(ChimeImport {
        benchmark,
        memes,
        task,
        items,
        explain_task,
        explain_items,
    })
}

/// The memes of the memes file, each phrase once, and where each phrase is: (index in the
/// memes, 0-based record index in the file). Problems are added to `problems`.
fn parse_memes(
    spec: &BenchmarkSpec,
    array: &[Value],
    problems: &mut Vec<String>,
) -> (Vec<MemeRecord>, HashMap<String, (usize, usize)>) {
    let mut memes: Vec<MemeRecord> = Vec::new();
    // phrase -> (index in `memes`, 0-based record index in the file)
    let mut by_phrase: HashMap<String, (usize, usize)> = HashMap::new();
    for rec in records(MEMES, array, "meme", problems) {
        let parsed = parse_meme(spec, &rec);
        match parsed {
            Ok(m) => {
                if let Some((_, first_record)) = by_phrase.get(&m.phrase) {
                    problems.push(format!(
                        "{MEMES} record {}: duplicate meme \"{}\" (first at record {})",
                        rec.index + 1,
                        m.phrase,
                        first_record + 1
                    ));
                } else {
                    by_phrase.insert(m.phrase.clone(), (memes.len(), rec.index));
                    memes.push(m);
                }
            }
            Err(p) => problems.push(p),
        }
    }
    (memes, by_phrase)
}

/// One record of the memes file as a meme (the first problem found in it, if any).
fn parse_meme(spec: &BenchmarkSpec, rec: &Record<'_>) -> Result<MemeRecord, String> {
    let phrase = rec.string("meme")?.trim().to_owned();
    let type_en = rec.string("type_en")?;
    let category = MemeType::from_upstream_en(&type_en).ok_or_else(|| {
        format!(
            "{}: expected one of {}, found \"{type_en}\"",
            rec.at("type_en"),
            MemeType::ALL
                .map(|t| format!("\"{}\"", t.upstream_en()))
                .join(", ")
        )
    })?;
    let examples = match rec.get("examples")? {
        Value::Array(a) => a
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.as_str().map(str::to_owned).ok_or_else(|| {
                    format!(
                        "{}[{i}]: expected text, found {}",
                        rec.at("examples"),
                        describe(v)
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?,
        other => {
            return Err(format!(
                "{}: expected an array of sentences, found {}",
                rec.at("examples"),
                describe(other)
            ))
        }
    };
    Ok(MemeRecord {
        id: meme_id(&spec.slug, &phrase),
        benchmark_id: spec.slug.clone(),
        meaning: rec.string("meaning")?,
        origin: rec.opt_string("origin")?,
        examples,
        category: category.key().to_owned(),
        profanity: rec.boolean("profanity")?,
        offense: rec.boolean("offense")?,
        phrase,
    })
}

/// The questions of the questions file as items of task `task_id`, each question once, in
/// file order. Problems are added to `problems`.
fn parse_questions(
    spec: &BenchmarkSpec,
    array: &[Value],
    task_id: &str,
    memes: &[MemeRecord],
    by_phrase: &HashMap<String, (usize, usize)>,
    problems: &mut Vec<String>,
) -> Vec<ItemRecord> {
    let mut items: Vec<ItemRecord> = Vec::new();
    let mut seen_items: HashMap<String, usize> = HashMap::new();
    for rec in records(MCQ, array, "sentence", problems) {
        let parsed = parse_question(spec, &rec, task_id, memes, by_phrase);
        match parsed {
            Ok(mut item) => {
                if let Some(first) = seen_items.get(&item.id) {
                    problems.push(format!("{MCQ} record {}: duplicate question (same sentence and options as record {})", rec.index + 1, first + 1));
                } else {
                    seen_items.insert(item.id.clone(), rec.index);
                    item.ordinal = items.len() as i64;
                    items.push(item);
                }
            }
            Err(p) => problems.push(p),
        }
    }
    items
}

/// One record of the questions file as an item of task `task_id`, joined to its answer's
/// meme (the first problem found in it, if any).
fn parse_question(
    spec: &BenchmarkSpec,
    rec: &Record<'_>,
    task_id: &str,
    memes: &[MemeRecord],
    by_phrase: &HashMap<String, (usize, usize)>,
) -> Result<ItemRecord, String> {
    let sentence = rec.string("sentence")?.trim().to_owned();
    if !sentence.contains("_____") {
        return Err(format!(
            "{}: expected a sentence containing the blank \"_____\"",
            rec.at("sentence")
        ));
    }
    let options_obj = match rec.get("options")? {
        Value::Object(o) => o,
        other => {
            return Err(format!(
                "{}: expected an object {{\"1\": text, …}}, found {}",
                rec.at("options"),
                describe(other)
            ))
        }
    };
    let mut options = Vec::new();
    for k in 1..=options_obj.len() {
        match options_obj.get(&k.to_string()) {
            Some(Value::String(s)) if !s.trim().is_empty() => options.push(s.trim().to_owned()),
            Some(other) => {
                return Err(format!(
                    "{}.\"{k}\": expected text, found {}",
                    rec.at("options"),
                    describe(other)
                ))
            }
            None => {
                return Err(format!(
                    "{}: expected keys \"1\"..\"{}\", key \"{k}\" is missing",
                    rec.at("options"),
                    options_obj.len()
                ))
            }
        }
    }
    if options.len() < 2 {
        return Err(format!(
            "{}: expected at least 2 options, found {}",
            rec.at("options"),
            options.len()
        ));
    }
    let correct = match rec.get("correct_answer")? {
        Value::Number(n) => n
            .as_u64()
            .filter(|c| (1..=options.len() as u64).contains(c))
            .ok_or_else(|| {
                format!(
                    "{}: expected an option number from 1 to {}, found {n}",
                    rec.at("correct_answer"),
                    options.len()
                )
            })? as usize,
        other => {
            return Err(format!(
                "{}: expected an option number, found {}",
                rec.at("correct_answer"),
                describe(other)
            ))
        }
    };
    let answer = options[correct - 1].clone();
    let (meme_index, _) = *by_phrase.get(&answer).ok_or_else(|| {
        format!(
            "{}: the correct option \"{answer}\" (option {correct}) matches no meme in the memes file",
            rec.at("correct_answer")
        )
    })?;
    let meme = &memes[meme_index];
    let id = mcq_item_id(&spec.slug, &sentence, &options);
    let prompt = ItemPrompt::TextMcq(text_mcq::Prompt {
        sentence: sentence.clone(),
        options,
    });
    let gold = ItemGold::TextMcq(text_mcq::Gold {
        correct: correct - 1,
    });
    // The question is its own public source: its meme is the answer (gold), so it
    // cannot decide the split.
    let (split, board_half) = split_of(&id, spec.dev_percent);
    Ok(ItemRecord {
        split: split.into(),
        board_half: board_half.into(),
        source_id: id.clone(),
        id,
        task_id: task_id.to_owned(),
        ordinal: 0,
        category: meme.category.clone(),
        prompt_json: serde_json::to_string(&prompt).map_err(|e| e.to_string())?,
        gold_json: serde_json::to_string(&gold).map_err(|e| e.to_string())?,
        flagged: meme.profanity || meme.offense,
        meme_id: Some(meme.id.clone()),
    })
}

/// The explanation task: one item per meme ("what does this meme mean?"), its split
/// following the meme.
fn explain_task(
    spec: &BenchmarkSpec,
    memes: &[MemeRecord],
) -> Result<(TaskRecord, Vec<ItemRecord>), ImportError> {
    let explain_task_id = format!("{}-explain", spec.slug);
    let json_err = |e: serde_json::Error| ImportError {
        problems: vec![e.to_string()],
    };
    let mut explain_items = Vec::with_capacity(memes.len());
    for (ordinal, m) in memes.iter().enumerate() {
        let id = stable_id("explain", &[&spec.slug, &m.phrase]);
        // Derived from the meme (public: the phrase); its split follows the meme.
        let (split, board_half) = split_of(&m.id, spec.dev_percent);
        let prompt = ItemPrompt::Explanation(explanation::Prompt {
            meme: m.phrase.clone(),
        });
        let gold = ItemGold::Explanation(explanation::Gold {
            meaning: m.meaning.clone(),
            origin: m.origin.clone(),
        });
        explain_items.push(ItemRecord {
            id,
            task_id: explain_task_id.clone(),
            ordinal: ordinal as i64,
            category: m.category.clone(),
            prompt_json: serde_json::to_string(&prompt).map_err(json_err)?,
            gold_json: serde_json::to_string(&gold).map_err(json_err)?,
            flagged: m.profanity || m.offense,
            meme_id: Some(m.id.clone()),
            source_id: m.id.clone(),
            split: split.into(),
            board_half: board_half.into(),
        });
    }
    let explain_categories: Vec<CategoryInfo> = MemeType::ALL
        .into_iter()
        .filter(|t| memes.iter().any(|m| m.category == t.key()))
        .map(CategoryInfo::from)
        .collect();
    let explain_task = TaskRecord {
        id: explain_task_id.clone(),
        benchmark_id: spec.slug.clone(),
        slug: explain_task_id,
        kind: TaskKind::Explanation.as_str().into(),
        title: task_title(&spec.title, "explain the meme", "解释网络梗"),
        description: "Explain what each meme means, in your own words. Answers are scored by \
                      sentence-embedding similarity to the reference meaning. · 用自己的话解释\
                      每个网络梗的含义；答案按与参考含义的句向量相似度评分。"
            .into(),
        categories_json: serde_json::to_string(&explain_categories).map_err(json_err)?,
        batch_size: spec.explain_batch_size.min(explain_items.len()) as i64,
        quiz_open: spec.quiz_open,
    };
    Ok((explain_task, explain_items))
}

/// Parses and stores a CHIME import in one transaction; returns (memes, items) stored.
/// Refuses to move test items to dev ([`import_chime_with`] to allow it).
pub async fn import_chime(
    storage: &Storage,
    spec: &BenchmarkSpec,
    memes_json: &str,
    mcq_json: &str,
) -> anyhow::Result<(usize, usize)> {
    let refuse = crate::import::guard::TestToDev::Refuse;
    import_chime_with(storage, spec, memes_json, mcq_json, refuse).await
}

/// [`import_chime`], saying whether test items may move to dev.
pub async fn import_chime_with(
    storage: &Storage,
    spec: &BenchmarkSpec,
    memes_json: &str,
    mcq_json: &str,
    moves: crate::import::guard::TestToDev,
) -> anyhow::Result<(usize, usize)> {
    let parsed = parse_chime(spec, memes_json, mcq_json)?;
    let tasks = vec![
        (parsed.task.clone(), parsed.items.clone()),
        (parsed.explain_task.clone(), parsed.explain_items.clone()),
    ];
    crate::import::guard::check_test_to_dev(storage, &tasks, moves).await?;
    storage
        .import_benchmark(&parsed.benchmark, &parsed.memes, &tasks, &[])
        .await?;
    Ok((parsed.memes.len(), parsed.items.len()))
}

/// A task's title from its benchmark's and what the task asks, in each language of a
/// bilingual title ("English · 中文", as the pages show one language at a time):
/// `task_title("Memes · 梗", "explain the meme", "解释网络梗")` is
/// "Memes — explain the meme · 梗 — 解释网络梗"; a title in one language gets the English.
fn task_title(benchmark: &str, en: &str, zh: &str) -> String {
    match benchmark.split_once(" · ") {
        Some((first, second)) => format!("{} — {en} · {} — {zh}", first.trim(), second.trim()),
        None => format!("{benchmark} — {en}"),
    }
}
