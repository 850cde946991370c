//! Robo Runner's replay page: the shared viewer page with `viewer.js`, which draws the
//! ship square by square and the robots turn by turn from the trace (`text.rs`), and tells
//! each turn phase by phase.

use crate::games::view::Viewer;

pub(crate) const VIEWER: Viewer = Viewer {
    name: "roborunner",
    script: include_str!("viewer.js"),
    score_head: &[
        "Seat", "Team", "Score", "IPs", "Damage", "Lives", "Order", "State",
    ],
};
