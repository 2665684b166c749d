//! One module per route.

pub mod explain;
pub mod home;
pub mod not_found;
pub mod quiz_intro;
pub mod results;
pub mod session;
