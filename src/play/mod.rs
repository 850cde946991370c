//! `play`: many games of the same bots in one arena of any game, with per-bot totals and,
//! for each external bot, what went wrong.
//!
//! One driver plays every game: [`lineup::Lineup`] (seed `S+g` for game `g`, seats
//! rotating, each game folded into the totals as it ends, so that neither `--jobs` nor the
//! number of games changes a figure or, unless replays are asked for, the memory held).
//! Built-in AIs play on a rayon pool, JSON-lines bots on game threads with a runtime each
//! (`threads.rs`), series clients (Windward) as one series on the caller's runtime
//! (`clients.rs`). [`bots::BotSpec`] is a `--bot` parsed for its game, and
//! [`faults::FaultReport`] what `play` says about each external bot; [`smoke`] is `check`'s
//! smoke games, played by the same driver.

pub mod bots;
mod clients;
pub mod faults;
pub mod lineup;
pub mod series;
pub mod smoke;
mod tally;
mod threads;

pub use bots::{BotSpec, BotSpecError, JsonlBot};
pub use faults::{FaultReport, STDERR_TAIL_LINES, tail_lines};
pub use lineup::{ExternalOptions, Keep, Lineup, SeriesPlayed, SlotTotals};
