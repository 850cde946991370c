//! Classic RoboRally: nine cards dealt, five registers programmed, every register followed
//! by the board's elements, hit points and lives, a race over the flags to the finish
//! (docs/roborally.md has the rules, clauses RR1 to RR17).
//!
//! [`board`] and [`grid`] are the board and its file format, [`cards`] the printed deck,
//! [`engine`] the rules, [`log`] the decision log's stored bytes, [`ai`] the built-in
//! players and [`scenario`] the TOML format that pins each rule down.

pub mod ai;
pub mod board;
pub mod boards;
pub mod cards;
pub mod engine;
pub mod grid;
pub mod kind;
pub mod log;
pub mod play;
pub mod protocol;
pub mod remote;
pub mod scenario;
pub mod settings;
pub mod text;
pub mod view;

/// Version of the RoboRally rules implementation, stored with every game.
pub const ENGINE_VERSION: u32 = 1;
