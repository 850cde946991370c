//! Last Robot Standing: its rules ([`engine`]), [`boards`], built-in players ([`ai`]) and
//! [`scenario`] files, its bot
//! layer ([`remote`]: JSON-lines players and the game driver; [`windward`]: the 2012
//! clients), [`replay`] (a stored game turn by turn, for its viewer and `replay --json`)
//! and what the orchestrator asks of its arenas: the bracket's board pool checked entry by
//! entry, and a board's content for the configuration fingerprint (the same board under
//! another path is the same board).

pub mod ai;
pub mod boards;
pub mod engine;
pub mod kind;
pub mod play;
pub mod remote;
pub mod replay;
pub mod scenario;
pub mod stats;
pub mod text;
pub mod view;
pub mod windward;

use super::SettingsProblem;
use crate::games::lrs::boards::{
    BoardFileError, find_shipped, load_board, print_board, shipped_boards,
};
use std::path::Path;

/// The shipped board names, for messages.
pub fn shipped_board_names() -> String {
    let names: Vec<&str> = shipped_boards().iter().map(|b| b.stem()).collect();
    names.join(", ")
}

/// Resolves and loads one entry of `boards`: a shipped board (stored by its stem) or a
/// board file relative to `dir` (stored as the joined path). The board needs at least
/// `starts_needed` start squares.
pub fn board_entry(
    entry: &str,
    dir: Option<&Path>,
    starts_needed: i64,
) -> Result<String, SettingsProblem> {
    let problem = |what: String, expected: String| SettingsProblem {
        offset: None,
        what,
        expected,
    };
    let expected = || match dir {
        Some(dir) => format!(
            "a shipped board ({}) or a board file path relative to {}",
            shipped_board_names(),
            if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            }
            .display()
        ),
        None => format!("a shipped board ({})", shipped_board_names()),
    };
    let (stored, board) = if let Some(shipped) = find_shipped(entry) {
        (
            shipped.stem().to_owned(),
            shipped.board().map(std::sync::Arc::new),
        )
    } else {
        let path = match dir {
            Some(dir) if !entry.trim().is_empty() => dir.join(entry.trim()),
            _ => return Err(problem(format!("unknown board {entry:?}"), expected())),
        };
        if !path.is_file() {
            return Err(problem(
                format!(
                    "unknown board {entry:?}: it is not a shipped board and {} is not a file",
                    path.display()
                ),
                expected(),
            ));
        }
        // Stored absolute, so the tournament means the same board whatever folder it is
        // later run from.
        let stored = std::fs::canonicalize(&path)
            .unwrap_or(path.clone())
            .display()
            .to_string();
        let board = load_board(&stored);
        (stored, board)
    };
    let board = board.map_err(|e| {
        let what = match &e {
            BoardFileError::At { .. } => format!("board {entry:?} is invalid: {e}"),
            BoardFileError::Read { path, reason } => {
                format!("board {entry:?}: cannot read {path}: {reason}")
            }
        };
        problem(what, "a valid board file (docs/boards.md)".to_string())
    })?;
    let starts = board.starts().len();
    if i64::try_from(starts).unwrap_or(i64::MAX) < starts_needed {
        return Err(problem(
            format!(
                "board {entry:?} has {starts} start squares, too few for sets of {starts_needed}"
            ),
            format!(
                "a board with at least {starts_needed} start squares (S1..S{starts_needed}), or a smaller set_size"
            ),
        ));
    }
    Ok(stored)
}

/// The text a board contributes to a configuration fingerprint: its content, so the same
/// board named by another path is the same configuration (`board?=NAME` if it is unreadable).
pub fn board_fingerprint(name: &str) -> String {
    match load_board(name) {
        Ok(b) => format!("board={}|", print_board(&b)),
        Err(_) => format!("board?={name}|"),
    }
}

/// Whether two board pool entries name the same board (by name, or by content).
pub fn same_board(a: &str, b: &str) -> bool {
    let content = |name: &str| load_board(name).ok().map(|b| print_board(&b));
    a == b || matches!((content(a), content(b)), (Some(x), Some(y)) if x == y)
}
