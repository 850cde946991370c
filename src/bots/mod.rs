//! External bots of every game, as processes: starting a bot program in its sandbox
//! ([`process`], [`sandbox`]), keeping it from one game of a set to the next when it says
//! it plays a whole set ([`kept`]), the limits and start-up time it runs under ([`JsonlOptions`]),
//! splitting its command line into words ([`split`]), and showing what it wrote as text,
//! never as terminal controls ([`shown`]).
//!
//! Nothing here knows a game: what a bot is asked and what its answers mean belong to the
//! game (`crate::games`), and which line answers which question to the one JSON-lines session
//! of every game (`crate::games::jsonl`).
//! Time limits, faults and sandboxing live on this side, never in an engine: a bot's
//! failures (timeout, garbage, crash) become fault replies, so a game always completes.

pub mod kept;
mod options;
pub mod process;
pub mod sandbox;
pub mod shown;
pub mod split;

pub use kept::{JsonlSeat, KeptBot};
pub use options::JsonlOptions;
pub use process::{BotCommand, Limits};
pub use sandbox::{Protection, Protections, Sandbox, SandboxConfig};
pub use split::{SplitError, split_command};
