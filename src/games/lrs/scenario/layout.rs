//! Loads the board of a scenario: an inline `grid` (parsed in place, flags and start squares
//! optional, sides of 1 allowed) or `board = "path"` (a board file, relative to the scenario).
//!
//! Both reuse the board module's parser, so grid errors name the scenario file and the line
//! and column of the offending cell, exactly like board files do.

use super::ScenarioError;
use super::error::Problem;
use super::source::{Fields, Source};
use crate::games::lrs::boards::{GridContext, GridOrigin, parse_board, parse_grid};
use crate::games::lrs::engine::Board;
use std::path::Path;
use std::sync::Arc;

/// The board named by the top-level `grid` or `board` key (exactly one must be given).
pub(super) fn load_board(
    src: Source<'_>,
    top: &Fields<'_, '_>,
    base_dir: &Path,
) -> Result<Arc<Board>, ScenarioError> {
    let grid = top.string("grid")?;
    let board = top.string("board")?;
    match (grid, board) {
        (Some(_), Some((_, span))) => {
            let at = top.key_span("board").unwrap_or(span);
            Err(src.error(&at, Problem::GridAndBoard))
        }
        (None, None) => Err(src.error(&(0..0), Problem::NoBoard)),
        (Some((grid, span)), None) => {
            let ctx = GridContext {
                file: src.file,
                name: "scenario",
                description: "",
                require_playable: false,
                origin: GridOrigin::of_toml_string(src.text, span, grid),
            };
            Ok(Arc::new(parse_grid(grid, &ctx)?))
        }
        (None, Some((path, span))) => {
            let full = base_dir.join(path);
            let shown = full.display().to_string();
            let text = std::fs::read_to_string(&full).map_err(|e| {
                src.error(
                    &span,
                    Problem::BoardFile {
                        path: shown.clone(),
                        reason: e.to_string(),
                    },
                )
            })?;
            Ok(Arc::new(parse_board(&text, &shown)?))
        }
    }
}
