//! CHIME's explanation tables: the automatic metrics (Table 2), zero- against one-shot
//! prompting (Table 9), meaning cosine and BERTScore per meme type (Table 10) and the site's
//! meaning identification per type.

use crate::paper_tables::spec::{ColumnSpec, MetricColumn, MetricSource, TableSpec, ValueColumn};

/// CHIME Tables 2, 9 and 10, and the site's primary score per type.
pub(in crate::kinds) const TABLES: &[TableSpec] = &[
    TableSpec {
        id: "chime-table-2",
        paper: "CHIME Table 2",
        title_en: "Explanation quality: meaning and origin against the reference",
        title_zh: "解释质量：含义与出处和参考答案的相似度",
        task: "explain",
        subset: "full",
        conditions: &[],
        row_condition: None,
        columns: ColumnSpec::Metrics(&[
            MetricColumn {
                key: "cosine",
                label_en: "Meaning cosine",
                label_zh: "含义余弦相似度",
                percent: false,
                source: MetricSource::Extra("cosine"),
            },
            MetricColumn {
                key: "bertscore",
                label_en: "Meaning BERTScore",
                label_zh: "含义 BERTScore",
                percent: false,
                source: MetricSource::Extra("bertscore"),
            },
            MetricColumn {
                key: "bartscore",
                label_en: "Meaning BARTScore",
                label_zh: "含义 BARTScore",
                percent: false,
                source: MetricSource::PublishedOnly,
            },
            MetricColumn {
                key: "origin_cosine",
                label_en: "Origin cosine",
                label_zh: "出处余弦相似度",
                percent: false,
                source: MetricSource::Extra("origin_cosine"),
            },
            MetricColumn {
                key: "origin_bertscore",
                label_en: "Origin BERTScore",
                label_zh: "出处 BERTScore",
                percent: false,
                source: MetricSource::Extra("origin_bertscore"),
            },
            MetricColumn {
                key: "origin_bartscore",
                label_en: "Origin BARTScore",
                label_zh: "出处 BARTScore",
                percent: false,
                source: MetricSource::PublishedOnly,
            },
        ]),
        delta_against: None,
        reference_rows: false,
    },
    TableSpec {
        id: "chime-table-9",
        paper: "CHIME Table 9",
        title_en: "Zero-shot against one-shot explanations",
        title_zh: "零样本与单样本解释对比",
        task: "explain",
        subset: "full",
        conditions: &[],
        row_condition: None,
        columns: ColumnSpec::ConditionValues {
            condition: "shot",
            values: &[
                ValueColumn {
                    value: "zero_shot",
                    label_en: "Zero-shot",
                    label_zh: "零样本",
                },
                ValueColumn {
                    value: "one_shot",
                    label_en: "One-shot",
                    label_zh: "单样本",
                },
            ],
            percent: false,
            deltas: true,
        },
        delta_against: None,
        reference_rows: false,
    },
    TableSpec {
        id: "chime-table-10",
        paper: "CHIME Table 10 (cosine)",
        title_en: "Meaning cosine similarity by meme type",
        title_zh: "各梗类型的含义余弦相似度",
        task: "explain",
        subset: "full",
        conditions: &[],
        row_condition: None,
        columns: ColumnSpec::CategoriesOf {
            metric: "cosine",
            percent: false,
        },
        delta_against: None,
        reference_rows: false,
    },
    TableSpec {
        id: "chime-table-10-bertscore",
        paper: "CHIME Table 10 (BERTScore)",
        title_en: "Meaning BERTScore by meme type",
        title_zh: "各梗类型的含义 BERTScore",
        task: "explain",
        subset: "full",
        conditions: &[],
        row_condition: None,
        columns: ColumnSpec::CategoriesOf {
            metric: "bertscore",
            percent: false,
        },
        delta_against: None,
        reference_rows: false,
    },
    TableSpec {
        id: "chime-identification-by-type",
        paper: "memeboard (CHIME explanations)",
        title_en: "Meaning identification by meme type",
        title_zh: "各梗类型的含义识别得分",
        task: "explain",
        subset: "full",
        conditions: &[],
        row_condition: None,
        columns: ColumnSpec::Categories { percent: false },
        delta_against: None,
        reference_rows: true,
    },
];
