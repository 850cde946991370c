//! Defines board files and conversions: the TOML board format (docs/boards.md), the Windward
//! `<map>` XML, the shipped board library, a text rendering and random boards.
//!
//! The engine only knows the in-memory [`Board`](crate::games::lrs::engine::Board); everything that
//! reads or writes boards in some outside form lives here, so the CLI, scenarios, the TCP
//! server and tests share one parser and one printer.

pub mod cell;
pub mod check;
pub mod error;
pub mod library;
pub mod origin;
pub mod parse;
pub mod print;
pub mod random;
pub mod render;
pub mod windward;

pub use crate::text::line_col;
pub use cell::parse_cell;
pub use check::{playability_problems, walkable_from};
pub use error::{BoardFileError, Problem, WindwardMapError};
pub use library::{ShippedBoard, find_shipped, load_board, shipped_boards};
pub use origin::GridOrigin;
pub use parse::{GridContext, parse_board, parse_grid, toml_error};
pub use print::{print_board, print_grid, square_token};
pub use random::random_board;
pub use render::render_board;
pub use windward::{from_windward_map, to_windward_map};
