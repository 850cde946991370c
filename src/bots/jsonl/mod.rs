//! The JSON-lines bot protocol (protocol-jsonl.md) without any I/O: the messages the runner
//! writes, parsing of answers, matching answers to the pending query, and splitting a bot's
//! command line. [`crate::bots::jsonl_player`] puts this on a subprocess's pipes.

pub mod messages;
pub mod session;
pub mod split;

pub use messages::{AnswerError, PROTOCOL_VERSION};
pub use session::{
    BadLine, Discard, Incoming, MAX_LINE_BYTES, Reply, Session, SessionStats, Verdict,
};
pub use split::{SplitError, split_command};
