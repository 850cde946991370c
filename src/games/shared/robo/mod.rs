//! What the RoboRally family of games shares (Last Robot Standing and classic RoboRally):
//! walls on square sides, board lasers, the `[walls]` and `@laser` parts of a board file's
//! cell token (docs/boards.md), a board's squares with their walls precomputed, the program cards and what each does to a robot, a robot's
//! status, the order of the squares around a re-entry square, and how a stored decision log
//! is read back into a replay.
//!
//! Each game keeps its own square types (its bases) and rules; what is here reads the same
//! in both, so a wall or a laser means one thing whichever game's board it is on.

pub mod cards;
pub mod cell;
pub mod file;
pub mod grid;
pub mod reentry;
pub mod replay;
pub mod scenario;
pub mod shipped;
pub mod status;
pub mod walls;

pub use cards::{Card, Motion, Move};
pub use cell::{SuffixProblem, parse_suffix};
pub use grid::{Grid, Square};
pub use reentry::{reentry_options, reentry_square};
pub use replay::DecisionLog;
pub use status::Status;
pub use walls::{Laser, Walls};
