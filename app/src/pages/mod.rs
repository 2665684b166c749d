//! One module per route.

pub mod account;
pub mod board;
pub mod boards;
pub mod console;
pub mod home;
pub mod model;
pub mod not_found;
pub mod quiz_intro;
pub mod results;
pub mod session;
pub mod study;
pub mod submit;
pub mod tables;
