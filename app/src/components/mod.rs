//! Reusable view pieces shared by the pages.

pub mod header;
pub mod sentence;
pub mod status;
