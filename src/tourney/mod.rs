//! The tournament: configuration model and bracket planning.
//!
//! Pure functions over data (no I/O): the store and the runner build on them.

pub mod bracket;
pub mod config;
pub mod dir_hash;
pub mod generate;
pub mod model;
pub mod played;
