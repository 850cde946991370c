//! Defines [`KeptBot`]: a JSON-lines bot's process kept from one game of a set to the next,
//! for a bot that says it plays a whole set in one process (docs/bots.md, "Playing a whole
//! set in one process").
//!
//! Starting a bot costs a container and a process, and an interpreter's start-up, for
//! every game. A bot whose answers said `"series": true` gets the next game's `hello` after
//! `game_over` instead of having its stdin closed, in the same container, for the games of
//! its set that are still to play. Who keeps it is the caller that plays a set's games in
//! order (one [`KeptBot`] per bot and set); which game may keep it is the player's to say
//! from what the bot answered. A bot that crashed, exited or did not say so is ended as
//! usual, and the next game starts it afresh.

use super::process::BotProcess;
use std::sync::{Arc, Mutex, MutexGuard};

/// Where one bot's process waits between the games of a set played in order. Clones share
/// the one place. Dropping the last clone with a process still in it kills that process.
#[derive(Clone)]
pub struct KeptBot(Arc<Mutex<Kept>>);

struct Kept {
    process: Option<BotProcess>,
    /// Games of the set not begun yet.
    games_left: u32,
}

impl std::fmt::Debug for KeptBot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kept = self.lock();
        f.debug_struct("KeptBot")
            .field("process", &kept.process)
            .field("games_left", &kept.games_left)
            .finish()
    }
}

impl KeptBot {
    /// A place for a bot that plays `games` games, one after the other.
    pub fn for_games(games: u32) -> KeptBot {
        KeptBot(Arc::new(Mutex::new(Kept {
            process: None,
            games_left: games,
        })))
    }

    fn lock(&self) -> MutexGuard<'_, Kept> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Begins a game: the process kept from the last one (if any), and how many games of
    /// the set follow this one.
    pub fn begin_game(&self) -> (Option<BotProcess>, u32) {
        let mut kept = self.lock();
        kept.games_left = kept.games_left.saturating_sub(1);
        (kept.process.take(), kept.games_left)
    }

    /// Keeps `process` for the next game.
    pub fn keep(&self, process: BotProcess) {
        self.lock().process = Some(process);
    }

    /// Ends the process still kept, if any (the set stopped before its last game): its
    /// stdin is closed and, after the grace period, every process of it is killed.
    pub async fn end(&self) {
        let process = self.lock().process.take();
        if let Some(process) = process {
            process.finish(None).await;
        }
    }
}

/// A JSON-lines bot as a game seats it: what starts it, and where its process waits
/// between the games of a set when the games are played in order (`None`: a process for
/// every game).
#[derive(Debug, Clone)]
pub struct JsonlSeat {
    pub command: super::BotCommand,
    pub kept: Option<KeptBot>,
}

/// A bot started afresh for the game.
impl From<super::BotCommand> for JsonlSeat {
    fn from(command: super::BotCommand) -> JsonlSeat {
        JsonlSeat {
            command,
            kept: None,
        }
    }
}
