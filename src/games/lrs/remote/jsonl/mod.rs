//! Last Robot Standing's JSON-lines bot protocol (docs/bots.md) without any I/O: the
//! messages the runner writes and how answers are read ([`messages`]), and the game's
//! [`codec::LrsCodec`] for the one JSON-lines session every game's bots are driven by
//! (`games::jsonl`). [`super::jsonl_player`] puts it on a subprocess's pipes.

pub mod codec;
pub mod messages;

pub use codec::{
    BadLine, Discard, Incoming, MAX_LINE_BYTES, Reply, Session, SessionStats, Verdict,
};
pub use messages::{AnswerError, PROTOCOL_VERSION};
