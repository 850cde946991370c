//! Defines [`Arena`]: where and how long one game of a tournament is played, as the runner
//! hands it to the game kind.

use super::{GameSettings, RobotsSettings};
use crate::games::lrs::ai::FlagDistances;
use crate::games::lrs::engine::Board;
use std::sync::Arc;

/// A game's arena and length, per game kind.
#[derive(Debug, Clone)]
pub enum Arena {
    /// A Last Robot Standing board with the AIs' maps of it (shared by all games on it).
    Lrs {
        board: Arc<Board>,
        maps: Arc<FlagDistances>,
        turn_limit: u16,
    },
    /// RobotGame's one arena (RG1).
    RobotGame,
    /// One Robots board per seat.
    Robots(RobotsSettings),
}

impl Arena {
    /// The arena stored as `name` with a game of a tournament playing `game` (for Last
    /// Robot Standing a board name or path, played for `turns` turns).
    pub fn load(game: &GameSettings, name: &str, turns: u16) -> Result<Arena, String> {
        match game {
            GameSettings::Lrs => {
                let board =
                    crate::games::lrs::boards::load_board(name).map_err(|e| e.to_string())?;
                let maps = Arc::new(FlagDistances::new(&board));
                Ok(Arena::Lrs {
                    board,
                    maps,
                    turn_limit: turns,
                })
            }
            GameSettings::RobotGame => Ok(Arena::RobotGame),
            GameSettings::Robots(s) => Ok(Arena::Robots(*s)),
        }
    }

    /// The arena names a tournament's games cycle through, game `g` on `pool[g % len]`:
    /// Last Robot Standing's board pool; one name for the other games' arenas.
    pub fn pool(game: &GameSettings, boards: &[String]) -> Vec<String> {
        match game {
            GameSettings::Lrs => boards.to_vec(),
            GameSettings::RobotGame => vec!["arena".to_string()],
            GameSettings::Robots(s) => vec![format!("{}x{}", s.width, s.height)],
        }
    }
}
