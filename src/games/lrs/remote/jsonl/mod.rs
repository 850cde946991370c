//! Last Robot Standing's JSON-lines bot protocol (docs/bots.md) without any I/O: the
//! messages the runner writes, parsing of answers, and matching answers to the pending
//! query. [`super::jsonl_player`] puts this on a subprocess's pipes.

pub mod messages;
pub mod session;

pub use messages::{AnswerError, PROTOCOL_VERSION};
pub use session::{
    BadLine, Discard, Incoming, MAX_LINE_BYTES, Reply, Session, SessionStats, Verdict,
};
