//! Last Robot Standing's replay page: its drawing script (`viewer.js`) and the compact data
//! it draws (`data.rs`), on the page every game shares (`games::view`).

mod data;

use super::engine::Board;
use super::replay::Replay;
use crate::games::view::{PageInfo, Viewer};

const VIEWER: Viewer = Viewer {
    script: include_str!("viewer.js"),
    score_head: &["Seat", "Team", "Score", "Flags", "Damage", "Lives", "State"],
};

/// The replay page of `replay` on `board`, with its check of the stored scores.
pub fn page(board: &Board, replay: &Replay, info: &PageInfo) -> String {
    let data = data::data(board, replay, info);
    crate::games::view::page(&VIEWER, info, &data, Some(&replay.scores))
}
