//! The one JSON-lines transport of every game (docs/bots.md): the sans-I/O [`session`]
//! (which line answers which query, faults counted) generic over a game's [`Codec`], the
//! [`Player`] that drives one bot process through it during one game, the bot's [`SeatLog`],
//! and the turn loop of the games whose seats all answer each turn at once ([`turns`]).
//! What the lines say is each game's protocol, in its folder.

pub mod log;
pub mod player;
pub mod session;
pub mod turns;

pub use log::SeatLog;
pub use player::{Pace, Player};
pub use session::{BadLine, Codec, Question};
pub use turns::{Reading, Seatholder, Silence, TurnBased, TurnCodec, play_in_process, play_turns};
