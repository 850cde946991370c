//! The JSON-lines transport of the games whose seats all answer each turn at once: a bot's
//! life cycle in one game ([`remote`]) and the turn loop that asks every seat
//! ([`turns`]). What the lines say is each game's protocol, in its folder.

pub mod remote;
pub mod session;
pub mod turns;

pub use remote::{Reading, Remote, Seatholder, Silence};
pub use turns::{TurnBased, play_in_process, play_turns};
