//! CMPM's order-recovery tables: the main table (Table 4: accuracy on parseable answers,
//! parse rate, comics scored), the display × context grid (Table 6) and accuracy by strip
//! length (§6.4).

use crate::paper_tables::spec::{ColumnSpec, MetricColumn, MetricSource, TableSpec, TaskColumn};

/// CMPM Tables 4 and 6 and the length breakdown.
pub(in crate::kinds) const TABLES: &[TableSpec] = &[
    TableSpec {
        id: "cmpm-table-4",
        paper: "CMPM Table 4",
        title_en: "Panel order recovery (shuffled display, no context)",
        title_zh: "分格顺序还原（打乱展示，无上下文）",
        task: "order",
        subset: "full",
        conditions: &[],
        row_condition: None,
        columns: ColumnSpec::Metrics(&[
            super::ACCURACY,
            super::PARSE_RATE,
            MetricColumn {
                key: "n_scored",
                label_en: "n scored",
                label_zh: "计分条数",
                percent: false,
                source: MetricSource::CountOf("parse_rate"),
            },
        ]),
        delta_against: None,
        reference_rows: true,
    },
    TableSpec {
        id: "cmpm-table-6",
        paper: "CMPM Table 6",
        title_en: "Context ablation: display order × comments",
        title_zh: "上下文消融：展示顺序 × 评论",
        task: "order",
        subset: "full",
        conditions: &[],
        row_condition: None,
        columns: ColumnSpec::Tasks {
            tasks: &[
                TaskColumn {
                    task: "order",
                    subset: "cas",
                    published_subset: "cas",
                    label_en: "Shuffled, no context",
                    label_zh: "打乱，无上下文",
                },
                TaskColumn {
                    task: "order-context",
                    subset: "full",
                    published_subset: "full",
                    label_en: "Shuffled, comments",
                    label_zh: "打乱，有评论",
                },
                TaskColumn {
                    task: "order-canonical",
                    subset: "full",
                    published_subset: "full",
                    label_en: "Canonical, no context",
                    label_zh: "原序，无上下文",
                },
                TaskColumn {
                    task: "order-canonical-context",
                    subset: "full",
                    published_subset: "full",
                    label_en: "Canonical, comments",
                    label_zh: "原序，有评论",
                },
            ],
            percent: true,
        },
        delta_against: None,
        reference_rows: false,
    },
    TableSpec {
        id: "cmpm-length",
        paper: "CMPM §6.4",
        title_en: "Order recovery by strip length",
        title_zh: "不同格数的顺序还原准确率",
        task: "order",
        subset: "full",
        conditions: &[],
        row_condition: None,
        columns: ColumnSpec::Facets {
            prefixes: &["length:"],
            labels: &[
                ("length:le6", "≤ 6 panels (main)", "≤ 6 格（主集）"),
                ("length:7plus", "7+ panels (hard)", "7 格及以上（困难）"),
                ("length:4plus", "4+ panels", "4 格及以上"),
            ],
            percent: true,
        },
        delta_against: None,
        reference_rows: true,
    },
];
