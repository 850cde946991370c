//! RoboRally's replay page: the shared viewer page with `viewer.js`, which draws the board
//! and animates the trace (`text.rs`) register by register, stage by stage.

use crate::games::view::{PageInfo, Viewer};
use serde_json::{Value, json};

pub(crate) const VIEWER: Viewer = Viewer {
    name: "roborally",
    script: include_str!("viewer.js"),
    score_head: &[
        "Seat", "Team", "Score", "Flags", "HP", "Lives", "Locked", "State",
    ],
};

/// The page for `trace` (`text::trace`).
pub fn page(trace: &Value, info: &PageInfo) -> String {
    let data = json!({ "seats": info.seats, "trace": trace });
    crate::games::view::page(&VIEWER, info, &data, None)
}
