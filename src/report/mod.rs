//! Reports from a stored tournament: status, standings, paths through the bracket, CSV
//! exports and replays.
//!
//! Read-only and computed from the database alone (see [`Snapshot`]).

mod export;
pub mod paths;
pub mod site;
mod snapshot;
mod standings;
mod status;
mod time;
mod work;
/// The games' viewer pages and the HTML escaping every report page uses.
pub use crate::games::view as viewer;

pub use export::{UTF8_BOM, write_games, write_sets, write_standings};
pub use snapshot::{Advancement, Snapshot};
pub use standings::{Standing, standings, standings_columns};
pub use status::{set_state, status_json, status_text};
pub use time::{stored_time_text, utc_text};
pub use work::{SILENT_AFTER_MS, WorkStatus, work_json, work_text};

/// Whether the tournament is over: its decisive final (the nationals' final, or the only
/// school's final) is played.
pub fn is_finished(snap: &Snapshot) -> bool {
    site::decisive_final(snap).is_some_and(|set| set.is_done())
}
