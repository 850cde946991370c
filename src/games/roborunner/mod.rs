//! Robo Runner: RoboRally on a StarShip hull. Robots weld and inspect the hull's
//! inspection points in order, riding tractor beams, transporters and thrusters; the turn
//! order is earned by last turn's actions (docs/roborunner.md has the rules, RN1 to RN18).
//!
//! [`ship`] is the hull and its file format, [`ships`] the shipped ones, [`engine`] the
//! rules, [`log`] the decision log's stored bytes, [`ai`] the built-in players and
//! [`scenario`] the TOML format that pins each rule down.

pub mod ai;
pub mod engine;
pub mod kind;
pub mod log;
pub mod play;
pub mod protocol;
pub mod remote;
pub mod scenario;
pub mod settings;
pub mod ship;
pub mod ships;
pub mod text;
pub mod view;

/// Version of the Robo Runner rules implementation, stored with every game.
pub const ENGINE_VERSION: u32 = 1;
