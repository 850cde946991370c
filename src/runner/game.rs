//! Playing one game of a set on the embedded engine and turning it into a storable record.

use crate::ai::FlagDistances;
use crate::engine::{Board, ENGINE_VERSION, Game, GameConfig, Player, run_game};
use crate::play::summarize_game;
use crate::store::decisions;
use crate::store::{GameRecord, TeamResult};
use crate::tourney::bracket::start_square;
use crate::tourney::model::{Bot, TeamId};
use std::sync::Arc;

/// Everything needed to play one game, independent of any other game.
#[derive(Debug, Clone)]
pub struct GameJob {
    pub set_id: String,
    pub run_no: u32,
    pub game_index: u32,
    pub seed: u64,
    pub board: Arc<Board>,
    /// The board's AI maps, shared by all games on it.
    pub maps: Arc<FlagDistances>,
    pub turn_limit: u16,
    /// The set's teams in set position order, with their bots.
    pub teams: Vec<(TeamId, Bot)>,
}

/// Why a game could not be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameJobError {
    #[error("set {set} game {game}: {reason}")]
    Failed {
        set: String,
        game: u32,
        reason: String,
    },
}

impl GameJob {
    /// The seat (0-based start square) of the team at set position `position`.
    pub fn seat_of(&self, position: usize) -> usize {
        start_square(position, self.game_index as usize, self.teams.len()) - 1
    }

    /// Plays the game to its end. Built-in AIs only: external bots are driven elsewhere.
    pub fn play(&self) -> Result<GameRecord, GameJobError> {
        let fail = |reason: String| GameJobError::Failed {
            set: self.set_id.clone(),
            game: self.game_index,
            reason,
        };
        let k = self.teams.len();
        let config = GameConfig {
            turn_limit: self.turn_limit,
        };
        let mut game =
            Game::new(self.board.clone(), k, self.seed, config).map_err(|e| fail(e.to_string()))?;
        let mut by_seat: Vec<Option<Box<dyn Player + Send>>> = (0..k).map(|_| None).collect();
        for (position, (_, bot)) in self.teams.iter().enumerate() {
            let seat = self.seat_of(position);
            let player = match bot {
                Bot::Builtin(ai) => ai.player_with(self.seed, seat, Some(self.maps.clone())),
                Bot::Command { command, .. } => {
                    return Err(fail(format!(
                        "the command bot `{command}` cannot be played by this version, which plays built-in AIs only"
                    )));
                }
            };
            by_seat[seat] = Some(player);
        }
        let mut players: Vec<Box<dyn Player + Send>> = by_seat.into_iter().flatten().collect();
        if players.len() != k {
            return Err(fail("seat rotation left a seat empty".to_string()));
        }
        run_game(&mut game, &mut players).map_err(|e| fail(e.to_string()))?;
        let seat_of_position: Vec<usize> = (0..k).map(|p| self.seat_of(p)).collect();
        let summary = summarize_game(&game, &seat_of_position);
        let results = self
            .teams
            .iter()
            .zip(&summary.per_slot)
            .enumerate()
            .map(|(position, ((team, _), r))| TeamResult {
                team: *team,
                seat: seat_of_position[position],
                score: r.score,
                flags: r.flags,
                hits: r.hits,
                pushes: r.pushes,
                push_kills: r.push_kills,
                deaths: r.deaths,
                faults: r.faults,
                won: r.won,
            })
            .collect();
        Ok(GameRecord {
            set_id: self.set_id.clone(),
            run_no: self.run_no,
            game_index: self.game_index,
            engine_version: ENGINE_VERSION,
            turns: u32::from(game.turn()),
            decisions: decisions::encode(game.decisions()),
            results,
        })
    }
}
