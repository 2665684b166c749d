//! The paper tables each kind's tasks fill (`Kind::PAPER_TABLES`), one module per kind:
//! static layouts of the papers' tables, filled by `paper_tables::build_table`.

pub(super) mod clip_mcq;
pub(super) mod explanation;
pub(super) mod panel_order;
pub(super) mod panel_type;
pub(super) mod text_mcq;
