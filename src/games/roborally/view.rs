//! RoboRally's replay page: the shared viewer page with `viewer.js`, which draws the board
//! and animates the trace (`text.rs`) register by register, stage by stage.

use crate::games::view::Viewer;

pub(crate) const VIEWER: Viewer = Viewer {
    name: "roborally",
    script: include_str!("viewer.js"),
    score_head: &[
        "Seat", "Team", "Score", "Flags", "HP", "Lives", "Locked", "State",
    ],
};
