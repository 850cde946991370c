//! Defines the shipped board library: [`shipped_boards`], [`find_shipped`] and
//! [`load_board`].
//!
//! The boards under `configs/boards/` are compiled into the binary so `lrs-tourney` works
//! from any directory; a name that is not a shipped board is read as a path to a board file.

use super::error::BoardFileError;
use super::parse::parse_board;
use crate::games::lrs::engine::Board;
use std::path::Path;
use std::sync::Arc;

/// A board file compiled into the binary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShippedBoard {
    /// The board's `name` key.
    pub name: &'static str,
    /// File name under `configs/boards/`, e.g. `corridor-dash.toml`.
    pub file_name: &'static str,
    /// The file's TOML text.
    pub toml: &'static str,
}

impl ShippedBoard {
    /// The file name without `.toml`, e.g. `corridor-dash`.
    pub fn stem(&self) -> &'static str {
        self.file_name
            .strip_suffix(".toml")
            .unwrap_or(self.file_name)
    }

    /// The path used in error messages, e.g. `configs/boards/corridor-dash.toml`.
    pub fn source(&self) -> String {
        format!("configs/boards/{}", self.file_name)
    }

    /// Parses the board.
    pub fn board(&self) -> Result<Board, BoardFileError> {
        parse_board(self.toml, &self.source())
    }
}

/// The shipped board called `$name`, compiled in from `configs/boards/$stem.toml`.
macro_rules! shipped {
    ($name:literal, $stem:literal) => {
        ShippedBoard {
            name: $name,
            file_name: concat!($stem, ".toml"),
            toml: include_str!(concat!("../../../../configs/boards/", $stem, ".toml")),
        }
    };
}

const SHIPPED: [ShippedBoard; 4] = [
    shipped!("Corridor Dash", "corridor-dash"),
    shipped!("Gear Works", "gear-works"),
    shipped!("Sinkhole Steps", "sinkhole-steps"),
    shipped!("Foundry Loop", "foundry-loop"),
];

/// The shipped boards, in the order `lrs-tourney boards` lists them.
pub fn shipped_boards() -> Vec<ShippedBoard> {
    SHIPPED.to_vec()
}

/// The shipped board called `name`: its `name` (case-insensitive), its file stem
/// (`corridor-dash`) or its file name (`corridor-dash.toml`).
pub fn find_shipped(name: &str) -> Option<ShippedBoard> {
    let name = name.trim();
    SHIPPED.into_iter().find(|b| {
        b.name.eq_ignore_ascii_case(name)
            || b.stem().eq_ignore_ascii_case(name)
            || b.file_name.eq_ignore_ascii_case(name)
    })
}

/// Loads a board for games: a shipped board by name or stem, otherwise a board file at the
/// path `name_or_path`.
pub fn load_board(name_or_path: &str) -> Result<Arc<Board>, BoardFileError> {
    if let Some(shipped) = find_shipped(name_or_path) {
        return shipped.board().map(Arc::new);
    }
    let text = std::fs::read_to_string(Path::new(name_or_path)).map_err(|e| {
        let known: Vec<&str> = SHIPPED.iter().map(|b| b.stem()).collect();
        BoardFileError::Read {
            path: name_or_path.to_owned(),
            reason: format!(
                "{e}; it is not a shipped board either (shipped: {})",
                known.join(", ")
            ),
        }
    })?;
    parse_board(&text, name_or_path).map(Arc::new)
}
